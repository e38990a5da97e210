"""What a person does on the board, in Debian's Chromium: click, keyboard, JavaScript off."""

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, Position, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from games.rules.record import split_record
from tests.browser.helpers import board_piles, click_move, overlap, top_card
from tests.rules.helpers import GOLDEN

pytestmark = pytest.mark.browser

LINES = Path(__file__).parent / "lines"
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"


def start(page: Page, live_server: LiveServer, path: str) -> None:
    page.goto(live_server.url + path)
    expect(page.locator("#board")).to_be_visible()


def moves_counter(page: Page):
    return page.locator("#move-count")


def test_select_and_move_with_the_mouse(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")

    page.get_by_role("button", name="Eight of clubs, top of left pile 3").click()
    expect(page.locator('#board [data-pile="t6"]')).to_have_class("pile right t n6 target")
    top_card(page, "t6").click()

    expect(moves_counter(page)).to_have_text("1")
    expect(top_card(page, "t6")).to_have_accessible_name("Eight of clubs, top of right pile 2")


def test_an_illegal_click_is_explained_and_changes_nothing(
    page: Page, live_server: LiveServer
) -> None:
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")

    click_move(page, "t6-t2")

    expect(page.locator("#status")).to_contain_text("A 9 can only go on a 10, not on 3♦")
    expect(moves_counter(page)).to_have_text("0")
    expect(top_card(page, "t6")).to_have_accessible_name("Nine of clubs, top of right pile 2")


def test_clicking_the_selected_card_again_sends_it_to_its_foundation(
    page: Page, live_server: LiveServer
) -> None:
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")

    click_move(page, "t7-f")

    expect(moves_counter(page)).to_have_text("1")
    expect(top_card(page, "f3")).to_have_accessible_name("Two of hearts")


def test_clicking_the_selected_card_again_puts_it_down_when_no_foundation_takes_it(
    page: Page, live_server: LiveServer
) -> None:
    """The second click went to the server, which refused it in red ("No foundation takes
    J♠", a 422), where the player meant to put the card down (a player's pass)."""
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    sent: list[str] = []
    page.on(
        "request", lambda request: sent.append(request.method) if "/games/" in request.url else None
    )
    eight = page.get_by_role("button", name="Eight of clubs, top of left pile 3")

    eight.click()
    expect(page.locator("#board .target").first).to_be_visible()
    eight.click()

    expect(page.locator("#status")).to_have_text(
        "Eight of clubs put down: no foundation takes it yet."
    )
    expect(page.locator("#status")).not_to_have_class(re.compile("error"))
    expect(page.locator("#board .picked, #board .target")).to_have_count(0)
    expect(moves_counter(page)).to_have_text("0")
    assert sent == []


def test_undo_and_redo(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    click_move(page, "t3-t6")
    expect(moves_counter(page)).to_have_text("1")

    page.get_by_role("button", name="Undo").click()
    expect(moves_counter(page)).to_have_text("0")
    expect(top_card(page, "t3")).to_have_accessible_name("Eight of clubs, top of left pile 3")

    page.get_by_role("button", name="Redo").click()
    expect(moves_counter(page)).to_have_text("1")
    expect(page.get_by_role("button", name="Redo")).to_be_disabled()


def _tab_to(page: Page, selector: str, limit: int = 150) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_only_play(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")

    _tab_to(page, 'button[name="select"][value="t3"]')
    page.keyboard.press("Enter")
    expect(page.locator("#board.selecting")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#board.selecting")).to_have_count(0)

    page.locator("body").focus()
    _tab_to(page, 'button[name="select"][value="t3"]')
    page.keyboard.press("Enter")
    _tab_to(page, '[data-pile="t6"] button:last-child')
    page.keyboard.press("Enter")

    expect(moves_counter(page)).to_have_text("1")


def test_up_and_down_keep_to_their_column_or_stay(page: Page, live_server: LiveServer) -> None:
    """Up from a top card of Castles in Spain's thirteen piles went to the top of a pile one
    card shorter, columns away (a player's pass: seven). In Beleaguered Castle's wings, Up
    and Down go from row to row of a wing, whatever each row's length."""
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, live_server, "/play/castles-in-spain/2/?autoplay=1")  # piles 3 and 10: 3 cards
    first = page.locator('[data-pile="t1"] button').last
    first.focus()

    page.keyboard.press("ArrowUp")

    expect(first).to_be_focused()

    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    click_move(page, "t3-t6")  # right pile 2 one card longer than right pile 1
    expect(moves_counter(page)).to_have_text("1")
    page.locator('[data-pile="t5"] button').last.focus()
    page.keyboard.press("ArrowDown")
    expect(page.locator(":focus")).to_have_accessible_name(re.compile(r"top of right pile 2$"))
    page.keyboard.press("ArrowDown")
    expect(page.locator(":focus")).to_have_accessible_name(re.compile(r"top of right pile 3$"))
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator(":focus")).to_have_accessible_name(re.compile(r"top of right pile 1$"))
    # Citadel 3's left pile 2 is two cards shorter than piles 1 and 3: its top card stands
    # two steps aside, and Down from left pile 1 went on to left pile 3, straight below; Up
    # came back, and left pile 2 was out of the arrows' reach (a player's pass).
    start(page, live_server, "/play/citadel/3/?autoplay=0")
    page.locator('[data-pile="t1"] button').last.focus()
    for pile in ("t2", "t3", "t4"):
        page.keyboard.press("ArrowDown")
        expect(page.locator(f'[data-pile="{pile}"] button').last).to_be_focused()
    for pile in ("t3", "t2", "t1"):
        page.keyboard.press("ArrowUp")
        expect(page.locator(f'[data-pile="{pile}"] button').last).to_be_focused()


def test_the_first_arrow_goes_to_the_first_pile_in_reading_order(
    page: Page, live_server: LiveServer
) -> None:
    """It went to the highest card: the shortest pile's top card, here Private Lane's last
    pile of the row (a player's pass)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, live_server, "/play/private-lane/8382573002310004297/?autoplay=0")
    heights = page.locator("#board .central > .pile").evaluate_all(
        "piles => piles.map(pile => pile.children.length)"
    )
    assert heights[-1] < heights[0]  # the last pile's top card stands highest

    page.keyboard.press("ArrowRight")

    expect(page.locator('[data-pile="t1"] button').last).to_be_focused()


def test_the_first_arrow_goes_to_the_left_of_archways_arch(
    page: Page, live_server: LiveServer
) -> None:
    """The arch's piles step down from its middle: the first arrow went to the highest, the
    sixes in the middle of the top row, not to the arch's first pile (a player's pass)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, live_server, "/play/archway/783/?autoplay=0")

    page.keyboard.press("ArrowRight")

    focused = page.locator(":focus")
    expect(focused).to_have_count(1)
    pile = focused.evaluate("card => card.closest('.pile').getBoundingClientRect().left")
    lefts = page.locator("#board .reserves > .pile").evaluate_all(
        "piles => piles.map(pile => pile.getBoundingClientRect().left)"
    )
    assert pile == min(lefts)


