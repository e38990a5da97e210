"""The solver: its lines replay to wins, its "unsolvable" verdicts are proofs, it keeps to
its budget, and its search agrees move for move with the engine."""

from __future__ import annotations

import gc
import io
import random
import time
from dataclasses import replace
from typing import Any

import pytest

from games.rules import GAMES, Board, solver
from games.rules.cards import parse_cards
from games.rules.cli import main
from games.rules.position import Position
from games.rules.solver import (
    DEFAULT_TECHNIQUES,
    ONE_LOOK,
    SolveStats,
    Techniques,
    _Search,
    difficulty,
    first_losing_ply,
    hint,
    solve,
)

from .helpers import board_from, exhaustive, replays_to_win

# Deals each solved in well under 2 s (pinned: the deals never change).
SOLVABLE = [
    ("beleaguered-castle", 2),
    ("beleaguered-castle", 5),
    ("citadel", 1),
    ("citadel", 3),
    ("streets-and-alleys", 8),
    ("streets-and-alleys", 16),
    ("fortress", 2),
    ("fortress", 3),
    ("chessboard", 1),
    ("chessboard", 2),
]

# Deals whose whole position graph is small enough for the engine alone to search it.
UNSOLVABLE = [
    ("beleaguered-castle", 3),
    ("citadel", 56),
    ("streets-and-alleys", 2),
    ("fortress", 1),
    ("chessboard", 6),
    ("archway", 3),
]

ENGINE_SAFETY = Techniques(idle_targets=False)
"""The search with the engine's safe-move rule only, as the player's auto-play follows it."""

HARD = ("streets-and-alleys", 4)
"""A deal no scan decides in a fraction of a second."""


def layout(game: str, foundations: list[str], tableau: list[str], reserves: int = 0) -> str:
    """Layout text: foundation piles, then tableau piles (bottom card first)."""
    lines = [f"game: {game}", "deal: 1"]
    lines += [f"f{i}: {cards}" for i, cards in enumerate(foundations, 1)]
    lines += [f"t{i}: {cards}" for i, cards in enumerate(tableau, 1)]
    return "\n".join(lines) + "\n"


def run(suit: str, top: str) -> str:
    """The cards of ``suit`` from ace up to ``top``: ``run("C", "8")`` is ``AC 2C … 8C``."""
    ranks = "A23456789TJQK"
    return " ".join(r + suit for r in ranks[: ranks.index(top) + 1])


# -- solved lines replay -------------------------------------------------------------------


@pytest.mark.parametrize(("game", "deal"), SOLVABLE)
def test_solved_line_replays_to_a_win(game: str, deal: int) -> None:
    board = Board(game, deal)
    result = solve(board, seconds=5)
    assert result.verdict == "solved"
    assert result.solved
    assert replays_to_win(board, result.moves)
    assert board.ply == 0  # the solver does not touch the board


def test_shortening_cuts_a_depth_first_line_and_keeps_it_winning() -> None:
    board = Board("citadel", 1)
    scans = (("dfs", 1),)
    long = solve(board, techniques=Techniques(scans=scans, shorten=False, second_look=False)).moves
    short = solve(board, techniques=Techniques(scans=scans, second_look=False)).moves
    assert len(short) < len(long) / 2
    assert replays_to_win(board, short)


def test_solving_mid_game_continues_from_the_position() -> None:
    board = Board("citadel", 1)
    first = solve(board, seconds=5).moves
    for move in first[:10]:
        board.play(move)
    result = solve(board, seconds=5)
    assert result.solved
    assert replays_to_win(board, result.moves)


def test_won_position_is_solved_in_no_moves() -> None:
    text = layout("fortress", [run(s, "K") for s in "CDHS"], [""] * 10)
    result = solve(Board.from_layout(text))
    assert result.verdict == "solved"
    assert result.moves == []


# -- the search's own safe moves ----------------------------------------------------------


