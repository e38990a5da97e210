"""The daily challenge as a player meets it: play today's deal, win, find yourself ranked."""

import datetime as dt
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games.daily import daily_start
from games.models import Daily, Player
from games.rules import GAMES
from games.rules.record import split_record
from tests.browser.helpers import click_move

pytestmark = pytest.mark.browser

LINE = split_record((Path(__file__).parent / "lines/citadel-3.txt").read_text())[1]


@pytest.fixture
def todays_dailies(transactional_db: None) -> None:
    """Today's dailies already prepared: Citadel is deal 3, whose winning line we know."""
    today = dt.datetime.now(dt.UTC).date()
    for slug in GAMES:
        Daily.objects.create(slug=slug, date=today, deal=3, par=60, solution="")


def test_win_todays_daily_and_find_your_row(
    page: Page, live_server: LiveServer, todays_dailies: None, settings
) -> None:
    # Playwright clicks faster than a person: the speed rule would flag this win.
    settings.DAILY_MIN_HUMAN_GAP_MS = settings.DAILY_MIN_HUMAN_PACE_MS = 0
    settings.DAILY_MIN_HUMAN_SPREAD = 0
    page.goto(live_server.url + "/me/")
    page.get_by_label("Auto-play safe cards").uncheck()
    page.get_by_role("button", name="Save preferences").click()

    page.goto(live_server.url + "/daily/")
    card = page.locator('.daily-card[data-game="citadel"]')
    expect(card).to_contain_text("Par 60 moves · 0 ranked wins")
    card.get_by_role("link", name="Play").click()

    for ply, notation in enumerate(LINE, 1):
        click_move(page, notation)
        expect(page.locator("#move-count")).to_have_text(str(ply))
    expect(page.locator("#status")).to_contain_text("You won!")
    # The panel's main action, not its first link (Leaderboard; a player's pass).
    expect(page.get_by_role("link", name=re.compile("^Next: .* daily$"))).to_be_focused()

    page.locator(".daily-note a").click()
    mine = page.locator("tr.mine")
    row: list[str | re.Pattern[str]] = [
        re.compile("^Player "),
        str(len(LINE)),
        "+8",
        re.compile(r"^\d+:\d\d$"),
        "0",
        "0",
        "Watch",
    ]
    # Anonymous: where the win would place, not on the public leaderboard yet.
    expect(mine.locator("td")).to_have_text(["(1)", *row])
    expect(page.locator(".mine-note")).to_contain_text("You would place 1")
    board = page.url

    page.locator(".mine-note").get_by_role("link", name="sign up").click()
    page.locator("#id_username").fill("ada")
    page.locator("#id_password1").fill("correct horse battery staple")
    page.locator("#id_password2").fill("correct horse battery staple")
    page.get_by_role("button", name="Create my account").click()

    page.goto(board)
    expect(mine.locator("td")).to_have_text(["1", re.compile("^Player "), *row[1:]])
    mine.get_by_role("link", name="Watch").click()
    expect(page.get_by_test_id("replay-ply")).to_have_text(str(len(LINE)))


def test_a_live_daily_cannot_be_watched_or_practised_by_someone_else(
    page: Page, live_server: LiveServer, todays_dailies: None
) -> None:
    today = dt.datetime.now(dt.UTC).date()
    leader = daily_start(
        player=Player.objects.create(),
        daily=Daily.objects.get(slug="citadel", date=today),
        now=dt.datetime.now(dt.UTC),
    )

    page.goto(f"{live_server.url}/games/{leader.pk}/replay/")
    expect(page.locator("main")).to_contain_text("its moves stay secret until the day ends")
    expect(page.locator("#board, #replay")).to_have_count(0)

    page.goto(f"{live_server.url}/play/citadel/3/")  # practice the live deal
    expect(page.locator("h1")).to_contain_text("daily of")
    expect(page.locator("h1")).not_to_contain_text("deal 3")
    expect(page.locator(".daily-note")).to_contain_text("Daily challenge of")
