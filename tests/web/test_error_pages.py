"""Error pages in the site's design, not the server's defaults."""

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


@pytest.mark.parametrize("template", ["500.html"])
def test_the_server_error_page_needs_no_request(template: str) -> None:
    body = render_to_string(template)

    assert "Something went wrong on our side" in body
    assert "/static/css/castle.css" in body
