"""A quick player, in Debian's Chromium at real speed: second clicks 0, 10 and 25 ms after the
first, double clicks on cards and on Undo, clicks while a request is in flight, each on
localhost and with 80 ms of emulated network latency; drag and drop with a mouse and a
finger; motion, and motion turned off; what the live region says.

The page must stay on the game (never a 403 page, never a native form submission), and the
stored moves must be exactly the moves made."""

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, Locator, Page, Request, Route, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from games.rules import Move, solver
from games.rules.solver import Hint
from tests.browser.helpers import run_card, slow_network, strip, top_card

pytestmark = pytest.mark.browser


@dataclass
class Watch:
    """What the page did after the game was loaded. Its ``requests`` leave out the verdict
    badge's looks (static/js/verdict.js), which come on their own clock (2 s after the page
    loads, then later) and are no click's doing."""

    requests: list[str] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    navigations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def watch(page: Page) -> Watch:
    seen = Watch()

    def requested(request: Request) -> None:
        if "/verdict?" not in request.url:
            seen.requests.append(f"{request.method} {request.url.rsplit('/', 1)[-1]}")

    page.on("request", requested)
    page.on("response", lambda r: seen.statuses.append(r.status))
    page.on(
        "framenavigated", lambda f: seen.navigations.append(f.url) if f == page.main_frame else None
    )
    page.on("pageerror", lambda e: seen.errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            seen.errors.append(m.text)
            if m.type == "error" and "favicon" not in m.location.get("url", "")
            else None
        ),
    )
    return seen


Hold = Callable[[str], list[Route]]


def arrived(page: Page, held: list[Route], settle: int = 100, count: int = 1) -> list[Route]:
    """The requests ``held`` once ``count`` have reached their route (or after 5 s) and
    ``settle`` ms more have passed for any other. A route's handler runs when Playwright's
    own loop hears of the request, which may be after the click that sent it has returned."""
    for _ in range(250):
        if len(held) >= count:
            break
        page.wait_for_timeout(20)
    page.wait_for_timeout(settle)
    return held


@pytest.fixture
def hold(page: Page) -> Iterator[Hold]:
    """``hold("**/moves")``: from now on, requests to that URL wait in the returned list
    until the test lets each go (``continue_()``); the routes end with the test."""
    patterns: list[str] = []

    def start(pattern: str) -> list[Route]:
        held: list[Route] = []
        page.route(pattern, lambda route: held.append(route))
        patterns.append(pattern)
        return held

    yield start
    for pattern in patterns:
        page.unroute(pattern)


def start(page: Page, live_server: LiveServer, watch: Watch, path: str) -> str:
    page.goto(live_server.url + path)
    expect(page.locator("#board")).to_be_visible()
    watch.requests.clear()
    watch.statuses.clear()
    watch.navigations.clear()
    return page.url


def centre(page: Page, pile: str) -> tuple[float, float]:
    return card_centre(top_card(page, pile))


def card_centre(card: Locator) -> tuple[float, float]:
    box = card.bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def stored(game: Game) -> list[tuple[str, bool]]:
    return list(game.played_moves.order_by("ply").values_list("notation", "undone"))


def still_in_the_game(page: Page, url: str, watch: Watch) -> None:
    assert page.url == url
    assert watch.navigations == [], watch.navigations
    assert 403 not in watch.statuses and 500 not in watch.statuses, watch.statuses
    assert watch.errors == []


@pytest.mark.parametrize("latency", [0, 80], ids=["localhost", "latency-80ms"])
@pytest.mark.parametrize("gap", [0, 10, 25])
def test_fast_second_clicks_and_double_clicks_act_once_each(
    page: Page, live_server: LiveServer, watch: Watch, hold: Hold, latency: int, gap: int
) -> None:
    slow_network(page, latency)
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    counter = page.locator("#move-count")

    # Select, then the destination `gap` ms later: the selection is in the page, so it acts.
    card, target = centre(page, "t3"), centre(page, "t6")
    page.mouse.click(*card)
    page.wait_for_timeout(gap)
    page.mouse.click(*target)
    expect(counter).to_have_text("1")

    # A double click sends a card to its foundation.
    page.mouse.dblclick(*centre(page, "t7"))
    expect(counter).to_have_text("2")

    # The destination clicked twice, `gap` ms apart: one move.
    card, target = centre(page, "t4"), centre(page, "t3")
    page.mouse.click(*card)
    page.mouse.click(*target)
    page.wait_for_timeout(gap)
    page.mouse.click(*target)
    expect(counter).to_have_text("3")

    # A double click on Undo takes back one move: the second click lands while the first
    # is in flight. The first is held until both clicks are in, so a slow machine pausing
    # between them cannot turn this into two undos one after another (which may act).
    held = hold("**/undo")
    page.get_by_role("button", name="Undo").dblclick()
    assert len(arrived(page, held)) == 1
    held[0].continue_()
    expect(counter).to_have_text("2")
    expect(page.get_by_role("button", name="Redo")).to_be_enabled()

    game = Game.objects.get()
    assert stored(game) == [("t3-t6", False), ("t7-f3", False), ("t4-t3", True)]
    assert game.undos == 1
    still_in_the_game(page, url, watch)
    assert watch.requests.count("POST moves") == 3
    assert watch.requests.count("POST undo") == 1