def test_picking_up_another_reserve_card_with_the_keyboard_goes_to_its_destination(
    page: Page, live_server: LiveServer
) -> None:
    """With a card in hand, Enter on another reserve card picks that one up: the focus went
    to the first card's destination, and stayed on the second card for the second (a
    review)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, live_server, "/play/archway/1/?autoplay=0")
    page.locator('#board button[value="r:2C"]').first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#pile-f1 button").last).to_be_focused()

    page.locator('#board button[value="r:2D"]').first.focus()
    page.keyboard.press("Enter")

    expect(page.locator("#pile-f2 button").last).to_be_focused()


@pytest.fixture
def no_js_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(java_script_enabled=False)
    yield context.new_page()
    context.close()


def test_the_same_moves_work_with_javascript_off(no_js_page: Page, live_server: LiveServer) -> None:
    page = no_js_page
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")

    click_move(page, "t3-t6")
    expect(moves_counter(page)).to_have_text("1")

    click_move(page, "t6-t2")
    expect(page.locator("#status")).to_contain_text("An 8 can only go on a 9")
    expect(moves_counter(page)).to_have_text("1")

    page.get_by_role("button", name="Undo").click()
    expect(moves_counter(page)).to_have_text("0")


@pytest.mark.parametrize(
    "line",
    [
        LINES / "citadel-3.txt",
        LINES / "fortress-3.txt",
        LINES / "castles-in-spain-36.txt",
        GOLDEN / "exiled-kings-won.txt",  # ten run moves among its 69
    ],
    ids=lambda path: path.stem,
)
def test_a_whole_game_is_won_by_clicking(page: Page, live_server: LiveServer, line: Path) -> None:
    headers, moves = split_record(line.read_text())
    start(page, live_server, f"/play/{headers['game'][0]}/{headers['deal'][0]}/?autoplay=0")

    for ply, notation in enumerate(moves, 1):
        click_move(page, notation)
        expect(moves_counter(page)).to_have_text(str(ply))

    expect(page.locator("#status")).to_contain_text("You won!")
    expect(page.locator("#status")).to_contain_text(f"{len(moves)} moves")
    expect(page.locator(".ghost.falling").first).to_be_attached()  # the win's cascade


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize(
    "path",
    [
        "/play/beleaguered-castle/1/",
        "/play/fortress/3/",
        "/play/archway/5/",
        "/play/castles-in-spain/1/",
        "/play/siegecraft/1/",
        "/play/bastion/1/",
    ],
)
def test_boards_fit_the_screen_without_overlapping_piles(
    page: Page, live_server: LiveServer, width: int, path: str
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    start(page, live_server, path + "?autoplay=0")
    page.locator('#board button[name="select"]').last.click()
    expect(page.locator("#board.selecting")).to_be_visible()

    SHOTS.mkdir(parents=True, exist_ok=True)
    name = path.strip("/").replace("/", "-")
    page.screenshot(path=SHOTS / f"{name}-{width}.png", full_page=True)

    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    overlaps = page.evaluate(
        """() => {
            const boxes = [...document.querySelectorAll('#board .pile')]
                .filter(p => p.children.length)
                .map(p => [p.dataset.pile, p.getBoundingClientRect()]);
            const hits = [];
            for (const [a, r] of boxes) for (const [b, s] of boxes) {
                if (a < b && r.left < s.right - 1 && s.left < r.right - 1
                    && r.top < s.bottom - 1 && s.top < r.bottom - 1) hits.push(a + '/' + b);
            }
            return hits;
        }"""
    )
    assert overlaps == []
    smallest = page.evaluate(
        """() => Math.min(...[...document.querySelectorAll('#board .card')]
            .map(c => parseFloat(getComputedStyle(c).fontSize)))"""
    )
    assert smallest >= 10, f"card text shrinks to {smallest}px"


def test_the_clock_ticks_between_moves_as_the_server_counts(
    page: Page, live_server: LiveServer
) -> None:
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    clock = page.locator("#counter time")

    expect(clock).to_have_text(re.compile(r"0:0[1-9]"), timeout=5_000)  # no move made

    click_move(page, "t3-t6")
    expect(moves_counter(page)).to_have_text("1")
    game = Game.objects.get()
    shown = int(clock.inner_text().split(":")[1])
    assert shown >= int(game.elapsed.total_seconds())  # the server's figure, still ticking


def test_the_clock_stops_at_the_idle_cap(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    Game.objects.update(active_at=timezone.now() - dt.timedelta(hours=3))

    page.reload()

    clock = page.locator("#counter time")
    expect(clock).to_have_text("2:00")  # a tab left open counts two minutes, not three hours
    page.wait_for_timeout(1_500)
    expect(clock).to_have_text("2:00")


RUN_LINE = [
    "t3-t6",
    "t3-t2",
    "t2-t8x2",
    "t6-t3x2",
    "t8-f2",
    "t7-t8",
    "t8-t7x3",
    "t8-t2",
    "t5-t2",
    "t4-t8",
    "t7-t4x4",
]
"""Selective Castle 1 without auto-play, to a run of four cards moved onto another pile."""


def test_a_run_carried_over_to_its_new_pile_leaves_the_board_a_new_page_draws(
    page: Page, live_server: LiveServer
) -> None:
    """A run's answer carries the run's cards over from the pile they leave, renamed by
    their new places, instead of drawing them again (``data-carry``): the board it leaves,
    and the one its undo leaves, are the board the page draws afresh."""
    start(page, live_server, "/play/selective-castle/1/?autoplay=0")
    for ply, notation in enumerate(RUN_LINE[:-1], 1):
        click_move(page, notation)
        expect(moves_counter(page)).to_have_text(str(ply))
    with page.expect_response("**/moves") as answer:
        click_move(page, RUN_LINE[-1])
    assert " data-carry=" in answer.value.text()
    expect(moves_counter(page)).to_have_text(str(len(RUN_LINE)))
    board = board_piles(page)
    page.reload()
    assert board_piles(page) == board

    with page.expect_response("**/undo") as answer:
        page.get_by_role("button", name="Undo").click()
    assert " data-carry=" in answer.value.text()
    expect(moves_counter(page)).to_have_text(str(len(RUN_LINE) - 1))
    board = board_piles(page)
    page.reload()
    assert board_piles(page) == board
    # The carried cards answer to their new places: the run moves again by its lowest card.
    click_move(page, RUN_LINE[-1])
    expect(moves_counter(page)).to_have_text(str(len(RUN_LINE)))
    assert Game.objects.get().played_moves.filter(undone=False).count() == len(RUN_LINE)


# For `duration` ms from the win's answer, sampled every frame: which of the panel's heading
# and links a card in flight (the winning move's, or the cascade's) lies over (each card
# taken as solid for the test: they ignore the pointer), and the most cards falling at once.
UNDER_THE_CASCADE = """async (duration) => {
    const panel = document.querySelector("#ending .panel.win");
    const parts = [panel.querySelector("h2"), ...panel.querySelectorAll("a")];
    const covered = new Set();
    let most = 0;
    const start = performance.now();
    while (performance.now() - start < duration) {
        most = Math.max(most, document.querySelectorAll(".ghost.falling").length);
        const flying = [...document.querySelectorAll(".ghost")];
        flying.forEach((card) => { card.style.pointerEvents = "auto"; });
        for (const part of parts) {
            const box = part.getBoundingClientRect();
            for (const fx of [.1, .5, .9]) {
                const x = box.left + box.width * fx, y = box.top + box.height / 2;
                const hit = document.elementFromPoint(x, y);
                if (hit && hit.closest(".ghost")) covered.add(part.textContent.trim());
            }
        }
        flying.forEach((card) => { card.style.pointerEvents = ""; });
        await new Promise(requestAnimationFrame);
    }
    return { covered: [...covered], most };
}"""


@pytest.mark.parametrize("screen", [(1366, 768), (375, 667)], ids=["laptop", "phone"])
@pytest.mark.parametrize(
    ("line", "last", "autoplay"), [("citadel-3", 68, False), ("fortress-3", 69, True)]
)
def test_the_win_cascade_falls_behind_you_won_and_its_links(
    browser: Browser,
    live_server: LiveServer,
    screen: tuple[int, int],
    line: str,
    last: int,
    autoplay: bool,
) -> None:
    """Fortress 3 won by its 69th move, auto-play on, sends 12 cards home: they flew over
    the panel before the cascade fell behind it (a player's pass: the J♣ over "Watch the
    replay")."""
    headers, moves = split_record((LINES / f"{line}.txt").read_text())
    game, deal = headers["game"][0], headers["deal"][0]
    width, height = screen
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(live_server.url + "/import/")
    page.get_by_label("Record").fill(f"game: {game}\ndeal: {deal}\n{' '.join(moves[: last - 1])}\n")
    page.get_by_label("Continue it as my game").check()
    page.get_by_role("button", name="Import").click()
    expect(moves_counter(page)).to_have_text(str(last - 1))
    if autoplay:  # an imported game's is off
        page.locator('#controls button[formaction="autoplay"]').click()
        expect(page.locator("#controls")).to_contain_text("Auto-play on")

    click_move(page, moves[last - 1])

    panel = page.locator("#ending .panel.win")
    expect(panel.get_by_role("heading")).to_have_text("You won!")
    seen = page.evaluate(UNDER_THE_CASCADE, 2800)  # the last cards' flights, then the cascade
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"play-{width}-{game}-win-cascade.png"))
    assert seen["most"] >= 20, "the cascade celebrates the win"
    assert seen["covered"] == [], "cascade cards over the panel"
    # The winning move's sentence is for screen readers: shown, it stood over the panel's
    # edge, and on a phone over the foundations' kings (a player's pass).
    said = page.locator("#status .message")
    expect(said).to_contain_text(" to ")
    said_box = said.bounding_box()
    assert said_box is not None and said_box["width"] <= 1 and said_box["height"] <= 1
    if width < 640:  # the phone's foundations head the board: the panel keeps clear of them
        for foundation in page.locator("#board [data-pile^=f]").all():
            assert not overlap(panel.bounding_box(), foundation.bounding_box()), "panel over it"
    panel.get_by_role("link", name="Watch the replay").click()
    # From the deal: it opened on the last move, every card already home.
    expect(page.get_by_test_id("replay-ply")).to_have_text("0")
    expect(page.locator(".replay-nav .counter")).to_contain_text(str(len(moves)))
    context.close()


