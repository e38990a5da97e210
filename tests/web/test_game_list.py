"""The game list lives in code (``games.rules.GAMES``), not in the schema: a new game needs
no migration, and model validation still refuses a slug the registry does not know."""

import dataclasses
from datetime import datetime
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from games import services
from games.models import Daily, DealVerdict, Game, Player
from games.rules import variants


@pytest.fixture
def throwaway_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """A game declared in this process only: Beleaguered Castle under another name."""
    rules = dataclasses.replace(
        variants.BELEAGUERED_CASTLE, slug="test-castle", name="Test Castle", aliases=()
    )
    monkeypatch.setitem(variants.GAMES, rules.slug, rules)
    return rules.slug


def test_a_new_game_needs_no_migration(throwaway_game: str, db: None) -> None:
    out = StringIO()
    call_command("makemigrations", "games", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_no_field_or_constraint_lists_the_games() -> None:
    for model in (Game, Daily, DealVerdict):
        assert not model._meta.get_field("slug").choices
    names = [constraint.name for constraint in Game._meta.constraints]
    assert "game_slug_known" not in names


def test_a_new_game_is_stored_and_played(
    throwaway_game: str, player: Player, now: datetime
) -> None:
    game = services.game_start(player=player, slug=throwaway_game, deal=1, now=now)
    game.refresh_from_db()
    assert game.slug == "test-castle"
    assert game.rules.name == "Test Castle"
    game.full_clean()


def test_validation_refuses_an_unknown_slug(player: Player) -> None:
    game = Game(slug="klondike", deal=1, owner=player, position="-")
    with pytest.raises(ValidationError, match="unknown game 'klondike'"):
        game.full_clean()


def test_validation_refuses_an_alias(player: Player) -> None:
    game = Game(slug="beleaguered-fortress", deal=1, owner=player, position="-")
    with pytest.raises(ValidationError, match="is an alias"):
        game.full_clean()
