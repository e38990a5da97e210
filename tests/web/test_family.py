"""The family games on the site: grouped on the home page, each page draws every card, each
has a rules page saying where its rules come from, and one of them is each day's family
daily."""

import datetime as dt
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import daily as dailies
from games import daily_tasks, schedule
from games.models import Daily, Game
from games.rules import GAMES, GROUPS, Board

from .dailies import LINE, make_daily, utc_now

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
    days = [turn(start + dt.timedelta(days=i)) for i in range(len(FAMILY))]
    assert sorted(days) == sorted(FAMILY)
    # The turn comes round again: the day after the last of the family is the first's.
    assert turn(start + dt.timedelta(days=len(FAMILY))) == days[0]


def turn(date: dt.date) -> str:
    """The family game the turn gives ``date`` (one with no family daily prepared yet)."""
    return dailies.family_game(date, prepared=[])


def test_a_day_has_the_six_classics_and_one_family_game() -> None:
    games = dailies.daily_games(dt.date(2026, 12, 1), prepared=[])
    assert games[:6] == [slug for slug, rules in GAMES.items() if rules.is_classic]
    assert len(games) == 7 and games[6] in FAMILY


def before_the_newest_family_game(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """The site as it was before its newest family game; returns the deploy that adds it."""
    before = {slug: rules for slug, rules in GAMES.items() if slug != FAMILY[-1]}
    monkeypatch.setattr(dailies, "GAMES", before)
    return lambda: monkeypatch.setattr(dailies, "GAMES", GAMES)


def turns_moved_by_the_newest(
    dates: list[dt.date], monkeypatch: pytest.MonkeyPatch
) -> dict[dt.date, tuple[str, str]]:
    """Of ``dates`` (none prepared), those whose family game the newest family game moves:
    {date: (its game before, its game after)}."""
    deploy = before_the_newest_family_game(monkeypatch)
    before = {date: dailies.family_game(date) for date in dates}
    deploy()
    after = {date: dailies.family_game(date) for date in dates}
    return {date: (before[date], after[date]) for date in dates if before[date] != after[date]}


@pytest.fixture
def proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's every day proved at once (Citadel deal 3's known line as the proof)."""
    monkeypatch.setattr(
        dailies, "choose_deal", lambda game, date: dailies.ProvedDeal(3, LINE, "hard")
    )


def test_a_family_game_added_leaves_a_past_days_family_daily_on_its_page(
    client: Client, db: None, proved: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A family game added to the site moved the turn of almost every date: a past day's page
    named the new turn's game, with no deal ("No deal could be proved winnable"), while the
    day's family daily, still playable and ranked, was listed nowhere (a review)."""
    today = utc_now().date()
    past = [today - dt.timedelta(days=n) for n in range(1, 2 * len(FAMILY))]
    date, (kept, moved) = next(iter(turns_moved_by_the_newest(past, monkeypatch).items()))
    deploy = before_the_newest_family_game(monkeypatch)
    daily_tasks.prepare_day.call(date.isoformat())
    assert Daily.objects.filter(date=date, slug=kept).exists()

    deploy()
    page = client.get(reverse("games:daily_day", args=[date])).text

    assert f'data-game="{kept}"' in page and f'data-game="{moved}"' not in page
    assert reverse("games:daily_play", args=[date, kept]) in page
    assert "No deal could be proved winnable" not in page
    assert client.get(reverse("games:daily_play", args=[date, moved])).status_code == 404
    assert dailies.family_game(date) == kept


def test_a_family_game_added_prepares_no_second_family_daily_on_a_day_ahead(
    db: None, proved: None, run_tasks: Callable[[], None], monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    """A day prepared ahead whose turn the new game moved got a second family daily, the new
    turn's, which its page listed in place of the first (a review)."""
    settings.DAILY_DAYS_AHEAD = 2 * len(FAMILY)
    now = utc_now()
    ahead = [now.date() + dt.timedelta(days=n) for n in range(1, settings.DAILY_DAYS_AHEAD)]
    moved = turns_moved_by_the_newest(ahead, monkeypatch)
    deploy = before_the_newest_family_game(monkeypatch)
    daily_tasks.schedule_dailies(now)
    run_tasks()

    deploy()
    later = now + dt.timedelta(days=1, minutes=1)
    for tick in (later, later + dt.timedelta(minutes=1)):  # the worker's ticks, in JOBS order
        daily_tasks.schedule_dailies(tick)
        schedule.prune_task_results(tick)
    run_tasks()

    assert moved
    for date, (kept, _) in moved.items():
        family = Daily.objects.filter(date=date, slug__in=FAMILY)
        assert list(family.values_list("slug", flat=True)) == [kept]
        assert dailies.family_game(date) == kept
        assert daily_tasks.missing_games(date) == []


def test_of_two_family_dailies_on_a_day_the_first_prepared_is_the_days(
    client: Client, db: None
) -> None:
    """A day prepared ahead before the turn gave way to the stored dailies may hold a second
    family daily, the moved turn's: the day keeps the one it had first."""
    date = utc_now().date() - dt.timedelta(days=1)
    turned = dailies.family_game(date)  # none prepared yet
    first, second = [slug for slug in FAMILY if slug != turned][:2]
    for slug in (first, turned, second):
        make_daily(date, slug)

    page = client.get(reverse("games:daily_day", args=[date])).text

    assert dailies.family_game(date) == first
    assert [slug for slug in FAMILY if f'data-game="{slug}"' in page] == [first]


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
