"""``python -m tools.bench_solver``: how well the solver decides deals, per game.

For deals 1..N of each game, at S seconds per deal, it prints the share solved, proved
unsolvable and unknown, the median and worst time, and the median solution length. Where
``fc-solve`` (Debian's ``freecell-solver-bin``) is installed it also runs it on the same
Beleaguered Castle, Citadel and Streets and Alleys deals and prints whether the verdicts agree
(they must, wherever both decide), the time ratio, and its best-first (``a-star``) solution
length beside ours. Deals run in parallel over the machine's cores.

It also times Archway's exact decider over a range of deals and prints its winnable rate.
The defaults are quick (deals 1-40 at 2 s, Archway 1-400); the issue's measurement is

    python -m tools.bench_solver --deals 200 --seconds 10 \
        --games beleaguered-castle,citadel,streets-and-alleys --archway-deals 1-20000
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from games.rules.board import Board
from games.rules.solver import SOLVED, UNKNOWN, UNSOLVABLE, Techniques, parse_scan, solve
from games.rules.variants import GAMES

FC_SOLVE_GAMES = {
    "beleaguered-castle": "beleaguered_castle",
    "citadel": "citadel",
    "streets-and-alleys": "streets_and_alleys",
}
"""The games fc-solve knows, by our slug: its preset and pysol_cards' game name."""


@dataclass(frozen=True)
class Outcome:
    """One deal's result: verdict, wall and CPU seconds, moves (0 unless solved), positions
    expanded."""

    deal: int
    verdict: str
    seconds: float
    cpu: float
    moves: int
    nodes: int


@dataclass(frozen=True)
class FcOutcome:
    deal: int
    verdict: str
    seconds: float
    astar_moves: int | None


def run_ours(job: tuple[str, int, float, int | None, Techniques]) -> Outcome:
    game, deal, seconds, nodes, techniques = job
    board = Board(game, deal)
    started = time.monotonic()
    cpu = time.process_time()
    result = solve(board, seconds=seconds, max_nodes=nodes, techniques=techniques)
    return Outcome(
        deal,
        result.verdict,
        time.monotonic() - started,
        time.process_time() - cpu,
        len(result.moves),
        result.nodes,
    )


@dataclass(frozen=True)
class ArchwayOutcome:
    deal: int
    verdict: str
    milliseconds: float
    nodes: int


def run_archway(job: tuple[int, int, int | None]) -> list[ArchwayOutcome]:
    """Archway deals ``first..first + count - 1`` through ``solve`` (its exact decider)."""
    first, count, nodes = job
    outcomes = []
    for deal in range(first, first + count):
        board = Board("archway", deal)
        started = time.perf_counter()
        result = solve(board, seconds=600, max_nodes=nodes)
        elapsed = 1000 * (time.perf_counter() - started)
        outcomes.append(ArchwayOutcome(deal, result.verdict, elapsed, result.nodes))
    return outcomes


def report_archway(outcomes: Sequence[ArchwayOutcome]) -> None:
    ms = [o.milliseconds for o in outcomes]
    won = [o.deal for o in outcomes if o.verdict == SOLVED]
    undecided = [o.deal for o in outcomes if o.verdict == UNKNOWN]
    rate = f"1 in {len(outcomes) / len(won):,.0f}" if won else "none"
    print(
        f"{'Archway (decider)':20} deals {outcomes[0].deal}-{outcomes[-1].deal}: "
        f"{len(won)} winnable ({100 * len(won) / len(outcomes):.3f}%, {rate}), "
        f"undecided {len(undecided)}; "
        f"ms per deal median {statistics.median(ms):.2f} mean {statistics.mean(ms):.1f} "
        f"worst {max(ms):.0f}; positions worst {max(o.nodes for o in outcomes)}"
    )
    print(f"{'':20} winnable: {' '.join(map(str, won)) or '-'}")
    if undecided:
        print(f"{'':20} undecided: {' '.join(map(str, undecided))}")


