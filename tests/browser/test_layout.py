"""Every page at the screens people play on: laptops, a large monitor and a phone.

One browser context per screen size, one page per check. For every page: no sideways
scroll. For boards: every foundation and every pile's top card inside the viewport, no two
piles overlapping, every rank index whole (not covered by the next card, at least 11 px) and,
on the phone, every playable card a 24 px tap target. The board stays put when a message
appears. Screenshots go to test-results/screenshots/ for a person to look at.
"""

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Daily, Entry, Game, Player
from games.rules import GAMES, get_game
from games.rules.board import Board
from tests.browser.helpers import click_move, overlap, top_card

GOLDEN = Path(__file__).parents[1] / "rules/golden"

pytestmark = pytest.mark.browser

LINES = Path(__file__).parent / "lines"
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"

SCREENS = {
    "1280x800": (1280, 800),
    "1366x768": (1366, 768),
    "1920x1080": (1920, 1080),
    "375x667": (375, 667),
}
PHONE = "375x667"
SMALL = {
    "667x375": (667, 375),
    "844x390": (844, 390),
    "320x568": (320, 568),
    "1024x600": (1024, 600),
}
"""Phones held sideways, the smallest held upright, a short laptop: there the page may
scroll to a board that has a screen of its own (``own_screen``)."""


def own_screen(size: str, slug: str) -> bool:
    """Whether the board takes a screen of its own under the title and the controls (CSS,
    "A phone held sideways"): every board on a phone held sideways (under 32rem tall),
    Archway's on any screen under 42rem tall held sideways or under 37rem upright, and
    Castles in Spain's two rows of piles on a phone under 37rem upright."""
    width, height = SMALL[size]
    sideways = width > height
    if slug == "archway":
        return height < (42 if sideways else 37) * 16
    if slug == "castles-in-spain" and not sideways and width <= 40 * 16:
        return height < 37 * 16
    return sideways and height < 32 * 16


# One deal of each game, autoplay off so the opening position (full piles) is what fits.
BOARDS = {slug: f"/play/{slug}/3/?autoplay=0" for slug in GAMES}
# Positions with long piles, reached by real moves (records in lines/): 15, 11 and 12 cards
# (the last in a game of thirteen piles, which a phone stands in one row again).
LONG = ["beleaguered-castle-long", "fortress-long", "castles-in-spain-long"]


@pytest.fixture(scope="module", params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[BrowserContext]:
    width, height = SCREENS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.screen_name = request.param  # type: ignore[attr-defined]
    yield context
    context.close()


@pytest.fixture
def tab(screen: BrowserContext, live_server: LiveServer) -> Iterator[Page]:
    """A fresh page (and a fresh player: the database is new for every test)."""
    screen.clear_cookies()
    page = screen.new_page()
    yield page
    page.close()


def name_of(page: Page) -> str:
    return page.context.screen_name  # type: ignore[attr-defined]


def shoot(page: Page, what: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"layout-{name_of(page)}-{what}.png"))


def assert_no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width} px wide"  # type: ignore[index]


def assert_readable(page: Page, what: str) -> None:
    """Text contrast at least 4.5:1 (3:1 for large text), in light and in dark mode."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        low = page.evaluate(CONTRAST)
        assert not low, f"{scheme} mode: text under the contrast minimum: {low}"
    shoot(page, f"{what}-dark")
    page.emulate_media(color_scheme="light")


# Measures the board in the page: one script, so a check costs one round trip.
MEASURE = (Path(__file__).parent / "measure_board.js").read_text()
CONTRAST = (Path(__file__).parent / "contrast.js").read_text()


def check_board(page: Page, what: str, *, within: str = "viewport") -> dict[str, Any]:
    """The board's checks; returns the measures for more. Every top card lies ``within``
    the viewport (one screen holds the game), or the board's felt (``"board"``)."""
    expect(page.locator("#board")).to_be_visible()
    shoot(page, what)
    assert_no_sideways_scroll(page)
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    m: dict[str, Any] = page.evaluate(MEASURE)

    felt = page.locator("#board").bounding_box() if within == "board" else None
    left, top = (felt["x"], felt["y"]) if felt else (0, 0)
    right, bottom = (left + felt["width"], top + felt["height"]) if felt else (width, height)
    outside = [
        t["name"]
        for t in m["tops"]
        if t["left"] < left
        or t["top"] < top
        or t["right"] > right + 0.5
        or t["bottom"] > bottom + 0.5
    ]
    assert not outside, f"top cards outside the {within}: {outside}"
    assert any(p["found"] for p in m["piles"]) or "archway" not in what

    piles = m["piles"]
    overlapping = [
        (a["name"], b["name"])
        for i, a in enumerate(piles)
        for b in piles[i + 1 :]
        if a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    ]
    assert not overlapping, f"overlapping piles: {overlapping}"

    small = [r["card"] for r in m["ranks"] if r["size"] < 11]
    covered = [r["card"] for r in m["ranks"] if r["covered"] or not r["inside"]]
    assert not small, f"rank index under 11 px: {small}"
    assert not covered, f"rank index clipped or covered: {covered}"

    if name_of(page) in (PHONE, *SMALL):
        # Archway's thirteen reserves across 320 px leave each 21 px: 20 is the floor there.
        least = 24 if width >= 360 else 20
        tiny = [
            (t["card"], round(t["w"]), round(t["h"]))
            for t in m["targets"]
            if min(t["w"], t["h"]) < least
        ]
        assert not tiny, f"tap targets under {least} px: {tiny}"
    return m


def import_line(page: Page, live_server: LiveServer, name: str, then: str = "continue") -> None:
    page.goto(live_server.url + "/import/")
    page.get_by_label("Record").fill((LINES / f"{name}.txt").read_text())
    page.get_by_label("Continue it as my game" if then == "continue" else "Replay it").check()
    page.get_by_role("button", name="Import").click()


@pytest.mark.parametrize("slug", list(BOARDS))
def test_every_board_fits(tab: Page, live_server: LiveServer, slug: str) -> None:
    tab.goto(live_server.url + BOARDS[slug])
    if slug == "archway" and name_of(tab) == PHONE:  # a screen of its own: scrolled to
        tab.locator("#board").evaluate("board => board.scrollIntoView()")
        check_board(tab, slug, within="board")
    else:
        check_board(tab, slug)
    assert_readable(tab, slug)


