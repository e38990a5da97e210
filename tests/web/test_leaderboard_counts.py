"""What the public leaderboards count, and how often: a flood of views (anonymous, public)
must not count every entry of a daily, or of a game's every daily, once per request."""

import datetime as dt
import time

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.cache.backends import locmem
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import leaderboard
from games.models import Daily, Player

from .dailies import DAY
from .test_daily import make_entry


def entry_reads(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries if '"games_entry"' in query["sql"]]


def later(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """The memory cache's clock ``seconds`` on: what it keeps for less has expired."""

    class Later:
        @staticmethod
        def time() -> float:
            return time.time() + seconds

    monkeypatch.setattr(locmem, "time", Later)


# -- champions ----------------------------------------------------------------------------


@pytest.fixture
def ada(db: None) -> Player:
    return Player.objects.create(display_name="Ada", user=User.objects.create_user("ada"))


CHAMPIONS = reverse("games:game_leaderboard", args=["citadel"])
COUNTING = "champions:citadel:20:lock"
"""The lock ``leaderboard._counted`` takes while it counts Citadel's champions."""


def test_expired_champions_are_served_stale_while_another_process_counts(
    client: Client, ada: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted with a plain get-or-set, every request arriving once the value expired
    counted all over again (577 ms at 20,000 entries each, a review measured): a flood's
    concurrent requests all paid at once. One counts; the others serve the last count."""
    first = Daily.objects.create(slug="citadel", date=DAY, deal=1, par=60)
    make_entry(first, ada, 70, 60, 0)
    assert '<td class="who">Ada</td><td>1</td>' in client.get(CHAMPIONS).text
    second = Daily.objects.create(slug="citadel", date=DAY + dt.timedelta(days=1), deal=2, par=60)
    make_entry(second, ada, 62, 60, 0)
    later(monkeypatch, leaderboard.CHAMPIONS_SECONDS + 1)
    assert cache.add(COUNTING, True)  # another process is counting

    with CaptureQueriesContext(connection) as queries:
        body = client.get(CHAMPIONS).text

    assert entry_reads(queries) == []
    assert '<td class="who">Ada</td><td>1</td>' in body
    cache.delete(COUNTING)  # its count done: the next request counts (no other process here)
    assert '<td class="who">Ada</td><td>2</td>' in client.get(CHAMPIONS).text


def test_a_first_count_under_way_is_awaited_not_repeated(
    client: Client, ada: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing counted yet (a cold cache): a request finding the lock taken waits for the
    other process's count rather than counting too."""
    daily = Daily.objects.create(slug="citadel", date=DAY, deal=1, par=60)
    make_entry(daily, ada, 70, 60, 0)
    counted = leaderboard._champions("citadel", 20)
    assert cache.add(COUNTING, True)

    def the_other_finishes(seconds: float) -> None:
        cache.set("champions:citadel:20", counted)

    monkeypatch.setattr(leaderboard, "sleep", the_other_finishes)
    with CaptureQueriesContext(connection) as queries:
        body = client.get(CHAMPIONS).text

    assert entry_reads(queries) == []
    assert '<td class="who">Ada</td><td>1</td>' in body


def test_a_first_count_that_never_comes_is_made_after_a_wait(
    client: Client, ada: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lock left by a process that died counting delays a request, never blanks it."""
    daily = Daily.objects.create(slug="citadel", date=DAY, deal=1, par=60)
    make_entry(daily, ada, 70, 60, 0)
    assert cache.add(COUNTING, True)
    waits: list[float] = []
    monkeypatch.setattr(leaderboard, "sleep", waits.append)

    body = client.get(CHAMPIONS).text

    assert '<td class="who">Ada</td><td>1</td>' in body
    assert sum(waits) == pytest.approx(leaderboard.WAIT_SECONDS)
    assert cache.get(COUNTING)  # the other process's lock, left for it to end
