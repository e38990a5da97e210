"""Hints from a known winning line (``solver.hint_from_line``): a player who follows them
wins, with or without auto-play, and no search runs; a position off the line, or a line
that does not fit the deal, gets no answer from it, never a wrong move."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import Board, solver
from games.rules.solver import hint_from_line, solve

# One deal a game whose line the solver finds in well under a second (pinned: deals never
# change); Archway 783 is one of its rare winnable deals; in Penelope's Web runs move.
DEALS = [
    ("beleaguered-castle", 2),
    ("citadel", 3),
    ("streets-and-alleys", 8),
    ("fortress", 2),
    ("chessboard", 1),
    ("archway", 783),
    ("penelopes-web", 8),
]


@pytest.fixture(scope="module")
def lines() -> dict[tuple[str, int], list[str]]:
    found = {}
    for game, deal in DEALS:
        result = solve(Board(game, deal), seconds=10)
        assert result.solved, (game, deal)
        found[game, deal] = [move.notation() for move in result.moves]
    return found


@pytest.fixture
def no_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a hint from a known line searched")

    monkeypatch.setattr(solver, "solve", refuse)
    yield


def follow(board: Board, line: list[str], *, autoplay: bool) -> Board:
    """Play the line's hints from ``board`` while there are any (auto-play after each)."""
    while not board.is_won() and (answer := hint_from_line(board, line)) is not None:
        assert answer.verdict == "solved" and answer.move is not None
        assert answer.remaining is not None and answer.remaining >= 1
        board.play(answer.move)
        if autoplay:
            board.autoplay()
    return board


@pytest.mark.parametrize("autoplay", [True, False], ids=["auto-play", "no auto-play"])
@pytest.mark.parametrize(("game", "deal"), DEALS)
def test_a_player_who_follows_the_hints_of_a_known_line_wins_without_a_search(
    lines: dict[tuple[str, int], list[str]], no_search: None, game: str, deal: int, autoplay: bool
) -> None:
    """With auto-play the player's safe moves differ from the search's own (it sends cards
    up sooner): the hints follow the line all the same."""
    board = Board(game, deal)
    if autoplay:
        board.autoplay()
    assert follow(board, lines[game, deal], autoplay=autoplay).is_won()


def test_the_first_hint_is_the_lines_first_move(lines: dict[tuple[str, int], list[str]]) -> None:
    line = lines["citadel", 3]
    answer = hint_from_line(Board("citadel", 3), line)
    assert answer is not None and answer.move is not None
    assert answer.move.notation() == line[0]
    assert answer.remaining == len(line)


def test_a_line_from_a_later_position_answers_from_there(
    lines: dict[tuple[str, int], list[str]], no_search: None
) -> None:
    """The line a hint found, from the position it was asked in (the game's moves before it
    are not part of it)."""
    line = lines["beleaguered-castle", 2]
    asked = Board("beleaguered-castle", 2)
    for notation in line[:10]:
        asked.play(notation)
    start = Board.from_layout(asked.layout())
    assert hint_from_line(asked, line[10:]) is None  # not from the deal
    answer = hint_from_line(asked, line[10:], start=start)
    assert answer is not None and answer.move is not None
    assert answer.move.notation() == line[10]
    assert follow(asked, line, autoplay=False).is_won()  # the deal's whole line too


def test_another_deals_line_gives_no_hint(lines: dict[tuple[str, int], list[str]]) -> None:
    assert hint_from_line(Board("citadel", 4), lines["citadel", 3]) is None


def test_a_line_that_does_not_win_gives_no_hint(lines: dict[tuple[str, int], list[str]]) -> None:
    assert hint_from_line(Board("citadel", 3), lines["citadel", 3][:-1]) is None


def test_a_line_the_rules_refuse_gives_no_hint(lines: dict[tuple[str, int], list[str]]) -> None:
    line = lines["citadel", 3]
    assert hint_from_line(Board("citadel", 3), ["t1-t1", *line]) is None


@settings(max_examples=40, deadline=None)
@given(game_deal=st.sampled_from(DEALS), picks=st.lists(st.integers(0, 50), max_size=6))
def test_off_the_line_any_hint_it_gives_still_wins(
    lines: dict[tuple[str, int], list[str]], game_deal: tuple[str, int], picks: list[int]
) -> None:
    """A few moves of the player's own (auto-play on): the line answers only positions it
    still wins from, so following its hints from there always ends in a win."""
    game, deal = game_deal
    board = Board(game, deal)
    board.autoplay()
    for pick in picks:
        moves = board.legal_moves()
        if not moves or board.is_won():
            break
        board.play(moves[pick % len(moves)])
        board.autoplay()
    if hint_from_line(board, lines[game_deal]) is not None:
        assert follow(board, lines[game_deal], autoplay=True).is_won()
