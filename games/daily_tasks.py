"""Daily preparation as background work: the task that runs the solver, the one place that
queues it (deduplicated), and the scheduled job that keeps days ahead prepared.

A web request never prepares a daily. It may find today missing (a fresh site, a worker that
was down): it then calls ``daily_request``, which queues one task for the date however many
requests arrive at once, because the request that inserts the date's ``DailyPreparation``
row is the only one that queues (the row is locked while it decides).
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django_tasks_db.models import DBTaskResult

from games.daily import DailyUnavailable, daily_games, daily_prepare, prepared_games, utc_today
from games.models import DailyPreparation

logger = logging.getLogger(__name__)

RETRY_AFTER = dt.timedelta(minutes=10)
"""A date whose task finished with games still missing (no deal within the budget, a crash)
is queued again only after this long: a request never restarts a failing search in a loop."""
STUCK_AFTER = dt.timedelta(hours=1)
"""A task still RUNNING after this long belongs to a worker that died mid-search (a day's
preparation takes minutes at most): the date may be queued again."""


AHEAD_PRIORITY = 0
"""A day ahead's preparation waits behind players' analyses, in turn with the pools'
batches (``pools.VERDICT_PRIORITY`` says the order): it has days to run. At 2, a fresh
site's week ahead (2 to 9 minutes a day) kept an analysis waiting half an hour."""


@task(priority=2)
def prepare_day(date: str) -> dict[str, int | None]:
    """Prepare every missing daily of ``date`` (ISO), the six classics' and the family game
    of the day's: ``{game: par}``, ``None`` when no
    candidate was proved winnable within the game's budget. (Not the deals: task results
    are kept in a table, and days ahead are secret.)

    Priority 2 for today: after an empty pool's batch, before players' analyses and the rest
    (the order and why: ``pools.VERDICT_PRIORITY``); a day ahead ``AHEAD_PRIORITY``. Only
    the schedule and a missing today queue it, once per date, so no client can make it hold
    the others back."""
    day = dt.date.fromisoformat(date)
    pars: dict[str, int | None] = {}
    for slug in daily_games(day):
        try:
            pars[slug] = daily_prepare(slug=slug, date=day).par
        except DailyUnavailable as error:
            logger.warning("%s", error)
            pars[slug] = None
    DailyPreparation.objects.filter(date=day).update(searched=sorted(pars))
    return pars


def missing_games(date: dt.date) -> list[str]:
    prepared = prepared_games(date)
    return [slug for slug in daily_games(date, prepared=prepared) if slug not in prepared]


def daily_request(*, date: dt.date, now: dt.datetime) -> bool:
    """Queue the preparation of ``date`` unless it is prepared or already queued.

    Returns whether the date still has games being prepared. Cheap and idempotent: one task
    per date at a time, whatever the concurrency. A date whose task ran to its end with
    games still missing is not queued again, and none of them is said to be on its way: its
    candidates and budgets are the date's own, so another run would prove nothing more (it
    ran again every ``RETRY_AFTER``, ahead of players' analyses; a review). A task that
    failed, or whose worker died, is queued again after ``RETRY_AFTER``.

    The date's row is locked only to queue: a page asking while its task waits or runs
    reads it unlocked (every view of the day took the write lock).
    """
    if not (missing := missing_games(date)):
        return False
    known = DailyPreparation.objects.filter(date=date).first()
    if known is not None and (waiting := _waiting(known, missing, now)) is not None:
        return waiting
    with transaction.atomic():
        preparation, created = DailyPreparation.objects.select_for_update().get_or_create(
            date=date, defaults={"queued_at": now}
        )
        if not created:
            if not (missing := missing_games(date)):
                return False
            waiting = _waiting(preparation, missing, now)
            if waiting is not None:
                return waiting
        ahead = date > utc_today(now)
        result = (prepare_day.using(priority=AHEAD_PRIORITY) if ahead else prepare_day).enqueue(
            date.isoformat()
        )
        preparation.task_id, preparation.queued_at = str(result.id), now
        preparation.save(update_fields=["task_id", "queued_at"])
    return True


def _waiting(preparation: DailyPreparation, missing: list[str], now: dt.datetime) -> bool | None:
    """Whether the date's ``missing`` games are on their way (its task waits, runs, or
    failed within ``RETRY_AFTER``: ``True``) or will not come (a task searched each of them
    to its end: ``False``); ``None`` when the date is to be queued again.

    The date's row names the games a task searched to its end (``prepare_day``): its result
    said so only for a day (``schedule.prune_task_results``), after which the date, still
    missing a game, was searched again every day it stayed ahead and said to be on its way
    (a review). A game it did not search (a game added to the family since) is queued."""
    task = (
        DBTaskResult.objects.filter(id=preparation.task_id or None)  # type: ignore[misc]
        .values_list("status", "started_at")
        .first()
    )
    status, started_at = task or (None, None)
    if status == "READY" or (
        status == "RUNNING" and started_at is not None and started_at > now - STUCK_AFTER
    ):
        return True
    if set(missing) <= set(preparation.searched):
        return False
    return True if now - preparation.queued_at < RETRY_AFTER else None


def schedule_dailies(now: dt.datetime) -> None:
    """The worker's scheduled job: today and the next ``DAILY_DAYS_AHEAD`` days queued for
    preparation when missing (the same dedup as requests: nothing queued twice)."""
    today = utc_today(now)
    for offset in range(settings.DAILY_DAYS_AHEAD + 1):
        daily_request(date=today + dt.timedelta(days=offset), now=now)
