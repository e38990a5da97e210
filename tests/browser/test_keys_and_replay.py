"""Undo, redo and a hint from the keyboard (Z, U, Ctrl+Z; Y, Ctrl+Y, Ctrl+Shift+Z; H), and a
replay that plays itself and keeps its move list on the current move."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from games.rules import Board
from tests.browser.helpers import click_move, slow_network

pytestmark = pytest.mark.browser

LINES = Path(__file__).parent / "lines"


@pytest.fixture
def moves(page: Page, live_server: LiveServer) -> Locator:
    """The move counter of a game of Beleaguered Castle 1 with one move played (t3-t6)."""
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    expect(page.locator("#keys")).to_contain_text("undo")
    counter = page.locator("#move-count")
    click_move(page, "t3-t6")
    expect(counter).to_have_text("1")
    return counter


@pytest.mark.parametrize("key", ["z", "u", "Control+z"])
def test_z_u_and_ctrl_z_undo_through_the_undo_button(page: Page, moves: Locator, key: str) -> None:
    page.keyboard.press(key)

    expect(moves).to_have_text("0")
    expect(page.locator("#counter")).to_contain_text("Undos 1")
    page.keyboard.press(key)  # nothing left to undo: the disabled button is not clicked
    expect(page.locator('#controls button[formaction="undo"]')).to_be_disabled()


def test_enter_twice_on_undo_undoes_once_and_never_redoes(page: Page, moves: Locator) -> None:
    """Undo that undid the last move is disabled, and focus went to its neighbour, Redo: a
    second Enter redid the move. Focus now goes to the controls as a whole."""
    undo = page.locator('#controls button[formaction="undo"]')
    undo.focus()
    page.keyboard.press("Enter")
    expect(moves).to_have_text("0")
    expect(undo).to_be_disabled()

    page.keyboard.press("Enter")

    page.wait_for_timeout(300)  # a redo would have answered by now
    expect(moves).to_have_text("0")
    expect(page.locator("#counter")).to_contain_text("Undos 1")
    expect(page.locator("#controls")).to_be_focused()
    page.keyboard.press("Tab")  # on to the first control that acts
    expect(page.locator('#controls button[formaction="redo"]')).to_be_focused()


@pytest.mark.parametrize("key", ["y", "Control+y", "Control+Shift+z"])
def test_y_ctrl_y_and_ctrl_shift_z_redo_through_the_redo_button(
    page: Page, moves: Locator, key: str
) -> None:
    page.keyboard.press("z")
    expect(moves).to_have_text("0")

    page.keyboard.press(key)

    expect(moves).to_have_text("1")
    expect(page.locator('#controls button[formaction="redo"]')).to_be_disabled()
    page.keyboard.press(key)  # nothing left to redo: the disabled button is not clicked
    page.keyboard.press("Control+Shift+y")  # not a shortcut
    expect(moves).to_have_text("1")
    expect(page.locator("#counter")).to_contain_text("Undos 1")


def test_h_asks_for_a_hint_through_the_hint_button(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/play/beleaguered-castle/2/?autoplay=1")
    expect(page.locator("#keys")).to_contain_text("hint")

    with page.expect_response(lambda response: response.url.endswith("/hint")) as answer:
        page.keyboard.press("h")

    assert answer.value.status == 200
    expect(page.locator("#status")).to_contain_text(
        "Hint: Ten of hearts from right pile 3 to right pile 4"
    )
    expect(page.locator("#board .card.hint-from")).to_have_count(1)
    expect(page.locator("#move-count")).to_have_text("0")


def test_h_from_nowhere_puts_the_hinted_card_in_reach_of_enter(
    page: Page, live_server: LiveServer
) -> None:
    """With the focus on no element, H marked the hinted card and left the focus on the
    page: Enter did nothing until the arrows found the card (a player's pass)."""
    page.goto(live_server.url + "/play/beleaguered-castle/2/?autoplay=1")

    hint_then_enter_twice(page)

    expect(page.locator("#status")).to_contain_text("Ten of hearts to right pile 4")
    expect(page.locator("#move-count")).not_to_have_text("0")
    played = page.locator("#move-count").inner_text()

    # Again, the focus on the card just moved: it stayed there, and Enter, Enter picked
    # that card up and put it down (a player's pass).
    hint_then_enter_twice(page)

    expect(page.locator("#move-count")).not_to_have_text(played)
    expect(page.locator("#status")).not_to_contain_text("put down")


def hint_then_enter_twice(page: Page) -> None:
    """H, then Enter and Enter on the card it focuses: the hinted move, played."""
    with page.expect_response(lambda response: response.url.endswith("/hint")):
        page.keyboard.press("h")
    expect(page.locator("#board .card.hint-from")).to_be_focused()
    with page.expect_response(lambda response: response.url.endswith("/moves")) as answer:
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
    assert answer.value.status == 200


def test_a_card_clicked_shows_no_focus_ring_once_a_key_asks_for_a_hint(
    page: Page, live_server: LiveServer
) -> None:
    """After a click on a card, H rang the focus on that card in pale blue, beside
    the hint's cyan card and destination: the board seemed to mark three cards (a player's
    pass). The arrows still show a keyboard player where the focus is."""
    page.goto(live_server.url + "/play/beleaguered-castle/2/?autoplay=1")
    card = page.locator('#board button[name="select"]').first
    card.click()
    expect(card).to_be_focused()

    page.keyboard.press("h")

    expect(page.locator("#board .card.hint-from")).to_have_count(1)
    expect(page.locator("#board :focus-visible")).to_have_count(0)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#board .card:focus-visible")).to_have_count(1)


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

    # The focus stays on Pause (now Play): the arrows and End still step the replay.
    page.keyboard.press("ArrowRight")
    expect(ply).to_have_text("2")
    page.keyboard.press("ArrowLeft")
    expect(ply).to_have_text("1")
    page.keyboard.press("End")
    expect(ply).to_have_text("2")


def test_a_screen_reader_hears_each_replay_step_in_words(
    page: Page, live_server: LiveServer
) -> None:
    """The replay had no live region, and its list read symbols aloud ("two black heart
    suit right arrow..."): each step now says its move in words, and the list names its
    moves the way the board's live region does."""
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    for played, notation in enumerate(["t3-t6", "t7-f3"], 1):
        click_move(page, notation)
        expect(page.locator("#move-count")).to_have_text(str(played))
    page.goto(page.url + "replay/?ply=0")
    said = page.locator("#replay-said")
    expect(said).to_have_attribute("aria-live", "polite")
    expect(said).to_have_text("")  # a page that opens says nothing of itself

    page.get_by_role("link", name="Next").click()
    expect(said).to_have_text(re.compile(r"^Move 1 of 2: \w+ of \w+ from left pile 3 to "))
    page.get_by_role("link", name="Next").click()
    expect(said).to_have_text(
        "Move 2 of 2: Two of hearts from right pile 3 to the hearts foundation."
    )
    page.get_by_role("link", name="First").click()
    expect(said).to_have_text("The deal, before move 1 of 2.")
    expect(page.get_by_role("link", name="Move 2: Two of hearts from right pile 3")).to_be_visible()


# Whether the list shows its current move whole; null before the first move.
CURRENT_IN_VIEW = """list => {
    const current = list.querySelector('[aria-current="step"]');
    if (!current) return null;
    const top = list.getBoundingClientRect().top + list.clientTop;
    const box = current.getBoundingClientRect();
    return box.top >= top - 0.5 && box.bottom <= top + list.clientHeight + 0.5;
}"""

# The number of the first move the list shows.
FIRST_SEEN = """list => {
    const top = list.getBoundingClientRect().top + list.clientTop;
    const seen = [...list.children].findIndex(li => li.getBoundingClientRect().bottom > top);
    return list.start + seen;
}"""


@pytest.mark.parametrize("screen", [(1280, 800), (375, 667)], ids=["laptop", "phone"])
def test_the_move_list_keeps_the_current_move_in_sight(
    browser: Browser, live_server: LiveServer, screen: tuple[int, int]
) -> None:
    width, height = screen
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(live_server.url + "/import/")
    page.get_by_label("Record").fill((LINES / "citadel-3.txt").read_text())
    page.get_by_label("Replay it").check()
    page.get_by_role("button", name="Import").click()
    ply = page.get_by_test_id("replay-ply")
    expect(ply).to_be_visible()
    page.wait_for_load_state()  # the list is scrolled once the page's scripts have run
    total = int(page.locator(".replay-nav .counter").inner_text().split()[-1])
    assert total > 60  # more moves than the list holds at once
    moves = page.locator("#replay .move-list")
    replay = page.url.split("?")[0]

    # Opened on its last move, then on one in the middle (the list itself scrolls: the page
    # stays where it is).
    expect(ply).to_have_text(str(total))
    assert moves.evaluate(CURRENT_IN_VIEW)
    page.goto(replay + "?ply=40")
    assert moves.evaluate(CURRENT_IN_VIEW)
    assert page.evaluate("window.scrollY") == 0

    # Step back past the list's top edge, a move at a time: the list follows, without jumps.
    first = moves.evaluate(FIRST_SEEN)
    page.keyboard.press("ArrowLeft")
    expect(ply).to_have_text("39")
    assert moves.evaluate(CURRENT_IN_VIEW)
    assert moves.evaluate(FIRST_SEEN) == first, "the list jumped for a move it showed"
    for step in range(38, 9, -1):
        page.keyboard.press("ArrowLeft")
        expect(ply).to_have_text(str(step))
        assert moves.evaluate(CURRENT_IN_VIEW), f"move {step} is out of the list's sight"

    page.keyboard.press("Home")
    expect(ply).to_have_text("0")
    assert moves.evaluate("list => list.scrollTop") == 0
    page.keyboard.press("End")
    expect(ply).to_have_text(str(total))
    assert moves.evaluate(CURRENT_IN_VIEW)
    page.locator('.move-list a[href="?ply=20"]').click()
    expect(ply).to_have_text("20")
    assert moves.evaluate(CURRENT_IN_VIEW)
    context.close()


def test_quick_undo_keys_each_take_a_move_back(page: Page, live_server: LiveServer) -> None:
    """Z five times quickly took back two of three moves: the presses made while an undo
    was on its way were dropped. Each is kept now, to act in turn; those past the last move
    find Undo disabled and do nothing."""
    slow_network(page, 80)
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    counter = page.locator("#move-count")
    for played, move in enumerate(("t3-t6", "t4-t3", "t5-t4"), start=1):
        click_move(page, move)
        expect(counter).to_have_text(str(played))

    for _ in range(5):
        page.keyboard.press("z")

    expect(counter).to_have_text("0")
    expect(page.locator('#controls button[formaction="undo"]')).to_be_disabled()
    expect(page.locator("#counter")).to_contain_text("Undos 3")
    page.keyboard.press("y")
    expect(counter).to_have_text("1")


def test_quick_undo_and_redo_keys_alternate_as_pressed(page: Page, live_server: LiveServer) -> None:
    """Z, Y, Z, Y, Z went back three moves with 80 ms of latency, where it means one: each Y
    came while Redo was still disabled (the undo's answer enables it) and was dropped; and a
    Z pressed just after a game's first move found Undo disabled (a player's pass)."""
    slow_network(page, 80)
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    counter = page.locator("#move-count")
    click_move(page, "t3-t6")
    page.keyboard.press("z")  # while the first move is on its way
    expect(counter).to_have_text("0")
    expect(page.locator("#counter")).to_contain_text("Undos 1")
    page.keyboard.press("y")
    expect(counter).to_have_text("1")
    for played, move in enumerate(("t4-t3", "t5-t4"), start=2):
        click_move(page, move)
        expect(counter).to_have_text(str(played))

    for key in "zyzyz":
        page.keyboard.press(key)

    expect(page.locator("#counter")).to_contain_text("Undos 4")
    expect(counter).to_have_text("2")
    expect(page.locator('#controls button[formaction="redo"]')).to_be_enabled()


@pytest.mark.parametrize(
    ("played", "keys", "ply"), [(1, "zzy", 1), (3, "zzzzy", 1), (2, "zzzy", 1)]
)
def test_a_quick_undo_past_the_first_move_does_not_drop_the_keys_after_it(
    page: Page, live_server: LiveServer, played: int, keys: str, ply: int
) -> None:
    """Z, Z, Y pressed quickly after a game's first move left the game a move back: the
    second Z, kept for the first one's answer, found Undo disabled there, and the Y kept
    after it was dropped with it (a player's pass)."""
    slow_network(page, 80)
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    counter = page.locator("#move-count")
    for number, move in enumerate(("t3-t6", "t4-t3", "t5-t4")[:played], start=1):
        click_move(page, move)
        expect(counter).to_have_text(str(number))

    for key in keys:
        page.keyboard.press(key)
        page.wait_for_timeout(12)

    expect(page.locator("#counter")).to_contain_text(f"Undos {played}")
    expect(counter).to_have_text(str(ply))
    page.wait_for_timeout(500)  # nothing more comes
    expect(counter).to_have_text(str(ply))


def test_h_pressed_while_an_undo_is_on_its_way_hints_after_it(
    page: Page, live_server: LiveServer
) -> None:
    """H pressed while an undo was on its way was lost without a word: it is kept, once,
    and asks once the undo is in."""
    slow_network(page, 80)
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    counter = page.locator("#move-count")
    click_move(page, "t3-t6")
    expect(counter).to_have_text("1")

    page.keyboard.press("z")
    page.wait_for_timeout(10)
    page.keyboard.press("h")
    page.keyboard.press("h")

    expect(counter).to_have_text("0")
    # The hint's answer (deal 1 of Beleaguered Castle is lost from its start).
    expect(page.locator("#status")).to_contain_text("This deal cannot be won", timeout=15_000)
    page.wait_for_timeout(500)
    assert Game.objects.get().hints == 1  # the second H, kept with the first, asked nothing


def test_quick_arrow_presses_each_step_the_replay(page: Page, live_server: LiveServer) -> None:
    """Arrow presses made while a step was on its way were dropped (htmx sends one request
    a link at a time): each is kept now, a step taken once the step before is in."""
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    for played, notation in enumerate(["t3-t6", "t7-f3", "t4-t3"], 1):
        click_move(page, notation)
        expect(page.locator("#move-count")).to_have_text(str(played))
    slow_network(page, 80)
    page.goto(page.url + "replay/?ply=0")
    ply = page.get_by_test_id("replay-ply")

    for key in ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft", '"']:
        page.keyboard.press(key)

    expect(ply).to_have_text("2")
    expect(page).to_have_url(re.compile(r"\?ply=2$"))
    page.keyboard.press("Home")
    expect(ply).to_have_text("0")


def test_back_through_the_replays_steps_keeps_the_whole_page(
    page: Page, live_server: LiveServer
) -> None:
    """htmx keeps ten pages of its history: Back past them asks the server again, which
    answered with the replay's bare fragment (the site's header, title and layout gone)."""
    page.goto(live_server.url + "/import/")
    page.get_by_label("Record").fill((LINES / "citadel-3.txt").read_text())
    page.get_by_label("Replay it").check()
    page.get_by_role("button", name="Import").click()
    ply = page.get_by_test_id("replay-ply")
    page.goto(page.url.split("?")[0] + "?ply=0")
    for step in range(1, 15):
        page.keyboard.press("ArrowRight")
        expect(ply).to_have_text(str(step))

    for step in range(13, -1, -1):
        page.go_back()
        expect(ply).to_have_text(str(step))
        expect(page.get_by_role("banner")).to_be_visible()
        expect(page.get_by_role("heading", level=1)).to_be_visible()


def test_the_first_tab_offers_a_way_to_the_cards(page: Page, live_server: LiveServer) -> None:
    """A keyboard reached the first card after fourteen Tabs (a player's pass): the first
    stop skips to the cards, and the next Tab is on one."""
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    skip = page.get_by_role("link", name="Skip to the cards")
    expect(skip).not_to_be_in_viewport()  # shown only on the keyboard's stop

    page.keyboard.press("Tab")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")

    expect(page.locator("#board .pile button.card:focus")).to_have_count(1)
    page.goto(live_server.url + "/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to the content")).to_be_focused()


