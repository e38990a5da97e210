"""What players read: card names in sentences, endings, the replay's move list, the
leaderboard's par column, the favicon."""

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from games import daily as dailies
from games import pages, services
from games.models import Daily, Entry, Game, Player
from games.presentation import for_people, move_words
from games.rules import Board, Move, get_game
from games.rules.record import split_record

CITADEL_3 = split_record((Path(__file__).parents[1] / "browser/lines/citadel-3.txt").read_text())[1]


@pytest.mark.parametrize(
    ("engine", "player"),
    [
        ("A 9 can only go on a 10, not on 3D", "A 9 can only go on a 10, not on 3♦"),
        ("TH cannot go on JS", "10♥ cannot go on J♠"),
        ("move 4 (r:7H-f3)", "move 4 (r:7♥-f3)"),
        ("AS, KC and QD.", "A♠, K♣ and Q♦."),
        ("A CASTLE is TOAST; t3-t4 is a move", "A CASTLE is TOAST; t3-t4 is a move"),
    ],
)
def test_card_codes_read_as_cards(engine: str, player: str) -> None:
    assert for_people(engine) == player


def test_a_message_names_its_cards_for_a_screen_reader() -> None:
    """A suit's symbol is read aloud as "black diamond suit": each card of a message shows
    its index to the eye and says its name to a screen reader; the rest stays escaped."""
    said = Template("{% load castle %}{{ text|for_people }}").render(
        Context({"text": "<b>A 9</b> can only go on a 10, not on 3D"})
    )

    assert said == (
        "&lt;b&gt;A 9&lt;/b&gt; can only go on a 10, not on "
        '<span aria-hidden="true">3♦</span><span class="visually-hidden">three of diamonds</span>'
    )


def test_moves_in_words_name_the_card_and_where_it_lands() -> None:
    board = Board(get_game("citadel"), 3)

    assert move_words(board, Move.from_notation("t1-t4")) == "4♣ → 5♥"
    board.play("t1-t4")
    assert move_words(board, Move.from_notation("t1-f1")) == "3♣ → ♣ foundation"


def test_archways_foundation_moves_name_which_of_the_suits_two_foundations() -> None:
    """Archway builds each suit up from its ace and down from its king: ``Q♣ → ♣ foundation``
    did not say which of the two took it."""
    board = Board(get_game("archway"), 1)
    words = {move_words(board, move) for move in board.legal_moves() if move.to_foundation}
    assert {"Q♣ → descending ♣ foundation", "2♣ → ascending ♣ foundation"} <= words


def test_a_run_is_named_by_its_lowest_card_and_an_empty_pile_as_the_board_names_it() -> None:
    """The replay read ``4♥ → 6♣`` for a run of 5♥ and 4♥ put on 6♣ (read as written, an
    illegal move), and ``empty pile 8`` for the pile the board calls right pile 4."""
    webs = Board(get_game("penelopes-web"), 1)
    webs.autoplay()
    for move in ("t2-t8", "t7-t8"):
        webs.play(move)
    assert move_words(webs, Move.from_notation("t8-t7x3")) == "10♣\N{EN DASH}8♣ → J♥"

    castle = Board(get_game("beleaguered-castle"), 8)
    castle.autoplay()
    line = "t3-t4 t3-t5 t4-t8 t2-t3 t2-t8 t1-t5 t2-t7 t2-t8 t3-t7 t3-t8 t7-t8 t2-t5 t8-t7"
    for move in [*line.split(), "t7-t8", "t8-t7", "t7-t8", "t8-t7", "t2-t7"]:
        castle.play(move)
    assert move_words(castle, Move.from_notation("t6-t2")) == "K♥ → empty left pile 2"


@pytest.mark.parametrize("method", ["get", "head"])
def test_favicon_ico_leads_to_the_svg_icon(client: Client, method: str) -> None:
    response = getattr(client, method)("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"].endswith("/favicon.svg")
    assert finders.find("favicon.svg")


def test_every_page_links_the_icon(client: Client, db: None) -> None:
    assert b'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in (
        client.get("/").content
    )


def play_line(game: Game, player: Player, line: list[str], now: datetime) -> None:
    for ply, notation in enumerate(line):
        services.game_play_move(
            game_id=game.pk, player_id=player.pk, move=notation, expected_ply=ply, now=now
        )


@pytest.fixture
def won_daily(player: Player, now: datetime) -> Game:
    """The player's on-time win of Citadel's daily (par 60), after another player's 58; both
    have accounts, so both rank."""
    daily = Daily.objects.create(slug="citadel", date=now.date(), deal=3, par=60, solution="")
    player.user = User.objects.create_user("ada")
    player.save()
    rival = Player.objects.create(display_name="Rival", user=User.objects.create_user("bob"))
    rival_game = Game.objects.create(
        slug="citadel", deal=3, owner=rival, status=Game.Status.WON, ply=58, daily=daily
    )
    Entry.objects.create(
        daily=daily, player=rival, game=rival_game, moves=58, elapsed=timedelta(1), finished_at=now
    )
    game = services.game_start(
        player=player, slug="citadel", deal=3, autoplay=False, daily=daily, now=now
    )
    play_line(game, player, CITADEL_3, now)
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    Entry.objects.filter(game=game).update(flagged=False)  # played in no time: cleared
    return game


def status_of(page: str) -> str:
    return page[page.index('id="status"') : page.index('id="board"')]


