"""What a request must be before Django reads it (WSGI middleware: ``castle_site.wsgi``):
in UTF-8, and no larger than ``MAX_BODY``; and a HEAD request's answer without its body.

The site reads requests in UTF-8: a request that names another charset is refused.
Django decodes the query string in the charset a request's ``Content-Type`` names as soon as
it makes the request object, before any middleware: ``charset=base64`` (a codec, but not a
text encoding) or ``idna`` raised there, and gunicorn answered a 500 with a traceback, for
any URL and method (an attacker's pass: 295 a second, 46 GB of log a day). A form body in
another charset than UTF-8 failed later, in the CSRF check, whose error pages read it again:
a 500 with three tracebacks. No browser names another charset for a form or a link.

A body is refused past ``MAX_BODY``: the largest form, an import of 32,000 characters, takes
some 400 KB urlencoded, and Django writes a file part of any size to disk before the CSRF
check refuses the request (an attacker's pass: 2.5 GB three times at once, every worker
busy, the health check 31 s)."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.utils.http import parse_header_parameters

READ = frozenset({"utf-8", "ascii"})
"""Python's names of the charsets read: UTF-8 and its subset, ASCII (``us-ascii``)."""

REFUSAL = b"This site reads requests in UTF-8: send them without another charset.\n"

MAX_BODY = 1024 * 1024
"""Bytes a request's body may declare (``Content-Length``); the proxy may set less."""

TOO_LARGE = b"This request's body is larger than any form of this site takes.\n"

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def named_charset_is_read(content_type: str) -> bool:
    """Whether the charset ``content_type`` names (if any) is one the site reads; a name no
    codec knows counts as none, as Django ignores it.

    >>> named_charset_is_read("application/x-www-form-urlencoded; charset=UTF-8")
    True
    >>> named_charset_is_read("x; charset=base64"), named_charset_is_read("x; charset=latin-1")
    (False, False)
    >>> named_charset_is_read("text/plain; charset=no-such-codec")
    True
    """
    charset = parse_header_parameters(content_type)[1].get("charset")
    if not charset:
        return True
    try:
        return codecs.lookup(charset).name in READ
    except LookupError:
        return True


def declared_length(environ: dict[str, Any]) -> int:
    """The body's length as ``Content-Length`` says it (0 when absent or not a number: Django
    then reads no body)."""
    try:
        return int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def guarded(app: WSGIApp) -> WSGIApp:
    """``app``, answering 400 to a request whose ``Content-Type`` names another charset
    than UTF-8, and 413 to a body larger than ``MAX_BODY``."""

    def intake(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not named_charset_is_read(environ.get("CONTENT_TYPE", "")):
            return _refuse(start_response, "400 Bad Request", REFUSAL)
        if declared_length(environ) > MAX_BODY:
            return _refuse(start_response, "413 Content Too Large", TOO_LARGE)
        answer = app(environ, start_response)
        if environ.get("REQUEST_METHOD") == "HEAD":
            return HeadersOnly(answer)
        return answer

    return intake


class HeadersOnly:
    """A HEAD request's answer: the page's headers, none of its body. Django renders the body
    and leaves it to the server to drop, and gunicorn logged a warning for each one (an
    attacker's pass: 3,679 HEADs a second, 47 GB of log a day). Closing it closes the page's
    answer, which ends Django's request (its database connection goes back)."""

    def __init__(self, answer: Iterable[bytes]) -> None:
        self.answer = answer

    def __iter__(self) -> Iterator[bytes]:
        return iter(())

    def close(self) -> None:
        if close := getattr(self.answer, "close", None):
            close()


def _refuse(start_response: StartResponse, status: str, text: bytes) -> list[bytes]:
    headers = [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(text)))]
    start_response(status, headers)
    return [text]
