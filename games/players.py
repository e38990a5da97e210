"""Who is asking: every visitor gets a player, whose id the (signed) session carries."""

from __future__ import annotations

import uuid

from django.http import HttpRequest

from games.models import Player

SESSION_KEY = "castle_player"


def session_player_id(request: HttpRequest) -> uuid.UUID | None:
    """The player id the session carries, without touching the database."""
    value = request.session.get(SESSION_KEY)
    try:
        return uuid.UUID(value) if value else None
    except (TypeError, ValueError):
        return None


def current_player(request: HttpRequest) -> Player:
    """The request's player, created (and remembered in the session) on a first visit."""
    player_id = session_player_id(request)
    player = Player.objects.filter(pk=player_id).first() if player_id else None
    if player is None:
        player = Player.objects.create()
        request.session[SESSION_KEY] = str(player.pk)
    return player


def known_player(request: HttpRequest) -> Player | None:
    """The request's player if it has one already; never creates one (for read-only pages)."""
    player_id = session_player_id(request)
    return Player.objects.filter(pk=player_id).first() if player_id else None
