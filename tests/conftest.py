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


@pytest.fixture
def run_tasks() -> Any:
    """Run every queued background task now, as ``manage.py worker`` would (no schedule)."""
    from django.core.management import call_command

    def run() -> None:
        call_command("worker", batch=True, no_schedule=True, interval=0, verbosity=0)

    return run