@pytest.mark.parametrize("size", list(SMALL))
def test_every_board_fits_a_small_or_sideways_phone(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    """Where one screen cannot hold the title, the controls and a legible board, the board
    has a screen of its own (Archway's sideways, a little more) and its cards stay on it;
    elsewhere the game is one screen, as on the other sizes. On a phone held sideways the
    controls stand beside that screen: scrolled to the board, Undo and Hint are in reach
    (beside Archway's board, taller than the screen, they stay above it)."""
    width, height = SMALL[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.screen_name = size  # type: ignore[attr-defined]
    page = context.new_page()
    for slug, url in BOARDS.items():
        page.goto(live_server.url + url)
        if not own_screen(size, slug):
            check_board(page, f"{slug}-small")
            continue
        board = page.locator("#board")
        board.evaluate("board => board.scrollIntoView()")
        check_board(page, f"{slug}-small", within="board")
        box = board.bounding_box()
        assert box is not None
        if slug == "archway" or width < height:  # upright: the controls stay above it
            continue
        assert box["height"] <= height, f"{slug}: the board is taller than the screen"
        for control in ("Undo", "Hint"):
            button = page.get_by_role("button", name=control).bounding_box()
            assert button is not None
            assert button["y"] >= -1 and button["y"] + button["height"] <= height + 1, (
                f"{slug}: {control} is out of sight while the board is"
            )
            assert button["x"] + button["width"] <= box["x"], f"{slug}: {control} on the board"
    context.close()


def test_two_rows_of_piles_keep_apart_on_a_small_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """Castles in Spain at 320x568, its opening's auto-play said above the board: the board
    was 17rem tall, and the upper row's top cards ran 12 px over the lower row's piles (a
    tap there played the pile below) and off the board (a player's pass)."""
    context = browser.new_context(
        viewport={"width": 320, "height": 568}, has_touch=True, is_mobile=True
    )
    context.screen_name = "320x568"  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + "/play/castles-in-spain/817249718096558155/")
    expect(page.locator("#status .message")).to_contain_text("Auto-play sent 1 card up")
    board = page.locator("#board")
    board.evaluate("board => board.scrollIntoView()")

    check_board(page, "castles-in-spain-opening-said", within="board")
    past = page.evaluate(
        """() => [...document.querySelectorAll('#board .central > .pile')].flatMap(pile => {
          const bottom = pile.getBoundingClientRect().bottom;
          return [...pile.children]
            .filter(card => card.getBoundingClientRect().bottom > bottom + .5)
            .map(card => card.getAttribute('aria-label'));
        })"""
    )
    assert not past, f"cards past their pile's place: {past}"
    context.close()


# Each card whose index (its rank and suit) runs past the inside of its border, by more than
# half a pixel, or whose suit the next card of its pile covers.
INDEX_CUT = """() => [...document.querySelectorAll("#board .card")].flatMap(card => {
  const box = card.getBoundingClientRect(), range = document.createRange();
  range.selectNodeContents(card);
  const index = range.getBoundingClientRect();
  const suit = card.querySelector("i").getBoundingClientRect();
  const edge = parseFloat(getComputedStyle(card).borderLeftWidth) - .5;
  const next = card.nextElementSibling && card.nextElementSibling.getBoundingClientRect();
  const covered = next && next.top < suit.bottom - 1 && next.bottom > suit.top + 1
    && next.left < suit.right - 1 && next.right > suit.left + 1;
  const out = Math.max(box.left + edge - index.left, index.right - (box.right - edge));
  return out > 0 || covered ? [`${card.textContent} (${out.toFixed(1)} px out)`] : [];
})"""


def test_every_card_shows_its_rank_and_suit_whole_on_a_320_px_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """Archway's thirteen reserves across 320 px are 21 px wide: a "10♣" (24 px of text) ran
    past its card, its suit cut in half by the next reserve; the ten piles of Fortress and
    others are 26 px wide, where a ten's suit ran over the card's edge (a player's pass)."""
    context = browser.new_context(viewport={"width": 320, "height": 568}, is_mobile=True)
    page = context.new_page()
    cut = {}
    for slug, url in BOARDS.items():
        page.goto(live_server.url + url)
        expect(page.locator("#board .card").first).to_be_visible()
        if found := page.evaluate(INDEX_CUT):
            cut[slug] = found
    context.close()

    assert not cut, f"indexes past their cards: {cut}"


@pytest.mark.parametrize("name", LONG)
def test_long_piles_fit_and_stay_legible(tab: Page, live_server: LiveServer, name: str) -> None:
    import_line(tab, live_server, name)
    check_board(tab, name)
    longest = tab.evaluate(
        "Math.max(...[...document.querySelectorAll('#board .pile.t')].map(p => p.children.length))"
    )
    assert longest >= 11


def test_thirteen_piles_stand_in_two_rows_on_a_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """In one row across a phone, Castles in Spain's cards were 25 px wide (a "10" stuck out
    of its card) while the lower half of the board stayed empty."""
    width, height = SCREENS[PHONE]
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=True
    )
    context.screen_name = PHONE  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + BOARDS["castles-in-spain"])
    check_board(page, "castles-in-spain-rows")
    piles = page.evaluate(
        "[...document.querySelectorAll('#board .pile.t')].map(p => {"
        " const card = p.lastElementChild.getBoundingClientRect();"
        " return [p.getBoundingClientRect().top, card.width]; })"
    )
    context.close()

    assert len({round(top) for top, _ in piles}) == 2
    assert min(card for _, card in piles) >= 40


def boxes(page: Page) -> list[list[Any]]:
    """Each pile's box in the page (a hint may scroll the page to show its marks)."""
    return page.evaluate(
        "[...document.querySelectorAll('#board .pile')].map(p => {"
        " const r = p.getBoundingClientRect();"
        " return [p.dataset.pile, r.left + scrollX, r.top + scrollY, r.width, r.height]; })"
    )


