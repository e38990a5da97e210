"""Solver work for players: Hint (inside the request, bounded) and Analyse (a background task).

The solver costs seconds of CPU; a web worker that runs it serves nobody else meanwhile. So:

- **Hint** answers are cached by position (game, options and layout): the same position
  gives every player the same hint, computed once. A miss runs the solver for at most
  ``HINT_SECONDS``, and only when (1) this player has no other solver job running (a
  marker in the shared cache) and (2) one of this server's solver slots is free. The slots
  are ``WEB_CONCURRENCY // 2`` lock files per server (``flock``), so solving never holds
  more than half of the server's web workers, whichever processes they are, and a worker
  that dies drops its lock with it. Otherwise the player is told at once to try again
  (``SolverBusy``): nobody's move ever waits behind a hint. The search itself runs at a
  lower CPU priority (``SOLVER_NICENESS``), so other players' requests on the machine take
  the CPU before it.
- **Analyse** never runs in a request: the answer for a deal and line of moves (not a game
  version: toggling auto-play or another player reaching the same line reuses it) is an
  ``Analysis`` row that the task ``analyse_line`` fills in; the page polls until it is done.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Final

from django.conf import settings
from django.core.cache import cache
from django.tasks import task
from django.utils import timezone

from games.models import Analysis, Daily, DealVerdict, Game
from games.presentation import seconds_text
from games.rules import Board, RulesError, solver
from games.rules.solver import Hint

HINT_SECONDS = 1.0
"""The Hint button's solver budget: an answer within about a second."""
HINT_CACHE_SECONDS = 24 * 3600
"""How long a searched answer is kept for the position (the solver's runs are limited)."""
KNOWN_HINT_CACHE_SECONDS = 3600
"""How long an answer read from what is known of the deal is kept: it costs milliseconds to
read again, and Hint may be asked 120 times a minute from one address, each on a new
position: kept for a week, they came to 1.2 million keys an address in the shared cache."""
HINT_LINE_SECONDS = 24 * 3600
"""How long a game remembers the line its last solved hint found (``position_hint``)."""
UNKNOWN_HINT_CACHE_SECONDS = 3600
"""A search that ran out of time is remembered too (asking again would only burn CPU)."""
PLAYER_JOB_SECONDS = 30
"""How long a player's solver marker outlives a worker killed mid-search."""
SOLVER_NICENESS = 10
"""How much a hint's search yields to the web requests on the same machine (``nice``)."""

ANALYSE_SECONDS = 10.0
"""The worker's budget for one analysis (no web worker waits for it)."""
ANALYSIS_RETRY = timedelta(minutes=5)
"""An analysis still not done after this long (its worker died) is queued again."""
MAX_PENDING_ANALYSES = 30
"""Analyses waiting for the worker at most (about three minutes of one worker's time): a
backstop for the whole site. One client is held well below it by its own limit on new
analyses (``limits.NEW_ANALYSIS``, counted by the analyse view), so it cannot fill it."""
ANALYSIS_PRIORITY = 1
"""A player waits on an analysis: it runs before a short pool's batch (0) and every deal's
verdict (``pools.VERDICT_PRIORITY``), after an empty pool's batch and a day's preparation
(the order and why: ``pools.VERDICT_PRIORITY``)."""


