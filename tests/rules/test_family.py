"""The Castle family beyond the six classics: each game's deal, building rule, solver and
auto-play, with the verdicts cross-checked (exhaustive search, fc-solve where it plays the
game)."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from games.rules import GAMES, Board, IllegalMove
from games.rules.safety import safe_raw_moves
from games.rules.solver import DIFFICULTY_NODES, Techniques, _Search, solve

from .helpers import board_from
from .test_solver import engine_search, replays_to_win

FAMILY = [slug for slug, rules in GAMES.items() if not rules.is_classic]

WINNABLE = {"castles-in-spain": 1, "somerset": 2, "morehead": 1}
"""A deal of each family game the solver wins in well under a second."""

UNSOLVABLE = [("somerset", 1), ("somerset", 3), ("morehead", 3)]
"""Deals whose whole position graph the engine alone can search."""


def sizes(board: Board) -> list[int]:
    return [len(pile) for pile in board.tableau]


def refusal(board: Board, move: str) -> str:
    with pytest.raises(IllegalMove) as error:
        board.play(move)
    return str(error.value)


def test_every_family_game_has_a_group_a_pysolfc_twin_and_difficulty_limits() -> None:
    assert FAMILY
    for slug in FAMILY:
        rules = GAMES[slug]
        assert rules.pysolfc_id is not None, slug
        assert slug in DIFFICULTY_NODES, slug


@pytest.mark.parametrize("slug", FAMILY)
def test_the_solver_wins_a_pinned_deal_and_its_line_replays(slug: str) -> None:
    board = Board(slug, WINNABLE[slug])
    result = solve(board, max_nodes=60_000, seconds=30)
    assert result.solved
    assert replays_to_win(board, result.moves)


@pytest.mark.parametrize(("slug", "deal"), UNSOLVABLE)
def test_unsolvable_agrees_with_the_engines_own_exhaustive_search(slug: str, deal: int) -> None:
    board = Board(slug, deal)
    assert solve(board, seconds=10).verdict == "unsolvable"
    assert engine_search(board) == "unsolvable"


@pytest.mark.parametrize("slug", FAMILY)
def test_search_moves_and_safe_moves_match_the_engine(slug: str) -> None:
    """As for the classics: with pruning off the search's moves are the engine's legal
    moves and its safe move is one of :mod:`games.rules.safety`'s."""
    rng = random.Random(slug)
    plain = Techniques(one_empty=False, skip_lone=False)
    for deal in (1, 2, 3):
        board = Board(slug, deal)
        for _ in range(60):
            search = _Search(board, plain)
            assert set(search.moves()) == {(s, t, int(c)) for s, t, c in board.raw_legal_moves()}
            safe = {(s, t, int(c)) for s, t, c in safe_raw_moves(board)}
            found = search.safe_move()
            assert (found is None) == (not safe)
            assert found is None or found in safe
            moves = board.raw_legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))


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


# -- fc-solve ---------------------------------------------------------------------------------

FC_SOLVE = shutil.which("fc-solve")


def fc_solve_verdict(board: Board, *args: str) -> str:
    lines = ["Foundations: " + " ".join(f"{s}-0" for s in "CDHS")]
    lines += [" ".join(str(card) for card in pile) for pile in board.tableau]
    out = subprocess.run(
        ["fc-solve", *args, "-l", "toons-for-twenty-somethings", "-sel", "-"],
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
