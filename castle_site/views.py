"""The site's own answers to what Django refuses before any view of the games runs."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_htmx.http import reswap, retarget

CSRF_MESSAGE = (
    "This page's form has expired (its security token no longer matches this browser's):"
    " reload the page and try again."
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a 403 in the site's own words and styles (Django's page styles
    itself inline, which the Content Security Policy blocks), in the status line for the
    board script. ``reason`` (Django's, for developers) is logged by Django, not shown."""
    if getattr(request, "htmx", False):
        context = {"message": CSRF_MESSAGE, "error": True}
        response = render(request, "games/game.html#status", context, status=403)
        return reswap(retarget(response, "#status"), "outerHTML")
    return render(request, "games/error.html", {"message": CSRF_MESSAGE}, status=403)
