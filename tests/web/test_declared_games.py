"""A game is its declaration, end to end: every game's page draws all its cards where its
screen layout says, every game is won through the views with its record, replay, import and
statistics, and a game declared here, in the test alone, deals, draws and plays through the
views."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from django.test import Client
from django.urls import reverse

from games import presentation, services
from games.models import Game, Player
from games.rules import GAMES, Board, GameRecord, GameRules
from games.rules.building import DownAnySuit
from games.rules.variants import Deal, DifficultyLimits, Rows, _suited
from games.stats import player_stats
from tests.rules.helpers import won_record

HX = {"HX-Request": "true"}

CASTLE_ROW = GameRules(
    slug="castle-row",
    name="Castle Row",
    summary="A throwaway game for this test: thirteen piles of four in a row.",
    tableau=13,
    screen=Rows(),
    foundations=_suited(),
    build=DownAnySuit(),
    deal=Deal(rounds=4),
    difficulty=DifficultyLimits(easy=100, medium=1_000),
)
"""Declared here only: the engine, the views and the templates must need nothing else."""


@pytest.fixture
def castle_row(monkeypatch: pytest.MonkeyPatch) -> Iterator[GameRules]:
    """Castle Row in the game registry for one test."""
    monkeypatch.setitem(GAMES, CASTLE_ROW.slug, CASTLE_ROW)
    presentation.layout_preview.cache_clear()
    yield CASTLE_ROW
    presentation.layout_preview.cache_clear()


def drawn_cards(html: str) -> Counter[str]:
    """The cards a page or answer draws, by accessible name (``Six of clubs``)."""
    return Counter(
        re.findall(
            r'<button[^>]* class="card [cdhs][^"]*"[^>]*aria-label="([A-Z][a-z]+ of [a-z]+)', html
        )
    )


def expected_cards(board: Board) -> Counter[str]:
    """Every card in play, and the top card of each foundation."""
    cards = Counter(
        card.name for pile in (*board.tableau, *board.reserves, *board.cells) for card in pile
    )
    cards.update(pile[-1].name for pile in board.foundations if pile)
    return cards


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_games_page_draws_all_its_cards(
    owner_client: Client, start_game: Callable[..., Game], slug: str
) -> None:
    game = start_game(slug, 1)
    board = services.game_board(game)

    page = owner_client.get(game.get_absolute_url()).text

    assert drawn_cards(page) == expected_cards(board)
    assert f'class="board {GAMES[slug].screen.kind} {slug}' in page


def test_a_game_declared_in_the_test_alone_deals_draws_and_plays(
    castle_row: GameRules, owner_client: Client, start_game: Callable[..., Game]
) -> None:
    game = start_game(castle_row.slug, 1)
    board = services.game_board(game)
    assert [len(pile) for pile in board.tableau] == [4] * 13

    page = owner_client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert (
        drawn_cards(page.text) == expected_cards(board)
        and sum(expected_cards(board).values()) == 52
    )
    assert 'class="board rows castle-row' in page.text
    assert "pile 13" in page.text  # piles named the way the board shows them

    move = board.legal_moves()[0]
    answer = owner_client.post(
        reverse("games:move", args=[game.pk]), {"move": move.notation(), "ply": "0"}, headers=HX
    )
    assert answer.status_code == 200
    game.refresh_from_db()
    assert game.ply == 1
    after = services.game_board(game)
    assert drawn_cards(owner_client.get(game.get_absolute_url()).text) == expected_cards(after)

    illegal = next(
        f"t{i}-t{j}"
        for i in range(1, 14)
        for j in range(1, 14)
        if i != j and not after.is_legal(after.parse_move(f"t{i}-t{j}"))
    )
    refused = owner_client.post(
        reverse("games:move", args=[game.pk]), {"move": illegal, "ply": "1"}, headers=HX
    )
    assert refused.status_code == 422
    assert "can only go on" in refused.text


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_game_is_won_through_the_site_and_its_record_replays_and_imports(
    slug: str, owner_client: Client, player: Player, start_game: Callable[..., Game]
) -> None:
    """The game's pinned winning line, one move request at a time as the board script sends
    them: the win panel, then the record it downloads, its replay, its import, and the
    statistics that count the win (and never the import)."""
    line = [move.notation() for move in won_record(slug).moves]
    game = start_game(slug, won_record(slug).deal)

    for ply, notation in enumerate(line):
        response = owner_client.post(
            reverse("games:move", args=[game.pk]), {"move": notation, "ply": ply}, headers=HX
        )
        assert response.status_code == 200, (ply, notation, response.text[:300])
    assert "You won!" in response.text
    game.refresh_from_db()
    assert (game.status, game.ply) == (Game.Status.WON, len(line))

    record = owner_client.get(reverse("games:record", args=[game.pk])).text
    assert [move.notation() for move in GameRecord.from_text(record).moves] == line
    replay = owner_client.get(reverse("games:replay", args=[game.pk]), {"ply": len(line)})
    assert replay.status_code == 200
    assert drawn_cards(replay.text) == expected_cards(services.game_board(game))

    imported = owner_client.post(reverse("games:import"), {"record": record, "then": "replay"})
    assert imported.status_code == 302
    copy = Game.objects.exclude(pk=game.pk).get()
    assert (copy.imported, copy.status, copy.ply) == (True, Game.Status.WON, len(line))
    # An import was not played here: its time (0:00) is not its player's.
    assert f"<p>{len(line)} moves.</p>" in owner_client.get(copy.get_absolute_url()).text
    # A visitor (a shared link) was greeted "You won!".
    seen = Client().get(game.get_absolute_url()).text
    assert "<h2>Won</h2>" in seen and "You won!" not in seen and " again</a>" not in seen
    stats = {each.slug: each for each in player_stats(player)}[slug]
    assert (stats.played, stats.won) == (1, 1)
