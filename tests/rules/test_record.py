import re

import pytest

from games.rules import (
    GAMES,
    Board,
    GameRecord,
    IllegalMove,
    LayoutError,
    Move,
    ReplayError,
    RulesError,
    UnknownGame,
)
from games.rules.layout import read_layout
from games.rules.variants import GameRules

from .helpers import notations

CITADEL_LINE = ["t7-t6", "t7-t1", "t7-f3", "t2-f3"]


@pytest.fixture
def played() -> Board:
    board = Board("citadel", 1)
    for move in CITADEL_LINE:
        board.play(move)
    return board


def test_record_text_is_header_lines_then_moves(played: Board) -> None:
    assert GameRecord.from_board(played).to_text() == (
        "game: citadel\ndeal: 1\nt7-t6 t7-t1 t7-f3 t2-f3\n"
    )


def test_record_text_holds_ten_moves_per_line() -> None:
    moves = tuple(Move.from_notation(f"t{i % 8 + 1}-f") for i in range(24))
    text = GameRecord("citadel", 1, moves).to_text()

    assert [len(line.split()) for line in text.splitlines()[2:]] == [10, 10, 4]


def test_record_replays_to_the_same_position(played: Board) -> None:
    record = GameRecord.from_text(GameRecord.from_board(played).to_text())

    assert record == GameRecord.from_board(played)
    assert record.moves == tuple(Move.from_notation(m) for m in CITADEL_LINE)
    assert record.replay().layout() == played.layout()
    assert record.replay().ply == 4


def test_record_of_a_fresh_deal_has_no_moves() -> None:
    record = GameRecord.from_board(Board("fortress", 9))

    assert record.to_text() == "game: fortress\ndeal: 9\n"
    assert record.replay().layout() == Board("fortress", 9).layout()


def test_record_keeps_the_options(played: Board) -> None:
    board = Board("beleaguered-castle", 1, options={"take-back"})
    record = GameRecord.from_board(board)

    assert record.to_text() == "game: beleaguered-castle\ndeal: 1\noption: take-back\n"
    assert GameRecord.from_text(record.to_text()).options == frozenset({"take-back"})
    assert record.replay().options == frozenset({"take-back"})


def test_record_reads_moves_spread_over_lines_with_extra_white_space() -> None:
    text = "game: citadel\n  deal: 1\n\nt7-t6\tt7-t1\n\n   t7-f3\nt2-f\n"

    assert notations(GameRecord.from_text(text).moves) == CITADEL_LINE


def test_record_stores_resolved_foundation_targets() -> None:
    record = GameRecord.from_text("game: citadel\ndeal: 1\nt7-t6 t7-t1 t7-f\n")

    assert notations(record.moves)[-1] == "t7-f3"


def test_archway_reserve_moves_are_not_mistaken_for_header_lines() -> None:
    board = Board("archway", 1)
    reserve_moves = [m for m in board.legal_moves() if m.card is not None]
    board.play(reserve_moves[0])
    text = GameRecord.from_board(board).to_text()

    assert text.splitlines()[-1].startswith("r:")
    assert GameRecord.from_text(text).replay().layout() == board.layout()


def test_illegal_move_in_a_record_names_its_number_text_and_reason() -> None:
    with pytest.raises(ReplayError) as error:
        GameRecord.from_text("game: citadel\ndeal: 1\nt3-t6 t6-t2\n")

    assert error.value.index == 2
    assert error.value.move == "t6-t2"
    assert str(error.value) == "illegal move 2 (t6-t2): An 8 can only go on a 9, not on 4H"
    assert isinstance(error.value, IllegalMove)


def test_malformed_move_in_a_record_is_a_replay_error_naming_it() -> None:
    with pytest.raises(ReplayError, match=r"^illegal move 1 \(t3->t6\): 't3->t6' is not a move"):
        GameRecord.from_text("game: citadel\ndeal: 1\nt3->t6\n")


