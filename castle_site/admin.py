"""The admin site: Django's, its log-in counted with the site's (``games.limits.login_limited``).

Each guess costs a password hash (some 0.7 s of a core), so an unlimited log-in form would
let one client both guess staff passwords and keep every web worker busy hashing."""

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