def test_a_message_does_not_move_the_board(tab: Page, live_server: LiveServer) -> None:
    tab.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    before = boxes(tab)

    click_move(tab, "t6-t2")
    expect(tab.locator("#status .message")).to_be_visible()

    shoot(tab, "message")
    assert boxes(tab) == before
    message = tab.locator("#status .message").bounding_box()
    first_row = min(box[2] for box in before)
    assert message is not None and message["y"] + message["height"] <= first_row + 1, (
        "the message covers cards"
    )


@pytest.mark.parametrize("size", [*SCREENS, *SMALL])
def test_a_long_hint_covers_no_card(browser: Browser, live_server: LiveServer, size: str) -> None:
    """Archway's hints are the longest messages (they name a reserve and a foundation): on
    every screen, phones held sideways included, one stays in the strip above the piles."""
    width, height = {**SCREENS, **SMALL}[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.screen_name = size  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + "/play/archway/783/?autoplay=1")
    before = boxes(page)

    page.get_by_role("button", name="Hint", exact=True).click()

    message = page.locator("#status .message")
    expect(message).to_contain_text("from the twos reserve to the ascending hearts foundation")
    shoot(page, "long-hint")
    assert boxes(page) == before
    box = message.bounding_box()
    first_row = min(pile[2] for pile in before) - page.evaluate("scrollY")
    assert box is not None and box["y"] + box["height"] <= first_row + 1, "the hint covers cards"
    context.close()


UNDER_THE_PANEL = """cards => {
  const panel = document.querySelector("#status .panel").getBoundingClientRect();
  return cards.filter(card => {
    const box = card.getBoundingClientRect();
    return box.x < panel.right && panel.x < box.right && box.y < panel.bottom
      && panel.y < box.y + 16;
  }).length;
}"""
"""How many of the cards have their index (their top 16 px) under the stuck panel."""


@pytest.mark.parametrize("size", [PHONE, "1280x800"])
def test_the_stuck_panel_closes_to_show_the_piles_and_stays_closed(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    """On a phone the stuck panel covers the foundations and the top of every pile: its
    heading closes it (a disclosure, no script needed) to a strip that covers no card (a
    player's second pass: closed, it still cut the first row's indexes in half on a laptop),
    and it stays closed while the game stays stuck (an action's answer draws it again)."""
    width, height = SCREENS[size]
    phone = size == PHONE
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone
    )
    context.screen_name = size  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + "/play/fortress/46/")  # no card can move
    panel = page.locator("#status details.panel.stuck")
    expect(panel).to_have_js_property("open", True)
    cards = page.locator("#board .card")
    if phone:
        assert cards.evaluate_all(UNDER_THE_PANEL) > 10

    page.get_by_text("No way forward").click()

    expect(panel).to_have_js_property("open", False)
    shoot(page, "stuck-panel-closed")
    assert cards.evaluate_all(UNDER_THE_PANEL) == 0
    auto_play = page.get_by_role("button", name=re.compile("Auto-play"))
    auto_play.click()
    expect(auto_play).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_role("heading", name="No way forward")).to_be_visible()
    expect(panel).to_have_js_property("open", False)
    context.close()


@pytest.mark.parametrize("size", ["375x667", "360x740"])
@pytest.mark.parametrize("deal", [6042231476122253367, 8446150865895572757, 479861568504652685])
def test_archway_leaves_every_central_pile_its_top_card_on_a_phone(
    browser: Browser, live_server: LiveServer, size: str, deal: int
) -> None:
    """The band of reserves, as tall as the tallest (up to eight cards), left the central
    piles too little of a phone: their fans ran under the foundations, which covered the one
    card each pile plays (players' passes: the 6♦ of the first deal could not be tapped, nor
    the Q♥ of the second). The board takes a screen of its own (the page scrolls), and a
    fan squeezes its covered cards rather than run under."""
    width, height = map(int, size.split("x"))
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=True
    )
    context.screen_name = size  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + f"/play/archway/{deal}/?autoplay=1")
    shoot(page, f"archway-{deal}")

    tops = page.locator("#board .central > .pile > .card:last-child")
    foundations = page.locator("#board .foundations > .pile")
    expect(tops).to_have_count(4)
    for box in [tops.nth(i).bounding_box() for i in range(4)]:
        for other in [foundations.nth(i).bounding_box() for i in range(8)]:
            assert not overlap(box, other), "a foundation covers a central pile's top card"
    context.close()


def test_archway_keeps_its_central_ranks_whole_under_a_note_on_a_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """A note over the controls ("No easy Archway deal was ready…", two lines on a phone)
    squeezed the central piles' twelve cards to 6-8 px apart, their ranks cut in half (a
    player's pass): on a phone of ordinary height an Archway board has a screen of its own."""
    context = browser.new_context(
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True
    )
    context.screen_name = PHONE  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + "/play/archway/?deals=easy")
    expect(page.locator(".notes")).to_contain_text("Archway")

    page.locator("#board").evaluate("board => board.scrollIntoView()")
    check_board(page, "archway-under-a-note", within="board")
    context.close()


# Where an element lies in the page (a click scrolls the phone's page to the board).
IN_PAGE = "el => { const r = el.getBoundingClientRect(); return [r.x, r.y + scrollY, r.width]; }"


def test_an_archway_replay_keeps_its_central_ranks_whole_on_a_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """The replay's board squeezed the central piles' twelve cards 6 px apart on a phone,
    their ranks cut in half (a player's pass), after the game page had been mended."""
    context = browser.new_context(viewport={"width": 375, "height": 667})
    context.screen_name = PHONE  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + "/play/archway/3/?autoplay=0")
    page.goto(page.url + "replay?ply=0")

    page.locator("#board").evaluate("board => board.scrollIntoView()")
    check_board(page, "archway-replay", within="board")
    context.close()


def test_a_long_name_leaves_a_phones_leaderboard_its_width(
    dailies: Daily, browser: Browser, live_server: LiveServer
) -> None:
    """A 24-letter name without a space made the leaderboard 518 px wide on a phone."""
    Player.objects.filter(display_name="Rival 0").update(display_name="Quetzalcoatlus_Northropi")
    context = browser.new_context(viewport={"width": 375, "height": 667})
    context.screen_name = PHONE  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + reverse("games:daily_leaderboard", args=[dailies.date, "citadel"]))

    expect(page.get_by_text("Quetzalcoatlus_Northropi")).to_be_visible()
    shoot(page, "leaderboard-long-name")
    assert_no_sideways_scroll(page)
    context.close()


