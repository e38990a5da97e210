"""The database session store reads a session as Django's own store does: the same data
while it lasts, nothing (and a new key on the next save) once it expired, was deleted or
the cookie names no session. Its read is one plain query, not the ORM's."""

from __future__ import annotations

import warnings
from datetime import timedelta
from importlib import import_module
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from castle_site import cached_sessions
from castle_site.sessions import SessionStore
from games.players import delete_sessions

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved() -> SessionStore:
    store = SessionStore()
    store["player"] = "4c7e1f50-0000-4000-8000-000000000001"
    store["note"] = "ünïcode ♠"
    store.save()
    return store


@pytest.mark.parametrize("store_class", [SessionStore, db.SessionStore])
def test_a_saved_session_reads_back(
    saved: SessionStore, store_class: type[db.SessionStore]
) -> None:
    again = store_class(saved.session_key)
    assert dict(again.items()) == {"player": saved["player"], "note": "ünïcode ♠"}
    assert again.session_key == saved.session_key


def test_its_read_is_one_query(saved: SessionStore) -> None:
    with CaptureQueriesContext(connection) as queries:
        SessionStore(saved.session_key).load()
    assert len(queries) == 1
    assert queries[0]["sql"].startswith("SELECT session_data FROM")


@pytest.mark.parametrize("store_class", [SessionStore, db.SessionStore])
def test_an_expired_session_is_empty_and_saves_under_a_new_key(
    saved: SessionStore, store_class: type[db.SessionStore]
) -> None:
    Session.objects.filter(pk=saved.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    again = store_class(saved.session_key)
    assert again.load() == {}
    assert again.session_key is None
    again["player"] = "someone else"
    again.save()
    assert again.session_key != saved.session_key
    assert Session.objects.get(pk=saved.session_key).get_decoded()["note"] == "ünïcode ♠"


@pytest.mark.parametrize("key", ["no-such-session-key-at-all-000000", "short", "", "' OR 1=1 --xx"])
def test_a_cookie_naming_no_session_reads_nothing(saved: SessionStore, key: str) -> None:
    assert SessionStore(key).load() == {}
    assert db.SessionStore(key).load() == {}


def test_a_session_whose_data_was_tampered_with_is_empty(saved: SessionStore) -> None:
    row = Session.objects.get(pk=saved.session_key)
    Session.objects.filter(pk=row.pk).update(session_data=row.session_data[:-3] + "AAA")
    assert SessionStore(saved.session_key).load() == {}


# -- with a shared cache: Django's cached_db, a day at most in the cache -------------------


@pytest.fixture
def cache_timeouts(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """The timeouts the session cache is given (the test's default cache, in memory)."""
    timeouts: list[float | None] = []
    session_cache = caches[settings.SESSION_CACHE_ALIAS]
    original = session_cache.set

    def spy(key: str, value: Any, timeout: float | None = None, version: int | None = None) -> None:
        timeouts.append(timeout)
        original(key, value, timeout, version)

    monkeypatch.setattr(session_cache, "set", spy)
    return timeouts


def test_a_cached_session_stays_a_day_at_most_in_the_cache(
    cache_timeouts: list[float | None],
) -> None:
    """Django's store kept each session in the cache as long as the session lasts (400
    days): a client starting games as fast as allowed left 35 MB a day in Redis, which
    never evicts."""
    store = cached_sessions.SessionStore()
    store["player"] = "someone"
    store.save()
    key = store.session_key
    assert key is not None
    caches[settings.SESSION_CACHE_ALIAS].clear()  # a day later: read from the database

    again = cached_sessions.SessionStore(key)
    assert again["player"] == "someone"
    assert again.exists(key)
    assert len(cache_timeouts) >= 2  # written when saved, and again when read from the database
    assert all(t is not None and 0 < t <= cached_sessions.CACHE_SECONDS for t in cache_timeouts)
    assert settings.SESSION_COOKIE_AGE > cached_sessions.CACHE_SECONDS  # the session lasts

    again.delete()
    assert cached_sessions.SessionStore(key).load() == {}


@pytest.mark.parametrize("key", ["a" * 8000, "A" * 32, "é" * 32, "abc\x01" * 8, "a" * 33])
@pytest.mark.parametrize("store_class", [SessionStore, cached_sessions.SessionStore])
def test_a_cookie_no_key_could_match_is_not_looked_up(
    key: str, store_class: type[db.SessionStore]
) -> None:
    """An attacker's pass sent a new 8,000-character ``sessionid`` with each request: the
    cache warned with all of it through Python's ``warnings`` (1 MB of log a second) and
    each worker kept every distinct warning (22 MB a minute more, never freed)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with CaptureQueriesContext(connection) as queries:
            assert store_class(key).load() == {}
    assert len(queries) == 0


@pytest.mark.parametrize(
    "engine", ["castle_site.sessions", "castle_site.cached_sessions"], ids=["db", "cached"]
)
def test_deleted_sessions_are_gone_from_the_cache_too(
    engine: str, settings: Any, django_assert_max_num_queries: Any
) -> None:
    """Sessions end a batch a query (``games.players.delete_sessions``): the cached store's
    copies go with their rows, or the cookies would read them back for a day."""
    settings.SESSION_ENGINE = engine
    store_class = import_module(engine).SessionStore
    keys = []
    for n in range(3):
        store = store_class()
        store["player"] = f"someone {n}"
        store.save()
        keys.append(store.session_key)
        assert store_class(store.session_key)["player"] == f"someone {n}"  # cached, when cached

    with django_assert_max_num_queries(2):
        delete_sessions(keys[:2])

    assert [store_class(key).load() for key in keys] == [{}, {}, {"player": "someone 2"}]
