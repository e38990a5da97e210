"""The benchmark's URLs: the site's, plus two endpoints that take a move apart: the floor a
move can approach (:func:`bench_floor`) and a move played and stored but not answered
(:func:`bench_unanswered`). Only ``make bench`` serves them (``tools.bench_settings``)."""

from __future__ import annotations

import uuid

from django.db import transaction
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
)
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.http import require_POST

from games import move_sql, services
from games.forms import ActionForm, MoveForm
from games.models import Game
from games.players import session_player_id
from games.rules import RulesError


@require_POST
def bench_floor(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """What every move must do and nothing else, as the issue's stripped endpoint did: the
    session's player and the CSRF check (middleware), the form's fields, the game row read,
    one check (its owner) and one write (the row's compare and swap, in a transaction). A
    move also replays its game, plays and stores its moves and renders what changed: this
    endpoint's ratio to ``/healthz`` is the ceiling of a move's on the same machine."""
    form = ActionForm(request.POST)
    game = move_sql.read_game(game_id)
    if not form.is_valid() or game.owner_id != session_player_id(request):
        return HttpResponseForbidden("not yours")
    with transaction.atomic():
        game.updated_at = timezone.now()
        move_sql.swap_game(game)
    return HttpResponse("ok", content_type="text/plain")


@require_POST
def bench_unanswered(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A move as the site plays it (``games.views.move``: the form, the owner, the game's
    board, the rules, auto-play, the row's compare and swap and the move rows), answered with
    two bytes instead of what changed on the board: the move's cost less its answer (the
    page model and the templates)."""
    form = MoveForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(form.error_text())
    try:
        services.game_play_move(
            game_id=game_id,
            player_id=session_player_id(request),
            move=form.asked(),
            expected_ply=form.cleaned_data["ply"],
            now=timezone.now(),
        )
    except (Game.DoesNotExist, services.NotOwner, services.GameConflict, RulesError) as error:
        return HttpResponse(str(error), status=409, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/floor/<uuid:game_id>", bench_floor),
    path("bench/unanswered/<uuid:game_id>", bench_unanswered),
    path("", include("castle_site.urls")),
]
