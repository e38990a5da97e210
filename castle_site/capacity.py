"""How many web workers an app server runs, and what several of them need: read by the
settings (the solver's share of them, ``games.solver_jobs``; where sessions live) and by
gunicorn (``gunicorn.conf.py``), so both count the same. No Django import: gunicorn reads
it before the site is loaded."""

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


SHARED_CACHE_SCHEMES = frozenset({"redis", "rediss", "unix"})
"""``CACHE_URL`` schemes of a cache every process (and app server) shares: Redis."""


def shared_cache(cache_url: str) -> bool:
    """Whether ``CACHE_URL`` names a cache all processes share (else each keeps its own)."""
    return cache_url.partition("://")[0].lower() in SHARED_CACHE_SCHEMES


def unshared_limits(*, workers: int, cache_url: str, limits_on: bool, debug: bool) -> str:
    """Why several workers must not serve production this way, or ``""``. The rate limits
    count in the cache: with a memory cache in each process, every worker keeps its own
    counts, and a client whose requests spread over five workers gets five times its
    limit."""
    if workers <= 1 or debug or not limits_on or shared_cache(cache_url):
        return ""
    return (
        f"{workers} web workers without a shared cache: each would count the rate limits"
        " on its own. Set CACHE_URL=redis://HOST:6379/0 (README, Deployment), or run one"
        " worker (WEB_CONCURRENCY=1)."
    )
