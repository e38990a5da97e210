from collections.abc import Callable
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import django_ratelimit.core
import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client

from games import limits, services
from games.models import Daily, Game, Player
from games.players import SESSION_KEY

from .browsers import FROM_THIS_SITE
from .dailies import DAY, make_daily, utc_now


@pytest.fixture(autouse=True)
def fresh_cache(settings, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rate-limit counters, hints and markers live in the cache: every test starts empty,
    with this test's own solver lock files, and inside one rate-limit window (the limits'
    windows are fixed: a test crossing a window's end would see its counts reset)."""
    for cache in caches.all():
        cache.clear()
    frozen = SimpleNamespace(time=lambda: 1_800_000_000.0)
    monkeypatch.setattr(django_ratelimit.core, "time", frozen)
    monkeypatch.setattr(limits, "time", frozen)
    settings.SOLVER_LOCK_DIR = str(tmp_path / "solver-locks")


@pytest.fixture
def now() -> datetime:
    return datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.fixture
def player(db: None) -> Player:
    return Player.objects.create()


@pytest.fixture
def client() -> Client:
    """A browser (pytest-django's fixture, sending what a browser sends on the site)."""
    return Client(headers=FROM_THIS_SITE)


def _client_for(player: Player, **kwargs: Any) -> Client:
    client = Client(headers=FROM_THIS_SITE, **kwargs)
    session = client.session
    session[SESSION_KEY] = str(player.pk)
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key or ""
    return client


@pytest.fixture
def client_for() -> Callable[..., Client]:
    """A browser whose session belongs to the given player (Client options as keywords)."""
    return _client_for


@pytest.fixture
def owner_client(player: Player) -> Client:
    """A browser whose session belongs to ``player``."""
    return _client_for(player)


@pytest.fixture
def other_client(db: None) -> Client:
    """Someone else's browser."""
    return _client_for(Player.objects.create())


@pytest.fixture
def start_game(player: Player, now: datetime) -> Callable[..., Game]:
    def start(game: str = "beleaguered-castle", deal: int = 1, *, autoplay: bool = False) -> Game:
        return services.game_start(player=player, slug=game, deal=deal, autoplay=autoplay, now=now)

    return start


@pytest.fixture
def game(start_game: Callable[..., Game]) -> Game:
    """Beleaguered Castle deal 1 without auto-play; t3-t6 and t7-f3 are legal, t6-t2 is not."""
    return start_game()


@pytest.fixture
def stored_moves() -> Callable[[Game], list[tuple[int, str, bool, bool]]]:
    """The game's move rows as (ply, notation, auto, undone)."""

    def rows(game: Game) -> list[tuple[int, str, bool, bool]]:
        return list(
            game.played_moves.order_by("ply").values_list("ply", "notation", "auto", "undone")
        )

    return rows


@pytest.fixture
def daily(db: None) -> Daily:
    """Citadel deal 3 as the daily of a past day (``dailies.DAY``)."""
    return make_daily(DAY)


@pytest.fixture
def live(db: None) -> Daily:
    """Today's Citadel daily: its day is live."""
    return make_daily(utc_now().date())
