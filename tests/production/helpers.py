"""Shared by the production tests: a CSRF-enforcing browser and the fuzzing tally."""

from collections import Counter
from datetime import UTC, datetime

from django.conf import settings
from django.test import Client

from games.models import Player
from games.players import SESSION_KEY

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

CSRF_SECRET = "castleFuzzCsrfSecret0123456789ab"
"""A well-formed CSRF cookie value (32 letters and digits); the header may repeat it."""

REQUESTS: Counter[str] = Counter()
"""Requests the fuzz tests sent, by kind; printed at the end of the run."""
STATUSES: Counter[int] = Counter()
"""The answers they got, by status code."""
OUTCOMES: Counter[str] = Counter()
"""What the requests that changed a game did."""


def browser(player: Player | None = None, *, csrf: bool = True, session: str = "") -> Client:
    """A CSRF-enforcing browser: ``player``'s session (or ``session`` as a raw cookie), and a
    CSRF cookie unless ``csrf`` is false. It says, as a browser of today does, that its
    requests come from the site's own pages (``Sec-Fetch-Site``)."""
    client = Client(enforce_csrf_checks=True, headers={"Sec-Fetch-Site": "same-origin"})
    if player is not None:
        data = client.session
        data[SESSION_KEY] = str(player.pk)
        data.save()
        client.cookies[settings.SESSION_COOKIE_NAME] = data.session_key or ""
    elif session:
        client.cookies[settings.SESSION_COOKIE_NAME] = session
    if csrf:
        client.cookies[settings.CSRF_COOKIE_NAME] = CSRF_SECRET
    return client