def test_a_daily_win_shows_par_rank_leaderboard_and_the_next_daily(
    owner_client: Client, won_daily: Game
) -> None:
    date = won_daily.daily.date  # type: ignore[union-attr]
    Daily.objects.create(slug="streets-and-alleys", date=date, deal=3, par=60, solution="")

    status = status_of(owner_client.get(won_daily.get_absolute_url()).content.decode())

    assert f"<dd>{len(CITADEL_3)}</dd>" in status
    assert f"<dd>60 (+{len(CITADEL_3) - 60})</dd>" in status
    assert '<dd data-testid="daily-rank">2 of 2</dd>' in status
    assert f'href="{reverse("games:daily_leaderboard", args=[date, "citadel"])}"' in status
    assert f'href="{reverse("games:daily_play", args=[date, "streets-and-alleys"])}"' in status
    assert "Next: Streets and Alleys daily" in status
    assert reverse("games:play", args=["citadel"]) not in status


def test_a_daily_wins_next_daily_is_the_days_next_not_yet_won(
    owner_client: Client, won_daily: Game, player: Player
) -> None:
    """After Archway's daily, "Next" led to Castles in Spain's, a game with no daily that
    day: a 404 (a player's pass). It goes round the day's dailies, skipping those won."""
    date = won_daily.daily.date  # type: ignore[union-attr]
    day = dailies.daily_games(date)
    of = {
        slug: Daily.objects.get_or_create(
            slug=slug, date=date, defaults={"deal": 3, "par": 60, "solution": ""}
        )[0]
        for slug in day
    }
    Game.objects.create(
        slug="streets-and-alleys",
        deal=3,
        owner=player,
        status=Game.Status.WON,
        daily=of["streets-and-alleys"],
    )
    archway = Game.objects.create(
        slug="archway", deal=3, owner=player, status=Game.Status.WON, daily=of["archway"]
    )

    status = status_of(owner_client.get(won_daily.get_absolute_url()).content.decode())
    assert "Next: Fortress daily" in status  # Streets and Alleys' is won
    assert day[-2] == "archway" and pages._next_daily(archway, of["archway"]) == day[-1]
    of[day[-1]].delete()  # the family game's daily could not be prepared: none that day
    assert pages._next_daily(archway, of["archway"]) == "beleaguered-castle"


def test_an_unranked_daily_win_says_where_it_would_place(
    owner_client: Client, won_daily: Game, player: Player
) -> None:
    Entry.objects.filter(game=won_daily).update(flagged=True)

    status = status_of(owner_client.get(won_daily.get_absolute_url()).content.decode())

    assert "<dt>Would place</dt>" in status
    assert '<dd data-testid="daily-rank">2</dd>' in status


def test_a_visitor_is_not_told_the_daily_win_is_theirs(
    client: Client, won_daily: Game, now: datetime
) -> None:
    """Once its day is over anyone may open a daily win: "You won!", "Your rank" and "Your
    win is waiting for a moderator" greeted a stranger (a player's pass)."""
    yesterday = now - timedelta(days=1)
    assert won_daily.daily is not None
    Daily.objects.filter(pk=won_daily.daily.pk).update(date=yesterday.date())
    Game.objects.filter(pk=won_daily.pk).update(finished_at=yesterday)

    status = status_of(client.get(won_daily.get_absolute_url()).text)
    assert "<h2>Won</h2>" in status and "<dt>Rank</dt>" in status and "Your" not in status

    Entry.objects.filter(game=won_daily).update(flagged=True, flag_reason="a reason")
    status = status_of(client.get(won_daily.get_absolute_url()).text)
    assert "<dt>Would place</dt>" in status and "moderator" not in status


def test_after_a_win_undo_restart_and_hint_are_off(owner_client: Client, won_daily: Game) -> None:
    page = owner_client.get(won_daily.get_absolute_url()).content.decode()

    assert re.search(r'formaction="undo" disabled', page)
    assert re.search(r'formaction="restart" disabled', page)
    assert re.search(r'formaction="hint" disabled', page)


def test_an_ordinary_win_offers_the_same_game_again(
    owner_client: Client, start_game: Callable[..., Game], player: Player, now: datetime
) -> None:
    game = start_game("citadel", 3)
    play_line(game, player, CITADEL_3, now)

    status = status_of(owner_client.get(game.get_absolute_url()).content.decode())

    assert "You won!" in status
    assert f'href="{reverse("games:play", args=["citadel"])}"' in status
    assert "Play Citadel again" in status
    assert "Your rank" not in status


def test_the_replay_lists_moves_in_words_and_marks_the_moved_card(
    client: Client, start_game: Callable[..., Game], player: Player, now: datetime
) -> None:
    game = start_game("citadel", 3)
    play_line(game, player, CITADEL_3[:3], now)

    page = client.get(reverse("games:replay", args=[game.pk]) + "?ply=2").content.decode()

    shown = '<span class="words" aria-hidden="true">{}</span> <code aria-hidden="true">{}</code>'
    assert shown.format("4♣ → 5♥", "t1-t4") in page
    assert shown.format("3♣ → ♣ foundation", "t1-f1") in page
    # What a screen reader says of them: no symbols, the piles as the board names them.
    assert "Move 2: Three of clubs from left pile 1 to the clubs foundation</span>" in page
    assert 'data-moved="f1"' in page


def test_the_leaderboard_par_column_reads_plus_minus(
    client: Client, won_daily: Game, player: Player
) -> None:
    date = won_daily.daily.date  # type: ignore[union-attr]
    page = client.get(reverse("games:daily_leaderboard", args=[date, "citadel"])).content.decode()

    assert '<td class="num extra">\N{MINUS SIGN}2</td>' in page
    assert f'<td class="num extra">+{len(CITADEL_3) - 60}</td>' in page
    Entry.objects.filter(player__display_name="Rival").update(moves=60)
    page = client.get(reverse("games:daily_leaderboard", args=[date, "citadel"])).content.decode()
    assert '<td class="num extra">±0</td>' in page
