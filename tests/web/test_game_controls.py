"""The game page's Undo, Redo and Restart buttons (games/pages.py) against the services that
answer them: a button is enabled exactly when its action would be accepted."""

import re
from collections.abc import Callable

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game

HX = {"HX-Request": "true"}
ACTIONS = ("undo", "redo", "restart")

# A scene: a game (its deal, auto-play on or off) and what the player did on it: a move
# in notation, "move" for the first legal move there, or an action.
SCENES: dict[str, tuple[str, int, bool, list[str]]] = {
    "a fresh deal": ("beleaguered-castle", 1, False, []),
    "Streets and Alleys opened by auto-play": ("streets-and-alleys", 2, True, []),
    "Fortress opened by auto-play": ("fortress", 4, True, []),
    "Archway opened by auto-play": ("archway", 1, True, []),
    "a move after the auto-played opening": ("beleaguered-castle", 1, True, ["t3-t6"]),
    "that move undone": ("beleaguered-castle", 1, True, ["t3-t6", "undo"]),
    "that move undone and redone": ("beleaguered-castle", 1, True, ["t3-t6", "undo", "redo"]),
    "restarted after the opening": ("beleaguered-castle", 1, True, ["t3-t6", "restart"]),
    "the restart undone": ("beleaguered-castle", 1, True, ["t3-t6", "restart", "undo"]),
    "auto-play switched on at the deal": ("beleaguered-castle", 1, False, ["autoplay"]),
    # The opening's own move, played by hand with auto-play off: the player's move.
    "the opening's move played by hand": ("beleaguered-castle", 1, False, ["t7-f3"]),
    "the hand-played opening restarted": ("beleaguered-castle", 1, False, ["t7-f3", "restart"]),
    "Archway after a move and a restart": ("archway", 1, True, ["move", "move", "restart"]),
}


def offered(client: Client, game: Game) -> dict[str, bool]:
    """Which of the actions the page's buttons offer (not disabled)."""
    body = client.get(game.get_absolute_url()).text
    buttons = {name: re.search(rf'<button formaction="{name}"([^>]*)>', body) for name in ACTIONS}
    assert all(buttons.values()), "the owner's page draws every button"
    return {name: " disabled" not in match[1] for name, match in buttons.items() if match}


def accepted(client: Client, game: Game, action: str) -> bool:
    """Whether the service takes ``action`` now; nothing of it is kept."""
    with transaction.atomic():
        response = client.post(
            reverse(f"games:{action}", args=[game.pk]), {"ply": str(game.ply)}, headers=HX
        )
        transaction.set_rollback(True)
    assert response.status_code in (200, 422), response.content.decode()
    return response.status_code == 200


def do(client: Client, game: Game, step: str) -> None:
    game.refresh_from_db()
    if step == "autoplay":
        data = {"autoplay": "1"}
    elif step in ACTIONS:
        data = {"ply": str(game.ply)}
    else:
        move = services.game_board(game).legal_moves()[0].notation() if step == "move" else step
        step, data = "move", {"move": move, "ply": str(game.ply)}
    response = client.post(reverse(f"games:{step}", args=[game.pk]), data, headers=HX)
    assert response.status_code == 200, response.content.decode()


@pytest.mark.parametrize("scene", list(SCENES))
def test_undo_redo_and_restart_are_enabled_exactly_when_they_would_be_accepted(
    owner_client: Client, start_game: Callable[..., Game], scene: str
) -> None:
    slug, deal, autoplay, steps = SCENES[scene]
    game = start_game(slug, deal, autoplay=autoplay)
    for step in steps:
        do(owner_client, game, step)
    game.refresh_from_db()

    shown = offered(owner_client, game)

    taken = {action: accepted(owner_client, game, action) for action in ACTIONS}
    assert shown == taken


def test_a_game_opened_by_auto_play_shows_its_opening_but_no_undo(
    owner_client: Client, start_game: Callable[..., Game]
) -> None:
    game = start_game("streets-and-alleys", 2, autoplay=True)

    response = owner_client.get(game.get_absolute_url())

    assert game.ply == 1
    assert response.context["can_undo"] is False
    assert re.search(r'<button formaction="undo" disabled', response.text)
