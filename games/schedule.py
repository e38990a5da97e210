"""What the task worker keeps ready before anyone asks (dailies days ahead, pools of deals)
and what it tidies (its own old task results, expired sessions, the looks at dailies whose
day is long over, games nobody played or can reach any more, the deals the pools dealt most,
solver answers nothing shows).

Each job is a ``job(now)`` function named by its dotted path in ``JOBS``. The worker
(``manage.py worker``) calls every job when it starts and then every
``settings.SCHEDULE_SECONDS``. A job only enqueues tasks or deletes what is spent (it never
runs solver work itself), is cheap, and is idempotent: running it twice, or from two
workers at once, queues nothing twice that matters.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.tasks.base import TaskResultStatus
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult

from games.models import Analysis, DailyLook, DealVerdict, Entry, Game, PlayedMove, Player
from games.players import delete_sessions
from games.rules import GAMES

logger = logging.getLogger(__name__)

JOBS: tuple[str, ...] = (
    "games.pools.top_up",
    "games.daily_tasks.schedule_dailies",
    "games.schedule.prune_task_results",
    "games.schedule.prune_sessions",
    "games.schedule.prune_daily_looks",
    "games.schedule.prune_abandoned_games",
    "games.schedule.prune_pools",
    "games.schedule.prune_solver_answers",
)
"""Dotted paths of the scheduled jobs, in the order they run."""

KEEP_SUCCESSFUL = timedelta(days=1)
"""How long the worker's successful task results are kept."""
KEEP_FAILED = timedelta(days=7)
"""How long its failed ones are kept (their tracebacks, to read)."""
KEEP_UNPLAYED = timedelta(days=30)
"""How long an anonymous player's game nobody played is kept after its last change, and an
anonymous player left with nothing after it was created."""
KEEP_UNPLAYED_OF_ACCOUNTS = timedelta(days=365)
"""How long a game nobody played is kept after its last change when its player has an
account: an account keeps what it opened for later, a year, but not for ever."""
SESSION_MARGIN = timedelta(days=1)
"""How long after its session's end an anonymous player's games are kept, to be sure."""
PRUNE_EVERY = timedelta(hours=1)
"""How often ``prune_abandoned_games``, ``prune_pools`` and ``prune_solver_answers`` run."""
KEEP_ANSWERS = timedelta(days=30)
"""How long a typed deal's verdict that no game shows any more, and an analysis of a line,
are kept after they were asked for."""
KEEP_POOLED = 1_000
"""Pooled deals kept per game and difficulty (``prune_pools``), the least dealt: the fresh
ones first (a pool stores ``pools.POOL_CAP`` of them at most), then the deals New game
falls back on while players outrun the worker, the least dealt one a player has not had.
A player must have had a thousand deals of one game and difficulty before none of these is
left for them, and then New game deals another difficulty's. Every New game uses a fresh
deal up and the worker pools another: without a bound the pools grew as fast as players
pressed New game (200,000 rows made New game ten times slower before its queries were made
to read a few rows; the bound keeps the table, and the fill and prune queries, small)."""
PREFERENCES = ("autoplay", "four_colour", "glide", "new_deals")
"""A player's preferences (``players.player_set_preferences``, ``pools``): a player who
changed one is kept until its session ends, even without a game."""
PRUNE_BATCH = 500
"""Rows one transaction of ``prune_abandoned_games`` deletes at most: the locks it holds stay
short, and the primary keys it sends stay within every SQLite build's 999 parameters."""


def jobs() -> list[Callable[[datetime], object]]:
    return [import_string(path) for path in JOBS]


def tick(now: datetime) -> int:
    """Run every job once; one failing job is logged and does not stop the others.

    Returns the number of jobs that failed."""
    failed = 0
    for job in jobs():
        try:
            job(now)
        except Exception:
            failed += 1
            logger.exception("scheduled job %s failed", getattr(job, "__name__", job))
    return failed


