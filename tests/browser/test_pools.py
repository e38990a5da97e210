"""Winnable deals from the home page, and a typed deal's verdict arriving on its own, in
Debian's Chromium."""

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games import pools
from games.models import DealVerdict, Game

pytestmark = pytest.mark.browser


def new_game_button(page: Page, name: str):
    card = page.locator("li.game-card").filter(
        has=page.get_by_role("heading", name=name, exact=True)
    )
    return card.get_by_role("button", name="New game")


def test_new_game_on_the_home_page_deals_a_proved_winnable_deal(
    page: Page, live_server: LiveServer
) -> None:
    assert pools.pool_add(slug="citadel", deal=2, now=timezone.now()) is not None
    page.goto(live_server.url + "/")
    expect(page.get_by_label("New games deal")).to_have_value("winnable")

    new_game_button(page, "Citadel").click()

    expect(page.locator("#board")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Citadel deal 2")
    expect(page.locator("#verdict")).to_contain_text("Winnable · Easy")
    assert DealVerdict.objects.get(slug="citadel", deal=2).dealt == 1


def test_a_games_name_on_the_home_page_deals_as_the_choice_says(
    page: Page, live_server: LiveServer
) -> None:
    """A name clicked after choosing another kind of deal dealt the remembered kind, and
    the choice was forgotten (a player's pass: "Winnable deal, easy", then Morehead, dealt a
    hard deal)."""
    assert pools.pool_add(slug="citadel", deal=2, now=timezone.now()) is not None
    page.goto(live_server.url + "/")
    page.get_by_label("New games deal").select_option("any")

    page.get_by_role("heading", name="Citadel", exact=True).get_by_role("link").click()

    expect(page.locator("#board")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).not_to_have_text("Citadel deal 2")
    assert DealVerdict.objects.get(slug="citadel", deal=2).dealt == 0
    page.goto(live_server.url + "/")
    expect(page.get_by_label("New games deal")).to_have_value("any")


def test_any_deal_is_remembered_and_the_verdict_badge_updates_itself(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(live_server.url + "/")
    page.get_by_label("New games deal").select_option("any")
    new_game_button(page, "Fortress").click()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#verdict")).to_contain_text("Checking whether this deal can be won")

    page.goto(live_server.url + "/")
    expect(page.get_by_label("New games deal")).to_have_value("any")

    page.goto(live_server.url + "/play/fortress/4/")
    expect(page.locator("#verdict")).to_contain_text("Checking whether this deal can be won")
    pools.decide_deal.call(slug="fortress", deal=4)  # what the worker does
    expect(page.locator("#verdict")).to_contain_text("Unwinnable")


def test_the_badge_leaves_a_game_won_while_its_deal_is_checked(
    page: Page, live_server: LiveServer
) -> None:
    """ "Checking whether this deal can be won…" stood beside the win panel until a reload
    (and after it, until the worker came to the deal)."""
    page.goto(live_server.url + "/play/fortress/4/")
    expect(page.locator("#verdict")).to_contain_text("Checking whether this deal can be won")

    Game.objects.update(status=Game.Status.WON)  # as the winning move would, meanwhile

    expect(page.locator("#verdict")).to_have_count(0, timeout=10_000)  # at the badge's look