@pytest.mark.parametrize("control", ["Hint", "Auto-play off"])
def test_a_tab_behind_the_game_gets_the_board_as_it_is(
    page: Page, live_server: LiveServer, control: str
) -> None:
    """Hint (or the auto-play switch) in a tab behind the game answered over that tab's old
    piles: a player picked up the 6♠ shown on a pile and the server moved the 5♦ that was
    really there (a player's pass)."""
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    other = page.context.new_page()  # the same player in a second tab
    start(other, live_server, page.url.removeprefix(live_server.url))
    click_move(other, "t3-t6")
    expect(moves_counter(other)).to_have_text("1")

    page.get_by_role("button", name=control, exact=True).click()

    expect(page.locator("#status")).to_contain_text("moved on in another tab")
    expect(moves_counter(page)).to_have_text("1")
    other.reload()
    assert board_piles(page) == board_piles(other)
    game = Game.objects.get()
    assert (game.ply, game.hints, game.autoplay) == (1, 0, False)


def test_back_to_a_game_shows_where_it_stands(page: Page, live_server: LiveServer) -> None:
    """Back after a reload showed the browser's stored copy of the game page, from before
    the moves played since; its first move then met "moved on in another tab" (a player's
    pass)."""
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    click_move(page, "t3-t6")
    expect(moves_counter(page)).to_have_text("1")
    page.reload()
    for played, move in enumerate(("t4-t3", "t5-t4"), start=2):
        click_move(page, move)
        expect(moves_counter(page)).to_have_text(str(played))
    game_url = page.url

    page.get_by_role("link", name="New game").click()
    page.wait_for_url(lambda url: url != game_url)
    expect(page.locator("#board")).to_be_visible()
    page.go_back()

    expect(moves_counter(page)).to_have_text("3")
    page.reload()
    expect(moves_counter(page)).to_have_text("3")


