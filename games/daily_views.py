"""The daily challenge pages: today's deals and past days by month (the leaderboards are
``games.leaderboard_views``).

No view here runs the solver: a day that is not prepared is either today (the page says it
is being prepared and one task is queued) or a 404, like every future day.
"""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_safe

from games import daily as dailies
from games import leaderboard, limits
from games.daily_tasks import daily_request
from games.models import Daily
from games.players import current_player, known_player
from games.rules import get_game
from games.views import from_another_site, rules_or_404

NOT_OUT = "There is no daily challenge for that day."


@require_safe
def today(request: HttpRequest) -> HttpResponse:
    # One reading of the clock: a second one, past midnight, took today's page for a past
    # day's (its wins "late and unranked", no countdown), or a 404 before its preparation.
    now = timezone.now()
    return _day(request, dailies.utc_today(now), now=now)


@require_safe
def day(request: HttpRequest, date: dt.date) -> HttpResponse:
    return _day(request, date, now=timezone.now())


def _day(request: HttpRequest, date: dt.date, *, now: dt.datetime) -> HttpResponse:
    today = dailies.utc_today(now)
    if not dailies.day_exists(date, now=now):
        raise Http404(NOT_OUT)
    preparing = date == today and daily_request(date=date, now=now)
    prepared = {d.slug: d for d in dailies.prepared_dailies(date)}
    found = list(prepared.values())
    games = dailies.daily_games(date, prepared=prepared)
    winners = leaderboard.winners_by_daily(found, now=now)
    status = leaderboard.player_status(known_player(request), found, now=now)
    cards = [
        {
            "rules": rules,
            "daily": prepared.get(slug),
            "winners": winners.get(prepared[slug].pk, 0) if slug in prepared else 0,
            "mine": status.get(prepared[slug].pk, {}) if slug in prepared else {},
        }
        for slug, rules in ((slug, get_game(slug)) for slug in games)
    ]
    tomorrow = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    context = {
        "date": date,
        "is_today": date == today,
        "preparing": preparing,
        "cards": cards,
        "next_at": tomorrow,
        "until_next": tomorrow - now,
        "min_gap_ms": int(leaderboard.min_human_gap().total_seconds() * 1000),
        "min_pace_ms": int(leaderboard.min_human_pace().total_seconds() * 1000),
        "min_spread": round(leaderboard.min_human_spread() * 100),
        "min_copied": leaderboard.MIN_COPIED,
        "copied_share": round(100 * leaderboard.COPIED_SHARE),
        "followed_share": round(100 * leaderboard.FOLLOWED_SHARE),
    }
    return render(request, "games/daily.html", context)


@require_safe
def archive(request: HttpRequest) -> HttpResponse:
    """One month of past days that have dailies (``?month=2026-11``; default: the latest)."""
    today = dailies.utc_today(timezone.now())
    first = dailies.launch() or today
    days = Daily.objects.filter(date__gte=first, date__lte=today)
    months = sorted({d.replace(day=1) for d in days.dates("date", "month")}, reverse=True)
    month = _month(request.GET.get("month"), months)
    dates = days.filter(date__year=month.year, date__month=month.month) if month else days.none()
    index = months.index(month) if month else 0
    context = {
        "month": month,
        "days": sorted(set(dates.values_list("date", flat=True)), reverse=True),
        "newer": months[index - 1] if month and index > 0 else None,
        "older": months[index + 1] if month and index + 1 < len(months) else None,
    }
    return render(request, "games/daily_archive.html", context)


def _month(value: str | None, months: list[dt.date]) -> dt.date | None:
    if not value:
        return months[0] if months else None
    try:
        month = dt.date.fromisoformat(f"{value}-01")
    except ValueError as error:
        raise Http404("Months look like 2026-11") from error
    if month not in months:
        raise Http404("No daily challenges that month")
    return month


@require_GET  # a HEAD request starts no daily game, nor its clock (an attacker's pass)
@limits.rate_limited("play", *limits.PLAY)
def play(request: HttpRequest, date: dt.date, slug: str) -> HttpResponse:
    """The player's one game of this daily (created on the first visit)."""
    rules = rules_or_404(slug)
    now = timezone.now()
    daily = dailies.visible_daily(slug=rules.slug, date=date, now=now)
    if daily is None:
        if not dailies.day_exists(date, now=now):  # the future too: no word of its games
            raise Http404(NOT_OUT)
        if rules.slug not in dailies.daily_games(date):
            raise Http404(f"{rules.name} has no daily challenge that day.")
        return redirect("games:daily_day", date=date)  # still being prepared: the day says so
    if from_another_site(request):
        # A link on another site starts no daily game: its clock would run from the visit
        # (an attacker's pass: 120 s on the victim's entry before their first move).
        game = dailies.daily_game(player=known_player(request), daily=daily)
        return redirect(game or reverse("games:daily_leaderboard", args=[date, rules.slug]))
    game = dailies.daily_start(
        player=current_player(request),
        daily=daily,
        now=now,
        address=limits.known_client_ip(request),
    )
    return redirect(game)
