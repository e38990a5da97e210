import pytest

from games.rules import Board, LayoutError, RulesError

from .helpers import GAME_SLUGS, board_from, golden_layout

CASTLE_1 = golden_layout("beleaguered-castle", 1)


def test_layout_text_is_header_lines_then_foundations_then_tableau() -> None:
    lines = Board("beleaguered-castle", 1).layout().splitlines()

    assert lines[:6] == [
        "game: beleaguered-castle",
        "deal: 1",
        "f1: AC",
        "f2: AD",
        "f3: AH",
        "f4: AS",
    ]
    assert lines[6] == "t1: JD KD KS QH 8H 6C"
    assert [line.split(":")[0] for line in lines[6:]] == [f"t{i}" for i in range(1, 9)]


def test_layout_lists_bottom_card_first_and_top_card_last() -> None:
    board = Board("beleaguered-castle", 1)

    assert str(board.pile("t1")[-1]) == "6C"
    assert "t1: JD KD KS QH 8H 6C\n" in board.layout()


def test_empty_pile_line_ends_at_the_colon() -> None:
    layout = Board("streets-and-alleys", 1).layout()

    assert "f1:\nf2:\nf3:\nf4:\n" in layout
    assert Board("archway", 1).layout().count("\nr8:\n") == 1


def test_archway_layout_lists_foundations_then_central_piles_then_reserves() -> None:
    names = [line.split(":")[0] for line in Board("archway", 1).layout().splitlines()[2:]]

    assert names == [
        *(f"f{i}" for i in range(1, 9)),
        *(f"t{i}" for i in range(1, 5)),
        *(f"r{i}" for i in range(1, 14)),
    ]


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_layout_text_round_trips(game: str) -> None:
    for number in [1, 2, 31999, 32000, 123456789]:
        text = golden_layout(game, number)
        board = Board.from_layout(text)
        assert board.layout() == text
        assert board.position_key() == Board(game, number).position_key()
        assert board.legal_moves() == Board(game, number).legal_moves()


def test_layout_of_a_position_in_play_reads_back_to_the_same_position() -> None:
    board = Board("citadel", 1)
    for move in ["t7-t6", "t7-t1", "t7-f3", "t2-f3"]:
        board.play(move)

    copy = Board.from_layout(board.layout())

    assert copy.position_key() == board.position_key()
    assert copy.legal_moves() == board.legal_moves()
    assert copy.ply == 0
    assert copy.deal_number == 1


def test_reading_ignores_blank_lines_line_order_case_and_accepts_10() -> None:
    lines = CASTLE_1.replace("TS", "10S").splitlines()
    text = "\n\n".join(reversed([line.replace("t1:", "T1:") for line in lines])) + "\n\n"

    assert Board.from_layout(text).layout() == CASTLE_1


def test_undo_stops_at_the_layout_read() -> None:
    board = Board.from_layout(CASTLE_1)
    board.play("t3-t6")
    board.undo()

    assert board.layout() == CASTLE_1
    assert list(board.positions_seen()) == [board.position_key()]


def broken(old: str, new: str, text: str = CASTLE_1) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (broken(" 6C\n", "\n"), "6C appears 0 times; Beleaguered Castle has 1 of each card"),
        (broken(" 6C\n", " 6C 6C\n"), "6C appears 2 times"),
        (broken("game: beleaguered-castle\n", ""), "the layout has no 'game:' line"),
        (broken("deal: 1\n", ""), "the layout has no 'deal:' line"),
        (broken("beleaguered-castle", "klondike"), "unknown game 'klondike'"),
        (broken("deal: 1", "deal: one"), "deal 'one' is not a deal number: use 1 to"),
        (broken("deal: 1", "deal: -1"), "deal '-1' is not a deal number: use 1 to"),
        (broken("deal: 1", "deal: 0"), "deal number 0 is out of range"),
        (broken("deal: 1", f"deal: {2**63}"), "out of range"),
        (broken("t8:", "t9:"), "the layout has no line for pile t8"),
        (CASTLE_1 + "t9:\n", "Beleaguered Castle has no pile 't9'"),
        (CASTLE_1 + "r1:\n", "Beleaguered Castle has no pile 'r1'"),
        (broken("deal: 1\n", "deal: 1\nthis is not a pile\n"), "line 3 ('this is not a pile')"),
        (CASTLE_1 + "t1: 6C\n", "'t1' appears twice"),
        (CASTLE_1 + "deal: 2\n", "'deal' appears twice"),
        (broken(" 6C\n", " XX\n"), "'XX' is not a card"),
        (broken("deal: 1\n", "deal: 1\noption: easy\n"), "has no option 'easy'"),
    ],
)
def test_unreadable_layout_raises_layout_error_naming_the_fault(text: str, message: str) -> None:
    with pytest.raises(LayoutError) as error:
        Board.from_layout(text)

    assert message in str(error.value)
    assert isinstance(error.value, RulesError)
    assert isinstance(error.value, ValueError)


def test_foundation_must_follow_its_suit_upward() -> None:
    with pytest.raises(LayoutError, match="f1 is not built in order from AC"):
        board_from("citadel", {"f1": "AC 3C", "f2": "AD", "f3": "AH", "f4": "AS"}, fill=("t1",))


def test_foundation_must_start_from_its_first_rank() -> None:
    with pytest.raises(LayoutError, match="f1 is not built in order from AC"):
        board_from("fortress", {"f1": "2C"}, fill=("t1",))


def test_descending_foundation_must_run_down_from_the_king() -> None:
    with pytest.raises(LayoutError, match="f5 is not built in order from KC"):
        board_from("archway", {"f5": "KC JC"}, fill=("t1",))


def test_archway_foundation_holds_at_most_thirteen_cards() -> None:
    up = " ".join(r + "C" for r in "A23456789TJQK")
    with pytest.raises(LayoutError, match="f1 is not built in order from AC"):
        board_from("archway", {"f1": up + " AC"}, fill=("t1",))


def test_archway_reserve_holds_only_cards_of_its_rank() -> None:
    with pytest.raises(LayoutError, match="reserve r7 holds only cards of rank 7"):
        board_from("archway", {"r7": "7C 8C"}, fill=("t1",))


def test_archway_layout_needs_two_of_each_card() -> None:
    text = Board("archway", 1).layout().replace("r1: AS AD AH AC", "r1: AS AD AH")

    with pytest.raises(LayoutError, match="AC appears 1 times; Archway has 2 of each card"):
        Board.from_layout(text)
