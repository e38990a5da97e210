"""The family games on the site: grouped on the home page, each page draws every card, each
has a rules page saying where its rules come from, and one of them is each day's family
daily."""

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import daily as dailies
from games.models import Game
from games.rules import GAMES, GROUPS, Board

FAMILY = [slug for slug, rules in GAMES.items() if not rules.is_classic]


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_games_page_draws_every_card_of_its_deal(owner_client: Client, slug: str) -> None:
    response = owner_client.get(reverse("games:play_deal", args=[slug, 2]))
    assert response.status_code == 302
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    page = owner_client.get(game.get_absolute_url()).text
    board = Board.from_layout(game.position)
    labels = re.findall(r'class="card [^"]*"[^>]*aria-label="([^"]+)"', page)
    drawn = {label.split(",")[0] for label in labels}
    in_piles = sum(len(p) for p in (*board.tableau, *board.reserves, *board.cells))
    assert len(labels) >= in_piles > 0
    for pile in (*board.tableau, *board.cells):
        for card in pile:
            assert card.name in drawn, f"{slug}: {card} not drawn"


@pytest.mark.parametrize("slug", FAMILY)
def test_family_rules_page_says_where_its_rules_come_from(client: Client, slug: str) -> None:
    page = client.get(reverse("games:rules", args=[slug])).text
    assert 'id="origin"' in page
    assert f"PySolFC (game {GAMES[slug].pysolfc_id})" in page


def test_home_groups_the_games_classics_first(client: Client, db: None) -> None:
    page = client.get("/").text
    headings = re.findall(r'<h2 id="group-([a-z-]+)">', page)
    assert headings[0] == "classic"
    assert set(headings) == {rules.group for rules in GAMES.values()}
    assert headings == [key for key in GROUPS if key in headings]
    first_family = min(page.index(escape(GAMES[slug].name)) for slug in FAMILY)
    classics = [rules.name for rules in GAMES.values() if rules.is_classic]
    assert all(page.index(name) < first_family for name in classics)


def test_the_family_game_of_the_day_turns_through_the_family() -> None:
    start = dt.date(2026, 12, 1)
    days = [dailies.family_game(start + dt.timedelta(days=i)) for i in range(len(FAMILY))]
    assert sorted(days) == sorted(FAMILY)
    # The turn comes round again: the day after the last of the family is the first's.
    assert dailies.family_game(start + dt.timedelta(days=len(FAMILY))) == days[0]


def test_a_day_has_the_six_classics_and_one_family_game() -> None:
    games = dailies.daily_games(dt.date(2026, 12, 1))
    assert games[:6] == [slug for slug, rules in GAMES.items() if rules.is_classic]
    assert len(games) == 7 and games[6] in FAMILY


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_rules_page_counts_moves_one_way(client: Client, slug: str) -> None:
    """A page said "Every card that moves counts as one move" and, in the next lines, that a
    run of cards is one move; a run game's page now says each move counts one."""
    page = " ".join(client.get(reverse("games:rules", args=[slug])).text.split())
    runs = GAMES[slug].runs
    assert ("Every card that moves counts as one move" in page) is not runs
    assert ("it counts one move" in page) is runs
    assert "the game finishes itself" in page


@pytest.mark.parametrize("slug", [slug for slug in sorted(GAMES) if GAMES[slug].base_is_chosen])
def test_a_chosen_base_game_says_auto_play_may_lay_first_cards_once_it_is_chosen(
    client: Client, slug: str
) -> None:
    """Its page said auto-play never lays a foundation's first card; finishing the game lays
    the other foundations' once the player has chosen the base rank."""
    page = " ".join(client.get(reverse("games:rules", args=[slug])).text.split())
    assert "never lays the first card of a foundation" not in page
    assert "Auto-play never chooses the base rank" in page