def test_the_search_plays_up_a_card_whose_every_taker_would_go_up_first() -> None:
    """Every five is up but the five of spades, its foundation's next card, buried under a
    king. Nothing can ever be built on that five (the fours are up), so whenever it comes
    free it may go up instead of onto a six: no six is needed as a target any more. The
    engine's safe-move rule (which the player's auto-play follows) waits for the five; the
    search plays the six of clubs up at once."""
    board = board_from(
        "beleaguered-castle",
        {
            "f1": run("C", "5"),
            "f2": run("D", "5"),
            "f3": run("H", "5"),
            "f4": run("S", "4"),
            "t1": "5S KD",
            "t2": "QH 6C",
        },
        fill=("t3", "t4", "t5", "t6", "t7", "t8"),
    )
    six = int(parse_cards("6C")[0])
    assert board.position().safe_move() is None
    assert _autoplayed(_Search(board, Techniques(idle_targets=False))) == []
    assert _autoplayed(_Search(board, Techniques())) == [(1, board.book.f0, six)]


@pytest.mark.parametrize(
    ("game", "deal"),
    [("beleaguered-castle", 57), ("streets-and-alleys", 42), ("streets-and-alleys", 52)],
)
def test_the_searchs_own_safe_moves_prove_a_lost_deal_sooner(game: str, deal: int) -> None:
    """The same verdict as the engine's rule gives, and the engine's own exhaustive search,
    in fewer positions (pinned: the deals never change)."""
    board = Board(game, deal)
    idle = solve(board, seconds=30)
    engines = solve(board, seconds=30, techniques=Techniques(idle_targets=False))
    assert idle.verdict == engines.verdict == exhaustive(board) == "unsolvable"
    assert idle.nodes < engines.nodes


# -- unsolvable verdicts are proofs --------------------------------------------------------


@pytest.mark.parametrize(("game", "deal"), UNSOLVABLE)
def test_unsolvable_agrees_with_the_engines_own_exhaustive_search(game: str, deal: int) -> None:
    board = Board(game, deal)
    assert solve(board, seconds=10).verdict == "unsolvable"
    assert exhaustive(board) == "unsolvable"


def test_take_back_games_are_solved_and_proved_with_take_back_moves() -> None:
    board = Board("beleaguered-castle", 2, options=["take-back"])
    result = solve(board, seconds=5)
    assert result.solved
    assert replays_to_win(board, result.moves)
    lost = Board("beleaguered-castle", 3, options=["take-back"])
    assert solve(lost, seconds=5).verdict == "unsolvable"
    assert exhaustive(lost) == "unsolvable"


def test_every_scan_alone_proves_the_same_verdict() -> None:
    board = Board("beleaguered-castle", 3)
    for scan in ("best-first", "dfs", "random-dfs:7"):
        techniques = Techniques(scans=((scan, 1),))
        assert solve(board, seconds=10, techniques=techniques).verdict == "unsolvable"


# Streets and Alleys 73: the main heuristic leaves it open past 350,000 positions; the
# heuristic that weighs the cards under each pile's top run wins it in under 200.
QUICK_PROBE = Techniques(probe_after=0, probes=(((4, 2, 3, 0, 0, 1), 3_000),))


def test_a_probe_decides_what_the_main_scan_leaves_open() -> None:
    board = Board("streets-and-alleys", 73)
    assert solve(board, max_nodes=5_000, techniques=Techniques(probes=())).verdict == "unknown"

    result = solve(board, max_nodes=5_000, techniques=QUICK_PROBE)

    assert result.solved
    assert replays_to_win(board, result.moves)
    probe = result.scans[-1]
    assert (probe.name, probe.verdict) == ("probe:4,2,3,0,0,1", "solved")
    assert result.nodes == sum(scan.nodes for scan in result.scans) > 0
    assert result.nodes + result.second_look <= 5_000


def test_a_probe_that_visits_everything_is_a_proof() -> None:
    board = Board("beleaguered-castle", 3)
    result = solve(board, seconds=10, techniques=QUICK_PROBE)
    assert result.verdict == "unsolvable"
    assert result.scans[-1].verdict == "unsolvable"
    assert exhaustive(board) == "unsolvable"


