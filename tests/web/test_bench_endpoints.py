"""The benchmark's endpoints (``tools.bench_urls``) do what ``make bench`` says they do, and
only its URLconf serves them."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game

MOVE = {"move": "t3-t6", "ply": "0"}


@pytest.fixture
def bench_urls(settings) -> None:
    settings.ROOT_URLCONF = "tools.bench_urls"


@pytest.mark.parametrize(
    ("endpoint", "stored", "ply"),
    [("unanswered", [(1, "t3-t6", False, False)], 1), ("floor", [], 0)],
    ids=["the unanswered move plays and stores the move", "the floor writes the row only"],
)
def test_each_bench_endpoint_writes_the_game_row_as_it_promises(
    bench_urls: None,
    owner_client: Client,
    game: Game,
    stored_moves,
    endpoint: str,
    stored: list[tuple[int, str, bool, bool]],
    ply: int,
) -> None:
    version = game.version
    response = owner_client.post(f"/bench/{endpoint}/{game.pk}", MOVE)

    assert (response.status_code, response.content) == (200, b"ok")
    assert stored_moves(game) == stored
    game.refresh_from_db()
    assert (game.ply, game.version) == (ply, version + 1)


@pytest.mark.parametrize("body", [{"move": "t6-t2", "ply": "0"}, {"move": "t3-t6", "ply": "4"}])
def test_an_unanswered_move_that_the_site_refuses_changes_nothing(
    bench_urls: None, owner_client: Client, game: Game, stored_moves, body: dict[str, str]
) -> None:
    assert owner_client.post(f"/bench/unanswered/{game.pk}", body).status_code == 409
    assert stored_moves(game) == []


def test_an_unanswered_move_is_the_owners_only(
    bench_urls: None, other_client: Client, game: Game, stored_moves
) -> None:
    assert other_client.post(f"/bench/unanswered/{game.pk}", MOVE).status_code == 409
    assert stored_moves(game) == []


@pytest.mark.parametrize("endpoint", ["floor", "unanswered"])
def test_the_site_serves_no_bench_endpoint(
    owner_client: Client, game: Game, stored_moves, endpoint: str
) -> None:
    assert owner_client.post(f"/bench/{endpoint}/{game.pk}", MOVE).status_code == 404
    assert stored_moves(game) == []