STRIP: Position = {"x": 12, "y": 6}
"""Where a card of a fan shows, under the next one: its top strip."""
FOUNDATIONS_OF = """source => {
    const data = window.CastleData(document.getElementById("play"));
    const entry = (data.to || []).find(pair => pair[0].includes(source));
    return entry ? entry[1].filter(name => String(name).startsWith("f")) : [];
}"""
"""The foundations the board script finds for a card (its value: ``r:9S``)."""


def at_two_foundations(page: Page, live_server: LiveServer) -> None:
    """Archway 783 after 24 moves of its winning line, continued as the player's game: its
    9♠ (``r:9S``) goes on the ascending or the descending spades foundation."""
    line = split_record((GOLDEN / "archway-won.txt").read_text())[1][:24]
    page.goto(live_server.url + "/import/")
    page.get_by_label("Record").fill("game: archway\ndeal: 783\n" + " ".join(line))
    page.get_by_label("Continue it as my game").check()
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#board")).to_be_visible()
    # The board script (deferred) has run: the board showed before it had, and a read of
    # its data failed (a clean clone's run).
    page.wait_for_load_state("domcontentloaded")


def test_a_double_click_on_a_card_two_foundations_take_asks_which_unless_hinted(
    page: Page, live_server: LiveServer
) -> None:
    """Archway's 9♠ here goes on its ascending or its descending foundation. A double click
    sent it to the first of the two, though the hint named the other: the deal was lost (a
    player's pass). Now the card stays picked up and the player chooses; a hinted card goes
    where its hint says."""
    at_two_foundations(page, live_server)
    if page.get_by_role("button", name="Auto-play on").count():
        page.get_by_role("button", name="Auto-play on").click()
        expect(page.get_by_role("button", name="Auto-play off")).to_be_visible()
    counter = moves_counter(page)
    assert page.evaluate(FOUNDATIONS_OF, "r:9S") == ["f4", "f8"]

    page.locator('#board button[value="r:9S"]').first.dblclick()

    expect(page.locator("#status")).to_contain_text("two foundations take it. Choose one.")
    expect(page.locator("#board .target")).to_have_count(2)
    expect(counter).to_have_text("24")
    page.keyboard.press("Escape")
    # The hints' line, until a hint names a card that two foundations take.
    hint = page.get_by_role("button", name="Hint", exact=True)
    for ply in range(24, 100):
        expect(page.locator("#board .arriving")).to_have_count(0)
        hint.click()
        expect(page.locator("#board .hint-to")).to_have_count(1)
        card = page.locator("#board .hint-from").first
        foundation = page.locator("#board .hint-to").get_attribute("data-pile")
        if len(page.evaluate(FOUNDATIONS_OF, card.get_attribute("value"))) == 2:
            break
        card.click(position=STRIP)  # a reserve's card shows its top strip only
        page.locator("#board .hint-to").click()
        expect(counter).to_have_text(str(ply + 1))
    source = card.get_attribute("value")
    # From the keyboard, Enter picks it up and puts the focus on the hinted foundation.
    card.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f'#board [data-pile="{foundation}"] button:focus')).to_have_count(1)
    page.keyboard.press("Escape")

    card.dblclick(position=STRIP)

    expect(counter).to_have_text(str(ply + 1))
    last = Game.objects.get().played_moves.order_by("-ply").values_list("notation", flat=True)[0]
    assert last == f"{source}-{foundation}"


