"""Django's cached database sessions (``cached_db``), each kept in the cache for a day at
most.

Django keeps a session in the cache as long as the session lasts: 400 days here
(``SESSION_COOKIE_AGE``), so every visitor without a cookie left about 200 bytes in Redis
for 400 days, and Redis runs without eviction (the rate limits' counters must not be
evicted). A client starting games as fast as the limits allow (120 a minute) made 35 MB a
day that stayed. The database holds every session; the cache only spares the next
requests of the day their read. ``SESSION_ENGINE`` names this store where a shared cache
is configured (``castle_site.settings``)."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import cached_db
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

from castle_site.sessions import IndexedKeys, well_formed_key

CACHE_SECONDS = 24 * 60 * 60
"""The longest a session stays in the cache after it was read or written."""


class _CappedTimeouts:
    """A cache whose entries last ``CACHE_SECONDS`` at most; the rest is the cache's own."""

    def __init__(self, cache: BaseCache) -> None:
        self._cache = cache

    def set(self, key: str, value: Any, timeout: float | None = DEFAULT_TIMEOUT) -> None:
        if timeout is None or timeout is DEFAULT_TIMEOUT or timeout > CACHE_SECONDS:
            timeout = CACHE_SECONDS
        self._cache.set(key, value, timeout)

    def __contains__(self, key: str) -> bool:
        return key in self._cache

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cache, name)


class SessionStore(IndexedKeys, cached_db.SessionStore):
    _cache: Any  # Django's cache, then the same behind _CappedTimeouts

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = _CappedTimeouts(self._cache)

    def _validate_session_key(self, key: str | None) -> bool:
        return well_formed_key(key)

    def load(self) -> dict[str, Any]:
        """Nothing for a request without a session (no cookie, or one no key could match),
        as the database store answers: Django's would first make up a key and look it up in
        the cache and the database."""
        if self.session_key is None:
            return {}
        return super().load()
