"""Analyse runs in the task worker: the page says "analysing…" and fills in by itself."""

from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

pytestmark = pytest.mark.browser


def test_analyse_says_analysing_then_fills_in_when_the_worker_is_done(
    page: Page, live_server: LiveServer, run_tasks
) -> None:
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    page.goto(page.url + "analyse")  # the link a stuck game shows
    status = page.locator("#status")
    expect(status).to_contain_text("Analysing…")

    run_tasks()  # what `manage.py worker` does beside the server

    expect(status).to_contain_text("could not be won from the start", timeout=10_000)
    expect(status).not_to_contain_text("Analysing")


def test_without_javascript_the_analysis_page_refreshes_until_done(
    browser, live_server: LiveServer, run_tasks
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/play/beleaguered-castle/1/?autoplay=0")
    page.goto(page.url + "analyse")
    expect(page.get_by_text("Analysing…")).to_be_visible()

    run_tasks()

    expect(page.get_by_text("could not be won from the start")).to_be_visible(timeout=10_000)
    context.close()


def test_over_a_rate_limit_the_status_line_says_so(
    page: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One fixed rate-limit window for the whole test (the server runs in this process).
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1.8e9))
    cache.clear()
    page.goto(live_server.url + "/play/beleaguered-castle/2/?autoplay=0")
    hint = page.get_by_role("button", name="Hint", exact=True)
    for _ in range(30):  # the same position: one solver run, then the cache
        with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
            hint.click()
        assert answer.value.status == 200

    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        hint.click()

    assert answer.value.status == 429
    expect(page.locator("#status")).to_contain_text("Too many requests")