def test_on_a_phone_the_two_foundations_asked_about_are_in_sight(
    browser: Browser, live_server: LiveServer
) -> None:
    """The question "two foundations take it. Choose one." came with both foundations below
    the fold of a phone (a player's pass)."""
    context = browser.new_context(viewport={"width": 375, "height": 667})
    page = context.new_page()
    at_two_foundations(page, live_server)
    spade = page.locator('#board button[value="r:9S"]').first
    spade.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -80)")  # the reserves in sight, the foundations not

    spade.dblclick(position=STRIP)

    expect(page.locator("#status")).to_contain_text("Choose one.")
    targets = page.locator("#board .target")
    expect(targets).to_have_count(2)
    for target in targets.all():
        expect(target).to_be_in_viewport()
    context.close()


STUCK_PANEL = "#status details.panel.stuck"


@pytest.mark.usefixtures("always_stuck")
def test_a_move_that_leaves_the_game_stuck_leaves_its_panel_as_it_was(
    page: Page, live_server: LiveServer
) -> None:
    """The status is a live region: a panel put in again with every move was read out again
    with every move. The answer leaves out a panel the page shows; the move's sentence
    comes above it, and the panel is the same element (the move's pick-up closed it)."""
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    click_move(page, "t3-t6")
    expect(moves_counter(page)).to_have_text("1")
    panel = page.locator(STUCK_PANEL)
    panel.evaluate("panel => { panel.dataset.seen = 'before the move'; }")

    click_move(page, "t7-f3")

    expect(moves_counter(page)).to_have_text("2")
    expect(page.locator("#status .message")).to_contain_text("to the hearts foundation")
    expect(panel).to_have_attribute("data-seen", "before the move")
    expect(panel).to_have_js_property("open", False)
    expect(page.locator("#status > *")).to_have_count(2)  # the sentence, then the panel
    assert page.locator("#status > :last-child").evaluate("el => el.matches('details.panel')")


