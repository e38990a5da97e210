import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from games import services
from games.daily import daily_start
from games.models import Daily, Game, Player
from games.rules import GAMES, MAX_DEAL

from .dailies import LINE

HX = {"HX-Request": "true"}


def test_home_lists_every_game_with_rules_and_new_game_links(client: Client, db: None) -> None:
    body = client.get("/").content.decode()

    for slug, rules in GAMES.items():
        assert escape(rules.name) in body  # Penelope&#x27;s Web
        assert reverse("games:play", args=[slug]) in body
        assert reverse("games:rules", args=[slug]) in body


def test_home_offers_to_continue_the_latest_unfinished_game(
    owner_client: Client, game: Game
) -> None:
    body = owner_client.get("/").content.decode()

    assert f'href="{game.get_absolute_url()}"' in body
    assert "Continue" in body


@pytest.mark.parametrize(("ply", "words"), [(0, "(0 moves)"), (1, "(1 move)"), (2, "(2 moves)")])
def test_the_game_to_continue_counts_its_moves_in_words(
    owner_client: Client, game: Game, ply: int, words: str
) -> None:
    Game.objects.filter(pk=game.pk).update(ply=ply)

    body = owner_client.get("/").content.decode()

    assert f"Beleaguered Castle, {game.deal_label} {words}</a>" in body


@pytest.mark.parametrize(("ply", "words"), [(0, "0 moves,"), (1, "1 move,"), (2, "2 moves,")])
def test_my_games_and_delete_count_moves_in_words(
    owner_client: Client, game: Game, ply: int, words: str
) -> None:
    """ "1 moves, last played just now" was what My games said of a game with one move."""
    Game.objects.filter(pk=game.pk).update(ply=ply)

    assert words in owner_client.get(reverse("games:my_games")).text
    confirm = owner_client.get(reverse("games:delete", args=[game.pk])).text
    assert f"{game.deal_label}: {words.rstrip(',')}." in confirm


@pytest.mark.parametrize("slug", [*GAMES, "beleaguered-fortress"])
def test_every_game_has_a_rules_page(client: Client, slug: str) -> None:
    assert client.get(reverse("games:rules", args=[slug])).status_code == 200


def test_unknown_game_is_404(client: Client, db: None) -> None:
    assert client.get("/rules/klondike/").status_code == 404
    assert client.get("/play/klondike/").status_code == 404
    assert Game.objects.count() == 0


def test_play_a_deal_redirects_to_a_new_game_page(client: Client, db: None) -> None:
    response = client.get("/play/fortress/123/")

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert (game.slug, game.deal) == ("fortress", 123)


def test_play_without_a_deal_picks_a_random_one(client: Client, db: None) -> None:
    client.get("/play/citadel/")
    client.get("/play/citadel/")

    deals = set(Game.objects.values_list("deal", flat=True))
    assert len(deals) == 2 and all(1 <= d <= MAX_DEAL for d in deals)


def test_the_alias_starts_the_same_game(client: Client, db: None) -> None:
    client.get("/play/beleaguered-fortress/1/")

    assert Game.objects.get().slug == "beleaguered-castle"


@pytest.mark.parametrize("query,autoplay", [("?autoplay=0", False), ("?autoplay=1", True)])
def test_autoplay_parameter_starts_the_game_with_it_off_or_on(
    client: Client, db: None, query: str, autoplay: bool
) -> None:
    client.get("/play/beleaguered-castle/1/" + query)

    game = Game.objects.get()
    assert game.autoplay is autoplay
    assert game.ply == (1 if autoplay else 0)


def status_of(body: str) -> str:
    found = re.search(r'<div id="status" class="status" role="status"[^>]*>(.*?)</div>', body, re.S)
    assert found
    return found[1]


def test_a_new_game_says_what_the_moves_on_its_counter_are(client: Client, db: None) -> None:
    """ "Moves 5" on a new game, with nothing played, puzzled a player: the opening's
    auto-play made them, and every card moved counts."""
    page = client.get("/play/fortress/8/", follow=True).text

    assert '<b id="move-count">4</b>' in page
    assert (
        '<p class="message">Auto-play sent 4 cards up from the deal: every card moved counts'
        " a move.</p>" in status_of(page)
    )
    game = Game.objects.get()
    client.post(reverse("games:move", args=[game.pk]), {"move": "t1-t8", "ply": 4})
    assert Game.objects.get().ply == 5
    assert "Auto-play sent" not in status_of(client.get(game.get_absolute_url()).text)


def test_a_new_game_without_an_opening_auto_play_says_nothing(client: Client, db: None) -> None:
    page = client.get("/play/fortress/8/?autoplay=0", follow=True).text

    assert '<b id="move-count">0</b>' in page
    assert "Auto-play sent" not in status_of(page)


