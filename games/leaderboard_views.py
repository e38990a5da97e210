"""The leaderboards: one daily's ranked wins, and a game's champions over all its dailies."""

from __future__ import annotations

import datetime as dt

from django.core.paginator import InvalidPage
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from games import leaderboard
from games.daily import visible_daily
from games.daily_views import NOT_OUT
from games.players import known_player
from games.presentation import histogram
from games.views import rules_or_404

ROWS_PER_PAGE = 50


@require_safe
def daily_leaderboard(request: HttpRequest, date: dt.date, slug: str) -> HttpResponse:
    """A daily's leaderboard: ranked wins, the player's own row, the spread of move counts."""
    now = timezone.now()
    daily = visible_daily(slug=rules_or_404(slug).slug, date=date, now=now)
    if daily is None:
        raise Http404(NOT_OUT)
    try:
        standings = leaderboard.ranking_page(
            daily, request.GET.get("page"), per_page=ROWS_PER_PAGE, now=now
        )
    except InvalidPage as error:  # past the end, or not a number: it served the last page
        raise Http404("This leaderboard has no such page.") from error
    page = standings.page
    player = known_player(request)
    mine = leaderboard.own_standing(daily, player, now=now)
    on_page = mine is not None and any(row.entry.pk == mine.entry.pk for row in page.object_list)
    context = {
        "daily": daily,
        "rules": daily.rules,
        "live": daily.is_live(now),
        "page": page,
        "mine": mine,
        "mine_on_page": on_page,
        "player": player,
        "signup": reverse("games:signup"),
        "histogram": histogram(standings.move_counts, daily.par),
    }
    return render(request, "games/daily_leaderboard.html", context)


@require_safe
def game_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """Per game over all dailies: most daily wins, best streak, best average over par."""
    rules = rules_or_404(slug)
    sections = leaderboard.champions(rules.slug)
    player = known_player(request)
    return render(
        request,
        "games/game_leaderboard.html",
        {"rules": rules, "sections": sections, "anyone": any(sections.values()), "player": player},
    )