@pytest.mark.parametrize("latency", [0, 80], ids=["localhost", "latency-80ms"])
def test_board_clicks_while_a_move_is_in_flight_act_in_order_once_it_lands(
    page: Page, live_server: LiveServer, watch: Watch, hold: Hold, latency: int
) -> None:
    slow_network(page, latency)
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    held = hold("**/moves")

    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*centre(page, "t6"))
    expect(page.locator("#board.busy")).to_have_count(1)  # once the answer takes a moment
    page.mouse.dblclick(*centre(page, "t7"))  # the two of hearts home, after the eight
    page.get_by_role("button", name="Undo").click(force=True)  # the controls wait for nothing
    page.get_by_role("button", name="Hint").click()
    assert len(arrived(page, held)) == 1
    held[0].continue_()
    assert len(arrived(page, held, count=2)) == 2
    held[1].continue_()

    expect(page.locator("#move-count")).to_have_text("2")
    expect(top_card(page, "f3")).to_have_accessible_name(re.compile("^Two of hearts"))
    assert stored(Game.objects.get()) == [("t3-t6", False), ("t7-f3", False)]
    assert watch.requests == ["POST moves", "POST moves"]
    still_in_the_game(page, url, watch)


def test_clicks_past_the_kept_ones_drop_the_rest_of_the_burst(
    page: Page, live_server: LiveServer, watch: Watch, hold: Hold
) -> None:
    """Four clicks are kept while a move is in flight, the next ones dropped; a dropped
    click's partner was kept when a place came free (a player's pass, clicking a solution 0
    to 25 ms apart over 80 ms of latency): card and destination paired wrongly from then
    on, refusal after refusal. Now the rest of the burst goes too, the status says so, and
    the next click after a rest starts a move of its own."""
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    held = hold("**/moves")

    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*centre(page, "t6"))  # sent: t3-t6
    for pile in ("t4", "t3", "t7", "t2"):  # kept: t4-t3, t7-t2
        page.mouse.click(*centre(page, pile))
    page.mouse.click(*centre(page, "t5"))  # past the four kept: dropped
    assert len(arrived(page, held)) == 1
    held[0].continue_()
    assert len(arrived(page, held, count=2)) == 2  # t4-t3 is on its way, two clicks kept
    page.mouse.click(*centre(page, "t8"))  # the same burst: dropped too, though room came
    held[1].continue_()
    assert len(arrived(page, held, count=3)) == 3
    held[2].continue_()

    expect(page.locator("#move-count")).to_have_text("3")
    expect(page.locator("#status")).to_contain_text("faster than the game could keep them")
    expect(page.locator("#board .card.picked")).to_have_count(0)
    page.wait_for_timeout(400)  # a rest
    page.mouse.click(*centre(page, "t1"))
    page.mouse.click(*centre(page, "t4"))
    assert len(arrived(page, held, count=4)) == 4
    held[3].continue_()
    expect(page.locator("#move-count")).to_have_text("4")
    assert stored(Game.objects.get()) == [
        ("t3-t6", False),
        ("t4-t3", False),
        ("t7-t2", False),
        ("t1-t4", False),
    ]
    assert 422 not in watch.statuses
    still_in_the_game(page, url, watch)


def test_a_click_while_a_move_is_in_flight_is_read_as_the_board_looked(
    page: Page, live_server: LiveServer, watch: Watch, hold: Hold
) -> None:
    """The eight of clubs leaves right pile 3 unseen while its copy glides: a click where
    it was lands on the jack of hearts, which the player sees there."""
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    held = hold("**/moves")

    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*centre(page, "t6"))
    page.mouse.click(*centre(page, "t4"))  # the ten of clubs
    page.mouse.click(*centre(page, "t3"))  # onto the jack of hearts
    assert len(arrived(page, held)) == 1
    held[0].continue_()
    assert len(arrived(page, held, count=2)) == 2
    held[1].continue_()

    expect(page.locator("#move-count")).to_have_text("2")
    assert stored(Game.objects.get()) == [("t3-t6", False), ("t4-t3", False)]
    still_in_the_game(page, url, watch)


@pytest.mark.parametrize("gap", [0, 25])
def test_two_moves_clicked_back_to_back_over_a_slow_network_both_play(
    page: Page, live_server: LiveServer, watch: Watch, gap: int
) -> None:
    slow_network(page, 80)
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    points = [centre(page, pile) for pile in ("t3", "t6", "t4", "t3")]

    for point in points:
        page.mouse.click(*point)
        page.wait_for_timeout(gap)

    expect(page.locator("#move-count")).to_have_text("2")
    assert stored(Game.objects.get()) == [("t3-t6", False), ("t4-t3", False)]
    assert watch.requests == ["POST moves", "POST moves"]
    still_in_the_game(page, url, watch)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_click_on_a_card_in_flight_picks_it_up_where_it_lands(
    page: Page, live_server: LiveServer, watch: Watch, hold: Hold, motion: str
) -> None:
    """A player who sees the eight of clubs glide onto the nine and clicks it there picks
    it up once the move lands. With motion off nothing glides: the click was on the nine,
    which the eight then covers, so it is dropped."""
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    held = hold("**/moves")

    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*centre(page, "t6"))
    assert len(arrived(page, held, settle=300)) == 1  # the glide is over: the eight shows
    page.mouse.click(*centre(page, "t6"))  # on the nine's place, which the eight covers
    held[0].continue_()

    expect(page.locator("#move-count")).to_have_text("1")
    picked = page.locator("#board .card.picked")
    if motion == "reduce":
        expect(picked).to_have_count(0)
    else:
        expect(picked).to_have_accessible_name("Eight of clubs, top of right pile 2")
    page.wait_for_timeout(200)
    assert watch.requests == ["POST moves"]
    still_in_the_game(page, url, watch)


