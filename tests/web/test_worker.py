"""The background side: tasks queue in the database and ``manage.py worker`` runs them and
the schedule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.tasks import task
from django.tasks.base import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import schedule

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("keep_connection")]

CALLS: list[str] = []


@task
def remember(word: str) -> str:
    CALLS.append(word)
    return word.upper()


@task
def explode() -> None:
    raise RuntimeError("a broken task")


def enqueue_remember(now: datetime) -> None:
    remember.enqueue(word=f"scheduled {now:%Y}")


def fail(now: datetime) -> None:
    raise RuntimeError("a broken job")


@pytest.fixture(autouse=True)
def calls() -> list[str]:
    CALLS.clear()
    return CALLS


def test_a_queued_task_waits_for_the_worker(run_tasks) -> None:
    result = remember.enqueue(word="later")
    assert CALLS == []
    run_tasks()
    result.refresh()
    assert result.status == TaskResultStatus.SUCCESSFUL
    assert result.return_value == "LATER"
    assert CALLS == ["later"]


def test_worker_batch_runs_the_schedule_then_the_tasks_it_queued(monkeypatch) -> None:
    monkeypatch.setattr(schedule, "JOBS", (f"{__name__}.enqueue_remember",))
    call_command("worker", batch=True, interval=0, verbosity=0)
    assert len(CALLS) == 1 and CALLS[0].startswith("scheduled ")


def test_a_failing_job_does_not_stop_the_others(monkeypatch) -> None:
    monkeypatch.setattr(schedule, "JOBS", (f"{__name__}.fail", f"{__name__}.enqueue_remember"))
    assert schedule.tick(datetime(2026, 11, 23)) == 1
    call_command("worker", batch=True, no_schedule=True, interval=0, verbosity=0)
    assert CALLS == ["scheduled 2026"]


def test_worker_batch_exits_1_when_a_scheduled_job_failed(monkeypatch, capsys) -> None:
    """It ran the other jobs and the tasks and exited 0: a cron job could not tell (a
    review)."""
    monkeypatch.setattr(schedule, "JOBS", (f"{__name__}.fail", f"{__name__}.enqueue_remember"))
    with pytest.raises(SystemExit) as exit_info:
        call_command("worker", batch=True, interval=0, verbosity=0)

    assert exit_info.value.code == 1
    assert len(CALLS) == 1  # the other job ran, and its task
    assert "1 scheduled job failed: see the log" in capsys.readouterr().err


def test_worker_batch_exits_1_when_a_task_failed(capsys) -> None:
    """A task that raised was stored as failed and the batch exited 0: a cron job or a
    deploy step could not tell (a review)."""
    broken = explode.enqueue()
    ran = remember.enqueue(word="after")
    with pytest.raises(SystemExit) as exit_info:
        call_command("worker", batch=True, no_schedule=True, interval=0, verbosity=0)

    assert exit_info.value.code == 1
    assert "1 task failed: see the log" in capsys.readouterr().err
    broken.refresh()
    ran.refresh()
    assert (broken.status, ran.status) == (TaskResultStatus.FAILED, TaskResultStatus.SUCCESSFUL)


def test_worker_batch_counts_only_its_own_failures() -> None:
    """A task another worker ran and failed meanwhile (its failure as recent as this
    batch's tasks) is that worker's to report."""
    elsewhere = DBTaskResult.objects.get(id=explode.enqueue().id)
    elsewhere.claim("another-worker")
    elsewhere.set_failed(RuntimeError("elsewhere"))
    DBTaskResult.objects.filter(pk=elsewhere.pk).update(
        finished_at=timezone.now() + timedelta(minutes=1)  # during the batch
    )
    remember.enqueue(word="fine")
    call_command("worker", batch=True, no_schedule=True, interval=0, verbosity=0)
    assert CALLS == ["fine"]


@pytest.mark.parametrize("interval", [-1, float("nan"), float("inf"), 1e300])
def test_worker_refuses_an_interval_it_cannot_wait(interval: float, capsys) -> None:
    """``nan`` passed the check and ended in ``time.sleep``'s traceback once the queue was
    empty (an attacker's pass); so would a huge one."""
    with pytest.raises(SystemExit) as exit_info:
        call_command("worker", batch=True, interval=interval, verbosity=0)
    assert exit_info.value.code == 2
    assert "--interval must be 0 to 3600 seconds" in capsys.readouterr().err


@pytest.mark.parametrize("queues", ["nosuch", "default,nosuch", ""])
def test_worker_refuses_a_queue_no_task_goes_to(queues, capsys) -> None:
    """A misspelt queue ran nothing: a batch exited 0 at once, a worker waited for ever on
    a queue nothing is enqueued on (a review)."""
    remember.enqueue(word="waiting")
    with pytest.raises(SystemExit) as exit_info:
        call_command("worker", batch=True, queue_name=queues, interval=0, verbosity=0)
    assert exit_info.value.code == 2
    assert "No such queue" in capsys.readouterr().err
    assert CALLS == []


@pytest.mark.parametrize("queues", ["default", "*", "default,*"])
def test_worker_runs_the_queues_it_is_given(queues) -> None:
    remember.enqueue(word="waiting")
    call_command("worker", batch=True, no_schedule=True, queue_name=queues, interval=0, verbosity=0)
    assert CALLS == ["waiting"]


def test_the_schedule_prunes_old_task_results() -> None:
    """Finished results go once old (successful after a day, failed after a week); a task
    still waiting or running stays, however old."""
    now = datetime(2026, 11, 23, 12, tzinfo=UTC)
    rows = {
        name: DBTaskResult.objects.get(id=remember.enqueue(word=name).id)
        for name in ("old", "fresh", "old failure", "recent failure", "waiting", "running")
    }
    finished = {
        "old": (TaskResultStatus.SUCCESSFUL, timedelta(days=1, minutes=1)),
        "fresh": (TaskResultStatus.SUCCESSFUL, timedelta(hours=23)),
        "old failure": (TaskResultStatus.FAILED, timedelta(days=7, minutes=1)),
        "recent failure": (TaskResultStatus.FAILED, timedelta(days=6)),
        "running": (TaskResultStatus.RUNNING, timedelta(days=30)),
    }
    for name, (status, age) in finished.items():
        at = now - age
        ended = at if status != TaskResultStatus.RUNNING else None
        DBTaskResult.objects.filter(id=rows[name].id).update(
            status=status, started_at=at, finished_at=ended
        )
    DBTaskResult.objects.filter(id=rows["waiting"].id).update(enqueued_at=now - timedelta(days=30))

    assert "games.schedule.prune_task_results" in schedule.JOBS
    assert schedule.prune_task_results(now) == 2

    kept = {name for name, row in rows.items() if DBTaskResult.objects.filter(id=row.id).exists()}
    assert kept == {"fresh", "recent failure", "waiting", "running"}
    assert schedule.prune_task_results(now) == 0


def test_the_schedule_prunes_expired_sessions() -> None:
    """Nothing else deletes a session that ran out: the table would grow with every browser."""
    now = datetime(2026, 11, 23, 12, tzinfo=UTC)
    for key, expires in (("gone", now - timedelta(seconds=1)), ("alive", now + timedelta(days=1))):
        Session.objects.create(session_key=key, session_data="", expire_date=expires)

    assert "games.schedule.prune_sessions" in schedule.JOBS
    assert schedule.prune_sessions(now) == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == ["alive"]
