"""The one-time notes a page shows after a redirect (Django's messages framework)."""

from __future__ import annotations

from typing import Any

from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.fallback import FallbackStorage
from django.http import HttpResponse

KEEP = 5
"""Unread notes kept: a page shows every one, and no page of the site adds more than two."""


class RecentNotes(FallbackStorage):
    """Django's default storage (a cookie, then the session) keeping only the ``KEEP``
    latest unread notes. Each New game without a proved deal ready leaves a note for the
    game page; a script that never loads that page piled them up, past the cookie into the
    session row, and every request of that session read them all: after a day's worth
    (43,200) a move took 35 ms instead of 6, after a week's 189 ms."""

    def _store(
        self, messages: list[Message], response: HttpResponse, *args: Any, **kwargs: Any
    ) -> list[Message]:
        # Django's own method, which its type stubs leave out.
        stored: list[Message] = super()._store(  # type: ignore[misc]
            messages[-KEEP:], response, *args, **kwargs
        )
        return stored