def test_a_card_picked_up_is_said_to_a_screen_reader(page: Page, live_server: LiveServer) -> None:
    """Enter picked a card up and moved the focus to a place that takes it, and nothing said
    so: the card's name and the piles' stayed as they were, the status empty."""
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    said = page.locator("#said")
    destination = page.locator('#board [data-pile="t6"]')
    plain = destination.get_attribute("aria-label")

    page.locator('#board [data-pile="t3"] button').last.focus()
    page.keyboard.press("Enter")

    expect(said).to_have_text("Eight of clubs picked up: 1 place takes it.")
    expect(destination).to_have_attribute("aria-label", f"{plain}, legal destination")
    expect(said).not_to_be_in_viewport()  # heard, not shown

    page.keyboard.press("Escape")  # it went silent: "#said" emptied (a player's pass)
    expect(said).to_have_text("Eight of clubs put down.")
    expect(destination).to_have_attribute("aria-label", str(plain))
    page.keyboard.press("Enter")
    expect(said).to_have_text("Eight of clubs picked up: 1 place takes it.")
    page.keyboard.press("Enter")  # on the place that takes it: the move, which the status says
    expect(page.locator("#move-count")).to_have_text("1")
    expect(said).to_have_text("")


def test_the_winning_move_leaves_the_focus_on_the_win_panel(
    page: Page, live_server: LiveServer
) -> None:
    """Played from the keyboard, the last card home left no card to focus: the focus fell to
    the page itself, and a keyboard player had to find their way back from the top."""
    record = (LINES / "citadel-3.txt").read_text().rstrip()
    assert record.endswith(" t7-f4")
    page.goto(live_server.url + "/import/")
    page.get_by_label("Record").fill(record.removesuffix(" t7-f4") + "\n")
    page.get_by_label("Continue it as my game").check()
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#keys")).to_be_visible()

    page.locator('#board [data-pile="t7"] button').last.focus()
    page.keyboard.press("Enter")  # the king of spades picked up (an empty pile takes it too)
    page.locator('#board [data-pile="f4"] button').last.focus()
    page.keyboard.press("Enter")  # and home it goes

    expect(page.get_by_role("heading", name="You won!")).to_be_visible()
    expect(page.get_by_role("link", name="Play Citadel again")).to_be_focused()
    expect(page.locator("#keys")).to_be_hidden()  # no key of it does anything now