# Beleaguered Castle 305: the main heuristic and the first probe leave it open; a
# depth-first scan in the engine's move order wins it at 6,741 positions.
def test_a_depth_first_probe_decides_what_the_heuristics_leave_open() -> None:
    board = Board("beleaguered-castle", 305)
    first_only = Techniques(probes=DEFAULT_TECHNIQUES.probes[:1])
    assert solve(board, max_nodes=60_000, techniques=first_only).verdict == "unknown"

    result = solve(board, max_nodes=60_000, techniques=Techniques(second_look=False))

    assert result.solved
    assert replays_to_win(board, result.moves)
    assert [(scan.name, scan.verdict) for scan in result.scans] == [
        ("best-first", "unknown"),
        ("probe:4,2,3,0,0,2", "unknown"),
        ("probe:dfs", "solved"),
    ]
    assert result.nodes == sum(scan.nodes for scan in result.scans) <= 60_000


def test_a_probe_may_be_any_scan() -> None:
    """A probe named as a scan runs that scan alone: a depth-first one proves a lost deal."""
    board = Board("beleaguered-castle", 3)
    techniques = Techniques(probe_after=0, probes=(("random-dfs:7", 100_000),))
    result = solve(board, seconds=10, techniques=techniques)
    assert result.verdict == "unsolvable"
    assert (result.scans[-1].name, result.scans[-1].verdict) == ("probe:random-dfs:7", "unsolvable")


def test_probes_wait_for_the_main_scan() -> None:
    """An easy deal is won by the main heuristic before the probes start: its line."""
    result = solve(Board("beleaguered-castle", 2), seconds=5)
    assert result.solved
    assert [scan.name for scan in result.scans] == ["best-first"]


# Streets and Alleys 40: best-first leaves it open past 300,000 positions; a depth-first
# scan in the engine's move order wins it at 13,291.
LATE_DFS = Techniques(probes=(), late_scans=(("dfs", 1),), late_after=1_000)


def test_a_late_scan_decides_what_best_first_leaves_open() -> None:
    board = Board("streets-and-alleys", 40)
    alone = Techniques(probes=(), late_scans=())
    assert solve(board, max_nodes=40_000, techniques=alone).verdict == "unknown"

    result = solve(board, max_nodes=40_000, techniques=LATE_DFS)

    assert result.solved
    assert replays_to_win(board, result.moves)
    assert [(scan.name, scan.verdict) for scan in result.scans] == [
        ("best-first", "unknown"),
        ("dfs", "solved"),
    ]
    assert result.nodes == sum(scan.nodes for scan in result.scans)
    assert result.nodes + result.second_look <= 40_000


def test_late_scans_wait_for_the_others() -> None:
    """A deal decided within ``late_after`` positions never starts the late scans."""
    result = solve(Board("beleaguered-castle", 2), seconds=5, techniques=LATE_DFS)
    assert result.solved
    assert [scan.name for scan in result.scans] == ["best-first"]


@pytest.mark.parametrize(
    "switch",
    [
        {"canonical": False},
        {"autoplay": False},
        {"one_empty": False},
        {"skip_lone": False},
    ],
)
def test_verdicts_do_not_depend_on_the_pruning(switch: dict[str, bool]) -> None:
    techniques = Techniques(**switch)  # type: ignore[arg-type]
    assert solve(Board("fortress", 1), techniques=techniques).verdict == "unsolvable"
    result = solve(Board("fortress", 3), seconds=10, techniques=techniques)
    assert result.solved
    assert replays_to_win(Board("fortress", 3), result.moves)


# Hand-built positions: most cards already up, a few left in the tableau.

STUCK_CASTLE = [
    "9C KC", "9D KD", "9H KH", "9S KS", "TC QC JC", "TD QD JD", "TH QH JH", "TS QS JS",
]  # fmt: skip


@pytest.mark.parametrize("game", ["beleaguered-castle", "citadel", "streets-and-alleys"])
def test_castle_position_with_every_nine_buried_is_unsolvable(game: str) -> None:
    text = layout(game, [run(s, "8") for s in "CDHS"], STUCK_CASTLE)
    assert solve(Board.from_layout(text), seconds=5).verdict == "unsolvable"


