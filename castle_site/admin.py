"""The admin site: Django's, its log-in counted with the site's (``games.limits.login_limited``)
and its password change with the site's (``games.limits.PASSWORD_CHANGE``).

Each guess costs a password hash (some 0.7 s of a core), so an unlimited log-in form would
let one client both guess staff passwords and keep every web worker busy hashing; so would
the password change form, to whoever holds a copy of a staff cookie (an attacker's pass: 60
guesses, the 60th right, ``/healthz`` at 1.6 s)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from games import limits


class CastleAdminSite(admin.AdminSite):
    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        login = super().login
        answer = limits.login_limited(lambda request: login(request, extra_context))(request)
        assert isinstance(answer, HttpResponse)
        return answer

    def password_change(  # type: ignore[override]  # its 429 is no TemplateResponse
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        change = super().password_change
        limited = limits.rate_limited("password", *limits.PASSWORD_CHANGE)(
            lambda request: change(request, extra_context)
        )
        answer = limited(request)
        assert isinstance(answer, HttpResponse)
        return answer