def test_a_320_px_phone_scrolls_no_leaderboard_or_win_panel_sideways(
    dailies: Daily, browser: Browser, live_server: LiveServer
) -> None:
    """The leaderboard's headings made the page 367 px wide, and the win panel's "Play
    Beleaguered Castle again" ran past the panel on one line (a player's pass)."""
    context = browser.new_context(viewport={"width": 320, "height": 568}, is_mobile=True)
    context.screen_name = "320x568"  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + reverse("games:daily_leaderboard", args=[dailies.date, "citadel"]))
    shoot(page, "leaderboard")
    assert_no_sideways_scroll(page)

    page.goto(live_server.url + reverse("games:import"))
    page.fill("textarea", (GOLDEN / "beleaguered-castle-won.txt").read_text())
    page.get_by_label("Continue it as my game").check()
    page.get_by_role("button", name="Import").click()
    page.goto(page.url.removesuffix("replay/"))
    expect(page.get_by_role("link", name="Play Beleaguered Castle again")).to_be_visible()
    shoot(page, "won")
    assert_no_sideways_scroll(page)
    context.close()


WORDS_CUT = """() => [...document.querySelectorAll(".ranking td.who")].flatMap(cell => {
  const style = getComputedStyle(cell), context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const name = cell.firstChild.textContent;
  return name.split(" ").filter(word => context.measureText(word).width > room + 0.5);
})"""


@pytest.mark.parametrize("width", [320, 375])
def test_a_phones_leaderboard_breaks_no_name_or_time_mid_word(
    dailies: Daily, browser: Browser, live_server: LiveServer, width: int
) -> None:
    """Every cell could break anywhere: "Dema nding Player", a time of "2:1 6" (a player's
    pass)."""
    Player.objects.filter(display_name="Rival 0").update(display_name="Demanding Player")
    context = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=True)
    context.screen_name = f"{width}x640"  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + reverse("games:daily_leaderboard", args=[dailies.date, "citadel"]))

    shoot(page, "leaderboard-names")
    assert page.evaluate(WORDS_CUT) == []
    times = page.locator(".ranking tbody td:nth-child(5)")
    heights = {round(box["height"]) for box in (cell.bounding_box() for cell in times.all()) if box}
    assert len(heights) == 1, f"a time on two lines: {heights}"
    assert_no_sideways_scroll(page)
    context.close()


@pytest.mark.parametrize("width", [320, 375])
def test_a_phone_scrolls_no_champions_or_empty_leaderboard_sideways(
    dailies: Daily, browser: Browser, live_server: LiveServer, width: int
) -> None:
    """A game's champions before anyone had won its daily: three tables, each headed by the
    same four unbreakable headings and each saying "No daily wins yet.", made the page 465 px
    wide at 375 px and 392 px at 320 (a player's pass). An empty board says so once; a full
    one, and an empty daily's, fit too."""
    context = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=True)
    context.screen_name = f"{width}x640"  # type: ignore[attr-defined]
    page = context.new_page()

    page.goto(live_server.url + reverse("games:game_leaderboard", args=["fortress"]))
    shoot(page, "champions-empty")
    assert_no_sideways_scroll(page)
    expect(page.locator("main")).to_contain_text("No Fortress daily has been won yet")
    expect(page.locator("main table")).to_have_count(0)

    page.goto(live_server.url + reverse("games:game_leaderboard", args=["citadel"]))
    expect(page.get_by_role("cell", name="Rival 0")).to_have_count(3)
    shoot(page, "champions")
    assert_no_sideways_scroll(page)

    page.goto(live_server.url + reverse("games:daily_leaderboard", args=[dailies.date, "fortress"]))
    expect(page.get_by_text("No wins yet: be the first.")).to_be_visible()
    shoot(page, "leaderboard-empty")
    assert_no_sideways_scroll(page)
    context.close()


def test_archway_foundations_stay_put_as_piles_shrink(tab: Page, live_server: LiveServer) -> None:
    tab.goto(live_server.url + "/play/archway/3/?autoplay=0")
    found = tab.locator("#board .foundations")
    before = found.evaluate(IN_PAGE)
    board = Board(get_game("archway"), 3)

    for ply in (1, 2, 3):
        move = next(m for m in board.legal_moves() if m.target.startswith("f"))
        board.play(move)
        notation = move.notation()
        click_move(tab, notation)
        expect(tab.locator("#move-count")).to_have_text(str(ply))
        assert found.evaluate(IN_PAGE) == before
    within = "board" if name_of(tab) == PHONE else "viewport"  # a screen of its own
    check_board(tab, "archway-after-moves", within=within)


@pytest.fixture
def dailies(transactional_db: None) -> Daily:
    """Today's dailies, and five other players' wins of Citadel's (for the histogram)."""
    today = dt.datetime.now(dt.UTC).date()
    for slug in GAMES:
        Daily.objects.create(slug=slug, date=today, deal=3, par=60, solution="")
    daily = Daily.objects.get(slug="citadel", date=today)
    for n, moves in enumerate([58, 60, 60, 63, 71]):
        user = User.objects.create_user(f"rival{n}")
        player = Player.objects.create(display_name=f"Rival {n}", user=user)
        game = Game.objects.create(
            slug="citadel", deal=3, owner=player, status=Game.Status.WON, ply=moves, daily=daily
        )
        Entry.objects.create(
            daily=daily,
            player=player,
            game=game,
            moves=moves,
            elapsed=dt.timedelta(minutes=3, seconds=n),
            finished_at=timezone.now(),
        )
    return daily


PAGES = {
    "home": "/",
    "import": "/import/",
    "signup": "/accounts/signup/",
    "login": "/accounts/login/",
    "profile": "/me/",
}


@pytest.mark.parametrize("what", list(PAGES))
def test_pages_fit(tab: Page, live_server: LiveServer, what: str) -> None:
    response = tab.goto(live_server.url + PAGES[what])
    assert response is not None and response.ok
    shoot(tab, what)
    assert_no_sideways_scroll(tab)
    assert_readable(tab, what)


