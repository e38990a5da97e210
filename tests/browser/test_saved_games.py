"""Games are never lost: resume after closing the tab, follow an account, replay."""

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer
from pytest_playwright import CreateContextCallback

from tests.browser.helpers import board_piles, click_move

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"


def play(page: Page, notation: str, ply: int) -> None:
    click_move(page, notation)
    expect(page.locator("#move-count")).to_have_text(str(ply))


def test_close_the_page_and_continue_where_you_were(
    new_context: CreateContextCallback, live_server: LiveServer
) -> None:
    context = new_context()
    page = context.new_page()
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    for ply, move in enumerate(["t3-t6", "t7-f3", "t4-t3"], 1):
        play(page, move, ply)
    board = board_piles(page)
    page.close()

    again = context.new_page()
    again.goto(live_server.url + "/")
    again.get_by_role("link", name="Continue").click()

    expect(again.locator("#move-count")).to_have_text("3")
    assert board_piles(again) == board


def test_sign_up_then_find_the_game_from_another_browser(
    new_context: CreateContextCallback, live_server: LiveServer
) -> None:
    first = new_context().new_page()
    first.goto(live_server.url + "/play/fortress/3/?autoplay=0")
    play(first, "t5-f3", 1)
    first.get_by_role("link", name="Sign up").click()
    first.get_by_label("Username").fill("ada")
    first.locator("#id_password1").fill(PASSWORD)
    first.locator("#id_password2").fill(PASSWORD)
    first.get_by_role("button", name="Create my account").click()
    expect(first.get_by_text("Leaderboards show you as Player")).to_be_visible()  # the profile
    first.goto(live_server.url + "/me/games/")
    expect(first.get_by_role("heading", name="My games")).to_be_visible()

    second = new_context().new_page()
    second.goto(live_server.url + "/accounts/login/")
    second.get_by_label("Username").fill("ada")
    second.locator("#id_password").fill(PASSWORD)
    second.get_by_role("button", name="Log in").click()

    expect(second.get_by_role("heading", name="Fortress")).to_be_visible()
    second.get_by_role("link", name="Resume").click()
    expect(second.locator("#move-count")).to_have_text("1")


def test_step_through_a_replay_with_the_keyboard(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    for ply, move in enumerate(["t3-t6", "t7-f3"], 1):
        play(page, move, ply)
    page.goto(page.url + "replay/?ply=0")
    counter = page.get_by_test_id("replay-ply")
    expect(counter).to_have_text("0")

    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("1")
    expect(page.get_by_role("button", name="Eight of clubs, top of right pile 2")).to_be_visible()
    page.keyboard.press("End")
    expect(counter).to_have_text("2")
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text("1")
    page.keyboard.press("Home")
    expect(counter).to_have_text("0")
    assert page.url.endswith("?ply=0")
