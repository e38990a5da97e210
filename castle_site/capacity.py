"""How many web workers an app server runs: read by the settings (the solver's share of
them, ``games.solver_jobs``) and by gunicorn (``gunicorn.conf.py``), so both count the same.
No Django import: gunicorn reads it before the site is loaded."""

from __future__ import annotations

import os

MAX_WORKERS = 12
"""gunicorn's advice: 4 to 12 workers serve thousands of requests a second; each holds a
database connection and some 100 MB."""


def web_concurrency() -> int:
    """``WEB_CONCURRENCY`` when set, else gunicorn's advice for sync workers: two per core
    and one more, at most ``MAX_WORKERS``. Two alone are too few: a hint's search (up to a
    second) or an import (some 80 ms) holds one of them, and every move that reaches the
    server meanwhile waits for the other."""
    if value := os.environ.get("WEB_CONCURRENCY", "").strip():
        return int(value)
    return min(2 * cores() + 1, MAX_WORKERS)


def cores() -> int:
    """The cores this process may run on (as ``nproc`` counts them: a container's set)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