def test_the_header_is_one_row_and_a_menu_on_the_phone(tab: Page, live_server: LiveServer) -> None:
    tab.goto(live_server.url + "/play/citadel/3/")
    header = tab.locator("header.site").bounding_box()
    assert header is not None and header["height"] <= 56
    mine = tab.get_by_role("link", name="My games", exact=True)
    if name_of(tab) == PHONE:
        expect(mine).to_be_hidden()
        tab.locator("label.menu-button").click()
        shoot(tab, "menu")
    expect(mine).to_be_visible()
    mine.click()
    expect(tab.get_by_role("heading", level=1)).to_have_text("My games")


@pytest.mark.parametrize("autoplay", ["on", "off"])
def test_every_game_control_is_in_sight_on_one_row_or_two_on_the_phone(
    tab: Page, live_server: LiveServer, autoplay: str
) -> None:
    tab.goto(live_server.url + f"/play/citadel/3/?autoplay={int(autoplay == 'on')}")
    expect(tab.get_by_role("button", name=f"Auto-play {autoplay}")).to_be_visible()
    shoot(tab, f"controls-autoplay-{autoplay}")

    assert_no_sideways_scroll(tab)
    controls = tab.locator("#controls")
    assert controls.evaluate("el => el.scrollWidth <= el.clientWidth"), "the controls scroll"
    width = tab.viewport_size["width"]  # type: ignore[index]
    items = controls.locator("button, a")
    boxes = [box for box in (item.bounding_box() for item in items.all()) if box]
    assert len(boxes) == items.count() == 8
    cut = [round(box["x"] + box["width"]) for box in boxes if box["x"] + box["width"] > width]
    assert not cut, f"controls past the screen's edge at {cut}"
    rows = len({round(box["y"]) for box in boxes})
    assert rows <= 2 if name_of(tab) == PHONE else rows == 1
    # A finger's height everywhere (on the phone they were 32 px tall).
    assert min(box["height"] for box in boxes) >= 40


@pytest.mark.parametrize("what", ["daily", "leaderboard", "archive"])
def test_daily_pages_fit(tab: Page, live_server: LiveServer, dailies: Daily, what: str) -> None:
    path = {
        "daily": "/daily/",
        "leaderboard": f"/daily/{dailies.date.isoformat()}/citadel/",
        "archive": "/daily/archive/",
    }[what]
    response = tab.goto(live_server.url + path)
    assert response is not None and response.ok
    if what == "leaderboard":
        par = tab.locator(".histogram line.par").bounding_box()  # a vertical line: no width
        assert par is not None and par["height"] > 40
        expect(tab.locator(".histogram rect.bar").first).to_be_visible()
        # Undos and hints show in their columns, or under the names where those do not fit
        # (the phone's leaderboard dropped them, while the daily page says both show).
        columns = tab.get_by_role("columnheader", name="Undos").is_visible()
        assert columns != tab.locator(".ranking .row-extra").first.is_visible()
        assert columns == (name_of(tab) != PHONE)
    shoot(tab, what)
    assert_no_sideways_scroll(tab)
    assert_readable(tab, what)


@pytest.mark.parametrize("what", ["stats", "my-games", "replay", "error"])
def test_player_pages_fit(tab: Page, live_server: LiveServer, what: str) -> None:
    import_line(tab, live_server, "citadel-3", then="replay")
    expect(tab.get_by_test_id("replay-ply")).to_be_visible()
    replay = tab.url.split("?")[0]
    path = {
        "stats": "/me/stats/",
        "my-games": "/me/games/",
        "replay": replay + "?ply=12",
        "error": replay + "?ply=100000",
    }[what]
    tab.goto(path if path.startswith("http") else live_server.url + path)
    if what == "replay":
        check_board(tab, "replay")
    else:
        shoot(tab, what)
    assert_no_sideways_scroll(tab)
    assert_readable(tab, what)


def test_a_game_in_progress_reads_as_one_figure_on_the_statistics(
    tab: Page, live_server: LiveServer
) -> None:
    """ "1 (1 in progress)": on a phone its halves stood apart, the "1" by its label and the
    rest at the row's end over two lines; on a desktop it broke with room to spare."""
    tab.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    top_card(tab, "t3").click()
    top_card(tab, "t6").click()
    expect(tab.locator("#move-count")).to_have_text("1")

    tab.goto(live_server.url + "/me/stats/")
    played = tab.locator('tr[data-game="beleaguered-castle"] .played')
    expect(played).to_have_text("1 (1 in progress)")
    shoot(tab, "stats-in-progress")

    assert played.evaluate("(el) => el.getClientRects().length") == 1
    assert_no_sideways_scroll(tab)


def test_the_replays_links_stand_apart(tab: Page, live_server: LiveServer) -> None:
    """The replay's "Resume playing" and "Play this deal yourself" touched, one word space
    apart (a player's pass): they stand as far apart as the win panel's actions do."""
    tab.goto(live_server.url + "/play/citadel/3/?autoplay=0")
    tab.goto(tab.url.split("?")[0] + "replay/?ply=0")
    resume = tab.get_by_role("link", name="Resume playing").bounding_box()
    deal = tab.get_by_role("link", name="Play this deal yourself").bounding_box()
    assert resume is not None and deal is not None
    shoot(tab, "replay-actions")

    if abs(resume["y"] + resume["height"] / 2 - (deal["y"] + deal["height"] / 2)) < 2:
        assert deal["x"] - (resume["x"] + resume["width"]) >= 12
    else:
        assert deal["y"] - (resume["y"] + resume["height"]) >= 6


def test_a_replay_ends_where_its_content_does(tab: Page, live_server: LiveServer) -> None:
    """The move list's words for screen readers (absolutely placed) of moves scrolled out of
    it stretched the page: 1,500-1,750 px of blank page under the replay (a player's pass)."""
    import_line(tab, live_server, "citadel-3", then="replay")
    tab.goto(tab.url.split("?")[0] + "?ply=30")
    expect(tab.get_by_test_id("replay-ply")).to_be_visible()

    height, content, screen = tab.evaluate(
        "[document.documentElement.scrollHeight,"
        " document.querySelector('main').getBoundingClientRect().bottom + scrollY, innerHeight]"
    )

    assert height <= max(screen, content + 64), f"{height} px tall, content ends at {content}"


