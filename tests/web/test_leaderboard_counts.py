"""What the public leaderboards count, and how often: a flood of views (anonymous, public)
must not count every entry of a daily, or of a game's every daily, once per request."""

import datetime as dt
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.admin.sites import site as admin_site
from django.contrib.auth.models import User
from django.core.cache import cache, caches
from django.core.cache.backends import locmem
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from castle_site.settings import cache_from_url
from games import leaderboard
from games.admin import EntryAdmin
from games.models import Daily, Entry, Player
from games.players import player_adopt
from tests.production.test_deploy import redis_answers

from .dailies import DAY, NOON, midnight, utc_now
from .test_daily import _Messages, client_of, make_entry, win


def entry_reads(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries if '"games_entry"' in query["sql"]]


def whole_counts(queries: CaptureQueriesContext) -> list[str]:
    """The reads that count every ranked entry of a daily: the histogram's (``GROUP BY``),
    and a place counted as all the entries before it (``moves <``)."""
    return [
        sql for sql in entry_reads(queries) if "GROUP BY" in sql or '"games_entry"."moves" <' in sql
    ]


def members(daily: Daily, results: list[tuple[int, int]]) -> list[Entry]:
    """Ranked wins of ``daily``: (moves, seconds) each, by players with an account."""
    entries = []
    for n, (moves, seconds) in enumerate(results):
        player = Player.objects.create(
            display_name=f"Member {n}", user=User.objects.create_user(f"member{n}")
        )
        entries.append(make_entry(daily, player, moves, seconds, n))
    return entries


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


# -- a daily's counts -----------------------------------------------------------------------


def test_a_flood_of_leaderboard_views_counts_the_daily_once(client: Client, daily: Daily) -> None:
    """The spread of move counts was counted over every entry of the daily on every view
    (153 ms on SQLite at 20,000 entries, a review measured; 344 ms the whole page)."""
    members(daily, [(70, 60), (70, 61), (75, 60)])
    url = reverse("games:daily_leaderboard", args=[DAY, "citadel"])

    with CaptureQueriesContext(connection) as queries:
        pages = [client.get(url).text for _ in range(5)]

    assert len(whole_counts(queries)) == 1
    assert all("<title>2 won in 70 moves</title>" in page for page in pages)


def test_a_players_place_counts_only_their_ties_on_moves(daily: Daily, ada: Player) -> None:
    """A viewer's own place was a count of every ranked entry before theirs (42-47 ms at
    20,000): those with fewer moves come from the daily's counts, only ties are counted."""
    members(daily, [(60, 90), (65, 90), (70, 50), (70, 70), (80, 10)])
    mine = make_entry(daily, ada, 70, 60, 0)
    Entry.objects.filter(moves=60).update(hidden=True)  # fewer moves, not ranked
    browser = client_of(ada)
    url = reverse("games:daily_leaderboard", args=[DAY, "citadel"])
    browser.get(url)

    with CaptureQueriesContext(connection) as queries:
        browser.get(url)
        day = browser.get(reverse("games:daily_day", args=[DAY])).text

    assert whole_counts(queries) == []
    assert leaderboard.place_of(mine, now=NOON) == 3  # after 65 moves and 70 in 50 s
    assert "You won in <b>70</b> moves, rank <b>3</b>" in day


def test_the_winners_own_page_counts_their_win_whatever_was_counted_before(
    client: Client, live: Daily, django_capture_on_commit_callbacks
) -> None:
    """A win that ranks forgets its daily's counts once committed: the winner's page said
    "Your rank 3 of 2" while a count made before the win was fresh."""
    members(live, [(60, 60), (61, 60), (200, 60)])
    client.get(reverse("games:daily_leaderboard", args=[live.date, "citadel"]))  # counted
    ada = Player.objects.create(display_name="Ada", user=User.objects.create_user("ada"))

    with django_capture_on_commit_callbacks(execute=True):
        game = win(ada, live, at=midnight())
    page = client_of(ada).get(game.get_absolute_url()).text

    assert '<dd data-testid="daily-rank">3 of 4</dd>' in page