@pytest.mark.parametrize("game", ["beleaguered-castle", "citadel", "streets-and-alleys"])
def test_castle_position_one_shuffle_from_home_is_solved(game: str) -> None:
    # JS must make way (onto QH or an empty pile) before TS can go up.
    tableau = ["TS JS", "KH QH", "KS QS", "", "", "", "", ""]
    text = layout(game, [run("C", "K"), run("D", "K"), run("H", "J"), run("S", "9")], tableau)
    board = Board.from_layout(text)
    result = solve(board, seconds=5)
    assert result.verdict == "solved"
    assert replays_to_win(board, result.moves)


@pytest.mark.parametrize("game", ["fortress", "chessboard"])
def test_fortress_position_with_every_seven_buried_is_unsolvable(game: str) -> None:
    # The tops (9, J, K of three suits and 9S) never build on each other; every 7 is buried.
    tableau = [
        "7C 8C 9C", "TC JC", "QC KC",
        "7D 8D 9D", "TD JD", "QD KD",
        "7H 8H 9H", "TH JH", "QH KH",
        "7S 8S TS JS QS KS 9S",
    ]  # fmt: skip
    board = Board.from_layout(layout(game, [run(s, "6") for s in "CDHS"], tableau))
    assert solve(board, seconds=5).verdict == "unsolvable"
    assert exhaustive(board) == "unsolvable"


@pytest.mark.parametrize("game", ["fortress", "chessboard"])
def test_fortress_position_near_home_is_solved(game: str) -> None:
    # 9C waits under TC, which has to step aside to an empty pile first.
    tableau = ["9C TC", "QC JC", "KC", "", "", "", "", "", "", ""]
    foundations = [run("C", "8"), run("D", "K"), run("H", "K"), run("S", "K")]
    board = Board.from_layout(layout(game, foundations, tableau))
    result = solve(board, seconds=5)
    assert result.solved
    assert replays_to_win(board, result.moves)


def archway_layout(tableau: list[str]) -> str:
    """Archway with clubs, diamonds and hearts home; spades A-5 up, K-9 down."""
    lines = ["game: archway", "deal: 1"]
    for i, suit in enumerate("CDH", 1):
        lines.append(f"f{i}: {run(suit, 'K')}")
        lines.append(f"f{i + 4}: {' '.join(reversed(run(suit, 'K').split()))}")
    lines.append(f"f4: {run('S', '5')}")
    lines.append("f8: KS QS JS TS 9S")
    lines += [f"t{i}: {cards}" for i, cards in enumerate(tableau, 1)]
    reserves = {3: "3S", 4: "4S", 5: "5S", 9: "9S", 10: "TS", 11: "JS", 12: "QS", 13: "KS"}
    lines += [f"r{rank}: {reserves.get(rank, '')}" for rank in range(1, 14)]
    return "\n".join(lines) + "\n"


def test_archway_position_with_both_sixes_and_eights_buried_is_unsolvable() -> None:
    board = Board.from_layout(archway_layout(["6S 7S", "6S 7S", "8S AS", "8S 2S"]))
    assert solve(board, seconds=5).verdict == "unsolvable"
    assert exhaustive(board) == "unsolvable"


def test_archway_position_with_a_six_on_top_is_solved() -> None:
    board = Board.from_layout(archway_layout(["7S 6S", "6S 7S", "8S AS", "8S 2S"]))
    result = solve(board, seconds=5)
    assert result.solved
    assert replays_to_win(board, result.moves)


# -- budgets -----------------------------------------------------------------------------


def test_a_short_time_budget_is_kept() -> None:
    started = time.monotonic()
    result = solve(Board(*HARD), seconds=0.2)
    assert time.monotonic() - started < 1.0
    assert result.verdict == "unknown"


def test_a_small_node_budget_gives_unknown() -> None:
    result = solve(Board(*HARD), seconds=60, max_nodes=300)
    assert result.verdict == "unknown"
    assert result.nodes <= 300
    assert result.moves == []