def prune_task_results(now: datetime) -> int:
    """Scheduled job: delete the worker's finished task results once they are old, as
    django-tasks-db's ``prune_db_task_results`` command does (here on the schedule's
    clock); how many. Every task leaves its row, and a pool batch runs every few seconds
    while a pool is short (a fresh site's worker left 272 in its first 30 minutes): without
    this (or that command from cron, which ``make run`` and ``make serve`` never ran) the
    table grows for ever, and the query that counts a game's batches of the last hour
    reads all of it. Nothing reads a finished result after that hour (the pools read the
    last hour's batches and their last result; a day's preparation looks only for one
    waiting or running)."""
    old = DBTaskResult.objects.finished().filter(
        Q(status=TaskResultStatus.SUCCESSFUL, finished_at__lte=now - KEEP_SUCCESSFUL)
        | Q(status=TaskResultStatus.FAILED, finished_at__lte=now - KEEP_FAILED)
    )
    deleted, _ = old.delete()
    return deleted


def prune_sessions(now: datetime) -> int:
    """Scheduled job: delete expired sessions, as Django's ``clearsessions`` command does (here
    on the schedule's clock); how many. Sessions live in the database (``cached_db``) and
    nothing else ever deletes one that simply ran out, so without this (or that command from
    cron) the table only grows: every browser that started a game leaves one."""
    deleted, _ = Session.objects.filter(expire_date__lt=now).delete()
    return deleted


def prune_daily_looks(now: datetime) -> int:
    """Scheduled job: delete the looks (``DailyLook``) of dailies whose day ended over a day
    ago; how many. A look is read only at an on-time win of its daily: kept, every daily
    game ever opened left one. A day's grace: a win at 23:59:59 is judged a moment later,
    and a worker's clock may run ahead of the app servers'."""
    yesterday = now.astimezone(UTC).date() - timedelta(days=1)
    deleted, _ = DailyLook.objects.filter(daily__date__lt=yesterday).delete()
    return deleted


def prune_abandoned_games(now: datetime) -> int:
    """Scheduled job: ``delete_abandoned_games`` and ``delete_players_out_of_reach`` once an
    hour (``PRUNE_EVERY``), not at every tick: they read the games and players tables
    through. The last run is marked in the default cache, which the workers of several
    servers share through Redis; a cache that forgets (a restart) only runs them sooner,
    which idempotent jobs allow. How many games went."""
    last_run = "schedule:prune_abandoned_games"
    if not cache.add(last_run, now.isoformat(), PRUNE_EVERY.total_seconds()):
        return 0
    return delete_abandoned_games(now) + delete_players_out_of_reach(now)


def prune_solver_answers(now: datetime) -> int:
    """Scheduled job, once an hour (``PRUNE_EVERY``): delete what the solver answered that
    nothing shows any more, once asked for longer ago than ``KEEP_ANSWERS``; how many rows.

    - A typed deal's verdict (not a pooled deal's: the pools are New game's proved deals,
      ``prune_pools`` bounds them) once no game of that deal is left
      (``_verdict_in_use``): its badge shows on a game of that deal and nowhere else.
      Verdicts still waiting for the worker stay.
    - An analysis of a line (``solver_jobs.analysis_request``): the game it was asked for
      may be gone, and if not, Analyse asks again.

    Every typed deal number and every line analysed adds a row: the per-client limits bound
    how fast they come, not how many there are, and nothing else ever deleted one. Both
    answers are the solver's work done again on request, never a player's.
    """
    if not cache.add("schedule:prune_solver_answers", now.isoformat(), PRUNE_EVERY.total_seconds()):
        return 0
    cutoff = now - KEEP_ANSWERS
    verdicts = DealVerdict.objects.filter(
        ~_verdict_in_use(),
        ~Q(verdict=DealVerdict.Verdict.PENDING),
        pooled=False,
        requested_at__lt=cutoff,
    )
    analyses = Analysis.objects.filter(requested_at__lt=cutoff)
    return _delete_in_batches(verdicts) + _delete_in_batches(analyses)