def test_a_win_claimed_by_a_log_in_joins_the_counts_at_once(
    client: Client, live: Daily, django_capture_on_commit_callbacks
) -> None:
    """An anonymous win ranks once an account holds it: its panel read "Your rank 1 of 0"
    while the count made before the log-in was fresh."""
    members(live, [(200, 60)])
    client.get(reverse("games:daily_leaderboard", args=[live.date, "citadel"]))  # counted
    anonymous = Player.objects.create()
    game = win(anonymous, live, at=midnight())
    user = User.objects.create_user("ada")

    with django_capture_on_commit_callbacks(execute=True):
        player_adopt(anonymous_id=anonymous.pk, user=user)
    page = client_of(Player.objects.get(user=user)).get(game.get_absolute_url()).text

    assert '<dd data-testid="daily-rank">1 of 2</dd>' in page


def test_a_win_that_does_not_rank_forgets_no_counts(
    live: Daily, django_capture_on_commit_callbacks
) -> None:
    """Throwaway players' wins rank nowhere: each would have cost a count of the daily."""
    members(live, [(60, 60)])
    assert leaderboard.winners_by_daily([live], now=utc_now()) == {live.pk: 1}

    with django_capture_on_commit_callbacks(execute=True):
        win(Player.objects.create(), live, at=midnight())
    with CaptureQueriesContext(connection) as queries:
        leaderboard.winners_by_daily([live], now=utc_now())

    assert entry_reads(queries) == []


def test_a_moderators_change_shows_in_the_counts_at_once(
    daily: Daily, ada: Player, django_capture_on_commit_callbacks
) -> None:
    make_entry(daily, ada, 70, 60, 0)
    assert leaderboard.winners_by_daily([daily], now=NOON) == {daily.pk: 1}
    moderator = EntryAdmin(Entry, admin_site)
    request = RequestFactory().post("/admin/")
    request._messages = _Messages()  # type: ignore[attr-defined]

    with django_capture_on_commit_callbacks(execute=True):
        moderator.hide(request, Entry.objects.all())
    hidden = leaderboard.winners_by_daily([daily], now=NOON)
    with django_capture_on_commit_callbacks(execute=True):
        moderator.show(request, Entry.objects.all())

    assert hidden == {daily.pk: 0}
    assert leaderboard.winners_by_daily([daily], now=NOON) == {daily.pk: 1}


def test_a_moderators_change_on_the_entrys_own_page_shows_in_the_counts_at_once(
    admin_client: Client, daily: Daily, ada: Player, django_capture_on_commit_callbacks
) -> None:
    """The entry's page in the admin has its own Flagged and Hidden boxes: saved as Django
    saves a form, past ``entries_moderate``, a change there forgot no counts, and an ended
    daily went on counting a win hidden there for ten minutes."""
    entry = make_entry(daily, ada, 70, 60, 0)
    now = utc_now()  # the day is over
    assert leaderboard.winners_by_daily([daily], now=now) == {daily.pk: 1}
    page = reverse("admin:games_entry_change", args=[entry.pk])

    with django_capture_on_commit_callbacks(execute=True):
        hiding = admin_client.post(page, {"hidden": "on", "_save": "Save"})
    hidden = leaderboard.winners_by_daily([daily], now=now)
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(page, {"_save": "Save"})  # its box cleared

    assert hiding.status_code == 302
    assert hidden == {daily.pk: 0}
    assert leaderboard.winners_by_daily([daily], now=now) == {daily.pk: 1}
    assert not Entry.objects.get().hidden


def test_an_entry_a_moderator_deletes_leaves_the_counts_at_once(
    admin_client: Client, daily: Daily, django_capture_on_commit_callbacks
) -> None:
    """Deleted in the admin (its own page's Delete, or the list's "Delete selected"), an
    entry went on counting as long as its ended daily's counts stayed fresh (ten minutes):
    the admin deleted it past ``forget_counts``."""
    first, second = members(daily, [(70, 60), (71, 60)])
    now = utc_now()  # the day is over
    assert leaderboard.winners_by_daily([daily], now=now) == {daily.pk: 2}

    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(reverse("admin:games_entry_delete", args=[first.pk]), {"post": "yes"})
    one_deleted = leaderboard.winners_by_daily([daily], now=now)
    selected = {"action": "delete_selected", "_selected_action": [second.pk], "post": "yes"}
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(reverse("admin:games_entry_changelist"), selected)

    assert one_deleted == {daily.pk: 1}
    assert leaderboard.winners_by_daily([daily], now=now) == {daily.pk: 0}
    assert not Entry.objects.exists()


