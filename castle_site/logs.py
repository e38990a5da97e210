"""Logging for the site: what Django writes about the requests it refuses or fails.

Those lines come at a client's pace and hold a client's words (a path, a ``Host`` or an
``Origin`` header of any length), so each is cut short and each logger keeps to a rate: a
flood of bad requests writes a few lines a second, never the flood. Python's logging has no
rate limit of its own and the packages that add one are unmaintained; this is a token bucket.
"""

from __future__ import annotations

import logging
import threading
import time


class WithoutTraceback(logging.Filter):
    """A record's message without its traceback. Django logs each request it refuses as
    suspicious (more than 1,000 form fields, a bad host) at ERROR with the exception's
    traceback: 1.3-1.7 KB of log for a 400, which no limit counts (an attacker's pass). The
    message says what was refused; the traceback only where Django noticed."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True


class Capped(logging.Filter):
    """At most ``rate`` lines a second from each logger (``burst`` at once), each message cut
    at ``max_chars``; the next line let through says how many were dropped.

    An attacker's pass wrote 1.45 TB a day of ``Invalid HTTP_HOST header`` (an 8 KB host,
    named twice in each line, 1,020 requests a second), 167 GB of ``Not Found: <4 KB path>``
    and 70 GB of CSRF refusals quoting an 8 KB ``Origin``: no rate limit counts those
    requests, as Django answers them before the site's views.

    A warning (a refused request: ``Bad request (Unable to parse request body)``) loses its
    traceback, which the cut did not reach: 2.2 KB of a client's making each time, where the
    message says what was refused. An error (a 500, the site's fault) keeps it.
    """

    def __init__(self, rate: float = 5.0, burst: int = 20, max_chars: int = 300) -> None:
        super().__init__()
        self.rate, self.burst, self.max_chars = rate, burst, max_chars
        self._lock = threading.Lock()
        # Each logger's tokens, when they were counted, and the lines dropped since the last
        # one let through. Logger names are the code's, not a client's: a bounded dict.
        self._buckets: dict[str, tuple[float, float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        with self._lock:
            tokens, then, dropped = self._buckets.get(record.name, (self.burst, now, 0))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1:
                self._buckets[record.name] = (tokens, now, dropped + 1)
                return False
            self._buckets[record.name] = (tokens - 1, now, 0)
        if record.levelno < logging.ERROR:
            record.exc_info, record.exc_text = None, None
        message = record.getMessage()
        if len(message) > self.max_chars:
            message = f"{message[: self.max_chars]}… ({len(message):,} characters)"
        if dropped:
            message = f"{message} [and {dropped:,} lines of {record.name} dropped before it]"
        record.msg, record.args = message, ()
        return True
