"""The badge of a game's deal verdict, polled by the game page while the worker decides it."""

from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from games.models import Game
from games.pages import verdict_answer
from games.rules.deals import DEAL_DIGITS


@require_safe
def verdict(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The ``#verdict`` badge; ``?poll=N`` counts the looks so far (anyone with the link may
    look: a verdict is about the deal, not the player), with a stuck panel's advice
    (``games.pages.verdict_answer``)."""
    game = get_object_or_404(Game, pk=game_id)
    looks = request.GET.get("poll", "0")
    known = DEAL_DIGITS.fullmatch(looks) and len(looks) < 3  # "²".isdigit(), int("²") fails
    page = verdict_answer(game, int(looks) if known else 0)
    return render(request, "games/game.html#verdict-answer", page)
