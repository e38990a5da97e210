import pytest

from games.rules import Board, IllegalMove, NotationError

from .helpers import board_from, notations


@pytest.fixture
def archway() -> Board:
    """Foundations want 7C, 5D, 2H (both ways), 9S and QC; t4 is empty.

    7C lies under 7H and 7S in r7; r5 holds both copies of 5D; both 9S lie in central piles.
    """
    return board_from(
        "archway",
        {
            "f1": "AC 2C 3C 4C 5C 6C",
            "f2": "AD 2D 3D 4D",
            "f3": "AH",
            "f4": "AS 2S 3S 4S 5S 6S 7S 8S",
            "f5": "KC",
            "f6": "KD",
            "f7": "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
            "f8": "KS",
            "t1": "JC",
            "t2": "9S",
            "t3": "9S 4C",
            "r2": "2H",
            "r5": "5D 5D",
            "r7": "7C 7H 7S",
            "r12": "QC",
        },
        fill=("t1", "t2", "t3"),
    )


def refusal(board: Board, move: str) -> str:
    before = board.layout()
    with pytest.raises(IllegalMove) as error:
        board.play(move)
    assert board.layout() == before
    return str(error.value)


def test_piles_are_four_central_eight_foundations_and_thirteen_reserves() -> None:
    board = Board("archway", 1)

    assert board.pile_names == [
        *(f"t{i}" for i in range(1, 5)),
        *(f"f{i}" for i in range(1, 9)),
        *(f"r{i}" for i in range(1, 14)),
    ]
    assert [str(pile[0]) for pile in board.foundations] == [
        "AC",
        "AD",
        "AH",
        "AS",
        "KC",
        "KD",
        "KH",
        "KS",
    ]


def test_legal_moves_list_central_tops_then_reserve_cards(archway: Board) -> None:
    assert notations(archway.legal_moves()) == [
        "t1-t4",
        "t2-f4",
        "t2-t4",
        "t3-t4",
        "r:2H-f3",
        "r:2H-f7",
        "r:5D-f2",
        "r:7C-f1",
        "r:QC-f5",
    ]


def test_every_reserve_card_is_available_not_only_the_top(archway: Board) -> None:
    archway.play("r:7C-f1")

    assert [str(card) for card in archway.pile("r7")] == ["7H", "7S"]
    assert str(archway.pile("f1")[-1]) == "7C"


def test_short_foundation_target_resolves_a_reserve_card(archway: Board) -> None:
    assert archway.play("r:7c-f").notation() == "r:7C-f1"
    assert archway.play("r:QC-f").notation() == "r:QC-f5"


def test_a_card_that_fits_two_foundations_gives_two_distinct_moves(archway: Board) -> None:
    moves = [m for m in archway.legal_moves() if m.card is not None and str(m.card) == "2H"]

    assert notations(moves) == ["r:2H-f3", "r:2H-f7"]
    assert moves[0] != moves[1]
    with pytest.raises(IllegalMove, match=r"^More than one foundation takes 2H$"):
        archway.parse_move("r:2H-f")


@pytest.mark.parametrize(("move", "foundation"), [("r:2H-f3", "f3"), ("r:2H-f7", "f7")])
def test_either_foundation_may_take_the_card(archway: Board, move: str, foundation: str) -> None:
    archway.play(move)

    assert str(archway.pile(foundation)[-1]) == "2H"
    assert archway.pile("r2") == ()


def test_two_copies_in_one_reserve_give_one_move_per_foundation(archway: Board) -> None:
    assert notations(archway.legal_moves()).count("r:5D-f2") == 1

    archway.play("r:5D-f2")
    assert [str(card) for card in archway.pile("r5")] == ["5D"]


def test_descending_foundation_builds_down_by_suit_from_the_king(archway: Board) -> None:
    assert refusal(archway, "t1-f5") == "f5 takes QC next, not JC"

    archway.play("r:QC-f5")
    archway.play("t1-f5")

    assert [str(card) for card in archway.pile("f5")] == ["KC", "QC", "JC"]


def test_central_top_card_may_go_to_a_foundation(archway: Board) -> None:
    archway.play("t2-f4")

    assert str(archway.pile("f4")[-1]) == "9S"


def test_nothing_is_built_on_a_central_pile(archway: Board) -> None:
    message = "Nothing can be built on a central pile: only an empty one takes a card"

    assert refusal(archway, "t1-t2") == message
    assert refusal(archway, "t3-t1") == message


def test_empty_central_pile_is_refilled_with_another_central_top(archway: Board) -> None:
    assert [m.notation() for m in archway.legal_moves() if m.target == "t4"] == [
        "t1-t4",
        "t2-t4",
        "t3-t4",
    ]
    archway.play("t3-t4")

    assert [str(card) for card in archway.pile("t4")] == ["4C"]


def test_refilled_central_pile_takes_that_one_card_only(archway: Board) -> None:
    archway.play("t3-t4")

    assert refusal(archway, "t1-t4") == (
        "Nothing can be built on a central pile: only an empty one takes a card"
    )
    assert not [m for m in archway.legal_moves() if m.target.startswith("t")]


def test_reserve_piles_never_receive_cards(archway: Board) -> None:
    assert refusal(archway, "t1-r11") == "Reserve piles never receive cards"
    assert refusal(archway, "r:7H-r8") == "Reserve piles never receive cards"
    assert not [m for m in archway.legal_moves() if m.target.startswith("r")]


def test_reserve_cards_never_go_to_the_central_piles(archway: Board) -> None:
    assert refusal(archway, "r:7H-t4") == "Reserve cards can only go to a foundation"
    assert refusal(archway, "r:7H-t1") == "Reserve cards can only go to a foundation"


def test_reserve_card_that_is_not_there_is_refused(archway: Board) -> None:
    assert refusal(archway, "r:9S-f4") == "There is no 9S in the reserves"


def test_reserve_move_must_name_its_card(archway: Board) -> None:
    with pytest.raises(NotationError, match="name the reserve card"):
        archway.play("r7-f1")


def test_reserve_move_is_undone_to_the_same_place_in_its_pile(archway: Board) -> None:
    before = archway.layout()
    archway.play("r:7C-f1")
    archway.undo()

    assert archway.layout() == before
    assert [str(card) for card in archway.pile("r7")] == ["7C", "7H", "7S"]


def test_game_is_won_with_all_104_cards_on_the_foundations() -> None:
    up = list("A23456789TJQK")
    piles = {f"f{k + 1}": " ".join(r + s for r in up) for k, s in enumerate("CDHS")}
    piles |= {f"f{k + 5}": " ".join(r + s for r in reversed(up)) for k, s in enumerate("CDH")}
    piles |= {"f8": " ".join(r + "S" for r in reversed(up[1:])), "r1": "AS"}
    board = board_from("archway", piles)

    assert not board.is_won()
    board.play("r:AS-f8")
    assert board.is_won()
    assert board.cards_on_foundations == 104


def test_empty_descending_foundation_is_started_by_its_king_not_an_ace() -> None:
    """A hand-built layout may leave f5 empty: only KC may start it, as RULES.md deals it."""
    board = board_from(
        "archway",
        {
            **{f"f{k + 1}": f"A{s}" for k, s in enumerate("CDHS")},
            "f6": "KD",
            "f7": "KH",
            "f8": "KS",
            "t1": "KC",
            "t2": "AC",
        },
        fill=("t3", "t4"),
    )

    assert [m.notation() for m in board.legal_moves() if m.target == "f5"] == ["t1-f5"]
    board.play("t1-f5")
    assert Board.from_layout(board.layout()).layout() == board.layout()