def fc_solve_board(game: str, deal: int) -> str:
    """PySolFC's deal in fc-solve's board format (pysol_cards renders it)."""
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    layout = Game(FC_SOLVE_GAMES[game], deal, RandomBase.DEALS_PYSOLFC)
    return str(layout.calc_layout_string(CardRenderer(True)))


def _fc_solve(board: str, args: Sequence[str], seconds: float) -> tuple[str, int, float]:
    """Run fc-solve with a time limit: (verdict, moves printed, seconds). Its exit code is
    always 0, so the verdict is read from what it prints."""
    started = time.monotonic()
    try:
        done = subprocess.run(
            ["fc-solve", *args, "-sel", "-m", "-"],
            input=board,
            capture_output=True,
            text=True,
            timeout=seconds,
            env={**os.environ, "FREECELL_SOLVER_QUIET": "1"},
        )
    except subprocess.TimeoutExpired:
        return UNKNOWN, 0, time.monotonic() - started
    out = done.stdout
    elapsed = time.monotonic() - started
    if "This game is solveable" in out:
        return SOLVED, sum(line.startswith("Move") for line in out.splitlines()), elapsed
    if "I could not solve" in out:
        return UNSOLVABLE, 0, elapsed
    return UNKNOWN, 0, elapsed


def run_fc_solve(job: tuple[str, int, float]) -> FcOutcome:
    game, deal, seconds = job
    board = fc_solve_board(game, deal)
    preset = ["-g", FC_SOLVE_GAMES[game]]
    verdict, _, elapsed = _fc_solve(board, [*preset, "-l", "toons-for-twenty-somethings"], seconds)
    astar, length, _ = _fc_solve(board, [*preset, "-me", "a-star", "-to", "01ABCDE"], seconds)
    return FcOutcome(deal, verdict, elapsed, length if astar == SOLVED else None)


def _share(outcomes: Sequence[Outcome], verdict: str) -> str:
    count = sum(o.verdict == verdict for o in outcomes)
    return f"{100 * count / len(outcomes):5.1f}%"


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def report_game(game: str, ours: Sequence[Outcome], fc: Sequence[FcOutcome] | None) -> None:
    name = GAMES[game].name
    times = [o.seconds for o in ours]
    cpu = [o.cpu for o in ours]
    lengths = [o.moves for o in ours if o.verdict == SOLVED]
    nodes = [o.nodes for o in ours]
    print(
        f"{name:20} solved {_share(ours, SOLVED)}  unsolvable {_share(ours, UNSOLVABLE)}  "
        f"unknown {_share(ours, UNKNOWN)}  decided {_decided(ours)}  "
        f"time median {_fmt(_median(times))} s worst {_fmt(max(times))} s  "
        f"length median {_fmt(_median(lengths), 0)}"
    )
    print(
        f"{'':20} cpu median {_fmt(_median(cpu))} s worst {_fmt(max(cpu))} s total "
        f"{sum(cpu):.0f} s; positions median {_fmt(_median(nodes), 0)} total {sum(nodes)}"
    )
    unknown = [o.deal for o in ours if o.verdict == UNKNOWN]
    if unknown:
        print(f"{'':20} unknown: {' '.join(map(str, unknown))}")
    if fc is None:
        return
    by_deal = {o.deal: o for o in fc}
    both = [(o, by_deal[o.deal]) for o in ours if o.verdict != UNKNOWN]
    both = [(o, f) for o, f in both if f.verdict != UNKNOWN]
    disagree = [o.deal for o, f in both if o.verdict != f.verdict]
    fc_times = [f.seconds for f in fc]
    ratio = sum(o.seconds for o, _ in both) / max(1e-9, sum(f.seconds for _, f in both))
    assert [o.deal for o in ours] == [f.deal for f in fc]
    astar = [f.astar_moves for f in fc if f.astar_moves is not None]
    fc_decided = 100 * sum(f.verdict != UNKNOWN for f in fc) / len(fc)
    print(
        f"{'  fc-solve':20} solved {_share_fc(fc, SOLVED)}  unsolvable "
        f"{_share_fc(fc, UNSOLVABLE)}  decided {fc_decided:5.1f}%  "
        f"time median {_fmt(_median(fc_times), 3)} s worst {_fmt(max(fc_times), 3)} s  "
        f"a-star length median {_fmt(_median(astar), 0)}"
    )
    agreement = "total" if not disagree else f"DISAGREE on deals {disagree}"
    per_deal = [o.seconds / max(1e-6, f.seconds) for o, f in both]
    print(
        f"{'':20} agreement on {len(both)} deals both decided: {agreement}; time ours/fc-solve "
        f"{ratio:.1f}x in total, {_fmt(_median(per_deal), 1)}x median per deal"
    )
    # Lengths on the deals both solved: ours against fc-solve's best-first (a-star) line.
    pairs = [
        (o.moves, f.astar_moves) for o, f in zip(ours, fc, strict=True) if o.moves and f.astar_moves
    ]
    if pairs:
        ours_len = statistics.median(a for a, _ in pairs)
        fc_len = statistics.median(b for _, b in pairs)
        print(
            f"{'':20} length on {len(pairs)} deals both solved: ours median {ours_len:.0f}, "
            f"a-star median {fc_len:.0f}, ratio {ours_len / fc_len:.2f}x"
        )
    only_ours = [
        o.deal for o in ours if o.verdict != UNKNOWN and by_deal[o.deal].verdict == UNKNOWN
    ]
    only_fc = [o.deal for o in ours if o.verdict == UNKNOWN and by_deal[o.deal].verdict != UNKNOWN]
    if only_ours or only_fc:
        print(f"{'':20} decided only by us: {only_ours}; only by fc-solve: {only_fc}")