class SolverBusy(Exception):
    """No solver run now (HTTP 429): the message says why and ``retry_after`` when to retry."""

    def __init__(self, message: str, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after


# -- Hint ---------------------------------------------------------------------------------


def hint_key(board: Board) -> str:
    layout = f"{board.rules.slug}|{','.join(sorted(board.options))}|{board.layout()}"
    return "hint:" + hashlib.sha256(layout.encode()).hexdigest()


def deal_knowledge(game: Game) -> tuple[list[list[str]], bool]:
    """What is known of a game's deal before any search: its proofs (a daily's, or the
    winning line of the deal's verdict) and whether its verdict says the game cannot be
    won (``DealVerdict.for_game``: with an easing option only a win is known)."""
    if game.daily_id is not None:
        proof = Daily.objects.filter(pk=game.daily_id).values_list("solution", flat=True)
        return [line.split() for line in proof], False
    verdict = DealVerdict.for_game(game)
    if verdict is None:
        return [], False
    if verdict.verdict == DealVerdict.Verdict.WINNABLE:
        # A hint's proof (``hinted``) begins with one player's moves, any detour
        # included (an attacker's pass made every game's first hint a 32-move detour): it
        # proves the verdict, and guides nobody's hints.
        return ([] if verdict.hinted else [verdict.line]), False
    return [], verdict.verdict == DealVerdict.Verdict.UNWINNABLE


def line_key(game_id: uuid.UUID) -> str:
    """The cache key of the winning line the last solved hint of a game found."""
    return f"hint-line:{game_id}"


def position_hint(
    board: Board,
    *,
    player_id: uuid.UUID,
    may_solve: bool = True,
    game: Game | None = None,
) -> tuple[Hint, bool]:
    """The next move of a winning line from ``board`` and whether the solver ran for it.

    Known answers come first, without a search: a verdict cached for the position; then,
    for the board of ``game``, what is known of its deal (``deal_knowledge``, read only when
    the cache has no verdict): lost, when its verdict says so (no position it reaches can
    be won); the next move of a known winning line the position is on (the deal's proof,
    from its opening; then the line the game's last solved hint found, remembered for
    ``HINT_LINE_SECONDS``), so a player who follows the hints follows one line and a proved
    deal always has its hint. Such an answer is cached for the position too, as a searched
    one is (the key holds the game and its options).

    Otherwise the solver runs: ``SolverBusy`` when it may not (``may_solve`` false: the
    client's budget of new positions is spent), or this player or this server's solver
    slots are busy. A search that ran out of time is cached too, and answers again until
    it expires."""
    key = hint_key(board)
    cached: Hint | None = cache.get(key)
    if cached is not None and cached.verdict != solver.UNKNOWN:
        return cached, False
    if game is not None and (from_deal := _known_hint(board, game)) is not None:
        cache.set(key, from_deal, timeout=KNOWN_HINT_CACHE_SECONDS)
        return from_deal, False
    if cached is not None:
        return cached, False
    if not may_solve:
        raise SolverBusy("You asked for hints on many new positions: wait a little.")
    marker = f"solving:{player_id}"
    if not cache.add(marker, 1, timeout=PLAYER_JOB_SECONDS):
        raise SolverBusy("Your last hint is still being worked out: wait a moment.")
    try:
        with solver_slot() as got:
            if not got:
                raise SolverBusy(
                    "The solver is busy with other players' hints: try again in a few seconds."
                )
            answer, found = yielding(lambda: solver.hint_and_line(board, seconds=HINT_SECONDS))
    finally:
        cache.delete(marker)
    known = answer.verdict != solver.UNKNOWN
    cache.set(key, answer, timeout=HINT_CACHE_SECONDS if known else UNKNOWN_HINT_CACHE_SECONDS)
    if found and game is not None:
        line = [move.notation() for move in found]
        cache.set(line_key(game.pk), (board.layout(), line), timeout=HINT_LINE_SECONDS)
        _settle_pending_verdict(game, board, line)
    return answer, True


def _settle_pending_verdict(game: Game, board: Board, line: list[str]) -> None:
    """Settle a typed deal's pending verdict with the winning line a hint found: the game's
    moves, then the hint's line. "Checking whether this deal can be won…" stood beside a
    hint's "(109 moves to win)" while the worker, which decides verdicts after all other
    work, had not come to the deal (a player's pass). Such a proof is no search from the
    deal: it is marked ``hinted`` (the badge says a hint found it), and ``pools.decide_deal``
    replaces it with a search's line and difficulty when it comes to the deal."""
    proof = [move.notation() for move in board.move_stack] + line
    _settle(
        game,
        verdict=DealVerdict.Verdict.WINNABLE,
        solution=" ".join(proof),
        moves=len(proof),
        hinted=True,
    )


def settle_lost_deal(game: Game) -> None:
    """Settle a typed deal's pending verdict as lost: a hint's search from the game's
    opening (which safe moves never lose) visited every position."""
    _settle(game, verdict=DealVerdict.Verdict.UNWINNABLE)


def _settle(game: Game, **fields: object) -> None:
    """Store what a hint proved of the game's deal, if its verdict is pending. Not for a
    daily's deal, nor with an easing option (its lines are not the deal's)."""
    if game.options or game.daily_id is not None:
        return
    _settle_deal(game.slug, game.deal, **fields)


def _settle_deal(slug: str, deal: int, **fields: object) -> None:
    """Store what a hint or an analysis proved of a deal, if its verdict is pending."""
    DealVerdict.objects.filter(slug=slug, deal=deal, verdict=DealVerdict.Verdict.PENDING).update(
        solved_at=timezone.now(), **fields
    )


def _known_hint(board: Board, game: Game) -> Hint | None:
    """The answer what is known of the game's deal gives, without a search: lost, or a
    known line's next move; ``None`` when it gives none."""
    lines, deal_lost = deal_knowledge(game)
    if deal_lost:
        return Hint(solver.UNSOLVABLE, deal_lost=True)
    for line in lines:
        if (answer := solver.hint_from_line(board, line)) is not None:
            return answer
    return _remembered_hint(board, game.pk)


def _remembered_hint(board: Board, game_id: uuid.UUID) -> Hint | None:
    """The next move of the line the game's last solved hint found, if the board is on it.
    Stored as the position the hint was asked in and the line from there: its size is the
    line's, however long the game."""
    remembered = cache.get(line_key(game_id))
    if remembered is None:
        return None
    layout, line = remembered
    try:
        start = Board.from_layout(layout)
    except RulesError:  # a layout this version cannot read: as if nothing was remembered
        return None
    return solver.hint_from_line(board, line, start=start)


def yielding[T](work: Callable[[], T]) -> T:
    """``work()`` on a thread of its own at niceness ``SOLVER_NICENESS``, while the caller
    waits. Linux gives each thread its own niceness, and an unprivileged thread may lower
    its priority but never raise it back, so the thread ends with the work. Elsewhere a
    niceness is the whole process's: there ``work`` runs as it is."""
    if not sys.platform.startswith("linux"):
        return work()
    with ThreadPoolExecutor(1, "solver", initializer=os.nice, initargs=(SOLVER_NICENESS,)) as pool:
        return pool.submit(work).result()


def solver_slots() -> int:
    return max(1, settings.WEB_CONCURRENCY // 2)


def _lock_dir() -> Path:
    default = Path(tempfile.gettempdir()) / f"castle-solver-{os.getuid()}"
    path = Path(getattr(settings, "SOLVER_LOCK_DIR", "") or default)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


@contextlib.contextmanager
def solver_slot() -> Iterator[bool]:
    """Hold one of this server's solver slots for the block (yields ``False`` if all are
    taken). The locks are files in one directory per host (and user): every process of the
    server sees them, and a holder's lock goes when it exits or dies."""
    directory = _lock_dir()
    for index in range(solver_slots()):
        handle = open(directory / f"slot-{index}.lock", "a")  # noqa: SIM115
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
            handle.close()
        return
    yield False


# -- Analyse ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnalysisState:
    done: bool
    ply: int | None
    counted: bool
    """Whether this request was the first for this game's line (a daily counts it a hint)."""


def analysis_key(game: Game, line: Sequence[str]) -> str:
    text = "\n".join([game.slug, str(game.deal), ",".join(sorted(game.options)), " ".join(line)])
    return hashlib.sha256(text.encode()).hexdigest()


def analysis_request(
    *,
    game: Game,
    line: Sequence[str],
    now: datetime,
    wait_for_new: Callable[[], int | None] = lambda: None,
) -> AnalysisState:
    """The analysis of ``line`` from the game's deal: done, or queued (exactly once, and
    again only if its worker died).

    A new analysis is refused (``SolverBusy``) while this player's previous one is still
    pending, or while ``MAX_PENDING_ANALYSES`` wait for the worker: the queue stays short
    enough for everyone's answer (and the dailies) to come in time. Before the queue's room,
    ``wait_for_new`` counts a new one against the client's limit (the analyse view's:
    ``limits.NEW_ANALYSIS``) and says how long to wait when over it; asking again while
    one's last analysis runs is refused before it counts."""
    key = analysis_key(game, line)
    if not Analysis.objects.filter(key=key).exists():
        _check_player(game.owner_id, key)
        if (wait := wait_for_new()) is not None:
            raise SolverBusy(
                f"You asked for many analyses in a short time: please wait {seconds_text(wait)}"
                " and try again.",
                wait,
            )
        _check_room(game.owner_id, key, now)
    row, created = Analysis.objects.get_or_create(key=key, defaults={"requested_at": now})
    if created:
        cache.set(f"analysing:{game.owner_id}", key, timeout=int(ANALYSIS_RETRY.total_seconds()))
    if not row.done:
        stale = row.requested_at < now - ANALYSIS_RETRY
        retry = stale and bool(
            Analysis.objects.filter(pk=row.pk, requested_at=row.requested_at).update(
                requested_at=now
            )
        )
        if created or retry:  # the queue is a table: the task row commits with this one
            analyse_line.enqueue(key, game.slug, game.deal, sorted(game.options), list(line))
    # Only a daily game counts it (a hint): a marker for every game's every Analyse filled
    # the cache, each kept 30 days, a client's 60 a minute 435 MB. A daily game's day ends
    # within one day; after it nothing ranks.
    counted = game.daily_id is not None and cache.add(
        f"analysed:{game.pk}:{key}", 1, timeout=int(COUNTED_FOR.total_seconds())
    )
    return AnalysisState(done=row.done, ply=row.ply, counted=counted)


COUNTED_FOR: Final = timedelta(days=1)
"""How long a daily game remembers the lines whose analysis it counted as a hint."""


def _check_room(player_id: uuid.UUID, key: str, now: datetime) -> None:
    _check_player(player_id, key)
    waiting = Analysis.objects.filter(done=False, requested_at__gte=now - ANALYSIS_RETRY)
    if waiting.count() >= MAX_PENDING_ANALYSES:
        raise SolverBusy("The analyser is busy with other games: try again in a minute.", 60)


def _check_player(player_id: uuid.UUID, key: str) -> None:
    # The same line asked for at the same instant is not a second analysis: it may see the
    # first request's marker before it sees that request's row.
    pending = cache.get(f"analysing:{player_id}")
    if pending and pending != key and Analysis.objects.filter(key=pending, done=False).exists():
        raise SolverBusy("Your last analysis is still running: wait for its answer.", 10)


def analysis_state(*, game: Game, line: Sequence[str]) -> AnalysisState:
    """The analysis of ``line`` as it stands, without queueing anything (for polling)."""
    row = Analysis.objects.filter(key=analysis_key(game, line)).first()
    done = row is not None and row.done
    return AnalysisState(done=done, ply=row.ply if row else None, counted=False)


@task(priority=ANALYSIS_PRIORITY)
def analyse_line(key: str, slug: str, deal: int, options: list[str], line: list[str]) -> None:
    """Find the ply whose move made ``line`` unwinnable (0: the deal itself) and store it;
    ``None`` when the position can still be won or the search ran out of time. A second
    task for a line already done (queued again while the first waited its turn) does
    nothing."""
    if Analysis.objects.filter(key=key, done=True).exists():
        return
    ply = solver.first_losing_ply(slug, deal, line, seconds=ANALYSE_SECONDS, options=options)
    Analysis.objects.filter(key=key).update(ply=ply, done=True)
    if ply == 0 and not options:
        # Lost from the start: a proof that no line wins the deal. Its pending badge said
        # "Checking whether this deal can be won…" beside the answer until the worker came
        # to the deal's own verdict, after all other work (a player's pass).
        _settle_deal(slug, deal, verdict=DealVerdict.Verdict.UNWINNABLE)