def test_a_long_account_name_leaves_the_header_on_the_screen(
    tab: Page, live_server: LiveServer
) -> None:
    """Usernames may be 150 characters: one made the page 1,982 px wide at 1280 px, and Log
    out went off the screen (a player's pass)."""
    name = "ada" * 50
    User.objects.create_user(name, password="a long right password")
    tab.goto(live_server.url + "/accounts/login/")
    tab.get_by_label("Username").fill(name)
    tab.locator("#id_password").fill("a long right password")
    tab.get_by_role("button", name="Log in").click()
    tab.goto(live_server.url + "/play/fortress/2/")
    if name_of(tab) == PHONE:
        tab.get_by_text("Menu").click()

    assert_no_sideways_scroll(tab)
    log_out = tab.get_by_role("button", name="Log out")
    expect(log_out).to_be_in_viewport()
    shoot(tab, "long-account-name")


# Whether a press at the middle of the element lands on it: nothing covers it.
REACHABLE = """el => {
    const r = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
}"""


def without_javascript(browser: Browser, size: str) -> Page:
    """A page of a new context of ``size`` with JavaScript off."""
    width, height = SCREENS[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, java_script_enabled=False
    )
    context.screen_name = size  # type: ignore[attr-defined]
    return context.new_page()


@pytest.mark.parametrize("size", list(SCREENS))
def test_without_javascript_a_refused_move_leaves_cancel_in_reach(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    page = without_javascript(browser, size)
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")

    click_move(page, "t6-t2")  # a 9 on a 3

    message = page.locator("#status .message")
    line = page.locator("#board .hint-line")
    expect(message).to_contain_text("A 9 can only go on a 10, not on 3♦")
    expect(line).to_have_text("Choose where it goes, or cancel.")
    check_board(page, "no-js-refused")
    assert not overlap(message.bounding_box(), line.bounding_box()), "the message covers the line"
    cancel = line.get_by_role("link", name="cancel")
    assert cancel.evaluate(REACHABLE), "something covers cancel"
    assert message.evaluate(REACHABLE), "something covers the message"
    cancel.click()
    expect(line).to_have_count(0)
    expect(page.locator("#board .pile.selected")).to_have_count(0)
    page.context.close()


def test_home_fits_with_a_game_to_continue(tab: Page, live_server: LiveServer) -> None:
    tab.goto(live_server.url + "/play/streets-and-alleys/2/?autoplay=1")
    expect(tab.locator("#move-count")).to_have_text("1")

    tab.goto(live_server.url + "/")

    resume = tab.locator(".resume a")
    expect(resume).to_have_text("Continue Streets and Alleys, deal 2 (1 move)")
    shoot(tab, "home-continue")
    assert_no_sideways_scroll(tab)
    box = resume.bounding_box()
    assert box is not None and box["x"] + box["width"] <= tab.viewport_size["width"]  # type: ignore[index]


# The gaps, in px, between neighbouring pieces of a daily card's sentence on one line: the
# text and the bold figures and links in it, up to the card's first button.
SENTENCE_GAPS = """p => {
    const pieces = [];
    const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
        if (node.parentElement.closest(".button")) break;
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        if (rects.length) pieces.push([node.textContent.trim(), rects[0], rects.at(-1)]);
    }
    const gaps = [];
    for (let i = 1; i < pieces.length; i++) {
        const [before, , end] = pieces[i - 1], [after, start] = pieces[i];
        if (Math.abs(start.top - end.top) < 2) gaps.push([before, after, start.left - end.right]);
    }
    return gaps;
}"""


def assert_one_sentence(page: Page, slug: str, sentence: str) -> None:
    """The daily card's result reads ``sentence`` with a word space between its pieces, and
    its buttons stand side by side."""
    mine = page.locator(f'.daily-card[data-game="{slug}"] .mine')
    expect(mine).to_contain_text(sentence, use_inner_text=True)
    font = float(mine.evaluate("p => parseFloat(getComputedStyle(p).fontSize)"))
    wide = [gap for gap in mine.evaluate(SENTENCE_GAPS) if gap[2] > font / 2]
    assert not wide, f"{slug}: words of the sentence stand apart: {wide}"
    button = mine.locator(".button").bounding_box()
    board = mine.get_by_role("link", name="Leaderboard").bounding_box()
    assert button is not None and board is not None
    middle = button["y"] + button["height"] / 2
    assert abs(board["y"] + board["height"] / 2 - middle) < 2, f"{slug}: buttons apart"


def test_a_daily_cards_result_reads_as_one_sentence(
    tab: Page, live_server: LiveServer, dailies: Daily
) -> None:
    """The card's result is a sentence beside its buttons: laid out as flex items, each of
    its words and figures stood 1rem apart ("You won in   51   moves, rank   1   .")."""
    for slug in ("citadel", "beleaguered-castle"):
        tab.goto(live_server.url + reverse("games:daily_play", args=[dailies.date, slug]))
    player = Player.objects.get(user=None)
    for game in player.games.all():
        assert game.daily is not None
        game.status, game.ply = Game.Status.WON, 51
        game.save()
        Entry.objects.create(
            daily=game.daily,
            player=player,
            game=game,
            moves=51,
            elapsed=dt.timedelta(minutes=4),
            finished_at=timezone.now(),
            flagged=game.slug == "beleaguered-castle",  # never ranks: where it would place
        )

    tab.goto(live_server.url + "/daily/")
    shoot(tab, "daily-mine")
    assert_no_sideways_scroll(tab)
    assert_one_sentence(
        tab, "citadel", "You won in 51 moves, you would place 1 (sign up or log in to appear)."
    )

    User.objects.create_user("ada", password="correct horse battery staple")
    tab.goto(live_server.url + "/accounts/login/")
    tab.locator("#id_username").fill("ada")
    tab.locator("#id_password").fill("correct horse battery staple")
    tab.get_by_role("button", name="Log in").click()
    tab.goto(live_server.url + "/daily/")
    shoot(tab, "daily-mine-ranked")
    assert_one_sentence(tab, "citadel", "You won in 51 moves, rank 1.")
    assert_one_sentence(tab, "beleaguered-castle", "You won in 51 moves, you would place 1.")


DEAL = 2**63 - 1  # the longest deal number


@pytest.mark.parametrize("slug", ["selective-castle", "beleaguered-castle"])
def test_the_whole_deal_number_shows_beside_three_counters(
    tab: Page, live_server: LiveServer, slug: str
) -> None:
    """A player reads and copies the deal number from the title: on a phone it was cut
    short ("deal 3425909207414…") once the counter held a third pill (Selective Castle's
    base rank, or Undos after an undo)."""
    tab.goto(live_server.url + f"/play/{slug}/{DEAL}/?autoplay=0")
    if slug == "beleaguered-castle":
        click_move(tab, next(iter(Board(get_game(slug), DEAL).legal_moves())).notation())
        expect(tab.locator("#move-count")).to_have_text("1")
        tab.get_by_role("button", name="Undo", exact=True).click()
    expect(tab.locator("#counter > span")).to_have_count(3)
    title = tab.locator(".game > h1")
    expect(title).to_contain_text(f"deal {DEAL}")
    shoot(tab, f"deal-number-{slug}")
    assert_no_sideways_scroll(tab)
    assert title.evaluate("h1 => h1.scrollWidth <= h1.clientWidth"), "the title is cut short"
    clipped = title.evaluate(
        """h1 => {
            const box = h1.getBoundingClientRect(), range = document.createRange();
            range.selectNodeContents(h1.querySelector("small"));
            return [...range.getClientRects()].some(r => r.right > box.right + .5);
        }"""
    )
    assert not clipped, "the deal number runs past the title's edge"


@pytest.mark.parametrize("slug", ["selective-castle", "chessboard", "archway"])
def test_the_deal_number_stays_on_one_line_on_a_320_px_phone(
    browser: Browser, live_server: LiveServer, slug: str
) -> None:
    """Beside three counters the number broke one digit short of its end: "deal
    291346304691268925" then "3" alone on the next line (a player's pass)."""
    context = browser.new_context(viewport={"width": 320, "height": 568})
    context.screen_name = "320x568"  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + f"/play/{slug}/{DEAL}/?autoplay=0")
    number = page.locator(".game > h1 small")
    expect(number).to_contain_text(str(DEAL))
    shoot(page, f"deal-number-320-{slug}")

    lines = number.evaluate(
        """small => {
            const text = small.firstChild, range = document.createRange();
            range.setStart(text, text.data.indexOf("deal ") + 5);
            range.setEnd(text, text.data.length);
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
        }"""
    )
    context.close()

    assert lines == 1


