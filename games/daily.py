"""The daily challenge: one proved-winnable deal per game and UTC date, its player's one
game, and the secrecy of live days (the leaderboards are ``games.leaderboard``).

Deals. A day's candidate deal numbers come from an HMAC of the game and the date keyed by
``settings.DAILY_SECRET``: every server and worker computes the same candidates, nobody
without the secret can. The solver's budget is a number of positions (deterministic), not
seconds. The first candidate the solver wins becomes the day's deal and its line's length
the par. Preparation is solver work, so it runs only in the task worker
(``games.daily_tasks``) or the ``prepare_dailies`` command, days ahead; web requests only
read prepared rows. A unique (game, date) constraint, not luck, makes two workers preparing
the same day store one row.

Secrecy. Until a daily's UTC day ends ("live"), nobody but its player sees a daily game's
moves or position, and the live deal cannot be practised outside the player's one daily
game. Future days do not exist for anyone.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.crypto import salted_hmac

from games.models import Daily, DailyLook, Game, Player
from games.rules import GAMES, MAX_DEAL, Board, get_game
from games.rules.solver import difficulty, solve
from games.services import game_start


@dataclass(frozen=True)
class Budget:
    """How hard a day tries to find a winnable deal of one game."""

    candidates: int
    """Candidate deals tried, in order, stopping at the first the solver wins."""
    nodes: int
    """The solver's budget per candidate, in positions: the same on every machine."""


BUDGETS: dict[str, Budget] = {
    slug: Budget(candidates=60, nodes=100_000) for slug in GAMES if slug != "archway"
}
# About one Archway deal in 2,000 is winnable (RULES.md): many candidates, each decided by
# the solver's exact Archway search within a small budget.
BUDGETS["archway"] = Budget(candidates=20_000, nodes=20_000)
SECONDS_CAP = 60.0
"""A safety cap per candidate, far above what the node budget takes on this hardware."""


def family_game(date: dt.date, *, prepared: Iterable[str] | None = None) -> str:
    """The family game of ``date``: the game of its family daily once one is prepared;
    before that, the games beyond the six classics take turns, one a day, in the order the
    site lists them (the same on every server, known in advance: only the deals are
    secret).

    The stored dailies decide, not the turn: a family game added to the site moves the turn
    of almost every date, and a past day's family daily left its page (while it still
    answered and ranked) and a day prepared ahead got a second one. ``prepared``: the games
    of the date's dailies in the order they were prepared (``prepared_games``), when the
    caller has read them; else one query reads them. Of two family dailies on one date
    (stored before the turn gave way to the stored rows), the first prepared is the day's."""
    family = [slug for slug, rules in GAMES.items() if not rules.is_classic]
    if prepared is None:
        prepared = prepared_games(date)
    stored = next((slug for slug in prepared if slug in family), None)
    return stored or family[date.toordinal() % len(family)]


def daily_games(date: dt.date, *, prepared: Iterable[str] | None = None) -> list[str]:
    """The games with a daily on ``date``: the six classics, then the family game of the
    day (``family_game``, which ``prepared`` spares a query)."""
    classics = [slug for slug, rules in GAMES.items() if rules.is_classic]
    return [*classics, family_game(date, prepared=prepared)]


def prepared_dailies(date: dt.date) -> QuerySet[Daily]:
    """``date``'s prepared dailies, first prepared first (``family_game`` reads their games
    in that order)."""
    return Daily.objects.filter(date=date).order_by("created_at", "pk")


def prepared_games(date: dt.date) -> list[str]:
    """The games of ``date``'s prepared dailies, first prepared first: what ``family_game``
    reads."""
    return list(prepared_dailies(date).values_list("slug", flat=True))


class DailyUnavailable(Exception):
    """No candidate deal for this game and date was proved winnable within the budget."""


def utc_today(now: dt.datetime) -> dt.date:
    return now.astimezone(dt.UTC).date()


# -- deals --------------------------------------------------------------------------------


def candidate_deals(slug: str, date: dt.date, *, secret: str | None = None) -> Iterator[int]:
    """The deal numbers a date tries, in order: stable across runs, processes and servers
    that share ``DAILY_SECRET``, and unpredictable without it."""
    key = (secret if secret is not None else settings.DAILY_SECRET).encode()
    for index in range(BUDGETS[slug].candidates):
        message = f"castle daily {slug} {date.isoformat()} {index}".encode()
        digest = hmac.new(key, message, hashlib.sha256).digest()
        yield int.from_bytes(digest[:8], "big") % MAX_DEAL + 1


class ProvedDeal(NamedTuple):
    """A day's deal, a winning line for it (the proof) and its difficulty, by the rule a
    pooled deal's follows (``solver.difficulty``: the positions searched to win it)."""

    deal: int
    line: list[str]
    difficulty: str


def choose_deal(slug: str, date: dt.date) -> ProvedDeal:
    """The day's deal, proved. Solver work: seconds."""
    rules = get_game(slug)
    budget = BUDGETS[rules.slug]
    for deal in candidate_deals(rules.slug, date):
        result = solve(Board(rules, deal), seconds=SECONDS_CAP, max_nodes=budget.nodes)
        if result.solved:
            line = [move.notation() for move in result.moves]
            return ProvedDeal(deal, line, difficulty(result.stats) if result.stats else "")
    raise DailyUnavailable(
        f"no {rules.name} deal for {date.isoformat()} was proved winnable "
        f"among {budget.candidates} candidates"
    )


