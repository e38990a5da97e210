"""Winnable deals by default: per-game pools of deals the solver proved winnable, filled
ahead by background tasks; the verdict of a deal number a player typed; the difficulty of a
proved deal.

New game never waits on the solver: it takes a pooled deal (one query, which reads a few
rows however large the pool) and only the task worker solves. ``fill_pool`` tries random
deal numbers, each within a budget of positions (the same on every machine), for a bounded
slice of time, and stores the deals it wins with their winning line (the proof) and
statistics; it queues its own next batch while the pool is short, and the schedule job
``top_up`` queues one for every short pool. ``decide_deal`` gives a typed deal its
verdict. Only deals that leave a legal move after the opening auto-play are pooled, and the
"any deal" path re-deals until it finds one, so New game never opens on a dead position.

A pool holds, per difficulty, ``POOL_TARGET`` fresh deals (never dealt yet). New game deals
a fresh one first, then the least dealt one the player has not had: a proved deal even when
players outrun the tasks. Only an empty pool falls back to a random deal, with a note. Every
New game uses a fresh deal up and the worker pools another, so the dealt ones pile up:
``schedule.prune_pools`` keeps the least dealt ``schedule.KEEP_POOLED`` per game and
difficulty.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.tasks import task
from django.tasks.base import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.dealing import is_dead, is_playable
from games.models import DealChoice, DealVerdict, Game, Player
from games.rules import GAMES, MAX_DEAL, Board, GameRules, get_game
from games.rules.solver import ONE_LOOK, UNSOLVABLE, SolveResult, difficulty, solve
from games.services import game_start

logger = logging.getLogger(__name__)

Verdict = DealVerdict.Verdict
Difficulty = DealVerdict.Difficulty

POOL_NODES = 60_000
"""The solver's budget per pool candidate, in positions (about a second at most here; the
budget at which ``GameRules.difficulty`` was measured)."""
FIRST_DEAL_NODES = 15_000
"""The budget per candidate while a pool has nothing to deal: the deals won this soon come
sooner (a candidate the solver cannot settle costs a quarter as much), and their labels
are the same as at ``POOL_NODES`` (the search takes no decision from its budget). Selective
Castle settles about a third of its deals within ``POOL_NODES`` at some 14 s each: a fresh
worker's first Selective Castle deal took 30 s to over 94 s with that budget alone, against
the two minutes ``make run`` promises for every game."""
VERDICT_NODES = 200_000
"""The budget for a typed deal's verdict: a player asked about this one deal. Most games
settle or give up on a deal within a few seconds at this budget (Streets and Alleys: 1.4 s
on average, 16 s at most; one of its deals 1-10 is proved unwinnable only after 103,000
positions)."""
SLOW_VERDICT_NODES = {"selective-castle": POOL_NODES, "penelopes-web": POOL_NODES}
"""The verdict budget of the games whose positions cost the solver most, and whose deals
the search cannot settle run to the budget: ``POOL_NODES``, where their difficulty was
measured, about a third of the worker's time. Selective Castle expands some 5,000
positions a second: a verdict at ``VERDICT_NODES`` took 41 s on average (62 s at most,
past ``SECONDS_CAP``); of its deals 1-9 the two it won took under 9,000 positions, the
seven others were still unknown at 200,000 (33 to 46 s each). Penelope's Web settled 18
of its deals 1-20 within 57,000 positions; the two others were unknown at 200,000 after
16 and 38 s. (November 2026, this hardware.)"""
SECONDS_CAP = 60.0
"""A safety cap per solve, far above what the node budgets take on this hardware."""
BATCH_SECONDS = 2.0
"""Solver time one ``fill_pool`` task spends before it gives the worker back (it may run
over by one candidate's solve)."""
POOL_TARGET = 5
"""Fresh (never dealt) proved deals kept ready per game and difficulty."""
POOL_CAP = 3 * POOL_TARGET
"""A difficulty's fresh deals beyond this are not stored while another is being filled."""
FRUITLESS_PAUSE = timedelta(minutes=10)
"""After a batch that pooled nothing, the next one for that game waits this long, unless
its pool is empty. A difficulty the solver seldom finds (Selective Castle's hard deals,
whose candidates take up to 24 s each; Archway's easy ones) would otherwise keep the
worker busy batch after batch for as long as it stays short: a fresh site's worker ran 272
batches in its first 30 minutes, 226 of them for those two games, at 65 % of a core."""
MAX_PENDING = 200
"""Typed deals waiting for a verdict; past this, no more are queued (the badge waits)."""
STALE = timedelta(minutes=10)
"""A task running this long, or a verdict pending this long, is taken for lost."""
EMPTY_POOL_PRIORITY = 5
"""A batch for a pool with nothing to deal runs before all other work (see
``VERDICT_PRIORITY`` for the order)."""
VERDICT_PRIORITY = -10
"""A typed deal's verdict runs after all other work. The worker claims the waiting task of
highest priority first (django-tasks-db's queue is ordered by priority, then by when it may
run and was queued), so the order is: a batch for an empty pool (``EMPTY_POOL_PRIORITY``:
New game has no proved deal to deal), today's preparation (``daily_tasks.prepare_day``, 2:
the site's daily challenge), a player's analysis (``solver_jobs.ANALYSIS_PRIORITY``, 1: a
player waits on it), a batch for a short pool and the preparation of days ahead (0, in the
order they were queued), then verdicts. A verdict is a badge on a
deal that is already being played, and the one kind of work any client may ask for by
typing deal numbers: a flood of them waits behind everyone else's work instead of in front
of it. A running task is never interrupted, so a verdict delays the others by one verdict
at most, which its budget in positions bounds (``verdict_nodes``)."""
EMPTY_POOL_BATCHES = 40
"""At most this many such batches per game and hour (about two minutes of solving)."""
PICK_AMONG = 8
"""New game reads at most this many of the least dealt pooled deals a player has not had,
and deals one of the least dealt among them at random. Ordering the whole pool at random in
SQL (``ORDER BY dealt, RANDOM()``) sorted every row tied on the lowest count, and they are
most of a pool whose deals have all been dealt once: 160-230 ms with 200,000 pooled rows,
under the database's write lock. Among the tied rows the index's first ones are read; once
dealt they count one more, and the next New game reads the next ones."""


# -- difficulty ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DifficultyRule:
    """How one game's deals are labelled (``solver.difficulty``), for its rules page."""

    game: GameRules
    easy: int
    medium: int
    budget: int


def difficulty_rule(rules: GameRules) -> DifficultyRule:
    limits = rules.difficulty
    return DifficultyRule(rules, limits.easy, limits.medium, POOL_NODES)


def label(result: SolveResult) -> str:
    """The difficulty of a deal the solver won (``solver.difficulty``); ``""`` otherwise."""
    return difficulty(result.stats) if result.stats is not None else ""


# -- dealing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewDeal:
    """The deal New game starts, and a note when it is not what the player asked for."""

    deal: int | None
    """``None``: a random deal (``game_start`` re-deals until one has a legal move)."""
    note: str = ""


def pool_pick(*, slug: str, player: Player, choice: str) -> NewDeal:
    """The deal for ``choice`` (a :class:`DealChoice`): a pooled proved deal, counted as
    dealt, preferring one of the asked difficulty, then any other; random otherwise."""
    rules = get_game(slug)
    if choice == DealChoice.ANY:
        return NewDeal(None)
    difficulty = "" if choice == DealChoice.WINNABLE else choice
    entry = _take(rules.slug, player, difficulty)
    note = ""
    if entry is None and difficulty:
        entry = _take(rules.slug, player, "")
        if entry is not None:
            note = (
                f"No {difficulty} {rules.name} deal was ready: this one is proved winnable, "
                f"{entry.difficulty}."
            )
    if entry is None:
        return NewDeal(
            None,
            f"No proved {rules.name} deal was ready yet, so this is a random deal: "
            "it may be unwinnable.",
        )
    return NewDeal(entry.deal, note)


TAKE_TRIES = 4
"""Picks New game makes when another request counts its deal dealt first (``_take``)."""


def _take(slug: str, player: Player, difficulty: str) -> DealVerdict | None:
    """A pooled deal (``_pooled``), counted as dealt: the count goes up only from what the
    pick read, else the deal was just dealt to another request and another is picked. Two
    New games at once on PostgreSQL read the same least dealt deal and both dealt it, the
    other fresh deal left for later (a review); the compare and swap waits for the other
    request's transaction and then sees its count. After ``TAKE_TRIES`` picks each taken
    first, the last is dealt anyway: a busy pool deals a deal twice rather than none."""
    entry = None
    for _ in range(TAKE_TRIES):
        entry = _pooled(slug, player, difficulty)
        if entry is None:
            return None
        taken = DealVerdict.objects.filter(pk=entry.pk, dealt=entry.dealt)
        if taken.update(dealt=F("dealt") + 1):
            return entry
    assert entry is not None
    DealVerdict.objects.filter(pk=entry.pk).update(dealt=F("dealt") + 1)
    return entry


def _pooled(slug: str, player: Player, difficulty: str) -> DealVerdict | None:
    """One of the least dealt pooled deals the player has not had (``PICK_AMONG``). The
    pool's indexes give the rows in ``dealt`` order, and each is checked against the
    player's own games of that deal (``game_owner_deal_idx``): no sort, and no read of
    every game of the slug."""
    pool = DealVerdict.objects.filter(slug=slug, pooled=True, verdict=Verdict.WINNABLE)
    if difficulty:
        pool = pool.filter(difficulty=difficulty)
    had = Game.objects.filter(owner=player, slug=slug, deal=OuterRef("deal"))
    least = list(pool.filter(~Exists(had)).order_by("dealt")[:PICK_AMONG])
    if not least:
        return None
    return secrets.choice([row for row in least if row.dealt == least[0].dealt])


def game_new(
    *,
    player: Player,
    slug: str,
    deal: int | None,
    choice: str | None,
    remember: bool,
    autoplay: bool | None,
    options: Iterable[str],
    now: datetime,
    may_queue: Callable[[], bool] = lambda: True,
) -> tuple[Game, str]:
    """Start a game for New game or a typed deal; returns it and a note for the player.

    A typed ``deal`` plays as asked (its verdict is queued when unknown, if ``may_queue``:
    see ``verdict_request``); otherwise ``choice`` (default: the player's preference, saved
    when ``remember``) picks the deal.
    """
    rules = get_game(slug)
    choice = choice or player.new_deals
    # A refused start (a bad option) changes nothing. The pick (a few index reads) stays in
    # the transaction that counts it dealt and starts the game: on SQLite, under the write
    # lock, a player's other request never starts the same deal meanwhile; on PostgreSQL,
    # ``_take``'s compare and swap keeps two requests from dealing one fresh deal twice.
    with transaction.atomic():
        note = ""
        if deal is None:
            picked = pool_pick(slug=rules.slug, player=player, choice=choice)
            deal, note = picked.deal, picked.note
        started = game_start(
            player=player, slug=rules.slug, deal=deal, autoplay=autoplay, options=options, now=now
        )
        if remember and choice != player.new_deals:
            player.new_deals = choice
            Player.objects.filter(pk=player.pk).update(new_deals=choice)
    # The rest only reads until it has something to write, and guards its own writes
    # (``verdict_request``: the unique deal; ``_enqueue_fill``: its own transaction). On
    # SQLite a transaction holds the write lock from its start, and every move waits on it.
    verdict_request(slug=rules.slug, deal=started.deal, now=now, may_queue=may_queue)
    if choice != DealChoice.ANY:
        top_up_game(rules.slug, now=now)
    return started, note


# -- verdicts -----------------------------------------------------------------------------


def verdict_request(
    *, slug: str, deal: int, now: datetime, may_queue: Callable[[], bool] = lambda: True
) -> DealVerdict | None:
    """The deal's verdict row; a new one is queued for the worker. ``None`` (no badge; the
    game plays on) when too many verdicts are already waiting, or when ``may_queue()`` is
    false: it is asked only for a verdict about to be queued, and counts it against the
    client's limit (``limits.NEW_VERDICT``), so deals already known cost nothing."""
    row = DealVerdict.objects.filter(slug=slug, deal=deal).first()
    if row is not None:
        return row
    if DealVerdict.objects.filter(verdict=Verdict.PENDING).count() >= MAX_PENDING:
        return None
    if not may_queue():
        return None
    # A deal with no legal move once its opening auto-play is done (Fortress: one in eight)
    # is lost, and the stuck panel says so at once: its badge need not wait for the worker,
    # which runs verdicts after every other task (minutes, on a server just started).
    dead = is_dead(Board(get_game(slug), deal))
    fields = solved_fields(SolveResult(UNSOLVABLE, slug=slug), now) if dead else {}
    try:
        with transaction.atomic():
            row = DealVerdict.objects.create(slug=slug, deal=deal, requested_at=now, **fields)
    except IntegrityError:  # another request asked first
        return DealVerdict.objects.filter(slug=slug, deal=deal).first()
    if not dead:
        decide_deal.enqueue(slug=slug, deal=deal)
    return row


def solved_fields(result: SolveResult, now: datetime) -> dict[str, Any]:
    """What a ``DealVerdict`` stores of a solver result."""
    verdict = {"solved": Verdict.WINNABLE, "unsolvable": Verdict.UNWINNABLE}
    line = [move.notation() for move in result.moves] if result.solved else []
    return {
        "verdict": verdict.get(result.verdict, Verdict.UNKNOWN),
        "solution": " ".join(line),
        "moves": len(line),
        "nodes": result.nodes,
        "difficulty": label(result),
        "solved_at": now,
    }


@task(priority=VERDICT_PRIORITY)
def decide_deal(slug: str, deal: int) -> str:
    """A typed deal's verdict, within ``verdict_nodes(slug)`` positions; it runs after all
    other work (``VERDICT_PRIORITY``)."""
    rules = get_game(slug)
    row = DealVerdict.objects.filter(slug=rules.slug, deal=deal).first()
    # A hint's proof (``hinted``: solver_jobs._settle_pending_verdict) gives way to a
    # search's line and difficulty; a search that finds none leaves it.
    if row is None or (row.verdict != Verdict.PENDING and not row.hinted):
        return row.verdict if row else "gone"
    result = _solve(Board(rules, deal), verdict_nodes(rules.slug))
    if row.hinted and not result.solved:
        return str(row.verdict)
    fields = solved_fields(result, timezone.now())
    DealVerdict.objects.filter(pk=row.pk, verdict=row.verdict, hinted=row.hinted).update(
        **fields, hinted=False
    )
    return str(fields["verdict"])


def verdict_nodes(slug: str) -> int:
    """The solver's budget, in positions, for a typed deal's verdict in ``slug``."""
    return SLOW_VERDICT_NODES.get(slug, VERDICT_NODES)


def _solve(board: Board, max_nodes: int) -> SolveResult:
    """The solver as the pools run it: within ``max_nodes`` positions, and looking once for
    a shorter line (``solver.ONE_LOOK``). A daily's line is its par, so dailies look twice;
    the pools solve deal after deal, and with both looks a fresh worker's first two minutes
    pooled about half as many deals (Citadel 4 against 16, Beleaguered Castle 4 against
    7)."""
    return solve(board, seconds=SECONDS_CAP, max_nodes=max_nodes, techniques=ONE_LOOK)


# -- pools --------------------------------------------------------------------------------


def fresh_counts(slug: str) -> dict[str, int]:
    """Per difficulty, the pooled deals New game has not dealt yet. Counted here, not grouped
    in SQL: grouping by difficulty had SQLite read every pooled row of the game in the order
    of ``dealverdict_pool_idx``; this reads the fresh rows only (``dealverdict_pool_dealt_idx``),
    a few ``POOL_CAP`` at most."""
    counts = {label: 0 for label in Difficulty.values}
    fresh = DealVerdict.objects.filter(slug=slug, pooled=True, dealt=0, verdict=Verdict.WINNABLE)
    for label in fresh.order_by().values_list("difficulty", flat=True):
        counts[label] = counts.get(label, 0) + 1
    return counts


def is_short(counts: dict[str, int]) -> bool:
    return any(n < POOL_TARGET for n in counts.values())


def has_pooled_deal(slug: str) -> bool:
    """Whether New game has a proved deal of the game to deal, fresh or dealt before."""
    return DealVerdict.objects.filter(slug=slug, pooled=True, verdict=Verdict.WINNABLE).exists()


def no_fresh_deal(counts: dict[str, int]) -> bool:
    """No fresh deal of any difficulty: New game has nothing proved to deal."""
    return not any(counts.values())


def pool_add(
    *, slug: str, deal: int, now: datetime, max_nodes: int = POOL_NODES
) -> DealVerdict | None:
    """Solve ``deal`` and pool it when it is won and playable; ``None`` otherwise."""
    rules = get_game(slug)
    board = Board(rules, deal)
    if not is_playable(board):
        return None
    result = _solve(board, max_nodes)
    if not result.solved:
        return None
    return _store(rules, deal, result, now)


def _store(rules: GameRules, deal: int, result: SolveResult, now: datetime) -> DealVerdict | None:
    fields = solved_fields(result, now)
    try:
        with transaction.atomic():
            row, _ = DealVerdict.objects.update_or_create(
                slug=rules.slug,
                deal=deal,
                defaults={**fields, "pooled": True},
                create_defaults={**fields, "pooled": True, "requested_at": now},
            )
    except IntegrityError:  # a typed request for the same deal, at the same moment
        return None
    return row


@task
def fill_pool(slug: str) -> dict[str, object]:
    """One batch for a game's pool: random deals, each solved within ``POOL_NODES``
    positions (``FIRST_DEAL_NODES`` while the pool is empty), for about ``BATCH_SECONDS``;
    then, while short, the next batch is queued at once if this one pooled a deal or the
    pool is still empty. After a batch that found nothing, the schedule queues the next
    one ``FRUITLESS_PAUSE`` later."""
    rules = get_game(slug)
    counts = fresh_counts(rules.slug)
    stop = time.monotonic() + BATCH_SECONDS
    tried = found = 0
    while is_short(counts) and time.monotonic() < stop:
        deal = secrets.randbelow(MAX_DEAL) + 1
        tried += 1
        board = Board(rules, deal)
        if not is_playable(board):
            continue
        budget = FIRST_DEAL_NODES if no_fresh_deal(counts) else POOL_NODES
        result = _solve(board, budget)
        kind = label(result)
        if not kind or counts[kind] >= POOL_CAP:
            continue
        if _store(rules, deal, result, timezone.now()) is not None:
            counts[kind] += 1
            found += 1
    counts = fresh_counts(rules.slug)
    if is_short(counts) and (found or no_fresh_deal(counts)):
        _enqueue_fill(rules.slug, counts, now=timezone.now(), from_task=True)
    return {"slug": rules.slug, "tried": tried, "found": found}


def _enqueue_fill(
    slug: str, counts: dict[str, int], *, now: datetime, from_task: bool = False
) -> bool:
    """Queue a ``fill_pool`` batch unless one is waiting (or, for the schedule, running, or
    the game's last batch pooled nothing less than ``FRUITLESS_PAUSE`` ago while its pool
    has deals).

    A game with no pooled deal at all jumps the queue (``EMPTY_POOL_PRIORITY``) so New game
    has a proved deal soon, even while long jobs (days of dailies) wait; once it has one,
    its batches take their turn with everything else, and so do they after
    ``EMPTY_POOL_BATCHES`` in an hour (a game whose winnable deals are rare cannot hold all
    other work back). A pool whose deals have all been dealt still deals them (the least
    dealt one a player has not had): it waits its turn. It jumped the queue too, and one
    client starting games without playing them (95 in 90 s emptied every game's) kept the
    worker on such batches ahead of the dailies and players' analyses."""
    tasks = DBTaskResult.objects.filter(
        task_path=fill_pool.module_path, args_kwargs__kwargs__slug=slug
    )
    # Checked and queued in one transaction: on SQLite (the write lock from its start) two
    # New games at once queue one batch. PostgreSQL's read committed never promised that.
    with transaction.atomic():
        if tasks.filter(status=TaskResultStatus.READY).exists():
            return False
        running = tasks.filter(status=TaskResultStatus.RUNNING, started_at__gte=now - STALE)
        if not from_task and (running.exists() or _paused(tasks, counts, now)):
            return False
        urgent = not has_pooled_deal(slug) and (
            tasks.filter(
                priority=EMPTY_POOL_PRIORITY, enqueued_at__gte=now - timedelta(hours=1)
            ).count()
            < EMPTY_POOL_BATCHES
        )
        priority = EMPTY_POOL_PRIORITY if urgent else fill_pool.priority
        fill_pool.using(priority=priority).enqueue(slug=slug)
    return True


def _paused(tasks: QuerySet[DBTaskResult], counts: dict[str, int], now: datetime) -> bool:
    """Whether a game's pool, which has deals, waits after a batch that pooled nothing
    (``FRUITLESS_PAUSE``); ``tasks`` are the game's ``fill_pool`` results."""
    if no_fresh_deal(counts):
        return False
    last = (
        tasks.filter(status=TaskResultStatus.SUCCESSFUL)
        .order_by("-finished_at")
        .values_list("return_value", "finished_at")
        .first()
    )
    if last is None:
        return False
    value, finished_at = last
    fruitless = isinstance(value, dict) and value.get("found") == 0
    return fruitless and finished_at is not None and finished_at > now - FRUITLESS_PAUSE


def top_up_game(slug: str, *, now: datetime) -> bool:
    """Queue a batch for ``game``'s pool if it is short (no solving here)."""
    counts = fresh_counts(slug)
    return is_short(counts) and _enqueue_fill(slug, counts, now=now)


def top_up(now: datetime) -> None:
    """Scheduled job: a batch for every short pool, and lost verdicts queued again. A
    verdict whose task still waits is not lost: verdicts run after all other work
    (``VERDICT_PRIORITY``) and may wait longer than ``STALE``; queueing it again would only
    grow the queue."""
    for slug in GAMES:
        top_up_game(slug, now=now)
    lost = DealVerdict.objects.filter(verdict=Verdict.PENDING, requested_at__lt=now - STALE)
    for row in lost[:20]:
        DealVerdict.objects.filter(pk=row.pk).update(requested_at=now)
        if not _verdict_queued(row.slug, row.deal, now):
            decide_deal.enqueue(slug=row.slug, deal=row.deal)


def _verdict_queued(slug: str, deal: int, now: datetime) -> bool:
    """Whether a ``decide_deal`` task for the deal waits, or runs and is not stale."""
    tasks = DBTaskResult.objects.filter(
        task_path=decide_deal.module_path,
        args_kwargs__kwargs__slug=slug,
        args_kwargs__kwargs__deal=deal,
    )
    return tasks.filter(
        Q(status=TaskResultStatus.READY)
        | Q(status=TaskResultStatus.RUNNING, started_at__gte=now - STALE)
    ).exists()
