"""Runs on the page: a card that heads a run is picked like a top card, its destinations
come with the page, the move is one request (the selection and the pile), a page without
JavaScript plays it too, and a move response keeps every run's selection true."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, PlayedMove
from games.presentation import board_view, describe_move, script_moves
from games.rules import Board, Move, solver
from games.rules.solver import Hint
from tests.browser.test_play import RUN_LINE

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def run_game(start_game: Callable[..., Game], owner_client: Client) -> Game:
    """Penelope's Web deal 1 after t7-t2: the two top cards of pile 2 make a run, which
    may go onto pile 8 (``t2-t8x2``)."""
    game = start_game("penelopes-web", 1)
    answer = owner_client.post(move_url(game), {"move": "t7-t2", "ply": "0"}, headers=HX)
    assert answer.status_code == 200
    game.refresh_from_db()
    return game


def move_url(game: Game) -> str:
    return reverse("games:move", args=[game.pk])


def play_data(body: str) -> dict[str, Any]:
    found = re.search(r'<div id="play"[^>]*><script type="application/json">(.*?)</script>', body)
    assert found
    return json.loads(found[1])


def stored(game: Game) -> list[str]:
    return list(
        PlayedMove.objects.filter(game=game, undone=False).values_list("notation", flat=True)
    )


def test_the_card_heading_a_run_is_picked_like_a_top_card(
    owner_client: Client, run_game: Game
) -> None:
    page = owner_client.get(run_game.get_absolute_url()).text
    assert re.search(
        r'<button form="sl" name="select" value="t2@7" class="card \w" '
        r'aria-label="[A-Z][a-z]+ of \w+ and the cards on it">',
        page,
    )
    assert script_moves(play_data(page))["t2@7"] == ["t8"]


def test_a_run_moves_in_one_request_of_its_selection_and_pile(
    owner_client: Client, run_game: Game
) -> None:
    answer = owner_client.post(
        move_url(run_game), {"select": "t2@7", "to": "t8", "ply": "1"}, headers=HX
    )
    assert answer.status_code == 200
    assert stored(run_game) == ["t7-t2", "t2-t8x2"]
    assert play_data(answer.text)["played"] == "t2-t8-2"
    status = re.search(r'<p class="message">(.*?)</p>', answer.text)
    assert status and status[1].endswith(" and the card on it to right pile 4.")


def test_without_javascript_a_picked_run_offers_its_destinations_as_moves(
    owner_client: Client, run_game: Game
) -> None:
    page = owner_client.get(run_game.get_absolute_url(), {"select": "t2@7"}).text
    assert 'name="move" value="t2-t8x2"' in page
    # The picked run's cards are marked; its lowest card's button puts it down.
    assert re.search(r'name="select" value="" class="card \w picked"', page)
    answer = owner_client.post(move_url(run_game), {"move": "t2-t8x2", "ply": "1"})
    assert answer.status_code == 303
    assert stored(run_game) == ["t7-t2", "t2-t8x2"]


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"select": "t2@9", "to": "t8"}, 422),  # above the pile
        ({"select": "t2@7", "to": "t3"}, 422),  # no place for it there
        ({"select": "t2@7", "to": "f"}, 422),  # a run never goes home at once
        ({"select": "t2@7", "to": "t99"}, 422),
        ({"select": "zz", "to": "t8"}, 422),
        ({"select": "t2@7"}, 400),
        ({"to": "t8"}, 400),
        ({"select": "t2@7", "to": "t8" * 3}, 400),
    ],
)
def test_a_bad_run_move_is_refused_with_a_sentence_and_changes_nothing(
    owner_client: Client, run_game: Game, data: dict[str, str], status: int
) -> None:
    answer = owner_client.post(move_url(run_game), {**data, "ply": "1"}, headers=HX)
    assert answer.status_code == status
    assert re.search(r'<p class="message">\S.*</p>', answer.text)
    assert stored(run_game) == ["t7-t2"]


def test_a_move_response_redraws_a_pile_from_the_run_it_uncovered(
    owner_client: Client, start_game: Callable[..., Game]
) -> None:
    """Penelope's Web deal 17: t2 ends J♦ 10♦ 9♦ 2♦. Moving the two away leaves a run of three
    whose lowest card lies under the new top: it must be redrawn, as a run head."""
    game = start_game("penelopes-web", 17)
    answer = owner_client.post(move_url(game), {"move": "t2-t1", "ply": "0"}, headers=HX)
    pile = re.search(r'<div id="pile-t2"[^>]*>(.*?)</div>', answer.text)
    assert pile and 'data-from="3"' in pile[0]
    assert 'value="t2@4"' in pile[1] and 'value="t2@5"' in pile[1] and 'value="t2"' in pile[1]


def test_a_run_is_carried_over_from_the_pile_it_left_not_drawn_again(
    owner_client: Client, start_game: Callable[..., Game]
) -> None:
    """Selective Castle 1 (``RUN_LINE``): J♥ 10♣ 9♣ 8♣ go from pile 7 onto the Q♠ on top of
    pile 4. The answer draws the queen (now heading a longer run) and the new top, and
    carries the three cards between over from where pile 7 shows them (from index 4) to
    index 6 of pile 4; an undo carries them back."""
    game = start_game("selective-castle", 1)
    for ply, notation in enumerate(RUN_LINE):
        answer = owner_client.post(move_url(game), {"move": notation, "ply": ply}, headers=HX)
        assert answer.status_code == 200
    pile = re.search(r'<div id="pile-t4"([^>]*)>(.*?)</div>', answer.text)
    assert pile and pile[1] == ' class="pile left t n10" data-from="5" data-carry="t7 4 6 3"'
    assert re.findall(r'aria-label="([^"]+)"', pile[2]) == [
        "Queen of spades and the cards on it",
        "Eight of clubs, top of left pile 4",
    ]
    assert "data-carry" not in answer.text.split('<div id="pile-t7"')[1]

    undo = reverse("games:undo", args=[game.pk])
    answer = owner_client.post(undo, {"ply": len(RUN_LINE)}, headers=HX)
    assert answer.status_code == 200
    pile = re.search(r'<div id="pile-t7"([^>]*)>(.*?)</div>', answer.text)
    assert pile and 'data-carry="t4 6 4 3"' in pile[1]
    assert re.findall(r'aria-label="([^"]+)"', pile[2]) == [
        "Four of diamonds, covered",
        "Eight of clubs, top of right pile 3",
    ]


def test_a_hinted_run_is_marked_where_it_lies_not_carried(
    owner_client: Client, start_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint's answer redraws its move's piles only to mark them: the run stays put."""
    run = Move.from_notation(RUN_LINE[-1])
    monkeypatch.setattr(
        solver, "hint_and_line", lambda board, seconds=1.0: (Hint("solved", run, 40), [])
    )
    game = start_game("selective-castle", 1)
    for ply, notation in enumerate(RUN_LINE[:-1]):
        answer = owner_client.post(move_url(game), {"move": notation, "ply": ply}, headers=HX)
        assert answer.status_code == 200
    answer = owner_client.post(reverse("games:hint", args=[game.pk]), headers=HX)
    assert answer.status_code == 200
    assert "Jack of hearts and the cards on it, hinted card" in answer.text
    assert "data-carry" not in answer.text


def test_a_hint_names_a_run_by_its_lowest_card_and_marks_that_card() -> None:
    board = Board("penelopes-web", 1)
    board.play("t7-t2")
    run = board.selected_move("t2@7", "t8")
    lowest = board.pile("t2")[-2]
    assert describe_move(board, run) == (
        f"{lowest.name} and the card on it from left pile 2 to right pile 4"
    )
    view = board_view(board, hint=run)
    hinted = [card for pile in view.piles.values() for card in pile.cards if card.hint]
    assert [card.card for card in hinted] == [lowest]
    assert view.piles["t8"].hinted