@pytest.mark.usefixtures("always_stuck")
def test_a_refused_move_keeps_the_stuck_panel(page: Page, live_server: LiveServer) -> None:
    """A refusal's sentence came alone and took the panel's place: a stuck player who
    dropped a card where it could not go lost Analyse until their next move."""
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")

    click_move(page, "t6-t2")

    expect(page.locator("#status")).to_contain_text("A 9 can only go on a 10, not on 3♦")
    expect(page.locator(STUCK_PANEL)).to_have_count(1)
    expect(page.locator(f"{STUCK_PANEL} form.analyse button")).to_be_attached()


@pytest.mark.usefixtures("always_stuck")
def test_picking_up_a_card_closes_the_stuck_panel_over_the_piles(
    page: Page, live_server: LiveServer
) -> None:
    """The panel lies over the piles: a tap on a destination under it landed on the panel
    and put the card down (a player's pass). A card picked up closes it to its strip, and
    it stays so while it says the same; a panel with news (here: no longer at the deal's
    start) opens again."""
    page.set_viewport_size({"width": 375, "height": 667})
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    panel = page.locator(STUCK_PANEL)
    expect(panel).to_have_js_property("open", True)

    page.get_by_role("button", name="Eight of clubs, top of left pile 3").click()

    expect(panel).to_have_js_property("open", False)
    top_card(page, "t6").click()
    expect(moves_counter(page)).to_have_text("1")
    expect(panel).to_contain_text("Undo or restart to try another line")
    expect(panel).to_have_js_property("open", True)
    page.get_by_role("button", name="Two of hearts, top of right pile 3").click()
    expect(panel).to_have_js_property("open", False)
    page.locator('#board button[value="t7-f"], #board .card.picked').first.click()
    expect(moves_counter(page)).to_have_text("2")
    expect(panel).to_have_js_property("open", False)