def prune_pools(now: datetime) -> int:
    """Scheduled job, once an hour (``PRUNE_EVERY``): keep at most ``KEEP_POOLED`` pooled
    deals per game and difficulty, the least dealt; how many rows were deleted.

    Beyond the bound the most dealt go, unless the verdict is in use (``_verdict_in_use``: a
    game of the deal shows its badge and its hints follow its line): that one only leaves
    the pool, an ordinary verdict that
    ``prune_solver_answers`` deletes once nothing uses it. Each batch is checked again as it
    is written (``_delete_in_batches``): a game started meanwhile keeps its deal's verdict.
    On PostgreSQL a New game that counts a row dealt as the row goes (both in flight) starts
    its game without the verdict, and asks for one (``pools.verdict_request``).
    """
    if not cache.add("schedule:prune_pools", now.isoformat(), PRUNE_EVERY.total_seconds()):
        return 0
    deleted = 0
    for slug in GAMES:
        for difficulty in ("", *DealVerdict.Difficulty.values):
            pool = DealVerdict.objects.filter(slug=slug, pooled=True, difficulty=difficulty)
            # The first row past the bound, in the order New game deals them
            # (``dealverdict_pool_idx``); it and every row after it go.
            edge = pool.order_by("dealt", "pk").values_list("dealt", "pk")
            first_out = next(iter(edge[KEEP_POOLED : KEEP_POOLED + 1]), None)
            if first_out is None:
                continue
            dealt, pk = first_out
            beyond = pool.filter(Q(dealt__gt=dealt) | Q(dealt=dealt, pk__gte=pk))
            in_use = _verdict_in_use()
            _unpool_in_batches(beyond.filter(in_use))
            deleted += _delete_in_batches(beyond.exclude(in_use))
    return deleted


def _verdict_in_use() -> Q:
    """Whether a ``DealVerdict`` row is in use: a game of its deal shows it (its badge,
    ``DealVerdict.for_game``; the lines its hints follow; a stuck panel's "lost from the
    start"). A daily's deal is not: its game reads its daily (its proof, its difficulty)."""
    return Q(Exists(Game.objects.filter(slug=OuterRef("slug"), deal=OuterRef("deal"))))


def _unpool_in_batches(doomed: QuerySet[DealVerdict]) -> None:
    """Take the pooled rows of ``doomed`` out of their pool, ``PRUNE_BATCH`` at a time, each
    batch checked again as it is written (as ``_delete_in_batches``)."""
    while True:
        with transaction.atomic():
            locked = doomed.select_for_update(of=("self",)).order_by()
            batch = list(locked.values_list("pk", flat=True)[:PRUNE_BATCH])
            changed = doomed.filter(pk__in=batch).update(pooled=False)
        if len(batch) < PRUNE_BATCH or not changed:
            return


def delete_players_out_of_reach(now: datetime) -> int:
    """Delete anonymous players whose session has ended, with their games; how many games.

    An anonymous player is its session's: the session is written when the player is
    created (``players.current_player``) and never again while the player stays anonymous,
    so it ends ``SESSION_COOKIE_AGE`` after (``SESSION_MARGIN`` more, to be sure), and with
    it every way to play as that player, see their games or statistics, or link them to an
    account. Without this, every game ever played without an account would be kept for
    ever, a replay link the only way left to one. Its daily entries go too: an entry ranks
    only once an account holds it (``leaderboard.ranked``), so no leaderboard shows one of a
    player without an account, and after its session nobody can claim it. Keeping them kept
    every such player and its games for ever: an anonymous daily win a day from each new
    session, a game and its ~100 move rows each, nothing ever deleted (an attacker's pass).
    A player whose account was deleted is one of these too: its entries left the
    leaderboards with the account.
    """
    ended = now - timedelta(seconds=settings.SESSION_COOKIE_AGE) - SESSION_MARGIN
    out_of_reach = Player.objects.filter(user=None, created_at__lt=ended)
    games = _delete_in_batches(Game.objects.filter(owner__in=out_of_reach))
    _delete_in_batches(out_of_reach)
    return games