def _decided(outcomes: Sequence[Outcome]) -> str:
    count = sum(o.verdict != UNKNOWN for o in outcomes)
    return f"{100 * count / len(outcomes):5.1f}%"


def _share_fc(outcomes: Sequence[FcOutcome], verdict: str) -> str:
    count = sum(o.verdict == verdict for o in outcomes)
    return f"{100 * count / len(outcomes):5.1f}%"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_solver", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--deals", type=int, default=40, help="deals 1..N (default 40)")
    parser.add_argument("--first", type=int, default=1, help="first deal (default 1)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per deal (default 2)")
    parser.add_argument(
        "--games", default=",".join(GAMES), help="comma-separated slugs (default: all six)"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--nodes", type=int, default=None, help="also cap positions per deal (load-independent)"
    )
    parser.add_argument("--no-fc-solve", action="store_true", help="skip fc-solve")
    parser.add_argument(
        "--archway-deals",
        default="1-400",
        help="Archway deals for the decider's timing and winnable rate, FIRST-LAST "
        "(default 1-400; 0 skips)",
    )
    parser.add_argument(
        "--archway-nodes",
        type=int,
        default=1_000_000,
        help="positions per Archway deal for the decider (default 1,000,000)",
    )
    parser.add_argument("--json", help="also write every deal's outcome to this file")
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=[
            "canonical",
            "autoplay",
            "one_empty",
            "skip_lone",
            "shorten",
            "second_look",
            "probes",
            "late_scans",
            "idle_targets",
        ],
        help="turn a technique off (repeatable), to measure what it buys",
    )
    parser.add_argument(
        "--depth-first-after",
        type=_positions_or_none,
        default=argparse.SUPPRESS,
        metavar="N|none",
        help="positions after which the best-first scan drains depth first, or none "
        "(default: the solver's)",
    )
    parser.add_argument(
        "--scans",
        type=_scans,
        default=None,
        help="scans and shares, e.g. best-first:3,random-dfs:1:1 (default: the solver's)",
    )
    parser.add_argument(
        "--late-scans",
        type=_scans,
        default=None,
        help="scans that join once the others spent --late-after positions, as --scans "
        "(default: the solver's)",
    )
    parser.add_argument(
        "--late-after",
        type=_positions,
        default=None,
        help="positions before the late scans join (default: the solver's)",
    )
    return parser