@pytest.mark.usefixtures("always_stuck")
@pytest.mark.parametrize("closer", ["No way forward", "This deal cannot be won from its start"])
def test_a_stuck_panel_the_player_closed_stays_closed_with_news(
    browser: Browser, live_server: LiveServer, closer: str
) -> None:
    """The player closes it by its heading, or by a tap on its words (the card to pick up
    can lie under it, a player's pass: only Hide reached it). It stays closed when a panel
    that says something else comes: they chose to see the piles."""
    context = browser.new_context(
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    panel = page.locator(STUCK_PANEL)

    page.get_by_text(closer).tap()

    expect(panel).to_have_js_property("open", False)
    click_move(page, "t3-t6")
    expect(moves_counter(page)).to_have_text("1")
    expect(panel).to_contain_text("Undo or restart to try another line")
    expect(panel).to_have_js_property("open", False)
    context.close()


@pytest.mark.usefixtures("always_stuck")
def test_what_the_board_says_itself_keeps_the_stuck_panel(
    page: Page, live_server: LiveServer
) -> None:
    """A card put down (clicked again, no foundation takes it) is said by the page alone:
    its sentence took the panel away, Analyse with it (a player's pass)."""
    start(page, live_server, "/play/beleaguered-castle/1/?autoplay=0")
    card = page.get_by_role("button", name="Eight of clubs, top of left pile 3")

    card.click()
    page.wait_for_timeout(600)  # not a double click: a second pick-up, put down
    card.click()

    expect(page.locator("#status .message")).to_contain_text("no foundation takes it yet")
    expect(page.locator(STUCK_PANEL)).to_have_count(1)
    expect(page.locator("#status > *")).to_have_count(2)
