"""What the site adds to every response, beyond Django's own middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponseBadRequest, HttpResponseBase
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


def readable_forms(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """Refuse a POST whose form Django will not read (a urlencoded body in a charset other
    than UTF-8) with a plain 400, before the CSRF check reads it.

    Django raises ``BadRequest`` there without marking the body as read, and its error
    pages run the CSRF check again, which reads it again: any client with a CSRF cookie
    got a 500 at any URL, and the log three tracebacks (52 KB) a request."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        if request.method == "POST":
            try:
                request.POST  # noqa: B018 - read now, as the CSRF check would
            except BadRequest as error:
                return HttpResponseBadRequest(f"{error}\n", content_type="text/plain")
        return get_response(request)

    return middleware
