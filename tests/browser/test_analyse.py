"""Analyse runs in the task worker: the page says "analysing…" and fills in by itself."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.core.cache import cache
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from games import services, solver_jobs
from games.models import DealVerdict, Game

pytestmark = pytest.mark.browser


def test_analyse_says_analysing_then_fills_in_when_the_worker_is_done(
    page: Page, live_server: LiveServer, run_tasks
) -> None:
    play_into_a_corner(page, live_server)
    # The stuck panel's form as it goes without the board script: to the analysis's page.
    page.locator("form.analyse").evaluate("form => form.submit()")
    page.wait_for_url(re.compile(r"/analysis$"))
    status = page.locator("#status")
    expect(status).to_contain_text("Analysing…")

    with looks_held(page):
        run_tasks()  # what `manage.py worker` does beside the server

    answer = re.compile(r"could not be won|could still be won")
    expect(status).to_contain_text(answer, timeout=10_000)
    expect(status).not_to_contain_text("Analysing")


STUCK = "/play/citadel/23/?autoplay=0"
"""Citadel deal 23, where the six of clubs onto the seven of clubs leaves no card able to move."""


@contextmanager
def looks_held(page: Page) -> Iterator[None]:
    """The page's looks at the analysis and the verdict wait meanwhile, then go on: the live
    server shares the test's SQLite database, where a read beside the worker's writes
    fails at once ("database table is locked") on either side."""
    held: list[Route] = []

    def looking(url: str) -> bool:
        return url.endswith("/analysis") or "/verdict?" in url

    page.route(looking, lambda route: held.append(route))
    try:
        yield
    finally:
        page.unroute(looking)
        for route in held:
            route.continue_()


def play_into_a_corner(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + STUCK)
    page.locator('#board [data-pile="t5"] button').last.click()
    page.locator('#board [data-pile="t1"] button').last.click()
    expect(page.get_by_role("heading", name="No way forward")).to_be_visible()


def test_on_the_game_page_the_analysis_fills_in_by_itself(
    page: Page, live_server: LiveServer, run_tasks
) -> None:
    """The game page has no htmx (static/js/board.js sends its requests): the status looks
    again by itself, and stays on the game."""
    play_into_a_corner(page, live_server)
    url = page.url
    looks: list[str] = []
    navigations: list[str] = []
    page.on("request", lambda r: looks.append(r.url) if r.url.endswith("/analysis") else None)
    page.on("framenavigated", lambda f: navigations.append(f.url))

    with looks_held(page):
        page.get_by_role("button", name="Analyse: where was it lost?").click()
        status = page.locator("#status")
        expect(status).to_contain_text("Analysing…")

        run_tasks()  # what `manage.py worker` does beside the server

    answer = re.compile(r"could not be won|could still be won")
    expect(status).to_contain_text(answer, timeout=10_000)
    expect(status).not_to_contain_text("Analysing")
    assert looks  # it looked again by itself
    assert page.url == url and navigations == []
    expect(page.locator("#board")).to_be_visible()
    game = Game.objects.get()
    assert list(game.played_moves.values_list("notation", "undone")) == [("t5-t1", False)]


@pytest.mark.parametrize("where", ["game page", "analysis page"])
def test_the_analysis_looks_again_less_and_less_often_then_stops(
    page: Page, live_server: LiveServer, where: str
) -> None:
    """No worker answers here: the looks come further and further apart, then stop
    ("Check again" stays for the player), on the game page (Analyse) and on the analysis's
    own page (the stuck game's form without the board script, or a reload). The page's
    clock is Playwright's, run a second at a time; each look's answer is waited for, as it
    sets the next look's timer."""
    page.clock.install()
    play_into_a_corner(page, live_server)
    game_url = page.url
    looks: list[str] = []
    answered: list[str] = []
    page.on("request", lambda r: looks.append(r.url) if r.url.endswith("/analysis") else None)
    page.on(
        "requestfinished",
        lambda r: answered.append(r.url) if r.url.endswith("/analysis") else None,
    )
    if where == "game page":
        page.get_by_role("button", name="Analyse: where was it lost?").click()
    else:  # the form as it goes without the board script (submit() skips its listener)
        page.locator("form.analyse").evaluate("form => form.submit()")
        page.wait_for_url(re.compile(r"/analysis$"))
    expect(page.locator("#status")).to_contain_text("Analysing…")

    waits: list[int] = []
    idle = 0
    # Two minutes without a look: it has stopped. Looks that never stop end at 30.
    while idle < 120 and len(waits) < 30:
        seen = len(looks)
        page.clock.run_for(1000)
        page.wait_for_timeout(20)
        idle += 1
        if len(looks) > seen:
            waits.append(idle)
            idle = 0
            for _ in range(200):
                if len(answered) >= len(looks):
                    break
                page.wait_for_timeout(10)
            page.wait_for_timeout(50)  # the answer in place, the next look's timer set

    # A look seen a step late counts a second more: it never comes sooner than planned.
    assert 3 <= len(waits) <= 12, waits
    assert all(later >= sooner - 1 for sooner, later in pairwise(waits)), waits
    assert waits[-1] >= 10 * waits[0], waits
    expect(page.locator("#status")).to_contain_text("Analysing…")
    expect(page.get_by_role("link", name="Check again")).to_be_visible()
    assert page.url == (game_url if where == "game page" else game_url + "analysis")


def test_without_javascript_the_analysis_page_refreshes_until_done(
    browser, live_server: LiveServer, run_tasks
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    play_into_a_corner(page, live_server)
    page.get_by_role("button", name="Analyse: where was it lost?").click()
    expect(page).to_have_url(re.compile(r"/analysis$"))
    expect(page.get_by_text("Analysing…")).to_be_visible()

    run_tasks()

    answer = page.get_by_text(re.compile(r"could not be won|could still be won"))
    expect(answer).to_be_visible(timeout=10_000)
    context.close()


def test_over_a_rate_limit_the_status_line_says_so(
    page: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One fixed rate-limit window for the whole test (the server runs in this process).
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1.8e9))
    cache.clear()
    page.goto(live_server.url + "/play/beleaguered-castle/2/?autoplay=0")
    hint = page.get_by_role("button", name="Hint", exact=True)
    for _ in range(60):  # the same position: one solver run, then the cache
        with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
            hint.click()
        assert answer.value.status == 200

    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        hint.click()

    assert answer.value.status == 429
    expect(page.locator("#status")).to_contain_text("Too many requests")


def test_without_javascript_check_again_shows_the_analysis(
    browser, live_server: LiveServer, run_tasks
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    play_into_a_corner(page, live_server)
    page.get_by_role("button", name="Analyse: where was it lost?").click()
    expect(page.get_by_text("Analysing…")).to_be_visible()

    page.get_by_role("link", name="Check again").click()  # (or the page refreshes itself)
    expect(page).to_have_url(re.compile(r"/analysis$"))
    expect(page.get_by_text("Analysing…")).to_be_visible()
    with looks_held(page):  # the page's next refresh
        run_tasks()

    answer = page.get_by_text(re.compile(r"could not be won|could still be won"))
    expect(answer).to_be_visible(timeout=10_000)
    context.close()


def test_the_stuck_panel_says_so_when_the_badge_finds_the_deal_unwinnable(
    page: Page, live_server: LiveServer
) -> None:
    """The badge turned "Unwinnable" by itself beside a stuck panel that still said "Undo or
    restart to try another line" until a reload (a player's pass)."""
    play_into_a_corner(page, live_server)
    expect(page.locator("#verdict")).to_contain_text("Checking whether this deal can be won")
    advice = page.locator("#stuck-advice")
    expect(advice).to_have_text("Undo or restart to try another line.")

    DealVerdict.objects.update(verdict=DealVerdict.Verdict.UNWINNABLE)  # the worker, meanwhile

    expect(page.locator("#verdict")).to_contain_text("Unwinnable", timeout=10_000)
    expect(advice).to_have_text("This deal cannot be won from its start: try another.")
    expect(page.get_by_role("button", name="Analyse: where was it lost?")).to_be_visible()


def test_analyse_refused_for_a_while_keeps_the_stuck_panel(
    page: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal to analyse now (429) replaced the stuck panel, and its Analyse and New
    winnable deal, with its wait message (a player's pass)."""
    play_into_a_corner(page, live_server)

    def busy(**_: object) -> None:
        raise solver_jobs.SolverBusy("The solver is busy: please try again in a minute.", 60)

    monkeypatch.setattr(services, "game_analyse", busy)  # the server runs in this process
    with page.expect_response(lambda r: r.url.endswith("/analyse")) as answer:
        page.get_by_role("button", name="Analyse: where was it lost?").click()

    assert answer.value.status == 429
    status = page.locator("#status")
    expect(status).to_contain_text("The solver is busy")
    expect(page.get_by_role("heading", name="No way forward")).to_be_visible()
    expect(status.get_by_role("link", name="New winnable deal")).to_be_visible()
    expect(page.get_by_role("button", name="Analyse: where was it lost?")).to_be_visible()
