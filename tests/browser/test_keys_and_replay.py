"""Undo from the keyboard (Z, U, Ctrl+Z) and a replay that plays itself."""

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.helpers import click_move

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("key", ["z", "u", "Control+z"])
def test_z_u_and_ctrl_z_undo_through_the_undo_button(
    page: Page, live_server: LiveServer, key: str
) -> None:
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    expect(page.locator("#keys")).to_contain_text("undo")
    moves = page.locator("#move-count")
    click_move(page, "t3-t6")
    expect(moves).to_have_text("1")

    page.keyboard.press(key)

    expect(moves).to_have_text("0")
    expect(page.locator("#counter")).to_contain_text("Undos 1")
    page.keyboard.press(key)  # nothing left to undo: the disabled button is not clicked
    expect(page.locator('#controls button[formaction="undo"]')).to_be_disabled()


def test_keys_typed_into_a_field_do_not_undo(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    click_move(page, "t3-t6")
    expect(page.locator("#move-count")).to_have_text("1")
    page.goto(live_server.url + "/import/")
    page.get_by_label("Record").press("z")
    expect(page.get_by_label("Record")).to_have_value("z")


def test_the_replay_plays_and_pauses(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    for played, notation in enumerate(["t3-t6", "t7-f3"], 1):
        click_move(page, notation)
        # The next move is clicked once this one has landed, as a careful player would.
        expect(page.locator("#move-count")).to_have_text(str(played))
    page.clock.install()  # the replay's timer runs on a clock the test moves
    page.goto(page.url + "replay/?ply=0")
    ply = page.get_by_test_id("replay-ply")
    page.get_by_label("Speed").select_option("fast")

    page.get_by_role("button", name="Play").click()
    page.clock.run_for(400)
    expect(ply).to_have_text("1")
    page.clock.run_for(400)
    expect(ply).to_have_text("2")
    expect(page.get_by_role("button", name="Play")).to_have_attribute("aria-pressed", "false")
    expect(page.locator('.move-list [aria-current="step"]')).to_contain_text("t7-f3")
    expect(page.locator('.move-list [aria-current="step"] .words')).to_have_text(
        "2♥ → ♥ foundation"
    )
    expect(page.locator("#board")).to_have_attribute("data-moved", "f3")

    page.get_by_role("link", name="First").click()
    expect(ply).to_have_text("0")
    page.get_by_role("button", name="Play").click()
    page.clock.run_for(400)
    expect(ply).to_have_text("1")
    page.get_by_role("button", name="Pause").click()
    page.clock.run_for(5000)
    expect(ply).to_have_text("1")
