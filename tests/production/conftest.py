from collections import Counter
from typing import Any

import pytest
from django.core.cache import caches

from .helpers import OUTCOMES, REQUESTS, STATUSES


@pytest.fixture(autouse=True)
def fresh_caches() -> None:
    """Every test starts with empty rate-limit counters (their cache keeps 200,000, so one
    test's sign-ups would otherwise count against the next test's)."""
    for cache in caches.all():
        cache.clear()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if REQUESTS:
        kinds = ", ".join(f"{count:,} {kind}" for kind, count in sorted(REQUESTS.items()))
        classes = Counter(f"{status // 100}xx" for status in STATUSES.elements())
        answers = ", ".join(f"{count:,} {name}" for name, count in sorted(classes.items()))
        changes = ", ".join(f"{count:,} {what}" for what, count in sorted(OUTCOMES.items()))
        terminalreporter.write_line(
            f"fuzzing: {REQUESTS.total():,} requests; answers: {answers};"
            f" games changed: {changes or 'none'}"
        )
        terminalreporter.write_line(f"  by URL name: {kinds}")
