import os
from typing import Any

import pytest

# pytest-playwright's sync fixtures keep an event loop running for the whole session, which
# makes Django's ORM refuse to run unless this is set before the first query.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Playwright cannot download its own browser here: drive Debian's.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }


@pytest.fixture(autouse=True)
def fresh_playing_counts() -> None:
    """The moves' rate limit counts in each process as well as in the cache
    (``games.limits.PlayingCount``): every test starts with none."""
    from games import limits

    limits.PLAYING.forget()


@pytest.fixture
def keep_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker closes stale connections between tasks, as a long-running
    process must; inside a test's transaction that would close the test's own connection
    (PostgreSQL then loses the test's data), so tests keep it."""
    monkeypatch.setattr(
        "django_tasks_db.management.commands.db_worker.close_old_connections", lambda: None
    )


@pytest.fixture
def run_tasks(keep_connection: None) -> Any:
    """Run every queued background task now, as ``manage.py worker`` would (no schedule)."""
    from django.core.management import call_command

    def run() -> None:
        call_command("worker", batch=True, no_schedule=True, interval=0, verbosity=0)

    return run


@pytest.fixture
def always_stuck(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position stuck (every move left leads back to one already had), so a game
    stays stuck while it is played; a live server runs in the test's process too."""
    from games.rules import Board

    monkeypatch.setattr(Board, "is_cycle_stuck", lambda self: True)
