import re
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, cast

from django import template
from django.template import Context
from django.template.loader import get_template
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince

from games.presentation import (
    CARD_CODE,
    BoardView,
    CardView,
    PileView,
    card_short,
    script_data,
    stuck_panel_key,
)
from games.rules import Card

register = template.Library()


@register.filter
def clock(value: timedelta) -> str:
    """``3:07`` or ``1:02:03``: play time as players read it."""
    seconds = int(value.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@register.filter
def duration_iso(value: timedelta) -> str:
    """``PT187S``: the machine-readable form for ``<time datetime>``."""
    return f"PT{int(value.total_seconds())}S"


@register.filter
def ago(value: datetime) -> str:
    """``3 minutes ago``, ``2 days ago``; ``just now`` within a minute (Django's
    ``timesince`` says ``0 minutes`` then)."""
    if timezone.now() - value < timedelta(minutes=1):
        return "just now"
    return f"{timesince(value)} ago"


@register.filter(name="for_people")
def for_people_filter(text: str) -> SafeString:
    """``{{ message|for_people }}``: card codes written as cards (``3D`` reads ``3♦``), each
    with its name for a screen reader, which reads a suit's symbol as "black diamond suit".
    (Escaping leaves card codes whole: none of its entities holds one.)"""

    def card(code: re.Match[str]) -> str:
        named = Card.from_str(code.group())
        return format_html(SPOKEN_CARD, card_short(named), named.name.lower())

    return mark_safe(CARD_CODE.sub(card, conditional_escape(str(text))))


SPOKEN_CARD = '<span aria-hidden="true">{}</span><span class="visually-hidden">{}</span>'


@register.simple_tag
def results_chart(results: list[bool]) -> SafeString:
    """A row of small squares, oldest first: won (filled) or not (hollow), as inline SVG."""
    if not results:
        return mark_safe("&ndash;")
    size, gap = 8, 2
    width = len(results) * (size + gap)
    won = sum(results)
    cells = "".join(
        f'<rect x="{i * (size + gap)}" y="0" width="{size}" height="{size}" rx="1" '
        f'class="{"won" if result else "lost"}"/>'
        for i, result in enumerate(results)
    )
    label = f"{won} won of the last {len(results)} finished games"
    return mark_safe(
        f'<svg class="results" role="img" aria-label="{label}" width="{width}" '
        f'height="{size}" viewBox="0 0 {width} {size}">{cells}</svg>'
    )


@register.filter(name="script_data")
def script_data_filter(view: BoardView, played: object) -> SafeString:
    """``{{ view|script_data:played }}``: the board script's data in a JSON script element."""
    data = script_data(view, played or ())  # type: ignore[arg-type]
    return mark_safe(f'<script type="application/json">{data}</script>')


@register.simple_tag
def card_button(card: CardView) -> SafeString:
    """``{% card_button card %}``: the card's button (``games/piles.html#card``). A board
    draws the same few hundred card views over and over, and a move's answer is mostly
    cards, so each look is rendered once per process: the template still writes the markup,
    keyed by every field of the view."""
    return _card_button(card.key())


@lru_cache(maxsize=8192)
def _card_button(key: tuple[Any, ...]) -> SafeString:
    return mark_safe(get_template("games/piles.html#card").render({"card": CardView(*key)}))


PILE_CHANGES_KEPT = 4096
_pile_changes: dict[tuple[Any, ...], SafeString] = {}


@register.simple_tag(takes_context=True)
def pile_change(context: Context, pile: PileView) -> SafeString:
    """``{% pile_change pile %}``: a move answer's pile (``games/piles.html#change``). The
    two piles a move touches are most of its answer, and the same few thousand pile
    changes recur (a card sent to a pile of some height, a pile left at some height), so
    each is rendered once per process, keyed by the pile view and the game being won (an
    empty pile's slot reads it). At most ``PILE_CHANGES_KEPT`` are kept."""
    won = bool(context.get("won"))
    key = (*pile.key(), won)
    markup = _pile_changes.get(key)
    if markup is None:
        if len(_pile_changes) >= PILE_CHANGES_KEPT:
            _pile_changes.clear()
        template = get_template("games/piles.html#change")
        markup = _pile_changes[key] = mark_safe(template.render({"pile": pile, "won": won}))
    return markup


@register.simple_tag(name="stuck_panel_key", takes_context=True)
def stuck_panel_key_tag(context: Context) -> str:
    """The stuck panel's key (:func:`games.presentation.stuck_panel_key`), from the values
    the panel is drawn with."""
    return stuck_panel_key(cast(dict[str, Any], context.flatten()))