def test_replay_of_a_record_that_does_not_replay_raises_replay_error() -> None:
    record = GameRecord("citadel", 1, (Move.from_notation("t6-t2"),))

    with pytest.raises(ReplayError, match=r"^illegal move 1 "):
        record.replay()


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("deal: 1\nt3-t6\n", LayoutError, "exactly one 'game:' line"),
        ("game: citadel\nt3-t6\n", LayoutError, "exactly one 'deal:' line"),
        ("game: citadel\ngame: fortress\ndeal: 1\n", LayoutError, "exactly one 'game:' line"),
        ("game: citadel\ndeal: 1\ndeal: 2\n", LayoutError, "exactly one 'deal:' line"),
        ("game: citadel\ndeal: x\n", LayoutError, "deal 'x' is not a deal number: use 1 to"),
        ("game: citadel\ndeal: 0\n", RulesError, "deal number 0 is out of range"),
        ("game: citadel\ndeal: 0000\n", RulesError, "deal number 0 is out of range"),
        (f"game: citadel\ndeal: {'9' * 30}\n", RulesError, r"9{20}\.\.\. \(30 digits\) is out"),
        (f"game: citadel\ndeal: {2**63}\n", RulesError, f"deal number {2**63} is out of range"),
        ("game: spider\ndeal: 1\n", UnknownGame, "unknown game 'spider'"),
        ("game: citadel\ndeal: 1\noption: take-back\n", RulesError, "has no option"),
    ],
)
def test_unreadable_record_says_what_is_wrong(
    text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        GameRecord.from_text(text)


def test_a_deal_number_with_leading_zeros_is_that_number() -> None:
    """Zeros before a number change nothing, however many (they once read as deal 0)."""
    board = GameRecord.from_text(f"game: citadel\ndeal: {'0' * 30}7\n").replay()

    assert board.deal_number == 7


def test_record_of_the_alias_is_written_under_the_games_own_slug() -> None:
    record = GameRecord.from_board(Board("beleaguered-fortress", 3))

    assert record.slug == "beleaguered-castle"
    assert GameRecord.from_text("game: beleaguered-fortress\ndeal: 3\n") == record


@pytest.mark.parametrize("header", ["options: take-back", "Player: Ada", "date: 2026-12-07"])
def test_a_header_line_a_record_does_not_have_is_refused(header: str) -> None:
    """A misspelt ``options:`` line was passed over: the record replayed without its option."""
    text = f"game: beleaguered-castle\ndeal: 1\n{header}\nt3-t6\n"
    key = header.split(":")[0].lower()
    with pytest.raises(LayoutError, match=rf"^line 3: a record has no '{key}:' line"):
        GameRecord.from_text(text)


def test_every_header_a_record_writes_is_read_back() -> None:
    board = Board("beleaguered-castle", 1, options=["take-back"])
    board.play("t3-t6")
    record = GameRecord.from_board(board)
    assert "option: take-back" in record.to_text()
    assert GameRecord.from_text(record.to_text()) == record


@pytest.mark.parametrize("rules", GAMES.values(), ids=lambda rules: rules.slug)
def test_a_record_names_its_game_as_its_pages_do(rules: GameRules) -> None:
    """Written by hand, "game: Citadel" or "game: Penelope's Web" read as unknown games."""
    text = f"game: {rules.name}\ndeal: 5\n"

    assert GameRecord.from_text(text) == GameRecord(rules.slug, 5)
    assert GameRecord.from_text(text.upper()) == GameRecord(rules.slug, 5)


def test_a_record_saved_with_a_byte_order_mark_reads_as_without() -> None:
    """Some editors start a saved file with one: the first line read as a move word."""
    text = "\ufeffgame: citadel\ndeal: 1\nt7-t6\n"

    assert GameRecord.from_text(text) == GameRecord("citadel", 1, (Move.from_notation("t7-t6"),))


def test_an_unknown_game_is_named_as_written_and_in_short() -> None:
    """A record's game line of any length was said back whole in the error; and a name
    read as a slug is said as the player wrote it."""
    shown = re.escape("'" + "a b " * 10 + "…'")
    with pytest.raises(UnknownGame, match=rf"^line 1: unknown game {shown}: choose"):
        GameRecord.from_text("game: " + "a b " * 4000 + "\ndeal: 7\n")
    with pytest.raises(UnknownGame, match=r"^line 2: unknown game \"Penelope's Webs\": choose"):
        GameRecord.from_text("deal: 7\ngame: Penelope's Webs\n")
    with pytest.raises(LayoutError, match=r"^line 1: the 'game:' line names no game$"):
        GameRecord.from_text("game:\ndeal: 7\n")


@pytest.mark.parametrize("name", ["'citadel'", "cit adel", "Exiled \u212aings", "citadel-"])
def test_a_record_names_no_game_by_a_near_spelling(name: str) -> None:
    """Only the names the pages give, in any case: not a letter that lower case turns into
    another (the Kelvin sign), nor stray apostrophes or hyphens."""
    with pytest.raises(UnknownGame):
        GameRecord.from_text(f"game: {name}\ndeal: 7\n")


def test_a_layout_names_its_game_as_a_record_does() -> None:
    text = Board("citadel", 3).layout().replace("game: citadel", "game: Citadel")

    assert read_layout("\ufeff" + text)[0].slug == "citadel"