class _Clock:
    """A stand-in for ``time.monotonic``: each reading a microsecond after the last, or a
    second once ``busy`` (a machine that slowed down mid-search)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.busy = False

    def monotonic(self) -> float:
        self.now += 1.0 if self.busy else 1e-6
        return self.now


@pytest.mark.parametrize(("game", "deal"), [("citadel", 10), ("chessboard", 3)])
def test_the_positions_counted_do_not_depend_on_the_clock(
    monkeypatch: pytest.MonkeyPatch, game: str, deal: int
) -> None:
    """A probe's win is polished by the best-first scan going on alone; the positions it
    spends (stored with a pooled deal, and its difficulty read from them) are the same on a
    machine that slows down meanwhile: bounded by the time the scan had taken, they were
    not (a pooled Citadel deal: 45,476 positions on one run, 45,190 on the next)."""
    techniques = replace(DEFAULT_TECHNIQUES, probe_after=500, second_look=False, shorten=False)
    polish = solver._polish
    clock = _Clock()
    monkeypatch.setattr(time, "monotonic", clock.monotonic)
    steady = solve(Board(game, deal), seconds=1e9, techniques=techniques)

    def slow_down(*args: Any) -> list[tuple[int, int, int]]:
        clock.busy = True
        return polish(*args)

    monkeypatch.setattr(solver, "_polish", slow_down)
    slowed = solve(Board(game, deal), seconds=1e9, techniques=techniques)
    assert clock.busy  # the polish ran
    assert steady.solved and slowed.solved
    assert steady.nodes == slowed.nodes


# -- hint and first_losing_ply -----------------------------------------------------------


def test_hint_is_the_first_move_of_a_winning_line() -> None:
    board = Board("citadel", 3)
    answer = hint(board, seconds=1.0)
    assert answer.verdict == "solved"
    assert answer.move is not None
    assert board.is_legal(answer.move)
    board.play(answer.move)
    assert solve(board, seconds=5).solved


def test_hint_on_a_lost_position_says_unsolvable() -> None:
    answer = hint(Board("streets-and-alleys", 2))
    assert answer.verdict == "unsolvable"
    assert answer.move is None


# Citadel 1: seven good moves, then t5-t4 loses the game; three more moves follow.
CITADEL_1_LOST = [
    *("t7-t6", "t7-t1", "t7-f3", "t2-f3", "t8-t7", "t3-t2", "t4-t3"),
    *("t5-t4", "t1-t4", "t4-t1", "t1-t4"),
]


def test_first_losing_ply_finds_the_move_that_lost() -> None:
    assert first_losing_ply("citadel", 1, CITADEL_1_LOST, seconds=20) == 8


def test_first_losing_ply_is_none_while_the_game_can_be_won() -> None:
    assert first_losing_ply("citadel", 1, CITADEL_1_LOST[:7], seconds=10) is None


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """The heuristics of the best-first scans the solver runs alone (second looks and
    probes), in order."""
    ran: list[tuple[int, ...]] = []
    alone = solver._best_first_alone

    def spy(
        board: Board,
        techniques: Techniques,
        weights: tuple[int, int, int, int, int, int],
        limit: int,
        deadline: float,
    ) -> tuple[object, int]:
        ran.append(weights)
        return alone(board, techniques, weights, limit, deadline)

    monkeypatch.setattr(solver, "_best_first_alone", spy)
    return ran


def test_a_hint_looks_for_a_shorter_line_once(looks: list[tuple[int, ...]]) -> None:
    """A player waits for a hint: the second look's first heuristic only."""
    assert hint(Board("citadel", 3), seconds=1.0).verdict == "solved"
    assert looks == [DEFAULT_TECHNIQUES.looks[0]]


def test_the_analysis_of_a_lost_game_never_looks_for_shorter_lines(
    looks: list[tuple[int, ...]],
) -> None:
    """Its probes need verdicts only: a second look would spend their shared budget."""
    assert first_losing_ply("citadel", 1, CITADEL_1_LOST, seconds=20) == 8
    assert looks == []


def test_first_losing_ply_is_zero_for_a_lost_deal() -> None:
    assert first_losing_ply("streets-and-alleys", 2, [], seconds=5) == 0


