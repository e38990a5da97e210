"""The badge of a game's deal verdict, polled by the game page while the worker decides it."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from games.models import DealVerdict, Game
from games.rules.deals import DEAL_DIGITS

POLL_DELAYS = (2, 3, 5, 8, 13, 21, 30, 30, 30, 30, 30, 30)
"""Seconds before each next look at a pending verdict; then the page stops asking (the
badge shows the answer on the next page load)."""


def badge(game: Game, looks: int = 0) -> dict[str, Any]:
    """The ``#verdict`` partial's context: the verdict, and when to look again. None while
    it is pending for a won game: the player proved the deal winnable, and "Checking
    whether this deal can be won…" stood beside the win until the worker came to it."""
    verdict = DealVerdict.for_game(game)
    pending = verdict is not None and verdict.verdict == DealVerdict.Verdict.PENDING
    if pending and game.is_finished:
        return {"verdict": None, "poll": None}
    again = POLL_DELAYS[looks] if pending and looks < len(POLL_DELAYS) else None
    return {"verdict": verdict, "poll": {"next": looks + 1, "delay": again} if again else None}


@require_safe
def verdict(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The ``#verdict`` badge; ``?poll=N`` counts the looks so far (anyone with the link may
    look: a verdict is about the deal, not the player)."""
    game = get_object_or_404(Game, pk=game_id)
    looks = request.GET.get("poll", "0")
    known = DEAL_DIGITS.fullmatch(looks) and len(looks) < 3  # "²".isdigit(), int("²") fails
    context = {"game": game, **badge(game, int(looks) if known else 0)}
    return render(request, "games/game.html#verdict", context)