@pytest.mark.parametrize(
    "url",
    [
        "/play/citadel/0/",
        f"/play/citadel/{MAX_DEAL + 1}/",
        "/play/citadel/1/?autoplay=maybe",
        "/play/citadel/1/?option=take-back",
        "/play/citadel/1/?option=cheat",
    ],
)
def test_bad_start_requests_are_400_and_create_nothing(client: Client, db: None, url: str) -> None:
    response = client.get(url)

    assert response.status_code == 400
    assert Game.objects.count() == 0


def test_take_back_option_is_recorded_on_the_game(client: Client, db: None) -> None:
    client.get("/play/beleaguered-castle/1/?option=take-back")

    game = Game.objects.get()
    assert game.options == ["take-back"]
    assert "option: take-back" in client.get(reverse("games:record", args=[game.pk])).text


def test_selecting_a_card_marks_its_legal_destinations(owner_client: Client, game: Game) -> None:
    response = owner_client.get(game.get_absolute_url() + "?select=t7", headers=HX)

    body = response.content.decode()
    assert body.lstrip().startswith('<div id="board"')
    targets = re.findall(r'class="[^"]*\btarget\b[^"]*" data-pile="(\w+)"', body)
    assert sorted(targets) == ["f3", "t2"]
    assert re.search(r'value="t7-f" class="card \w picked"', body)  # the card carries it
    assert 'value="t7-t2"' in body


def test_without_javascript_each_legal_destination_is_one_lane(
    owner_client: Client, game: Game
) -> None:
    """Without JavaScript a lit pile took a tap only on its top card or slot: lower in the
    lit column a tap did nothing (a player's pass). Each destination is a lane now."""
    lane = r'<div id="pile-(\w+)"[^>]*><button form="mv" name="move" value="([^"]+)" class="lane"'

    picked = owner_client.get(game.get_absolute_url() + "?select=t7").text
    plain = owner_client.get(game.get_absolute_url()).text

    lanes = dict(re.findall(lane, picked))
    assert sorted(lanes) == ["f3", "t2"] and lanes["t2"] == "t7-t2"
    assert 'class="lane"' not in plain


def test_a_picked_card_no_foundation_takes_is_put_down_by_its_button(
    owner_client: Client, game: Game
) -> None:
    """Without JavaScript, the card a hint picks up invites a click: its button sent it
    home, "No foundation takes 7♦", a 422 (a player's pass)."""
    board = game.fresh_board()  # no move played yet
    pile = next(name for name in ("t1", "t2", "t3", "t4") if board.foundation_for(name) is None)

    body = owner_client.get(game.get_absolute_url(), {"select": pile}).text

    picked = re.search(
        r'<button form="(\w+)" name="(\w+)" value="([^"]*)" class="card \w picked"', body
    )
    assert picked is not None and picked.groups() == ("sl", "select", "")


@pytest.mark.parametrize("select", ["t99", "f1", "r:7H", "zz", "t3-t4", ""])
def test_a_bad_selection_is_ignored(owner_client: Client, game: Game, select: str) -> None:
    response = owner_client.get(game.get_absolute_url(), {"select": select})

    assert response.status_code == 200
    assert "selecting" not in response.content.decode()


def test_a_watcher_sees_the_board_without_controls(other_client: Client, game: Game) -> None:
    body = other_client.get(game.get_absolute_url() + "?select=t7").content.decode()

    assert "Undo" not in body
    assert 'name="select"' in body
    assert "selecting" not in body


def test_every_card_is_a_button_with_an_accessible_name(client: Client, game: Game) -> None:
    body = client.get(game.get_absolute_url()).content.decode()

    assert body.count("<button") >= 52
    assert 'aria-label="Six of hearts, top of right pile 4"' in body
    assert 'disabled aria-label="Queen of spades, covered"' in body


def test_chessboard_shows_its_base_rank_once_chosen(owner_client: Client, start_game) -> None:
    game = start_game("chessboard", 1)
    assert "not set" in owner_client.get(game.get_absolute_url()).text

    owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t1-f3"})

    body = owner_client.get(game.get_absolute_url()).text
    assert '<b id="base-rank" data-testid="base-rank">2</b>' in body


def test_a_base_rank_of_ten_reads_as_the_cards_do(owner_client: Client, start_game) -> None:
    """The counter said "Base rank T" (the notation's ten) beside cards that say 10."""
    game = start_game("chessboard", 1)

    owner_client.post(reverse("games:move", args=[game.pk]), {"move": "t8-f1"})  # the 10♣

    body = owner_client.get(game.get_absolute_url()).text
    assert '<b id="base-rank" data-testid="base-rank">10</b>' in body


def test_other_games_do_not_show_a_base_rank(owner_client: Client, game: Game) -> None:
    assert "base-rank" not in owner_client.get(game.get_absolute_url()).text


def test_robots_keep_crawlers_from_starting_games(client: Client) -> None:
    body = client.get("/robots.txt").text

    assert "Disallow: /play/" in body


