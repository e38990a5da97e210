"""The daily challenge pages: today's deals, past days, each daily's leaderboard."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from games import daily as dailies
from games.models import Daily
from games.players import current_player, known_player
from games.presentation import histogram
from games.rules import GAMES
from games.views import rules_or_404

ROWS_PER_PAGE = 50


@require_GET
def today(request: HttpRequest) -> HttpResponse:
    return _day(request, dailies.utc_today(timezone.now()))


@require_GET
def day(request: HttpRequest, date: dt.date) -> HttpResponse:
    return _day(request, date)


def _day(request: HttpRequest, date: dt.date) -> HttpResponse:
    now = timezone.now()
    today = dailies.utc_today(now)
    if date > today:
        raise Http404("That day's challenge is not out yet")
    cards = []
    for slug in GAMES:
        try:
            cards.append((slug, dailies.daily_for_date(game=slug, date=date)))
        except dailies.DailyUnavailable:
            cards.append((slug, None))
    found = [d for _, d in cards if d is not None]
    winners = dailies.winners_by_daily(found)
    status = dailies.player_status(known_player(request), found)
    rows = [
        {
            "rules": GAMES[slug],
            "daily": daily,
            "winners": winners.get(daily.pk, 0) if daily else 0,
            "mine": status.get(daily.pk, {}) if daily else {},
        }
        for slug, daily in cards
    ]
    tomorrow = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    context = {
        "date": date,
        "is_today": date == today,
        "rows": rows,
        "next_at": tomorrow,
        "until_next": tomorrow - now,
    }
    return render(request, "games/daily.html", context)


@require_GET
def archive(request: HttpRequest) -> HttpResponse:
    """Every past day that has dailies, by month, newest first."""
    today = dailies.utc_today(timezone.now())
    months: dict[dt.date, list[dt.date]] = defaultdict(list)
    dates = Daily.objects.filter(date__lte=today).values_list("date", flat=True).distinct()
    for date in sorted(set(dates), reverse=True):
        months[date.replace(day=1)].append(date)
    return render(
        request, "games/daily_archive.html", {"months": sorted(months.items(), reverse=True)}
    )


@require_GET
def play(request: HttpRequest, date: dt.date, slug: str) -> HttpResponse:
    """Start (or resume) the daily: an ordinary saved game linked to its daily."""
    rules = rules_or_404(slug)
    if date > dailies.utc_today(timezone.now()):
        raise Http404("That day's challenge is not out yet")
    try:
        daily = dailies.daily_for_date(game=rules.slug, date=date)
    except dailies.DailyUnavailable as error:
        raise Http404(str(error)) from error
    game = dailies.daily_start(player=current_player(request), daily=daily, now=timezone.now())
    return redirect(game)


@require_GET
def board(request: HttpRequest, date: dt.date, slug: str) -> HttpResponse:
    """A daily's leaderboard: ranked wins, the player's own row, the spread of move counts."""
    daily = get_object_or_404(Daily, game=rules_or_404(slug).slug, date=date)
    rows = dailies.ranking(daily)
    page = Paginator(rows, ROWS_PER_PAGE).get_page(request.GET.get("page"))
    player = known_player(request)
    mine = next((row for row in rows if player and row.entry.player_id == player.pk), None)
    context = {
        "daily": daily,
        "rules": daily.rules,
        "page": page,
        "mine": mine,
        "mine_on_page": mine is not None and mine in page.object_list,
        "player": player,
        "histogram": histogram([row.entry.moves for row in rows], daily.par),
    }
    return render(request, "games/daily_board.html", context)


@require_GET
def game_board(request: HttpRequest, slug: str) -> HttpResponse:
    """Per game over all dailies: most daily wins, best streak, best average over par."""
    rules = rules_or_404(slug)
    sections = dailies.champions(rules.slug)
    player = known_player(request)
    return render(
        request,
        "games/game_board.html",
        {"rules": rules, "sections": sections, "player": player},
    )
