"""Who is asking: every visitor gets a player, kept in a long-lived session."""

from __future__ import annotations

from django.http import HttpRequest

from games.models import Player

SESSION_KEY = "castle_player"


def current_player(request: HttpRequest) -> Player:
    """The request's player, created (and remembered in the session) on a first visit."""
    cached = getattr(request, "_castle_player", None)
    if cached is not None:
        return cached
    player = None
    if request.user.is_authenticated:
        player, _ = Player.objects.get_or_create(user=request.user)
    elif player_id := request.session.get(SESSION_KEY):
        player = Player.objects.filter(pk=player_id).first()
    if player is None:
        player = Player.objects.create()
    request.session[SESSION_KEY] = str(player.pk)
    request._castle_player = player  # type: ignore[attr-defined]
    return player


def known_player(request: HttpRequest) -> Player | None:
    """The request's player if it has one already; never creates one (for read-only pages)."""
    if request.user.is_authenticated:
        return Player.objects.filter(user=request.user).first()
    player_id = request.session.get(SESSION_KEY)
    return Player.objects.filter(pk=player_id).first() if player_id else None
