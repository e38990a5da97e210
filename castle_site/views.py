"""The site's own answers to what Django refuses before any view of the games runs."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404

from games import status_line
from games.presentation import sentence

CSRF_MESSAGE = (
    "This page's form has expired (its security token no longer matches this browser's):"
    " reload the page and try again."
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a 403 in the site's own words and styles (Django's page styles
    itself inline, which the Content Security Policy blocks), in the status line for the
    board script. ``reason`` (Django's, for developers) is logged by Django, not shown."""
    if getattr(request, "htmx", False):
        return status_line.refusal(request, CSRF_MESSAGE, 403)
    return render(request, "games/error.html", {"message": CSRF_MESSAGE}, status=403)


NO_SUCH_ROW = re.compile(r"No (\w+) matches the given query\.")
"""What ``get_object_or_404`` says of a row that is not there."""


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: the site's page, with the reason in a sentence (the default page
    showed Django's own words: "Resolver404", "No Game matches the given query..")."""
    return render(request, "404.html", {"reason": not_found_reason(exception)}, status=404)


def not_found_reason(exception: Exception) -> str:
    """The sentence a 404 page shows: the site's own reason (an ``Http404``'s message),
    "No such game." for a row that is not there, nothing for an address no URL matches."""
    text = exception.args[0] if exception.args else ""
    if isinstance(exception, Resolver404) or not isinstance(text, str):
        return ""
    if row := NO_SUCH_ROW.fullmatch(text):
        text = f"No such {row[1].lower()}"
    return sentence(text)