def daily_prepare(*, slug: str, date: dt.date) -> Daily:
    """Store the daily of ``game`` on ``date`` unless it exists (idempotent). Runs the
    solver: call it from the task worker or a command, never from a web request."""
    slug = get_game(slug).slug
    if (daily := daily_get(slug=slug, date=date)) is not None:
        return daily
    deal, line, label = choose_deal(slug, date)
    try:
        with transaction.atomic():
            return Daily.objects.create(
                slug=slug,
                date=date,
                deal=deal,
                par=len(line),
                solution=" ".join(line),
                difficulty=label,
            )
    except IntegrityError:  # another worker stored the same day first
        return Daily.objects.get(slug=slug, date=date)


def daily_get(*, slug: str, date: dt.date) -> Daily | None:
    """The prepared daily, if any (a read: never runs the solver)."""
    return Daily.objects.filter(slug=get_game(slug).slug, date=date).first()


def launch() -> dt.date | None:
    """The first day of the challenge: ``DAILY_LAUNCH``, else the first prepared daily."""
    if settings.DAILY_LAUNCH:
        return dt.date.fromisoformat(settings.DAILY_LAUNCH)
    return Daily.objects.order_by("date").values_list("date", flat=True).first()


def day_exists(date: dt.date, *, now: dt.datetime) -> bool:
    """Whether ``date`` has a daily page: today (prepared or being prepared), or a past day
    from launch on that has prepared dailies. Never the future."""
    today = utc_today(now)
    if date > today:
        return False
    first = launch()
    if first is not None and date < first:
        return False
    return date == today or Daily.objects.filter(date=date).exists()


def visible_daily(*, slug: str, date: dt.date, now: dt.datetime) -> Daily | None:
    """The daily of ``game`` on ``date`` if the public may know it exists (not the future)."""
    if date > utc_today(now) or not day_exists(date, now=now):
        return None
    return daily_get(slug=slug, date=date)


def live_daily_of_deal(*, deal: int, now: dt.datetime) -> Daily | None:
    """Today's daily whose deal is ``deal``, in whichever game: no practice on it until the
    day ends. Any game, not only the daily's: a deal is laid out from its number and the
    game's layout, so games of one layout (Beleaguered Castle and Siegecraft, Citadel and
    Exiled Kings, Streets and Alleys and its variants) deal the same cards for one number,
    and a game that allows more moves would let the daily's line be tried out in full. A
    daily's number is a secret 63-bit draw: nobody meets one in another game by chance.
    (Future dailies are not refused: a refusal would tell their deal away.)"""
    return Daily.objects.filter(deal=deal, date=utc_today(now)).first()


# -- who sees what ------------------------------------------------------------------------

SECRET_GAME = (
    "This is another player's daily challenge game: its moves stay secret until the day "
    "ends (midnight UTC). Then it is a public replay."
)


def game_visible_to(game: Game, player_id: uuid.UUID | None, *, now: dt.datetime) -> bool:
    """Whether ``player_id`` may see ``game``'s moves and position: always its owner; anyone
    else unless it is a daily game whose day is live."""
    daily = game.daily
    if daily is None or (player_id is not None and game.owner_id == player_id):
        return True
    return not daily.is_live(now)


def secrecy_refusal(game: Game, player_id: uuid.UUID | None, *, now: dt.datetime) -> str:
    """Why ``player_id`` may not see ``game`` (someone else's live daily game), or ``""``."""
    return "" if game_visible_to(game, player_id, now=now) else SECRET_GAME


def live_deal_refusal(daily: Daily) -> str:
    """Why a live daily's deal cannot be played or imported outside its daily game."""
    return (
        f"This is the deal of today's {daily.rules.name} daily challenge: it can only be played "
        "as your daily game until the day ends (midnight UTC)."
    )


# -- playing and winning ------------------------------------------------------------------


def network_digest(daily: Daily, address: str) -> str:
    """A keyed digest of a client's network (an IPv4 address, an IPv6 /64) for one daily:
    what a look at the daily keeps of where it came from (``DailyLook``), so that a win
    from a network where another game of the same daily was opened can be held
    (``leaderboard.opened_elsewhere``). The address is never stored, and the daily is in
    the key: one network's looks at two dailies share no digest."""
    value = f"{daily.pk}:{address}"
    return salted_hmac("games.daily.network", value, algorithm="sha256").hexdigest()[:16]


def daily_game(*, player: Player | None, daily: Daily) -> Game | None:
    """The player's one game of this daily, if they started it."""
    return player.games.filter(daily=daily).first() if player is not None else None


def daily_start(*, player: Player, daily: Daily, now: dt.datetime, address: str = "") -> Game:
    """The player's one game of this daily, created on the first request (the unique
    (owner, daily) constraint makes concurrent first requests share one game). ``address``:
    the client's, as the rate limits count it (``limits.client_ip``): the new game's look
    is kept as its network's digest (``DailyLook``; none without an address)."""
    existing = daily_game(player=player, daily=daily)
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            game = game_start(player=player, slug=daily.slug, deal=daily.deal, daily=daily, now=now)
            if address:
                DailyLook.objects.create(
                    daily=daily, network=network_digest(daily, address), game=game.pk
                )
            return game
    except IntegrityError:  # a concurrent request created it first
        return player.games.get(daily=daily)
