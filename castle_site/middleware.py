"""What the site adds to every response, beyond Django's own middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase, HttpResponseNotAllowed
from django.utils.cache import has_vary_header, patch_cache_control


def private_when_personal(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """Mark a response ``Cache-Control: private`` when it was made for one visitor: the
    session or the CSRF token was read for it, which Django's middleware says with ``Vary:
    Cookie``. Such a page holds a player's games, a form's token or a live position, and a
    shared cache in front (a CDN, a proxy; many ignore ``Vary``) must not hand it to anyone
    else. A response that sets its own ``Cache-Control`` keeps it; pages the same for
    everyone stay cacheable."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = get_response(request)
        if not response.has_header("Cache-Control") and has_vary_header(response, "Cookie"):
            patch_cache_control(response, private=True)
        return response

    return middleware


ANSWERED = ("GET", "HEAD", "POST")
"""The methods the site's pages answer (each view's own decorator narrows them)."""


def methods_the_site_takes(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """Answer 405 to a method that needs a CSRF token and no page takes (PUT, PATCH,
    DELETE...), before the CSRF check: that check runs ahead of each view's own, and told a
    client without a token that its form had expired, a 403 where the method was the fault
    (an attacker's pass). The safe methods (OPTIONS, TRACE) pass to the views, which answer
    them."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        if request.method not in (*ANSWERED, "OPTIONS", "TRACE"):
            return HttpResponseNotAllowed(ANSWERED)
        return get_response(request)

    return middleware
