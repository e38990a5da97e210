"""A refusal said in the game page's status line, for its board script: a refused move, a
wait (429), an expired form (403). Nothing changed, so the status keeps the panel it shows
(a stuck game's Analyse): ``data-panel-kept`` (static/js/board.js)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_htmx.http import reswap, retarget


def refusal(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """The status line saying ``message``, in place of the page's own (its id's)."""
    context = {"message": message, "error": True, "panel_kept": True}
    response = render(request, "games/game.html#status", context, status=status)
    return reswap(retarget(response, "#status"), "outerHTML")