# -- the search plays on the engine's position ---------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_search_moves_are_the_engines_less_the_pruned_ones(game: str) -> None:
    """Along random games: with pruning off the search's moves are the board's legal moves;
    with it on they are a subset that drops only moves to a second empty pile (or free cell)
    or of a whole pile (a lone card or run) to an empty pile; its safe move is one of the
    board's; its key ignores pile order."""
    rng = random.Random(game)
    plain = Techniques(one_empty=False, skip_lone=False)
    options = ["take-back"] if game == "beleaguered-castle" else []
    for deal in (1, 2, 3):
        board = Board(game, deal, options=options if deal == 3 else [])
        for _ in range(60):
            search = _Search(board, plain)
            engine = set(board.raw_legal_moves())
            assert set(search.moves()) == engine
            # The search's short ways (single cards, the need table) keep the engine's order.
            assert search.moves() == Position.moves(search)
            pruning = _Search(board, ENGINE_SAFETY)
            assert pruning.moves() == Position.moves(pruning, one_empty=True, skip_lone=True)
            assert _autoplayed(pruning) == _autoplayed(board.position())
            _assert_idle_safety_goes_further(board)
            pruned = set(_Search(board, Techniques()).moves())
            empties = [i for i, pile in enumerate(board.tableau) if not pile]
            c0 = board.book.c0
            cells = [c0 + k for k, cell in enumerate(board.cells) if not cell]
            for s, d, c in engine - pruned:  # a lone card, or a run that is the whole pile
                lone = d in empties and board.tableau[s][0] == c
                assert d in empties[1:] or lone or d in cells[1:]
            safe = {(s, t, int(c)) for s, t, c in board.position().safe_moves()}
            assert {board.parse_move(m.notation()) for m in board.safe_moves()} == {
                board.legal_moves()[board.raw_legal_moves().index(raw)] for raw in safe
            }
            found = search.safe_move()
            assert (found is None) == (not safe)
            assert found is None or found in safe
            moves = board.raw_legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            if not board.options and not board.safe_moves():  # as every searched position
                _assert_steps_as_the_engine_plays(board, move)
            board.push(move)
        layout = board.layout_value()
        tableau = list(layout.tableau)
        rng.shuffle(tableau)
        shuffled = Board(
            game, deal, options=board.options, layout=replace(layout, tableau=tuple(tableau))
        )
        assert _Search(shuffled, plain).key() == _Search(board, plain).key()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_search_leaves_the_garbage_collector_as_it_found_it(enabled: bool) -> None:
    """The search pauses the collector (see ``_collector_paused``), and gives it back."""
    seen: list[bool] = []
    features = _Search.features

    def spy(search: _Search) -> tuple[int, int, int, int, int]:
        seen.append(gc.isenabled())
        return features(search)

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_Search, "features", spy)
            assert solve(Board("beleaguered-castle", 2), seconds=5).solved
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)


def _assert_steps_as_the_engine_plays(board: Board, move: tuple[int, int, int]) -> None:
    """The search's step (its short ways for single cards, the need table and the sorted
    key) plays ``move`` and the safe moves after it as the engine's position does, and
    answers that position's key."""
    search = _Search(board, ENGINE_SAFETY)
    line: list[tuple[int, int, int]] = []
    key = search.step(move, line)
    engine = board.position()
    engine.do(*move)
    played = [move]
    engine.autoplay(played)
    assert line == played
    assert search.piles == engine.piles and search.base == engine.base
    assert key == engine.key()


def _assert_idle_safety_goes_further(board: Board) -> None:
    """The search's own safe moves (``Techniques.idle_targets``) play every card the
    engine's rule plays, and perhaps more, each a legal move."""
    engines = _autoplayed(board.position())
    idle = _autoplayed(_Search(board, Techniques()))
    assert {c for _, _, c in engines} <= {c for _, _, c in idle}
    replay = board.copy()
    for raw in idle:
        replay.play(replay.move_of(raw))