# What keyboard focus is on, and whether a player sees it there: the element itself shows
# (at least 4 px each way, no transparent or hidden ancestor), or, for the phone menu's
# checkbox (out of sight, its label is the button), its label shows with a focus ring.
FOCUSED = """() => {
    const el = document.activeElement;
    const shows = (node) => {
        const r = node.getBoundingClientRect();
        if (r.width < 4 || r.height < 4) return false;
        if (getComputedStyle(node).visibility !== "visible") return false;
        for (let n = node; n; n = n.parentElement) {
            if (parseFloat(getComputedStyle(n).opacity) === 0) return false;
        }
        return true;
    };
    const label = el.labels && el.labels[0];
    const ringed = label && shows(label) && getComputedStyle(label).outlineStyle !== "none";
    return [el.outerHTML.slice(0, 80), shows(el) || Boolean(ringed)];
}"""


def test_keyboard_focus_never_lands_out_of_sight(tab: Page, live_server: LiveServer) -> None:
    """Tab from the top of a game page through the header and the controls: every stop
    shows. The phone menu's checkbox took the second stop on a desktop, where the menu
    button is not shown; on the phone it still opens the menu from the keyboard."""
    tab.goto(live_server.url + "/play/citadel/3/?autoplay=0")
    expect(tab.locator("#board")).to_be_visible()
    unseen = []
    for _ in range(20):
        tab.keyboard.press("Tab")
        what, seen = tab.evaluate(FOCUSED)
        if not seen:
            unseen.append(what)
    assert not unseen, f"focus out of sight on {unseen}"

    if name_of(tab) == PHONE:
        mine = tab.get_by_role("link", name="My games", exact=True)
        expect(mine).to_be_hidden()
        tab.locator("#menu-toggle").focus()
        tab.keyboard.press("Space")
        expect(mine).to_be_visible()


def test_the_imports_choice_has_no_frame_of_its_own(tab: Page, live_server: LiveServer) -> None:
    """Django draws radio buttons in a fieldset, which the browser framed: "Then:" stood in
    a grey box that no other box of the site has."""
    tab.goto(live_server.url + reverse("games:import"))
    style = "() => getComputedStyle(document.querySelector('.form-page fieldset')).borderTopStyle"

    assert tab.evaluate(style) == "none"


# Where the hinted destination's "Hint" label stands (its middle, across) and the top card
# it marks, from the label's used position in its pile (a pseudo-element has no box of its own).
HINT_LABEL = """pile => {
  const label = getComputedStyle(pile, "::before"), box = pile.getBoundingClientRect();
  const card = pile.lastElementChild.getBoundingClientRect();
  const width = parseFloat(label.width), shift = label.translate.split(" ")[0];
  const left = box.left + pile.clientLeft + parseFloat(label.left)
    + (shift.endsWith("%") ? parseFloat(shift) / 100 * width : parseFloat(shift) || 0);
  return [left + width / 2, card.left, card.right];
}"""


@pytest.mark.parametrize("size", ["1280x800", "1366x768", PHONE])
def test_the_hint_label_stands_on_the_hinted_card(
    browser: Browser, live_server: LiveServer, size: str
) -> None:
    """The label stood in the middle of its pile: on a right-hand pile (its cards from the
    foundations outwards) that was near its top card by chance, on a left-hand one (its top
    card outermost) it marked the card two or three along (a player's pass). The page Hint
    leads to without JavaScript (``?hint=``) marks a move as the board script does."""
    page = without_javascript(browser, size)
    page.goto(live_server.url + "/play/streets-and-alleys/3/?autoplay=0")
    game = page.url.split("?")[0]
    board = Board(get_game("streets-and-alleys"), 3)
    for side in ("left", "right"):
        piles = page.locator(f"#board .pile.{side}[data-pile]").evaluate_all(
            "piles => piles.map(pile => pile.dataset.pile)"
        )
        move = next(m for m in board.legal_moves() if m.target in piles)
        page.goto(f"{game}?hint={move.notation()}")
        hinted = page.locator("#board .pile.hint-to")
        expect(hinted).to_have_attribute("data-pile", move.target)
        shoot(page, f"hint-label-{side}")

        middle, left, right = hinted.evaluate(HINT_LABEL)

        assert left <= middle <= right, f"{side}: the label at {middle}, the card {left}-{right}"
    page.context.close()


