"""The benchmark's URLs: the site's, plus one endpoint that measures the floor a move can
approach (:func:`bench_floor`). Only ``make bench`` serves it (``tools.bench_settings``)."""

from __future__ import annotations

import uuid

from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.http import require_POST

from games import move_sql
from games.forms import ActionForm
from games.players import session_player_id


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


urlpatterns = [
    path("bench/floor/<uuid:game_id>", bench_floor),
    path("", include("castle_site.urls")),
]