def delete_abandoned_games(now: datetime) -> int:
    """Delete anonymous players' games nobody played, then anonymous players left with
    nothing, once untouched for ``KEEP_UNPLAYED``; how many games (the players and the
    opening's move rows that go with them are not counted).

    New game is a GET (``/play/<game>/``, a shareable link) that creates a game row, and a
    player row for a session without one: a client without cookies, or anyone clicking New
    game over and over, leaves rows that nothing else ever deletes (sessions are pruned,
    their players and games were not). The rate limit bounds how fast they come, not how
    many there are.

    A game goes when its player never made a move in it: no move row of their own (the safe
    foundation moves auto-play makes when a game starts are stored as rows marked ``auto``,
    so rows alone do not mean play; the test is the one ``stats.player_stats`` counts a game
    played by), or none since its import (an imported record's moves are rows of the
    player's: a client without cookies kept 2,000 rows an import for 400 days, 12 imports a
    second, an attacker's pass), and no undo (switching auto-play on after an undo drops the
    undone rows: ``players._merge_dailies``). Such a game holds only its deal (or a record
    the player has), which the same link deals again. An unplayed daily game goes too once
    its day is over: a daily link also creates a game (and a player) for a client without
    cookies, and the game dealt again afterwards would be late, never ranked, as this one
    would. A player with an account keeps such a game for ``KEEP_UNPLAYED_OF_ACCOUNTS`` (an
    account is how a player keeps games, but New game over and over on an account, within
    the rate limit, left rows nothing deleted). Kept, however old: a daily game on its day
    (the player's one try at that day's deal), a game with a leaderboard entry. A player
    goes when it has no account, no display name (leaderboards may have shown it), no
    preference changed from its default (the profile saved one: the player meant to come
    back), no game and no entry, and was created before ``KEEP_UNPLAYED``; a session still
    naming it then has no player yet (``players.known_player``), as on a first visit. A
    player kept for its name or its preferences goes when its session ends
    (``delete_players_out_of_reach``).

    Each batch locks its rows and checks them again as it deletes them: a move racing the
    job keeps its game or finds it gone (a conflict, as after Delete), and a game started
    by a player being deleted keeps its player or writes it again (``players.hold``);
    none is left orphaned.
    """
    cutoff = now - KEEP_UNPLAYED
    own_move = PlayedMove.objects.filter(game=OuterRef("pk"), auto=False)
    # An import stores its record's moves at once, all at the time of the import: a move
    # played since is a row of a later time.
    imported_at = PlayedMove.objects.filter(game=OuterRef("game")).order_by("played_at")
    since_import = PlayedMove.objects.filter(
        game=OuterRef("pk"), played_at__gt=Subquery(imported_at.values("played_at")[:1])
    )
    unplayed = Game.objects.filter(
        ~Exists(own_move) | (Q(imported=True) & ~Exists(since_import)),
        ~Exists(Entry.objects.filter(game=OuterRef("pk"))),
        Q(daily=None) | Q(daily__date__lt=now.astimezone(UTC).date()),
        Q(owner__user=None, updated_at__lt=cutoff)
        | Q(updated_at__lt=now - KEEP_UNPLAYED_OF_ACCOUNTS),
        undos=0,
    )
    games = _delete_in_batches(unplayed)
    empty = Player.objects.filter(
        ~Exists(Game.objects.filter(owner=OuterRef("pk"))),
        ~Exists(Entry.objects.filter(player=OuterRef("pk"))),
        user=None,
        display_name="",
        created_at__lt=cutoff,
        **_preferences_as_they_came(),
    )
    _delete_in_batches(empty, also=_end_sessions)
    return games


def _end_sessions(players: QuerySet[Player]) -> None:
    """End the sessions these players were made with: a client without cookies leaves a
    session with every player it makes, which would otherwise stay for 400 days."""
    delete_sessions(players.exclude(session_key="").values_list("session_key", flat=True))


def _preferences_as_they_came() -> dict[str, object]:
    """Each of ``PREFERENCES`` at its default: a filter for the players who changed none."""
    fields = Player._meta.concrete_fields
    return {field.name: field.get_default() for field in fields if field.name in PREFERENCES}


def _delete_in_batches(
    doomed: QuerySet[Any], *, also: Callable[[QuerySet[Any]], object] | None = None
) -> int:
    """Delete the rows of ``doomed`` (and their cascade), ``PRUNE_BATCH`` at a time; how many
    of ``doomed``'s own model. Each batch is locked, then deleted by the same query again in
    its transaction: a row that changed in between is no longer doomed and stays. ``also``
    is called with each batch's rows just before they are deleted, in its transaction."""
    label = doomed.model._meta.label
    total = 0
    while True:
        with transaction.atomic():
            locked = doomed.select_for_update(of=("self",)).order_by()
            batch = list(locked.values_list("pk", flat=True)[:PRUNE_BATCH])
            these = doomed.filter(pk__in=batch)
            if also is not None:
                also(these)
            _, per_model = these.delete()
        deleted = per_model.get(label, 0)
        total += deleted
        if len(batch) < PRUNE_BATCH or not deleted:
            return total