def test_the_owners_clock_carries_what_it_needs_to_tick(
    owner_client: Client, other_client: Client, game: Game
) -> None:
    Game.objects.filter(pk=game.pk).update(
        elapsed=dt.timedelta(seconds=95), active_at=timezone.now() - dt.timedelta(seconds=30)
    )

    page = owner_client.get(game.get_absolute_url()).content.decode()
    clock = re.search(
        r'<time id="clock" datetime="PT95S" data-cap="120" data-since="(\d+)">1:35</time>',
        page,
    )
    assert clock and 30 <= int(clock[1]) <= 40
    watched = other_client.get(game.get_absolute_url()).content.decode()
    # Only the player's clock ticks.
    assert '<time id="clock" datetime="PT95S">1:35</time>' in watched
    Game.objects.filter(pk=game.pk).update(status=Game.Status.WON)
    assert "data-cap" not in owner_client.get(game.get_absolute_url()).content.decode()


@pytest.mark.parametrize("view", ["games:game", "games:replay"])
def test_pages_that_answer_htmx_with_a_fragment_vary_on_its_header(
    owner_client: Client, game: Game, view: str
) -> None:
    """The same URL gives the page or, to htmx, a fragment: a browser's cache (the back
    button) or a proxy's must not serve one for the other."""
    url = reverse(view, args=[game.pk])

    page = owner_client.get(url)
    fragment = owner_client.get(url, headers={"HX-Request": "true"})

    assert "HX-Request" in page["Vary"] and "HX-Request" in fragment["Vary"]
    assert len(fragment.content) < len(page.content)


@pytest.mark.parametrize("view", ["games:game", "games:replay", "games:analysis"])
def test_htmx_restoring_a_page_from_its_history_gets_the_whole_page(
    owner_client: Client, game: Game, view: str
) -> None:
    """Back past the ten pages htmx keeps, it asks the server for the page, and got the
    replay's bare fragment: the site's header, title and layout gone."""
    url = reverse(view, args=[game.pk])
    restore = {"HX-Request": "true", "HX-History-Restore-Request": "true"}

    response = owner_client.get(url, headers=restore)

    assert response.content.decode().lstrip().startswith("<!doctype html>")
    assert "HX-History-Restore-Request" in response["Vary"]


WATCHING = 'data-testid="watching"'


def test_a_visitor_to_someone_elses_game_is_told_whose_it_is_and_where_to_go(
    other_client: Client, player: Player, game: Game
) -> None:
    """A shared link showed the board, the moves and the clock, but a click did nothing and
    nothing said why (a player's pass)."""
    Player.objects.filter(pk=player.pk).update(display_name="Ada")

    body = other_client.get(game.get_absolute_url()).text

    replay = reverse("games:replay", args=[game.pk])
    deal = reverse("games:play_deal", args=[game.slug, game.deal])
    assert WATCHING in body
    assert (
        f'This is Ada\'s game: watch <a href="{replay}?ply=0">its replay</a>, or '
        f'<a href="{deal}" rel="nofollow">play this deal yourself</a>.'
    ) in body


def test_the_owner_is_not_told_whose_game_it_is(owner_client: Client, game: Game) -> None:
    assert WATCHING not in owner_client.get(game.get_absolute_url()).text


def test_a_won_games_visitor_reads_its_win_panel_instead(
    other_client: Client, player: Player, now: dt.datetime
) -> None:
    game = services.game_start(player=player, slug="citadel", deal=3, autoplay=False, now=now)
    for move in LINE:
        services.game_play_move(
            game_id=game.pk, player_id=player.pk, move=move, expected_ply=None, now=now
        )

    body = other_client.get(game.get_absolute_url()).text

    assert "<h2>Won</h2>" in body
    assert WATCHING not in body


def test_a_live_dailys_game_names_no_deal_to_its_owner_or_a_visitor(
    owner_client: Client, other_client: Client, player: Player, live: Daily
) -> None:
    """Its owner plays it (no note); a visitor is refused the whole game, so no note names
    its deal while the day is live."""
    game = daily_start(player=player, daily=live, now=timezone.now())
    deal = reverse("games:play_deal", args=[game.slug, live.deal])

    mine = owner_client.get(game.get_absolute_url())
    theirs = other_client.get(game.get_absolute_url())

    assert mine.status_code == 200 and WATCHING not in mine.text
    assert theirs.status_code == 403
    assert WATCHING not in theirs.text and deal not in theirs.text


def test_a_past_dailys_unfinished_game_offers_a_visitor_its_deal(
    other_client: Client, player: Player, daily: Daily
) -> None:
    game = daily_start(player=player, daily=daily, now=timezone.now())

    body = other_client.get(game.get_absolute_url()).text

    assert WATCHING in body
    assert reverse("games:play_deal", args=[game.slug, daily.deal]) in body
