"""Django's database sessions, read with one plain query.

Every request of a player reads their session before anything else (whose games are
theirs), and the ORM's query for it (``Session.objects.get`` with its expiry filter, built,
compiled and turned into a model each time) cost about ten times the query itself. This
store reads the same row under the same condition in SQL of its own; writing, creating and
deleting sessions stay Django's. ``SESSION_ENGINE`` names it where sessions live in the
database alone (``castle_site.settings``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import SESSION_KEY as SESSION_AUTH_KEY
from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS, SessionBase
from django.db import connections, router
from django.utils import timezone

from games.players import remember_session

KEY_LENGTH = 32
"""The length of the keys Django makes (``SessionBase._get_new_session_key``)."""
_KEY_CHARS = frozenset(VALID_KEY_CHARS)


def well_formed_key(key: str | None) -> bool:
    """Whether a cookie's ``key`` could be one Django made: 32 of its lowercase letters and
    digits. Django's own check asks only for 8 characters or more, so any cookie was looked
    up: an 8,000-character key went to the cache, which warned with all of it through
    Python's ``warnings`` (1 MB of log a second from one client, an attacker's pass) and kept
    every distinct warning for good (22 MB a minute more in each worker)."""
    return key is not None and len(key) == KEY_LENGTH and set(key) <= _KEY_CHARS


class IndexedKeys(SessionBase):
    """A logged-in session keeps its place in the account's index of sessions
    (``games.models.AccountSession``, what logging out everywhere, a password change and a
    deactivation end) when its key changes. Django changes it where no code of the site
    runs: the admin's password forms (``update_session_auth_hash``) gave a staff session a
    key no index knew, which outlived every way of ending the account's sessions (an
    attacker's pass: a copied staff cookie, rekeyed, ranked a daily win 1st after the
    password was reset)."""

    def cycle_key(self) -> None:
        old = self.session_key
        super().cycle_key()
        user_id = self.get(SESSION_AUTH_KEY)
        if old is None or user_id is None:
            return  # a log-in: games.players indexes the session it ends in
        remember_session(user_id=int(user_id), session_key=self.session_key, replaces=old)


class SessionStore(IndexedKeys, db.SessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return well_formed_key(key)

    def load(self) -> dict[str, Any]:
        """The session's data while it has not expired, else ``{}`` and no key (as Django's
        own store: the next save creates a new session)."""
        data = self._unexpired_data()
        if data is None:
            self._session_key = None
            return {}
        return self.decode(data)

    def _unexpired_data(self) -> str | None:
        key = self.session_key
        if key is None:  # no cookie, or a malformed one (SessionBase checks the key)
            return None
        connection = connections[router.db_for_read(self.model)]
        table = connection.ops.quote_name(self.model._meta.db_table)
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s",
                [key, now],
            )
            row = cursor.fetchone()
        return None if row is None else str(row[0])