def test_the_keys_help_needs_the_board_script(browser: Browser, live_server: LiveServer) -> None:
    """Without JavaScript the help named keys that do nothing (a player's pass): only the
    buttons' access keys work there."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#keys")).to_be_hidden()
    context.close()


@pytest.mark.parametrize("size", [(1280, 800), (375, 667)])
def test_play_on_from_a_move_of_the_replay(
    browser: Browser, live_server: LiveServer, size: tuple[int, int]
) -> None:
    """Where Analyse says a game was lost, its replay offered only "Resume playing" (the lost
    position): "Go back to this move" takes the game back to the move shown."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    board = Board("beleaguered-castle", 1)
    for ply in (1, 2, 3):
        move = next(m for m in board.legal_moves() if m.count == 1)
        board.play(move)
        click_move(page, move.notation())
        expect(page.locator("#move-count")).to_have_text(str(ply))
    game_url = page.url

    page.goto(game_url + "replay?ply=1")
    page.get_by_role("link", name="Next").click()
    expect(page.get_by_test_id("replay-ply")).to_have_text("2")
    page.screenshot(path=f"test-results/screenshots/replay-play-on-{size[0]}.png")
    page.get_by_role("button", name="Go back to this move").click()

    expect(page.locator("#move-count")).to_have_text("2")
    expect(page.locator("#status")).to_contain_text("Back to move 2.")
    assert page.url == game_url
    page.get_by_role("button", name="Undo").click()  # one undo brings the line back
    expect(page.locator("#move-count")).to_have_text("3")
    context.close()
