import re

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer


def test_admin_login_page_answers(client: Client) -> None:
    response = client.get(reverse("admin:login"))

    assert response.status_code == 200


def test_pages_carry_the_content_security_policy(client: Client) -> None:
    response = client.get(reverse("admin:login"))

    assert response.headers["Content-Security-Policy"] == (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


@pytest.mark.browser
def test_admin_login_page_opens_in_chromium(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + reverse("admin:login"))

    expect(page).to_have_title(re.compile("Log in"))
