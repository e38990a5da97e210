"""Logging for the site: what Django's security log writes about a refused request."""

from __future__ import annotations

import logging


class WithoutTraceback(logging.Filter):
    """A record's message without its traceback. Django logs each request it refuses as
    suspicious (more than 1,000 form fields, a bad host) at ERROR with the exception's
    traceback: 1.3-1.7 KB of log for a 400, which no limit counts (an attacker's pass). The
    message says what was refused; the traceback only where Django noticed."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True
