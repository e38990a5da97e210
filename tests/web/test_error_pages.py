"""Error pages in the site's design, not the server's defaults."""

import datetime as dt
import html
import uuid

import pytest
from django.template.loader import render_to_string
from django.test import Client


def test_a_missing_page_is_designed_and_says_so(client: Client, db: None) -> None:
    response = client.get("/no/such/page/")

    assert response.status_code == 404
    body = response.content.decode()
    assert '<section class="error-page">' in body
    assert "Nothing here" in body
    assert 'class="site"' in body


def message(response) -> str:
    """The sentence a 404 page says (its one ``message`` paragraph)."""
    body = html.unescape(response.content.decode())
    return body.split('<p class="message">', 1)[1].split("</p>", 1)[0]


@pytest.mark.parametrize(
    "url,says",
    [
        ("/no/such/page/", "There is no page at this address."),
        (f"/games/{uuid.UUID(int=0)}/", "No such game."),
        (f"/games/{uuid.UUID(int=0)}/replay/", "No such game."),
        ("/rules/no-such-game/", "Unknown game 'no-such-game': choose one of"),
        (f"/daily/{dt.date(2999, 1, 1)}/", "There is no daily challenge for that day."),
    ],
)
def test_a_404_says_why_in_a_sentence(client: Client, db: None, url: str, says: str) -> None:
    """The default page showed Django's words: "Resolver404", "No Game matches the given
    query.." (two stops)."""
    response = client.get(url)

    assert response.status_code == 404
    assert message(response).startswith(says)
    assert message(response).endswith(".") and not message(response).endswith("..")
    assert "Resolver404" not in response.text
    assert "matches the given query" not in response.text


@pytest.mark.parametrize("template", ["500.html"])
def test_the_server_error_page_needs_no_request(template: str) -> None:
    body = render_to_string(template)

    assert "Something went wrong on our side" in body
    assert "/static/css/castle.css" in body