def test_a_hint_shows_its_card_and_destination_on_a_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """On a phone an Archway board takes a screen of its own, below the controls: the Hint
    button's answer marked a foundation below the fold (a player's pass)."""
    context = browser.new_context(
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True
    )
    context.screen_name = PHONE  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(live_server.url + "/play/archway/783/?autoplay=0")  # a winnable deal
    page.evaluate("window.scrollTo(0, 0)")

    page.get_by_role("button", name="Hint", exact=True).tap()

    expect(page.locator("#board .hint-to")).to_have_count(1)
    marks = page.locator("#board .hint-from, #board .hint-to")  # (two decks: two 2♣ marked)
    for mark in marks.all():
        expect(mark).to_be_in_viewport(ratio=1)
    shoot(page, "archway-hint")
    context.close()


def test_a_card_picked_up_brings_its_destination_into_sight_on_a_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """A reserve card tapped at the top of an Archway board on a phone: its one foundation
    lay at the bottom, below the fold, and nothing on the screen glowed (a player's pass)."""
    context = browser.new_context(
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.goto(live_server.url + "/play/archway/1/?autoplay=0")
    two = page.locator('#board button[name="select"][value="r:2D"]')  # 2♦ goes home
    two.scroll_into_view_if_needed()
    below = "[...document.querySelectorAll('#board .foundations .pile')].every(el =>"
    below += " el.getBoundingClientRect().top >= innerHeight)"
    assert page.evaluate(below)  # every foundation below the fold

    two.tap()

    targets = page.locator("#board .pile.target")
    expect(targets).to_have_count(1)
    expect(targets).to_be_in_viewport()
    context.close()


def test_a_double_tap_home_scrolls_nothing_on_a_slow_connection(
    browser: Browser, live_server: LiveServer
) -> None:
    """The scroll to a destination waited half a second after the first tap, and its timer
    outlived the double tap's move: on a slow connection the answer came after it, and the
    page jumped 209 px under the player's thumb once the card was home (a player's pass)."""
    context = browser.new_context(
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.goto(live_server.url + "/play/archway/1/?autoplay=0")
    cdp = context.new_cdp_session(page)
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    two = page.locator('#board button[name="select"][value="r:2D"]')  # 2♦ goes home
    two.scroll_into_view_if_needed()
    before = page.evaluate("scrollY")

    two.tap()
    page.wait_for_timeout(300)
    two.tap()

    expect(page.locator("#move-count")).to_have_text("1", timeout=10_000)
    page.wait_for_timeout(700)
    assert page.evaluate("scrollY") == before
    context.close()


def test_without_javascript_a_picked_up_card_shows_where_it_may_go_on_a_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """A reserve card picked up in Archway loaded its page at the top: the foundation that
    takes it lay below the phone's fold, and nothing scrolled to it (a player's pass)."""
    context = browser.new_context(
        viewport={"width": 375, "height": 667}, java_script_enabled=False, is_mobile=True
    )
    page = context.new_page()
    page.goto(live_server.url + "/play/archway/1/?autoplay=0")

    page.locator('#board button[name="select"][value="r:2D"]').click()  # 2♦ goes home

    expect(page.locator("#board .hint-line")).to_have_text("Choose where it goes, or cancel.")
    targets = page.locator("#board .pile.target")
    expect(targets.first).to_be_attached()
    boxes = [target.bounding_box() for target in targets.all()]
    in_sight = [box for box in boxes if box and box["y"] >= 0 and box["y"] + 40 <= 667]
    assert in_sight, f"no destination in sight: {boxes}"
    context.close()


RING_AND_MARKS = """() => {
    const rgb = (colour) => {
        const probe = document.createElement("i");
        probe.style.color = colour;
        document.body.append(probe);
        const [r, g, b] = getComputedStyle(probe).color.match(/\\d+/g).map(Number);
        probe.remove();
        return [r, g, b];
    };
    const root = getComputedStyle(document.documentElement);
    return {
        ring: rgb(getComputedStyle(document.activeElement).outlineColor),
        hint: rgb(root.getPropertyValue("--hint")),
        target: rgb(root.getPropertyValue("--target")),
    };
}"""


def test_keyboard_focus_looks_like_neither_a_hint_nor_a_target(
    tab: Page, live_server: LiveServer
) -> None:
    """The board's focus ring was a pale blue (#7cc4ff) beside the hint's cyan (#4dd0e1): a
    keyboard player could take the card in focus for the hinted one (a player's pass)."""
    tab.goto(live_server.url + "/play/streets-and-alleys/3/?autoplay=0")
    expect(tab.locator("#board")).to_be_visible()
    for _ in range(40):
        tab.keyboard.press("Tab")
        if tab.evaluate("() => Boolean(document.activeElement.closest('#board'))"):
            break
    colours = tab.evaluate(RING_AND_MARKS)

    for mark in ("hint", "target"):
        pairs = zip(colours["ring"], colours[mark], strict=True)
        distance = sum((a - b) ** 2 for a, b in pairs) ** 0.5
        assert distance > 120, f"the focus ring {colours['ring']} is close to the {mark}'s"


def test_without_javascript_a_tap_low_on_a_lit_pile_plays_the_move(
    browser: Browser, live_server: LiveServer
) -> None:
    """Without JavaScript only the lit pile's top card or slot took the tap: the whole
    column glowed, and a tap lower on it did nothing (a player's pass)."""
    move = next(m for m in Board("beleaguered-castle", 1).legal_moves() if not m.to_foundation)
    context = browser.new_context(
        viewport={"width": 375, "height": 667},
        java_script_enabled=False,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    page.locator(f'#board button[name="select"][value="{move.source}"]').tap()
    lit = page.locator(f'#board .pile.target[data-pile="{move.target}"]')
    box = lit.bounding_box()
    assert box is not None

    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.9)

    expect(page.locator("#move-count")).to_have_text("1")
    assert Game.objects.get().ply == 1
    context.close()