def _positions(text: str) -> int:
    """A count of positions (0 or more)."""
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a count of positions")
    return int(text)


def _positions_or_none(text: str) -> int | None:
    """``none``, or a count of positions (at least 1)."""
    if text.strip().lower() == "none":
        return None
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is neither a count of positions nor none")
    return int(text)


def techniques_from(args: argparse.Namespace) -> Techniques:
    switches: dict[str, object] = {
        name: () if name in ("probes", "late_scans") else False for name in args.without
    }
    if "depth_first_after" in args:
        switches["depth_first_after"] = args.depth_first_after
    if args.scans:
        switches["scans"] = args.scans
    if args.late_scans:
        switches["late_scans"] = args.late_scans
    if args.late_after is not None:
        switches["late_after"] = args.late_after
    return Techniques(**switches)  # type: ignore[arg-type]


def _scans(text: str) -> tuple[tuple[str, int], ...]:
    """``NAME:SHARE,...`` as ``Techniques.scans`` (a name without a colon has share 1;
    a seeded random DFS takes both: ``random-dfs:SEED:SHARE``); anything else is refused
    with the reason."""
    scans = []
    for item in text.split(","):
        name, _, share = item.rpartition(":")
        if not name:
            name, share = share, "1"
        if not share.isdigit() or int(share) < 1:
            raise argparse.ArgumentTypeError(f"{item!r}: a scan's share is a count, at least 1")
        try:
            parse_scan(name)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        scans.append((name, int(share)))
    return tuple(scans)


def _deal_range(text: str) -> range | None:
    """``FIRST-LAST`` as a range of deals, ``0`` as an empty one, ``None`` if malformed."""
    if text.strip() == "0":
        return range(0)
    first, _, last = text.partition("-")
    if not (first.strip().isdigit() and last.strip().isdigit()):
        return None
    deals = range(int(first), int(last) + 1)
    return deals if deals and deals.start >= 1 else None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    archway = _deal_range(args.archway_deals)
    if unknown or args.deals < 1 or args.seconds <= 0 or archway is None:
        print(
            f"error: choose games among {', '.join(GAMES)}, deals >= 1, seconds > 0, "
            "--archway-deals FIRST-LAST or 0",
            file=sys.stderr,
        )
        return 2
    deals = range(args.first, args.first + args.deals)
    fc_solve = shutil.which("fc-solve") is not None and not args.no_fc_solve
    print(
        f"deals {deals.start}-{deals.stop - 1}, {args.seconds:g} s per deal, "
        f"{args.jobs} processes; fc-solve: {'yes' if fc_solve else 'not run'}"
    )
    techniques = techniques_from(args)
    if techniques != Techniques():
        print(f"techniques: {techniques}")
    record: dict[str, dict[str, list[object]]] = {}
    # A fresh server process forks the workers: forking the caller itself (a test runner
    # with threads, say) can deadlock a child.
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
        if archway:
            chunk = 50
            parts = [
                (first, min(chunk, archway.stop - first), args.archway_nodes)
                for first in range(archway.start, archway.stop, chunk)
            ]
            report_archway([o for part in pool.map(run_archway, parts) for o in part])
            sys.stdout.flush()
        for game in games:
            jobs = [(game, deal, args.seconds, args.nodes, techniques) for deal in deals]
            ours = list(pool.map(run_ours, jobs))
            fc = None
            if fc_solve and game in FC_SOLVE_GAMES:
                fc = list(pool.map(run_fc_solve, [(game, d, args.seconds) for d in deals]))
            report_game(game, ours, fc)
            sys.stdout.flush()
            record[game] = {"ours": [asdict(o) for o in ours]}
            if fc is not None:
                record[game]["fc-solve"] = [asdict(f) for f in fc]
            if args.json:
                with open(args.json, "w", encoding="utf-8") as handle:
                    json.dump(record, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
