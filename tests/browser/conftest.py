from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from playwright.sync_api import Browser, BrowserContext


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """The live server runs in this process and every browser comes from 127.0.0.1: each
    test starts with empty rate-limit counters (and hint cache), as a new visitor would."""
    cache.clear()


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Opens browser contexts (another browser of the same player, another player), all
    closed when the test ends: a page left open keeps asking the live server (its verdict
    poll, its clock) through the tests that follow, from threads that outlive their share
    of the test database."""
    opened: list[BrowserContext] = []

    def new(**options: Any) -> BrowserContext:
        context = browser.new_context(**options)
        opened.append(context)
        return context

    yield new
    for context in opened:
        context.close()