def test_a_player_or_game_deleted_in_the_admin_takes_its_win_from_the_counts_at_once(
    admin_client: Client, daily: Daily, django_capture_on_commit_callbacks
) -> None:
    """A player's or a game's deletion takes its entries along, past the entry admin: the
    ended daily went on counting the win for ten minutes (a review)."""
    first, second = members(daily, [(70, 60), (71, 60)])
    now = utc_now()
    assert leaderboard.winners_by_daily([daily], now=now) == {daily.pk: 2}

    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(
            reverse("admin:games_player_delete", args=[first.player_id]), {"post": "yes"}
        )
    one_deleted = leaderboard.winners_by_daily([daily], now=now)
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(
            reverse("admin:games_game_delete", args=[second.game_id]), {"post": "yes"}
        )

    assert one_deleted == {daily.pk: 1}
    assert leaderboard.winners_by_daily([daily], now=now) == {daily.pk: 0}
    assert not Entry.objects.exists()


def test_the_admin_offers_no_entry_to_add(admin_client: Client) -> None:
    """Entries are made by wins alone (``record_win``): the admin's Add entry form, all of
    it read-only but its two boxes, failed on saving (a server error)."""
    add = reverse("admin:games_entry_add")

    assert admin_client.get(add).status_code == 403
    assert admin_client.post(add, {"_save": "Save"}).status_code == 403
    assert add not in admin_client.get(reverse("admin:games_entry_changelist")).text


def test_an_ended_dailys_counts_stay_fresh_longer_than_a_live_ones(
    daily: Daily, live: Daily, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the day is over its wins are late and never rank: only moderation (which
    forgets the counts) and deactivated accounts change them."""
    [entry] = members(daily, [(70, 60)])
    make_entry(live, entry.player, 70, 60, 0)
    now = utc_now()
    leaderboard.winners_by_daily([daily, live], now=now)
    later(monkeypatch, leaderboard.TALLY_LIVE_SECONDS + 1)

    with CaptureQueriesContext(connection) as queries:
        leaderboard.winners_by_daily([daily, live], now=now)

    [counted] = whole_counts(queries)
    assert f'"games_entry"."daily_id" = {live.pk}' in counted


@pytest.fixture(params=["memory", "redis"])
def shared_cache(request: pytest.FixtureRequest, settings: Any) -> Iterator[None]:
    """The counts' cache: each process's memory (the tests' own), or Redis as in production
    (database 14, under this test's own prefix, its keys deleted after)."""
    if request.param == "memory":
        yield
        return
    if not redis_answers():
        pytest.skip("no Redis on 127.0.0.1:6379")
    prefix = f"test-{uuid.uuid4()}"
    settings.CACHES = {
        **settings.CACHES,
        "default": {**cache_from_url("redis://127.0.0.1:6379/14"), "KEY_PREFIX": prefix},
    }
    yield
    client = caches["default"]._cache.get_client(write=True)  # type: ignore[attr-defined]
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_a_count_under_way_does_not_cover_a_moderators_change(
    shared_cache: None,
    daily: Daily,
    ada: Player,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks,
) -> None:
    """A count that read the entries before a moderator's change was committed, and stored
    its result after the change forgot the counts, made that result fresh again: an ended
    daily went on counting a win hidden (or not one shown again) for ten minutes."""
    entry = make_entry(daily, ada, 70, 60, 0)
    now = utc_now()  # the day is over: its counts stay fresh ``TALLY_OVER_SECONDS``
    counting = leaderboard._move_counts

    def moderated_meanwhile(**changes: bool) -> dict[int, int]:
        """``move_counts``, with the moderator's change made between its read and its
        write, and then what the next view reads."""

        def count(daily_id: int) -> dict[int, int]:
            counted = counting(daily_id)
            with django_capture_on_commit_callbacks(execute=True):
                leaderboard.entries_moderate(Entry.objects.filter(pk=entry.pk), **changes)
            return counted

        with monkeypatch.context() as patched:
            patched.setattr(leaderboard, "_move_counts", count)
            leaderboard.move_counts(daily, now=now)
        return leaderboard.move_counts(daily, now=now)

    assert moderated_meanwhile(hidden=True) == {}  # its counts never forgotten before
    leaderboard.forget_counts([daily.pk])  # counted again by the next view
    assert moderated_meanwhile(hidden=False) == {70: 1}  # forgotten before
