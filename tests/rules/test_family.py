"""The Castle family beyond the six classics: each game's deal, building rule, solver and
auto-play, with the verdicts cross-checked (exhaustive search, fc-solve where it plays the
game)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from games.rules import GAMES, Board, IllegalMove
from games.rules.solver import solve

from .helpers import board_from, exhaustive

FAMILY = [slug for slug, rules in GAMES.items() if not rules.is_classic]

UNSOLVABLE = [
    ("somerset", 1),
    ("somerset", 3),
    ("morehead", 3),
    ("penelopes-web", 2),
    ("exiled-kings", 21),
]
"""Deals whose whole position graph the engine alone can search."""


def sizes(board: Board) -> list[int]:
    return [len(pile) for pile in board.tableau]


def refusal(board: Board, move: str) -> str:
    with pytest.raises(IllegalMove) as error:
        board.play(move)
    return str(error.value)


def test_every_family_game_has_a_pysolfc_twin() -> None:
    assert FAMILY
    for slug in FAMILY:
        rules = GAMES[slug]
        assert rules.pysolfc_id is not None, slug


@pytest.mark.parametrize(("slug", "deal"), UNSOLVABLE)
def test_unsolvable_agrees_with_the_engines_own_exhaustive_search(slug: str, deal: int) -> None:
    board = Board(slug, deal)
    assert solve(board, seconds=10).verdict == "unsolvable"
    assert exhaustive(board) == "unsolvable"


# -- deals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3, 32001, 2**63 - 1])
def test_castles_in_spain_deals_thirteen_piles_of_four(number: int) -> None:
    board = Board("castles-in-spain", number)
    assert sizes(board) == [4] * 13
    assert board.foundations == ((), (), (), ())


@pytest.mark.parametrize("slug", ["somerset", "morehead"])
@pytest.mark.parametrize("number", [1, 2, 3, 32001, 2**63 - 1])
def test_somerset_deals_a_staircase_of_one_to_eight_then_eight_eight(
    slug: str, number: int
) -> None:
    assert sizes(Board(slug, number)) == [1, 2, 3, 4, 5, 6, 7, 8, 8, 8]


def test_morehead_is_dealt_exactly_like_somerset() -> None:
    for number in (1, 2, 31999, 32000, 123456789):
        assert Board("morehead", number).tableau == Board("somerset", number).tableau


@pytest.mark.parametrize(
    ("slug", "piles", "cells"),
    [
        ("siegecraft", [6] * 8, 1),
        ("stronghold", [7, 7, 7, 7, 6, 6, 6, 6], 1),
        ("private-lane", [7, 7, 7, 7, 6, 6, 6, 6], 2),
        ("ten-by-one", [6, 6, 5, 5, 5, 5, 5, 5, 5, 5], 1),
        ("bastion", [5] * 10, 2),
    ],
)
def test_free_cell_games_deal_their_parents_piles_and_empty_cells_but_bastions(
    slug: str, piles: list[int], cells: int
) -> None:
    for number in (1, 2, 32001, 2**63 - 1):
        board = Board(slug, number)
        assert sizes(board) == piles
        assert len(board.cells) == cells
        assert [len(cell) for cell in board.cells] == [1 if slug == "bastion" else 0] * cells


def test_the_free_cell_games_are_their_parents_deals() -> None:
    for number in (1, 2, 31999, 32000, 123456789):
        assert Board("siegecraft", number).tableau == Board("beleaguered-castle", number).tableau
        assert Board("stronghold", number).tableau == Board("streets-and-alleys", number).tableau
        assert Board("private-lane", number).tableau == Board("streets-and-alleys", number).tableau


def test_bastion_deals_the_last_two_cards_to_its_cells() -> None:
    board = Board("bastion", 1)
    assert [[str(c) for c in cell] for cell in board.cells] == [["2H"], ["6H"]]


def test_a_free_cell_holds_one_card_which_moves_on_like_a_top_card() -> None:
    board = board_from(
        "siegecraft",
        {"t1": "9S", "t2": "TH", "t3": "5C", "t4": "QD"},
        fill=("t5", "t6", "t7", "t8"),
    )
    board.play("t1-c1")
    assert [str(c) for c in board.pile("c1")] == ["9S"]
    assert refusal(board, "t3-c1") == "c1 already holds a card"
    board.play("c1-t2")  # 9S on TH, from the cell
    assert board.pile("c1") == ()


# -- building -------------------------------------------------------------------------------


def test_castles_in_spain_builds_down_in_alternating_colours() -> None:
    board = board_from(
        "castles-in-spain",
        {"t1": "TS", "t2": "9H", "t3": "9C", "t4": "TD", "t5": "KH"},
        fill=("t6", "t7", "t8", "t9", "t10", "t11", "t12"),
    )
    assert refusal(board, "t3-t1") == "Colours alternate: 9C can only go on a red 10, not on TS"
    board.play("t2-t1")  # 9H on TS
    board.play("t3-t4")  # 9C on TD
    assert refusal(board, "t5-t1") == "A king can only go to an empty pile or a foundation"
    board.play("t5-t13")  # any card fills an empty pile
    assert [str(c) for c in board.pile("t13")] == ["KH"]


def test_morehead_builds_on_any_suit_but_the_cards_own() -> None:
    board = board_from(
        "morehead", {"t1": "TH", "t2": "9H", "t3": "TD", "t4": "5C"}, fill=("t5", "t6", "t7")
    )
    assert refusal(board, "t2-t1") == "Not on its own suit: 9H can only go on a 10 of another suit"
    board.play("t2-t3")  # 9H on TD: same colour, other suit
    assert [str(c) for c in board.pile("t3")[-2:]] == ["TD", "9H"]


def test_selective_castle_is_dealt_as_streets_and_alleys() -> None:
    for number in (1, 2, 31999, 32000, 123456789):
        assert Board("selective-castle", number).tableau == (
            Board("streets-and-alleys", number).tableau
        )


def test_selective_castle_lays_a_king_on_an_ace_and_chooses_its_base() -> None:
    board = board_from(
        "selective-castle",
        {"t1": "AC", "t2": "KH", "t3": "7D", "t4": "7S", "t5": "QS"},
        fill=("t6", "t7", "t8"),
    )
    assert refusal(board, "t5-t1") == "A queen can only go on a king, not on AC"
    board.play("t2-t1")  # KH on AC
    board.play("t5-t1")  # QS on KH
    assert [str(c) for c in board.pile("t1")[-3:]] == ["AC", "KH", "QS"]
    assert board.base_rank is None
    board.play("t3-f2")  # 7D starts the diamonds: the base is 7
    assert board.base_rank == 7
    board.play("t4-f4")
    assert [str(c) for c in board.pile("f4")] == ["7S"]


# -- fc-solve ---------------------------------------------------------------------------------

FC_SOLVE = shutil.which("fc-solve")


def fc_solve_verdict(board: Board, *args: str, atomic: bool = True) -> str:
    """fc-solve's verdict on ``board``; ``atomic`` picks its preset of single-card moves
    (exact and quick), else its default one (needed for sequence moves)."""
    tops = ["0" if not pile else str(pile[-1])[0] for pile in board.foundations]
    lines = ["Foundations: " + " ".join(f"{s}-{top}" for s, top in zip("CDHS", tops, strict=True))]
    lines += [" ".join(str(card) for card in pile) for pile in board.tableau]
    out = subprocess.run(
        ["fc-solve", *args, *(["-l", "toons-for-twenty-somethings"] * atomic), "-sel", "-"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    ).stdout
    if "This game is solveable." in out:
        return "solved"
    if "I could not solve this game." in out:
        return "unsolvable"
    return "unknown"


@pytest.mark.skipif(FC_SOLVE is None, reason="fc-solve is not installed")
@pytest.mark.parametrize(
    ("slug", "preset"),
    [
        ("siegecraft", ["-g", "beleaguered_castle", "--freecells-num", "1"]),
        ("stronghold", ["-g", "streets_and_alleys", "--freecells-num", "1"]),
        ("private-lane", ["-g", "streets_and_alleys", "--freecells-num", "2"]),
    ],
)
def test_free_cell_verdicts_agree_with_fc_solve(slug: str, preset: list[str]) -> None:
    """fc-solve's Beleaguered Castle and Streets and Alleys presets with free cells are
    Siegecraft, Stronghold and Private Lane."""
    both = 0
    for number in range(1, 16):
        board = Board(slug, number)
        ours = solve(board, max_nodes=60_000, seconds=30).verdict
        theirs = fc_solve_verdict(board, *preset)
        if "unknown" not in (ours, theirs):
            both += 1
            assert ours == theirs, f"deal {number}"
    assert both >= 10


@pytest.mark.skipif(FC_SOLVE is None, reason="fc-solve is not installed")
def test_somerset_verdicts_agree_with_fc_solve() -> None:
    """fc-solve plays Somerset as ten stacks built down by alternate colour with no cells;
    its atomic-move preset gives exact verdicts."""
    args = ["--freecells-num", "0", "--stacks-num", "10"]
    args += ["--sequences-are-built-by", "alternate_color", "--empty-stacks-filled-by", "any"]
    both = 0
    for number in range(1, 21):
        ours = solve(Board("somerset", number), max_nodes=60_000, seconds=30).verdict
        theirs = fc_solve_verdict(Board("somerset", number), *args)
        if "unknown" not in (ours, theirs):
            both += 1
            assert ours == theirs, f"deal {number}"
    assert both >= 15


@pytest.mark.skipif(FC_SOLVE is None, reason="fc-solve is not installed")
@pytest.mark.parametrize(
    ("slug", "deals"),
    [("penelopes-web", [1, 2, 3, 4]), ("exiled-kings", [*range(1, 16), 21, 23, 25])],
)
def test_kings_only_verdicts_agree_with_fc_solve(slug: str, deals: list[int]) -> None:
    """fc-solve plays Penelope's Web and Exiled Kings as eight stacks built down by rank, no
    cells, sequences of any length, only kings to empty stacks. Its single-card preset
    cannot move sequences, so its default one judges (deals it decides quickly)."""
    args = ["--freecells-num", "0", "--stacks-num", "8", "--sequences-are-built-by", "rank"]
    args += ["--sequence-move", "unlimited", "--empty-stacks-filled-by", "kings"]
    verdicts = []
    for number in deals:
        board = Board(slug, number)
        ours = solve(board, max_nodes=60_000, seconds=30).verdict
        theirs = fc_solve_verdict(board, *args, atomic=False)
        assert ours == theirs, f"deal {number}"
        verdicts.append(ours)
    assert {"solved", "unsolvable"} <= set(verdicts)