def _autoplayed(position: Position) -> list[tuple[int, int, int]]:
    """The safe moves ``position`` plays, in order: the search's own way for a search."""
    line: list[tuple[int, int, int]] = []
    if isinstance(position, _Search):
        position._autoplay_all(line)
        return line
    while (move := position.safe_move()) is not None:
        position.do(*move)
        line.append(move)
    return line


# -- the command line --------------------------------------------------------------------


def test_cli_prints_the_solution_one_move_per_line() -> None:
    out = io.StringIO()
    assert main(["solve", "citadel", "1", "--seconds", "5"], stdout=out) == 0
    first, *rest = out.getvalue().splitlines()
    assert first == f"solved in {len(rest)} moves"
    board = Board("citadel", 1)
    for word in rest:
        board.play(word)
    assert board.is_won()


def test_cli_prints_unsolvable() -> None:
    out = io.StringIO()
    assert main(["solve", "streets-and-alleys", "2"], stdout=out) == 0
    assert out.getvalue() == "unsolvable\n"


def test_cli_prints_unknown_when_time_runs_out() -> None:
    out = io.StringIO()
    assert main(["solve", HARD[0], str(HARD[1]), "--seconds", "0.1"], stdout=out) == 0
    assert out.getvalue() == "unknown\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "citadel", "1", "--seconds", "0"],
        ["solve", "citadel", "1", "--seconds", "soon"],
        ["solve", "citadel", "one"],
        ["solve", "no-such-game", "1"],
        ["solve", "citadel"],
    ],
)
def test_cli_bad_arguments_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        code = main(argv, stdout=io.StringIO())
        raise SystemExit(code)
    assert stopped.value.code == 2


# -- the second look and difficulty --------------------------------------------------------


def test_the_second_look_keeps_a_shorter_winning_line() -> None:
    board = Board("beleaguered-castle", 5)
    first = solve(board, max_nodes=100_000, techniques=Techniques(second_look=False))
    looked = solve(board, max_nodes=100_000)
    assert len(looked.moves) < len(first.moves)
    assert replays_to_win(board, looked.moves)
    assert looked.nodes == first.nodes  # the effort to the verdict, as difficulty reads it
    assert 0 < looked.second_look <= 100_000 - looked.nodes


def test_the_second_look_tries_its_heuristics_in_turn_and_keeps_the_shortest_line(
    looks: list[tuple[int, ...]],
) -> None:
    board = Board("citadel", 3)
    once = solve(board, max_nodes=30_000, techniques=ONE_LOOK)
    looks.clear()
    both = solve(board, max_nodes=30_000)
    assert looks == list(DEFAULT_TECHNIQUES.looks)
    assert len(both.moves) < len(once.moves)  # 55 against 59 moves
    assert replays_to_win(board, both.moves)
    assert both.nodes == once.nodes
    assert once.second_look < both.second_look <= 30_000 - both.nodes


def test_the_second_look_stays_within_the_node_budget() -> None:
    board = Board("beleaguered-castle", 5)
    first = solve(board, max_nodes=100_000, techniques=Techniques(second_look=False))
    budget = first.nodes + 50
    result = solve(board, max_nodes=budget)
    assert result.solved
    assert result.nodes + result.second_look <= budget


def test_stats_of_a_solved_deal_and_none_otherwise() -> None:
    result = solve(Board("citadel", 1), max_nodes=100_000)
    assert result.stats == SolveStats("citadel", result.nodes, len(result.moves))
    assert solve(Board("beleaguered-castle", 3)).stats is None


@pytest.mark.parametrize("game", list(GAMES))
def test_difficulty_follows_the_declared_limits(game: str) -> None:
    easy, medium = GAMES[game].difficulty.easy, GAMES[game].difficulty.medium
    assert 0 < easy < medium
    label = {n: difficulty(SolveStats(game, n, 90)) for n in (0, easy, easy + 1, medium)}
    assert label == {0: "easy", easy: "easy", easy + 1: "medium", medium: "medium"}
    assert difficulty(SolveStats(game, medium + 1, 90)) == "hard"


def test_archway_winnable_deals_get_a_label() -> None:
    stats = solve(Board("archway", 783)).stats
    assert stats is not None
    assert difficulty(stats) in {"easy", "medium", "hard"}