@pytest.mark.parametrize("latency", [0, 80], ids=["localhost", "latency-80ms"])
def test_a_double_click_just_after_a_move_on_the_card_it_covers_plays_nothing(
    page: Page, live_server: LiveServer, watch: Watch, latency: int
) -> None:
    """A double click on the destination's top card, made while the eight of clubs was
    still on its way there, was taken for one on the eight and sent it home ("No foundation
    takes 8♣"; in Selective Castle an ace went home unasked: a player's pass). The nine it
    was on is covered once the move lands: the double click is dropped."""
    if latency:
        slow_network(page, latency)
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    nine = centre(page, "t6")

    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*nine)
    page.wait_for_timeout(10)
    page.mouse.dblclick(*nine)

    expect(page.locator("#move-count")).to_have_text("1")
    page.wait_for_timeout(600)
    assert stored(Game.objects.get()) == [("t3-t6", False)]
    expect(page.locator("#status")).not_to_contain_text("No foundation takes")
    assert watch.requests == ["POST moves"]
    still_in_the_game(page, url, watch)


def test_the_board_looks_busy_only_once_an_answer_takes_a_moment(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    """Marking the board restyles every card (its cursor is inherited): done at once, it
    would hold up the answer's first frame."""
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")

    top_card(page, "t3").click()
    busy_at_once = page.evaluate(
        """() => {
            document.querySelector("#pile-t6 > :last-child").click();
            return document.getElementById("board").classList.contains("busy");
        }"""
    )

    assert not busy_at_once
    expect(page.locator("#move-count")).to_have_text("1")
    expect(page.locator("#board.busy")).to_have_count(0)
    still_in_the_game(page, url, watch)


def test_selecting_a_card_costs_no_request_and_a_move_one(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")

    page.get_by_role("button", name="Eight of clubs, top of left pile 3").click()
    expect(page.locator("#pile-t6")).to_have_class("pile right t n6 target")
    expect(page.locator("#board .target")).to_have_count(1)
    assert watch.requests == []

    top_card(page, "t6").click()
    expect(page.locator("#move-count")).to_have_text("1")
    assert watch.requests == ["POST moves"]
    expect(page.locator("#board .target")).to_have_count(0)


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(
            start[0] + (end[0] - start[0]) * step / 8, start[1] + (end[1] - start[1]) * step / 8
        )
    page.mouse.up()


def test_drag_a_card_with_the_mouse(page: Page, live_server: LiveServer, watch: Watch) -> None:
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")

    drag(page, centre(page, "t3"), centre(page, "t6"))

    expect(page.locator("#move-count")).to_have_text("1")
    expect(top_card(page, "t6")).to_have_accessible_name("Eight of clubs, top of right pile 2")
    expect(page.locator(".ghost")).to_have_count(0)
    assert stored(Game.objects.get()) == [("t3-t6", False)]
    assert watch.requests == ["POST moves"]
    still_in_the_game(page, url, watch)


def run_start(page: Page, live_server: LiveServer, watch: Watch) -> str:
    """Penelope's Web deal 1 after t7-t2: pile 2's two top cards make a run for pile 8."""
    url = start(page, live_server, watch, "/play/penelopes-web/1/?autoplay=0")
    top_card(page, "t7").click()
    top_card(page, "t2").click()
    expect(page.locator("#move-count")).to_have_text("1")
    watch.requests.clear()
    return url


def test_a_run_is_picked_by_its_lowest_card_and_moves_in_one_request(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    url = run_start(page, live_server, watch)
    head = run_card(page, "t2", 2)
    expect(head).to_have_accessible_name(re.compile(r" and the cards on it$"))

    head.click(position=strip(head))
    expect(page.locator("#pile-t2 .card.picked")).to_have_count(2)
    expect(page.locator("#board .target")).to_have_count(1)
    assert watch.requests == []
    top_card(page, "t8").click()

    expect(page.locator("#move-count")).to_have_text("2")
    expect(page.locator("#status")).to_contain_text("and the card on it to right pile 4.")
    assert stored(Game.objects.get()) == [("t7-t2", False), ("t2-t8x2", False)]
    assert watch.requests == ["POST moves"]
    still_in_the_game(page, url, watch)


def test_a_hinted_run_shows_its_top_card(
    page: Page, live_server: LiveServer, watch: Watch, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hinted run's lowest card was raised over the cards on it: the run's top card, the
    one a player reads, lay under it (a player's pass). The whole run is marked instead."""
    run = Move.from_notation("t2-t8x2")
    monkeypatch.setattr(
        solver, "hint_and_line", lambda board, seconds=1.0: (Hint("solved", run, 40), [])
    )
    run_start(page, live_server, watch)

    page.get_by_role("button", name="Hint").click()

    expect(page.locator("#pile-t8.hint-to")).to_have_count(1)
    head, top = run_card(page, "t2", 2), top_card(page, "t2")
    expect(head).to_have_class(re.compile(r"\bhint-from\b"))
    box = top.bounding_box()
    assert box is not None
    points = [
        [box["x"] + 5 + (box["width"] - 10) * i / 4, box["y"] + 5 + (box["height"] - 10) * j / 2]
        for i in range(5)
        for j in range(3)
    ]
    seen = page.evaluate(
        "points => points.map(([x, y]) => document.elementFromPoint(x, y).ariaLabel)", points
    )
    assert seen == [top.get_attribute("aria-label")] * len(points)
    assert top.evaluate("el => getComputedStyle(el).boxShadow") != "none"  # marked too


def test_a_run_moves_with_the_keyboard(page: Page, live_server: LiveServer, watch: Watch) -> None:
    url = run_start(page, live_server, watch)

    run_card(page, "t2", 2).focus()
    page.keyboard.press("Enter")  # picks the run up and focuses where it may go
    expect(page.locator("#pile-t2 .card.picked")).to_have_count(2)
    expect(top_card(page, "t8")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.locator("#move-count")).to_have_text("2")
    assert stored(Game.objects.get()) == [("t7-t2", False), ("t2-t8x2", False)]
    still_in_the_game(page, url, watch)


def test_drag_a_run_with_the_mouse(page: Page, live_server: LiveServer, watch: Watch) -> None:
    url = run_start(page, live_server, watch)
    head = run_card(page, "t2", 2)
    box, at = head.bounding_box(), strip(head)
    assert box

    page.mouse.move(box["x"] + at["x"], box["y"] + at["y"])
    page.mouse.down()
    page.mouse.move(box["x"] + at["x"] + 20, box["y"] + at["y"] + 10)
    expect(page.locator(".ghost.dragged")).to_have_count(2)  # the whole run follows
    page.mouse.move(*centre(page, "t8"), steps=8)
    page.mouse.up()

    expect(page.locator("#move-count")).to_have_text("2")
    expect(page.locator(".ghost")).to_have_count(0)
    assert stored(Game.objects.get()) == [("t7-t2", False), ("t2-t8x2", False)]
    still_in_the_game(page, url, watch)


def test_a_drop_on_an_illegal_pile_returns_the_card_and_says_why(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")

    drag(page, centre(page, "t6"), centre(page, "t2"))

    expect(page.locator("#status")).to_contain_text("A 9 can only go on a 10, not on 3♦")
    expect(page.locator(".ghost")).to_have_count(0)
    expect(top_card(page, "t6")).to_have_accessible_name("Nine of clubs, top of right pile 2")
    expect(page.locator("#board .lifted")).to_have_count(0)
    expect(page.locator("#move-count")).to_have_text("0")
    assert stored(Game.objects.get()) == []


@pytest.mark.parametrize("latency", [0, 80], ids=["localhost", "latency-80ms"])
def test_after_a_refused_move_the_next_two_clicks_are_the_next_move(
    page: Page, live_server: LiveServer, watch: Watch, latency: int
) -> None:
    """A refusal puts the card down: a quick player's next pair of clicks is read as a pair,
    not as a destination for the refused card and then a selection."""
    slow_network(page, latency)
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")

    page.mouse.click(*centre(page, "t6"))
    page.mouse.click(*centre(page, "t2"))  # the nine of clubs on the three of diamonds
    expect(page.locator("#status")).to_contain_text("A 9 can only go on a 10, not on 3♦")
    expect(page.locator("#board.selecting, #board .picked")).to_have_count(0)

    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*centre(page, "t6"))

    expect(page.locator("#move-count")).to_have_text("1")
    assert stored(Game.objects.get()) == [("t3-t6", False)]
    assert watch.requests == ["POST moves", "POST moves"]
    assert watch.statuses.count(422) == 1
    assert page.url == url and watch.navigations == []
    # Chromium logs every 4xx answer to the console; the refusal is the only one.
    assert [e for e in watch.errors if "status of 422" not in e] == []


@pytest.fixture
def touch_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(has_touch=True, viewport={"width": 375, "height": 740})
    yield context.new_page()
    context.close()


def test_drag_a_card_with_a_finger(touch_page: Page, live_server: LiveServer) -> None:
    page = touch_page
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    expect(page.locator("#board")).to_be_visible()
    start, end = centre(page, "t3"), centre(page, "t6")
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", *start)
    for step in range(1, 9):
        touch(
            "touchMove",
            start[0] + (end[0] - start[0]) * step / 8,
            start[1] + (end[1] - start[1]) * step / 8,
        )
    touch("touchEnd", *end)

    expect(page.locator("#move-count")).to_have_text("1")
    assert stored(Game.objects.get()) == [("t3-t6", False)]


@pytest.fixture
def phone_page(browser: Browser) -> Iterator[Page]:
    """A phone as Chromium emulates one: touch, and a mobile viewport's gestures."""
    context = browser.new_context(
        has_touch=True, is_mobile=True, viewport={"width": 375, "height": 667}
    )
    yield context.new_page()
    context.close()


def test_a_tap_just_after_a_drag_selects_its_card(
    phone_page: Page, live_server: LiveServer
) -> None:
    """A finger lifted while it still moved started a fling (though nothing scrolls), and
    Chromium took the next tap for one that stops the fling: no click, the card stayed
    unselected (in a player's pass, 2 taps in 3 at 150 ms after the drag's answer)."""
    page = phone_page
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def legal() -> list[tuple[str, str]]:
        data = json.loads(page.locator("#play script").text_content() or "{}")
        return [(a, b) for sources, targets in data["to"] for a in sources for b in targets]

    missed, dragged = [], 0
    for number in range(1, 9):
        moves = [(a, b) for a, b in legal() if b.startswith("t")]
        if not moves:
            break
        source, target = moves[(number - 1) % len(moves)]
        start, end = centre(page, source), centre(page, target)
        touch("touchStart", *start)
        for step in range(1, 9):
            x = start[0] + (end[0] - start[0]) * step / 8
            touch("touchMove", x, start[1] + (end[1] - start[1]) * step / 8)
            page.wait_for_timeout(16)
        touch("touchEnd", *end)  # still moving: a fling
        dragged += 1
        expect(page.locator("#move-count")).to_have_text(str(dragged))
        expect(page.locator("#board")).not_to_have_class(re.compile(r"\bbusy\b"))
        page.wait_for_timeout(150)
        card = top_card(page, legal()[0][0])
        page.touchscreen.tap(*card_centre(card))
        page.wait_for_timeout(150)
        if not card.evaluate("card => card.classList.contains('picked')"):
            missed.append(number)
        page.keyboard.press("Escape")  # and let it go (a second tap would send it home)
        expect(page.locator("#board")).not_to_have_class(re.compile(r"\bselecting\b"))

    assert dragged >= 4
    assert missed == []
    assert len(stored(Game.objects.get())) == dragged


def shown_point(card: Locator) -> tuple[float, float]:
    """A point of the page where ``card`` shows (where a finger taps it, enabled or not: a
    finger does not wait for a button to be enabled, as ``Locator.tap`` does)."""
    box = card.bounding_box()
    assert box
    point = strip(card)
    return box["x"] + point["x"], box["y"] + point["y"]


def test_a_tap_anywhere_on_a_pile_puts_the_selected_card_there(
    touch_page: Page, live_server: LiveServer
) -> None:
    """On a phone the piles stand as tall columns: a tap on a destination's covered cards or
    on the space below them counts, as a tap on its top card does."""
    page = touch_page
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    pile = page.locator('#board [data-pile="t6"]')
    box = pile.bounding_box()
    assert box
    top = top_card(page, "t6").bounding_box()
    assert top and box["y"] + box["height"] - (top["y"] + top["height"]) > 40  # room below

    top_card(page, "t3").tap()
    expect(pile).to_have_class(re.compile(r"\btarget\b"))
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] - 20)

    expect(page.locator("#move-count")).to_have_text("1")
    game = Game.objects.get()
    assert stored(game) == [("t3-t6", False)]

    covered = shown_point(page.locator('#board [data-pile="t2"] button').first)
    top_card(page, "t7").tap()
    page.touchscreen.tap(*covered)

    expect(page.locator("#move-count")).to_have_text("2")
    assert stored(game) == [("t3-t6", False), ("t7-t2", False)]

    # On its own pile, a tap puts the card back down: no move, nothing asked.
    covered = shown_point(page.locator('#board [data-pile="t4"] button').first)
    top_card(page, "t4").tap()
    expect(page.locator("#board")).to_have_class(re.compile(r"\bselecting\b"))
    page.touchscreen.tap(*covered)
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bselecting\b"))
    assert stored(game) == [("t3-t6", False), ("t7-t2", False)]


def test_a_tap_on_a_piles_space_while_a_request_is_in_flight_takes_the_card_tapped_before_it(
    touch_page: Page, live_server: LiveServer
) -> None:
    """On a phone, while a hint is on its way (nothing selected): a tap on the ten of clubs,
    then on the space below left pile 3's cards. Once the hint is in, the ten goes onto the
    jack of hearts."""
    page = touch_page
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    top_card(page, "t3").tap()
    top_card(page, "t6").tap()
    expect(page.locator("#move-count")).to_have_text("1")
    box = page.locator('#board [data-pile="t3"]').bounding_box()
    assert box
    held: list[Route] = []
    page.route("**/hint", lambda route: held.append(route))

    page.get_by_role("button", name="Hint").tap()
    page.touchscreen.tap(*centre(page, "t4"))  # the ten of clubs, kept
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] - 20)
    assert len(arrived(page, held)) == 1
    held[0].continue_()

    expect(page.locator("#move-count")).to_have_text("2")
    assert stored(Game.objects.get()) == [("t3-t6", False), ("t4-t3", False)]


GHOSTS = """() => {
    window.ghosts = 0;
    window.glides = 0;
    window.lying = [];
    new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) {
            if (!n.classList || !n.classList.contains('ghost')) continue;
            if (n.classList.contains('leaving')) window.glides += 1;
            else if (n.classList.contains('under')) {
                const at = n.getBoundingClientRect();
                window.lying.push({text: n.textContent, left: at.left, top: at.top});
            } else if (!n.classList.contains('dragged')) window.ghosts += 1;
        }
    }).observe(document.body, {childList: true});
}"""
"""Counts the copies of cards that fly (static/js/motion.js: ``ghosts``) and those a move
sets off with before its answer (static/js/board.js: ``glides``), and notes where each card
a foundation's arriving card covers lies meanwhile (``lying``)."""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_glide_unless_motion_is_reduced(
    page: Page, live_server: LiveServer, watch: Watch, motion: str
) -> None:
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    page.evaluate(GHOSTS)

    page.mouse.dblclick(*centre(page, "t7"))
    expect(page.locator("#move-count")).to_have_text("1")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#move-count")).to_have_text("0")

    flown = page.evaluate("window.ghosts")
    assert flown == (0 if motion == "reduce" else 2)  # the move, then the undo gliding back
    assert page.evaluate("window.glides") == (0 if motion == "reduce" else 1)  # the move
    expect(page.locator(".ghost")).to_have_count(0)
    expect(page.locator("#board .arriving")).to_have_count(0)


def test_cards_stay_still_for_a_player_who_turned_glide_off(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    """The profile's "Cards glide", unticked: moves and undos show at once, as with the
    system's reduced motion, on a browser that asks for motion."""
    page.emulate_media(reduced_motion="no-preference")
    start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    page.goto(live_server.url + "/me/")
    page.get_by_label("Cards glide").uncheck()
    page.get_by_role("button", name="Save preferences").click()
    expect(page.get_by_text("Your preferences are saved.")).to_be_visible()
    page.goto(live_server.url + Game.objects.get().get_absolute_url())
    page.evaluate(GHOSTS)

    page.mouse.dblclick(*centre(page, "t7"))
    expect(page.locator("#move-count")).to_have_text("1")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#move-count")).to_have_text("0")

    assert page.evaluate("window.ghosts") == 0
    assert page.evaluate("window.glides") == 0
    assert stored(Game.objects.get()) == [("t7-f3", True)]  # played, then taken back


@pytest.mark.parametrize("latency", [0, 80], ids=["localhost", "latency-80ms"])
def test_a_move_sets_off_at_the_click_and_lands_where_its_answer_puts_it(
    page: Page, live_server: LiveServer, watch: Watch, hold: Hold, latency: int
) -> None:
    slow_network(page, latency)
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    held = hold("**/moves")

    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*centre(page, "t6"))

    # On its way before any answer: a copy glides, the card waits unseen in its pile.
    expect(page.locator(".ghost.leaving")).to_have_count(1)
    expect(page.locator("#pile-t3 .card.leaving")).to_have_count(1)
    expect(page.locator("#move-count")).to_have_text("0")
    page.wait_for_timeout(300)  # the glide has reached the pile: the card waits there
    expect(page.locator(".ghost.leaving")).to_have_count(1)
    assert len(arrived(page, held)) == 1
    held[0].continue_()

    expect(page.locator("#move-count")).to_have_text("1")
    expect(page.locator(".ghost")).to_have_count(0)
    expect(page.locator("#board .leaving, #board .arriving")).to_have_count(0)
    expect(top_card(page, "t6")).to_have_accessible_name("Eight of clubs, top of right pile 2")
    assert stored(Game.objects.get()) == [("t3-t6", False)]
    still_in_the_game(page, url, watch)


def test_a_move_that_gets_no_answer_goes_back_to_its_pile(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    page.route("**/moves", lambda route: route.abort())

    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*centre(page, "t6"))

    expect(page.locator("#status")).to_contain_text("The server did not answer")
    expect(page.locator(".ghost")).to_have_count(0)
    expect(page.locator("#board .leaving")).to_have_count(0)
    expect(top_card(page, "t3")).to_have_accessible_name("Eight of clubs, top of left pile 3")
    expect(page.locator("#move-count")).to_have_text("0")
    page.unroute("**/moves")
    assert stored(Game.objects.get()) == []
    assert page.url == url and watch.navigations == []

    # The card was put down: trying again is the same two clicks (a player's pass found the
    # first of them sending the still selected card home, "No foundation takes 10♥").
    expect(page.locator("#board .picked, #board .selected")).to_have_count(0)
    page.mouse.click(*centre(page, "t3"))
    page.mouse.click(*centre(page, "t6"))

    expect(page.locator("#move-count")).to_have_text("1")
    assert stored(Game.objects.get()) == [("t3-t6", False)]


def test_auto_played_cards_go_up_one_after_another(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    start(page, live_server, watch, "/play/citadel/16/?autoplay=1")
    page.evaluate(GHOSTS)

    page.mouse.click(*centre(page, "t8"))
    page.mouse.click(*centre(page, "t4"))

    expect(page.locator("#status")).to_have_text(
        "Ten of clubs to left pile 4. Auto-play: three and four of hearts."
    )
    assert page.evaluate("window.ghosts") == 3
    # The foundation's new top waits, hidden, until the last card lands on it; meanwhile the
    # card they cover lies in its place: the foundation never looks empty.
    expect(page.locator("#pile-f3 .arriving")).to_have_count(0)
    expect(top_card(page, "f3")).to_have_accessible_name("Four of hearts")
    place = top_card(page, "f3").bounding_box()
    assert place is not None
    assert page.evaluate("window.lying") == [{"text": "2♥", "left": place["x"], "top": place["y"]}]
    expect(page.locator(".ghost")).to_have_count(0)


def test_the_next_click_never_waits_for_an_animation(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    start(page, live_server, watch, "/play/citadel/16/?autoplay=1")
    page.mouse.click(*centre(page, "t8"))
    page.mouse.click(*centre(page, "t4"))
    expect(page.locator("#move-count")).to_have_text("3")

    # Cards are still in flight: a click selects at once and ends them.
    page.mouse.click(*centre(page, "t4"))

    expect(page.locator("#board .picked")).to_have_count(1)
    expect(page.locator(".ghost")).to_have_count(0)


def test_a_hint_marks_card_and_destination_apart_from_a_selection(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    start(page, live_server, watch, "/play/beleaguered-castle/2/?autoplay=1")

    page.get_by_role("button", name="Hint").click()

    expect(page.locator("#status")).to_contain_text(
        "Hint: Ten of hearts from right pile 3 to right pile 4"
    )
    hinted = page.locator("#board .card.hint-from")
    expect(hinted).to_have_accessible_name("Ten of hearts, top of right pile 3, hinted card")
    expect(page.locator("#pile-t8.hint-to")).to_be_visible()
    expect(page.locator("#board.selecting")).to_have_count(0)
    shadow: Callable[[str], str] = lambda sel: page.eval_on_selector(  # noqa: E731
        sel, "el => getComputedStyle(el).boxShadow"
    )
    hint_look = shadow("#board .card.hint-from")

    top_card(page, "t5").click()
    assert shadow("#board .card.picked") != hint_look
    top_card(page, "t8").click()  # an illegal move: the hint stays until a move is made
    expect(page.locator("#status")).to_contain_text("can only go on")
    page.keyboard.press("Escape")
    expect(page.locator("#board .hint-from")).to_have_count(1)
    page.locator("#board .card.hint-from").click()
    top_card(page, "t8").click()
    expect(page.locator("#move-count")).to_have_text("1")
    expect(page.locator("#board .hint-from, #board .hint-to")).to_have_count(0)


# Each wing pile's caption on a phone, in board order: its name's short form (CSS counters).
CAPTIONS = """() => [...document.querySelectorAll('#board .wings .pile[data-pile]')]
    .filter(p => p.matches('.left, .right'))
    .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
    .map(p => {
        const side = p.matches('.left') ? 'left' : 'right';
        const rank = [...document.querySelectorAll('#board .wings .pile.' + side + '[data-pile]')]
            .indexOf(p) + 1;
        return [p.getAttribute('aria-label'), side, rank,
                getComputedStyle(p, '::after').content];
    })"""


@pytest.mark.parametrize("width", [375, 1280])
def test_on_a_phone_each_pile_shows_the_name_hints_give_it(
    page: Page, live_server: LiveServer, watch: Watch, width: int
) -> None:
    """Standing as eight columns, the wings lose their sides: a hint's "right pile 4" must
    be findable. Each column carries L1-L4, R1-R4 at its foot, counted in the order the
    engine numbers them (the captions are CSS counters, which the page's script cannot
    read: this checks their rule, the counted piles and their order on the screen)."""
    page.set_viewport_size({"width": width, "height": 740})
    start(page, live_server, watch, "/play/beleaguered-castle/2/?autoplay=1")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#status")).to_contain_text("to right pile 4")

    captions = page.evaluate(CAPTIONS)
    if width > 640:  # the wings keep their sides: no captions
        assert {content for *_, content in captions} == {"none"}
        return
    assert [(side, rank) for _, side, rank, _ in captions] == [
        *(("left", n) for n in range(1, 5)),
        *(("right", n) for n in range(1, 5)),
    ]
    for label, side, rank, content in captions:
        assert label.startswith(f"{side} pile {rank}")
        assert content == f'"{side[0].upper()}" counter({side}) / ""'
    hinted = page.locator("#board .pile.hint-to")
    expect(hinted).to_have_attribute("aria-label", re.compile(r"^right pile 4, hinted"))


def middle(card: Locator) -> tuple[float, float]:
    """The middle of ``card``, covered or not: where a player clicks a card that shows whole."""
    box = card.bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_with_the_first_answer_held(
    page: Page, held: list[Route], points: list[tuple[float, float]], gap: int
) -> None:
    """Click ``points`` ``gap`` ms apart while the first move's answer is held (so every
    click lands while it is on its way), then let each answer through as it comes."""
    for point in points:
        page.mouse.click(*point)
        page.wait_for_timeout(gap)
    assert len(arrived(page, held)) == 1
    held[0].continue_()
    assert len(arrived(page, held, count=2)) == 2
    held[1].continue_()


def two_moves_and_nothing_picked(page: Page, url: str, watch: Watch) -> None:
    """The clicks made two moves, one request each, and left no card picked up."""
    expect(page.locator("#board .picked")).to_have_count(0)
    assert watch.requests == ["POST moves", "POST moves"]
    still_in_the_game(page, url, watch)


@pytest.mark.parametrize(
    ("latency", "gap"),
    [(0, 0), (80, 0), (80, 30), (80, 60)],
    ids=["localhost-0ms", "latency-80ms-0ms", "latency-80ms-30ms", "latency-80ms-60ms"],
)
def test_the_card_a_move_uncovers_plays_while_that_move_is_in_flight(
    page: Page, live_server: LiveServer, watch: Watch, hold: Hold, latency: int, gap: int
) -> None:
    """Citadel deal 3: the four of clubs from left pile 1 onto the five of hearts, then at
    once the three of clubs it uncovers (shown whole while the four glides away, though its
    button waits for the answer to be enabled) up to its foundation: the commonest quick
    pair of moves, both from one pile. The first answer is held until the four clicks are
    in (over 80 ms it comes some 80-100 ms after the second click: a slow machine could
    let it in before the third)."""
    slow_network(page, latency)
    url = start(page, live_server, watch, "/play/citadel/3/?autoplay=0")
    held = hold("**/moves")
    three = run_card(page, "t1", 2)
    expect(three).to_have_accessible_name(re.compile("^Three of clubs"))
    points = [centre(page, "t1"), centre(page, "t4"), middle(three), centre(page, "f1")]

    click_with_the_first_answer_held(page, held, points, gap)

    expect(page.locator("#move-count")).to_have_text("2")
    expect(top_card(page, "f1")).to_have_accessible_name(re.compile("^Three of clubs"))
    assert stored(Game.objects.get()) == [("t1-t4", False), ("t1-f1", False)]
    two_moves_and_nothing_picked(page, url, watch)


def test_a_card_uncovered_in_flight_then_its_destination_after_the_answer_both_play(
    page: Page, live_server: LiveServer, watch: Watch, hold: Hold
) -> None:
    """Citadel deal 3 again: the three of clubs is clicked while the four's move is on its
    way, its destination (the four, landed on left pile 4) once the answer is in. The three
    goes onto the four; the four is never picked up instead."""
    slow_network(page, 80)
    url = start(page, live_server, watch, "/play/citadel/3/?autoplay=0")
    held = hold("**/moves")

    page.mouse.click(*centre(page, "t1"))
    page.mouse.click(*centre(page, "t4"))
    page.mouse.click(*middle(run_card(page, "t1", 2)))  # the three, under the gliding four
    assert len(arrived(page, held)) == 1
    held[0].continue_()
    expect(page.locator("#move-count")).to_have_text("1")
    page.mouse.click(*centre(page, "t4"))  # the four of clubs, where it landed
    assert len(arrived(page, held, count=2)) == 2
    held[1].continue_()

    expect(page.locator("#move-count")).to_have_text("2")
    expect(top_card(page, "t4")).to_have_accessible_name(re.compile("^Three of clubs"))
    assert stored(Game.objects.get()) == [("t1-t4", False), ("t1-t4", False)]
    two_moves_and_nothing_picked(page, url, watch)


@pytest.mark.parametrize("gap", [0, 30])
@pytest.mark.parametrize(
    ("path", "before", "first", "then"),
    [
        ("/play/fortress/2/?autoplay=0", [], ("t1", "t6"), ("t2", "f2")),
        ("/play/streets-and-alleys/2/?autoplay=0", [], ("t8", "t6"), ("t1", "f4")),
        ("/play/exiled-kings/41/?autoplay=0", [("t3", "t1")], ("t5", "t4"), ("t6", "t3")),
    ],
    ids=["fortress-foundation", "streets-and-alleys-foundation", "exiled-kings-space"],
)
def test_a_click_on_an_empty_pile_while_a_move_is_in_flight_plays_once_it_lands(
    page: Page,
    live_server: LiveServer,
    watch: Watch,
    hold: Hold,
    path: str,
    before: list[tuple[str, str]],
    first: tuple[str, str],
    then: tuple[str, str],
    gap: int,
) -> None:
    """A move to a tableau pile, then at once a card and its empty pile: an ace to its empty
    foundation (Fortress deal 2, Streets and Alleys deal 2), a king to the space that Exiled
    Kings deal 41's first move leaves (left pile 3's only card onto left pile 1: only a king
    fills it, so it is no destination for the first move's card). An empty pile is a
    disabled button until a selected card may go there: the click must still count, for the
    card picked before it."""
    slow_network(page, 80)
    url = start(page, live_server, watch, path)
    for move in before:
        for pile in move:
            top_card(page, pile).click()
    expect(page.locator("#move-count")).to_have_text(str(len(before)))
    watch.requests.clear()
    held = hold("**/moves")  # the first answer, until the four clicks are in
    expect(top_card(page, then[1])).to_have_class("slot")
    points = [centre(page, pile) for pile in (*first, *then)]

    click_with_the_first_answer_held(page, held, points, gap)

    expect(page.locator("#move-count")).to_have_text(str(len(before) + 2))
    moves = [*before, first, then]
    assert stored(Game.objects.get()) == [("-".join(move), False) for move in moves]
    two_moves_and_nothing_picked(page, url, watch)


def test_a_double_click_on_undo_whose_second_click_follows_the_first_answer_undoes_two(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    """What board.js's header says: only a second click landing while the first undo is on
    its way is ignored (test_fast_second_clicks_and_double_clicks_act_once_each); one that
    lands after its answer is a click like any other."""
    slow_network(page, 80)
    url = start(page, live_server, watch, "/play/beleaguered-castle/1/?autoplay=0")
    counter = page.locator("#move-count")
    for played, move in enumerate((("t3", "t6"), ("t4", "t3")), start=1):
        for pile in move:
            page.mouse.click(*centre(page, pile))
        expect(counter).to_have_text(str(played))
    undo = middle(page.get_by_role("button", name="Undo"))

    page.mouse.click(*undo)
    expect(counter).to_have_text("1")  # the first click's answer is in
    page.mouse.move(*undo)
    page.mouse.down(click_count=2)  # the same double click's second click (detail 2)
    page.mouse.up(click_count=2)

    expect(counter).to_have_text("0")
    assert stored(Game.objects.get()) == [("t3-t6", True), ("t4-t3", True)]
    assert watch.requests.count("POST undo") == 2
    still_in_the_game(page, url, watch)


def test_the_status_stays_one_live_region_that_says_each_answer(
    page: Page, live_server: LiveServer, watch: Watch
) -> None:
    """Every answer put a new status element in place of the live region, its words already
    in it, which screen readers may not speak: the region stays and its words change."""
    start(page, live_server, watch, "/play/citadel/16/?autoplay=1")
    page.evaluate("window.region = document.getElementById('status')")
    same = "document.getElementById('status') === window.region"

    page.mouse.click(*centre(page, "t8"))
    page.mouse.click(*centre(page, "t4"))
    expect(page.locator("#status")).to_have_text(
        "Ten of clubs to left pile 4. Auto-play: three and four of hearts."
    )
    assert page.evaluate(same)
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(page.locator("#status")).to_contain_text("Taken back: Ten of clubs")
    assert page.evaluate(same)
    page.mouse.click(*centre(page, "t8"))
    page.mouse.click(*centre(page, "t1"))
    expect(page.locator("#status.error")).to_contain_text("can only go on")
    assert page.evaluate(same)
    expect(page.locator("#status")).to_have_attribute("aria-live", "polite")
