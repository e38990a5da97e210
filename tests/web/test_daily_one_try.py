"""A daily gives each player one game: neither deleting it nor logging in deals a second try."""

import html
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import daily as dailies
from games import leaderboard, players, schedule, services
from games.models import Daily, DailyLook, Entry, Game, Player
from games.players import player_adopt

from .dailies import DAY, LINE, NOON, PASSWORD, make_daily, midnight, utc_now
from .test_daily import client_of, win

HX = {"HX-Request": "true"}
KEPT = "A daily game is your one try at that day's deal: it stays"


@pytest.fixture
def member(db: None) -> Player:
    """A player with an account and a password: their wins rank."""
    user = User.objects.create_user("ada", password=PASSWORD)
    return Player.objects.create(user=user, display_name="Ada")


def log_in(anonymous: Player, member: Player) -> None:
    """What logging in to ``member``'s account from ``anonymous``'s browser does."""
    assert member.user is not None
    player_adopt(anonymous_id=anonymous.pk, user=member.user)


# -- deleting ---------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HX], ids=["no-js", "htmx"])
def test_a_daily_game_cannot_be_deleted_and_play_resumes_the_same_game(
    live: Daily, member: Player, headers: dict[str, str]
) -> None:
    won = win(member, live, at=midnight())
    Entry.objects.filter(game=won).update(hidden=True)  # a moderator hid it
    browser = client_of(member)

    response = browser.post(reverse("games:delete", args=[won.pk]), headers=headers)

    assert response.status_code == 403
    assert KEPT in html.unescape(response.text)
    if headers:
        assert response["HX-Retarget"] == "#status"
    entry = Entry.objects.get()
    assert (entry.game_id, entry.player_id, entry.hidden) == (won.pk, member.pk, True)
    assert leaderboard.ranking(live, now=utc_now()) == []
    again = browser.get(reverse("games:daily_play", args=[live.date, live.slug]))
    assert again["Location"] == won.get_absolute_url()
    assert Game.objects.get() == won


def test_a_daily_game_has_no_delete_confirmation_page(live: Daily, owner_client: Client) -> None:
    url = reverse("games:daily_play", args=[live.date, live.slug])
    game = Game.objects.get(pk=owner_client.get(url)["Location"].split("/")[2])

    response = owner_client.get(reverse("games:delete", args=[game.pk]))

    assert response.status_code == 403
    assert KEPT in html.unescape(response.text)
    assert "Delete it" not in response.text


def test_the_service_refuses_to_delete_a_daily_game(live: Daily, player: Player) -> None:
    game = dailies.daily_start(player=player, daily=live, now=utc_now())

    with pytest.raises(services.DailyGameKept, match="one try"):
        services.game_delete(game_id=game.pk, player_id=player.pk)

    assert Game.objects.filter(pk=game.pk).exists()


def test_my_games_offers_delete_for_ordinary_games_only(
    live: Daily, owner_client: Client, player: Player, game: Game
) -> None:
    daily_game = dailies.daily_start(player=player, daily=live, now=utc_now())

    body = owner_client.get(reverse("games:my_games")).text

    assert reverse("games:delete", args=[game.pk]) in body
    assert reverse("games:delete", args=[daily_game.pk]) not in body


@pytest.mark.parametrize("dailies_played", [1, 8])
def test_my_games_reads_each_rows_daily_with_the_row(
    owner_client: Client, player: Player, dailies_played: int, django_assert_num_queries
) -> None:
    """A daily game's row names its day (its deal stays secret while the day is live): one
    query more per daily game listed, until the rows came with their daily."""
    today = utc_now()
    for back in range(dailies_played):
        daily = make_daily(today.date() - timedelta(days=back))
        dailies.daily_start(player=player, daily=daily, now=today)
    owner_client.get(reverse("games:my_games"))  # the session's first read, off the count

    with django_assert_num_queries(4):
        body = owner_client.get(reverse("games:my_games")).text

    assert body.count("daily of ") == 1  # today's; the days before name their deals


# -- logging in -------------------------------------------------------------------------


def test_logging_in_keeps_the_accounts_played_daily_over_a_better_anonymous_win(
    live: Daily, member: Player
) -> None:
    slow = win(member, live, at=midnight(), seconds_per_move=3)
    Entry.objects.filter(game=slow).update(hidden=True)
    anonymous = Player.objects.create()
    browser = client_of(anonymous)
    fast = win(anonymous, live, at=midnight(), seconds_per_move=1)
    assert fast.elapsed < slow.elapsed

    browser.post(reverse("games:login"), {"username": "ada", "password": PASSWORD})

    entry = Entry.objects.get()
    assert (entry.game_id, entry.player_id, entry.hidden) == (slow.pk, member.pk, True)
    assert list(Game.objects.filter(daily=live)) == [slow]
    assert not Player.objects.filter(pk=anonymous.pk).exists()
    again = browser.get(reverse("games:daily_play", args=[live.date, live.slug]))
    assert again["Location"] == slow.get_absolute_url()


def test_an_account_daily_played_then_undone_stands_over_an_anonymous_win(
    daily: Daily, member: Player
) -> None:
    ours = dailies.daily_start(player=member, daily=daily, now=NOON)
    services.game_play_move(
        game_id=ours.pk, player_id=member.pk, move=LINE[0], expected_ply=None, now=NOON
    )
    services.game_undo(game_id=ours.pk, player_id=member.pk, expected_ply=None, now=NOON)
    anonymous = Player.objects.create()
    win(anonymous, daily, at=NOON)

    log_in(anonymous, member)

    assert list(Game.objects.filter(daily=daily)) == [ours]
    assert not Entry.objects.exists()


def test_logging_in_adopts_the_anonymous_win_when_the_accounts_daily_was_never_played(
    daily: Daily, member: Player
) -> None:
    opened = dailies.daily_start(player=member, daily=daily, now=NOON)
    anonymous = Player.objects.create()
    won = win(anonymous, daily, at=NOON)

    log_in(anonymous, member)

    assert not Game.objects.filter(pk=opened.pk).exists()
    assert list(Game.objects.filter(daily=daily, owner=member)) == [won]
    assert Entry.objects.get().player == member


def test_an_account_daily_with_a_hint_asked_stands_over_an_anonymous_win(
    daily: Daily, member: Player
) -> None:
    """Hints asked on the account's game, no move played, went with it at the log-in that
    adopted an anonymous win (an attacker's pass)."""
    ours = dailies.daily_start(player=member, daily=daily, now=NOON)
    Game.objects.filter(pk=ours.pk).update(hints=2)  # as Hint on the daily's line counts them
    anonymous = Player.objects.create()
    win(anonymous, daily, at=NOON)

    log_in(anonymous, member)

    assert list(Game.objects.filter(daily=daily)) == [ours]
    assert not Entry.objects.exists()


@pytest.mark.parametrize("account", ["sign-up", "log-in"])
@pytest.mark.parametrize("day", ["live", "over"])
def test_an_anonymous_win_claimed_after_its_day_waits_for_a_moderator(
    daily: Daily, live: Daily, member: Player, account: str, day: str
) -> None:
    """A day's standings were final at its end, yet an anonymous on-time win claimed days
    later ranked then, picked among any number of throwaway tries once the final standings
    were known (an attacker's pass). Claimed on its day, it ranks at once."""
    played = live if day == "live" else daily
    anonymous = Player.objects.create()
    win(anonymous, played, at=midnight() if day == "live" else NOON)
    user = (
        User.objects.create_user("grace", password=PASSWORD)
        if account == "sign-up"
        else member.user
    )
    assert user is not None

    player_adopt(anonymous_id=anonymous.pk, user=user)

    entry = Entry.objects.get()
    assert entry.player.user == user
    assert entry.flagged is (day == "over")
    assert entry.flag_reason == ("" if day == "live" else players.CLAIMED_LATE)
    assert leaderboard.is_ranked(entry) is (day == "live")
    report = leaderboard.moderation_report()
    assert report == (
        []
        if day == "live"
        else [f"entry {entry.pk} {entry.daily} {entry.player}: flagged ({players.CLAIMED_LATE})"]
    )


@pytest.fixture
def castle_daily(db: None) -> Daily:
    """Beleaguered Castle deal 1 as a daily: it opens with auto-play (t7-f3); t3-t6 is legal."""
    return Daily.objects.create(slug="beleaguered-castle", date=DAY, deal=1, par=1, solution="")


def anonymous_move(daily: Daily) -> tuple[Player, Game]:
    """An anonymous player's game of ``daily``, one move in (no win, no entry)."""
    anonymous = Player.objects.create(autoplay=False)
    game = dailies.daily_start(player=anonymous, daily=daily, now=NOON)
    services.game_play_move(
        game_id=game.pk, player_id=anonymous.pk, move="t3-t6", expected_ply=None, now=NOON
    )
    return anonymous, game


@pytest.mark.parametrize(
    "clicks,kept", [([], "anonymous"), (["t3-t6"], "account")], ids=["opening", "one-move"]
)
def test_the_opening_auto_play_is_not_playing_the_daily(
    castle_daily: Daily, member: Player, clicks: list[str], kept: str
) -> None:
    ours = dailies.daily_start(player=member, daily=castle_daily, now=NOON)
    assert list(ours.played_moves.values_list("notation", "auto")) == [("t7-f3", True)]
    for click in clicks:
        services.game_play_move(
            game_id=ours.pk, player_id=member.pk, move=click, expected_ply=None, now=NOON
        )
    anonymous, theirs = anonymous_move(castle_daily)

    log_in(anonymous, member)

    expected = ours if kept == "account" else theirs
    assert list(Game.objects.filter(daily=castle_daily)) == [expected]
    assert Game.objects.get(daily=castle_daily).owner == member


def test_a_move_taken_back_counts_as_played_after_auto_play_drops_its_row(
    castle_daily: Daily, member: Player
) -> None:
    Player.objects.filter(pk=member.pk).update(autoplay=False)
    member.autoplay = False
    ours = dailies.daily_start(player=member, daily=castle_daily, now=NOON)
    game_id, player_id = ours.pk, member.pk
    services.game_play_move(
        game_id=game_id, player_id=player_id, move="t3-t6", expected_ply=None, now=NOON
    )
    services.game_undo(game_id=game_id, player_id=player_id, expected_ply=None, now=NOON)
    # switching auto-play on plays t7-f3 and drops the undone t3-t6 row
    services.game_autoplay(game_id=game_id, player_id=player_id, on=True, now=NOON)
    assert list(ours.played_moves.values_list("notation", "auto")) == [("t7-f3", True)]
    anonymous, _ = anonymous_move(castle_daily)

    log_in(anonymous, member)

    assert list(Game.objects.filter(daily=castle_daily)) == [ours]


# -- one network, one try ---------------------------------------------------------------


def open_daily(daily: Daily, player: Player, address: str) -> Game:
    """Open ``player``'s game of ``daily`` from a browser at ``address``, by its Play link
    (auto-play off, as ``win``'s line is played)."""
    Player.objects.filter(pk=player.pk).update(autoplay=False)
    browser = client_of(player)
    browser.defaults["REMOTE_ADDR"] = address
    url = browser.get(reverse("games:daily_play", args=[daily.date, daily.slug]))["Location"]
    return Game.objects.get(pk=url.split("/")[2])


@pytest.mark.parametrize(
    "look,play,held",
    [
        ("203.0.113.7", "203.0.113.7", True),
        ("2001:db8:5:6::1", "2001:db8:5:6::99", True),  # one /64: one network
        ("203.0.113.7", "198.51.100.3", False),
    ],
    ids=["one-address", "one-ipv6-network", "two-networks"],
)
def test_a_win_where_the_daily_was_opened_in_another_game_first_is_held(
    live: Daily, member: Player, look: str, play: str, held: bool
) -> None:
    """A script opened the live daily in an anonymous session, which starts no clock on the
    account, solved the deal offline and played the line from the account at a person's
    uneven pace: 1st, 2 under par, unflagged (an attacker's pass)."""
    open_daily(live, Player.objects.create(), look)
    open_daily(live, member, play)

    win(member, live, at=midnight())

    entry = Entry.objects.get()
    assert entry.flagged is held
    assert entry.flag_reason == (leaderboard.OPENED_ELSEWHERE if held else "")
    assert leaderboard.is_ranked(entry) is not held


def test_the_best_of_anonymous_tries_from_one_network_is_held_when_claimed(
    live: Daily, member: Player
) -> None:
    """Anonymous tries cost nothing: one gave up, the next won, and logging in from the
    winner's browser claimed it, 1st (an attacker's pass)."""
    open_daily(live, Player.objects.create(), "203.0.113.7")
    winner = Player.objects.create()
    open_daily(live, winner, "203.0.113.7")
    win(winner, live, at=midnight())

    log_in(winner, member)

    entry = Entry.objects.get()
    assert (entry.player, entry.flagged) == (member, True)
    assert entry.flag_reason == leaderboard.OPENED_ELSEWHERE


def test_a_look_that_logging_in_merged_away_still_holds_the_win(
    live: Daily, member: Player
) -> None:
    """The look's session logged in to the account, whose daily game had a move: the log-in
    deleted the look's game, and the win from the same network ranked 1st, unflagged (an
    attacker's pass)."""
    look = Player.objects.create()
    looked = open_daily(live, look, "203.0.113.7")
    open_daily(live, member, "203.0.113.7")
    win(member, live, at=midnight(), line=LINE[:1])

    log_in(look, member)
    win(member, live, at=midnight() + timedelta(minutes=1), line=LINE[1:])

    assert not Game.objects.filter(pk=looked.pk).exists()
    entry = Entry.objects.get()
    assert (entry.player, entry.flagged) == (member, True)
    assert entry.flag_reason == leaderboard.OPENED_ELSEWHERE


def test_a_look_keeps_a_digest_of_its_network_for_its_daily_never_the_address(
    live: Daily, daily: Daily
) -> None:
    game = open_daily(live, Player.objects.create(), "203.0.113.7")

    look = DailyLook.objects.get()
    assert (look.daily, look.game) == (live, game.pk)
    assert look.network == dailies.network_digest(live, "203.0.113.7")
    assert look.network != dailies.network_digest(live, "203.0.113.8")
    assert look.network != dailies.network_digest(daily, "203.0.113.7")  # one a daily
    stored = repr([*Game.objects.values(), *DailyLook.objects.values()])
    assert "203.0.113" not in stored


def test_the_looks_of_a_day_are_pruned_a_day_after_it_is_over(live: Daily, daily: Daily) -> None:
    """A day's grace: a win at 23:59:59 is judged a moment later, and the worker's clock may
    run ahead of the app servers' (a review)."""
    yesterday = make_daily(live.date - timedelta(days=1))
    for each in (live, yesterday, daily):
        open_daily(each, Player.objects.create(), "203.0.113.7")

    assert schedule.prune_daily_looks(utc_now()) == 1

    assert {look.daily for look in DailyLook.objects.all()} == {live, yesterday}


def test_a_client_without_an_address_leaves_no_look(live: Daily, member: Player) -> None:
    """Every client without an address counts as one (``limits.UNKNOWN_CLIENT``): their
    looks held every daily win after the first game opened (a review)."""
    open_daily(live, Player.objects.create(), "")
    open_daily(live, member, "")

    win(member, live, at=midnight())

    assert not DailyLook.objects.exists()
    assert not Entry.objects.get().flagged


def test_a_daily_win_is_judged_before_the_winning_moves_transaction(
    daily: Daily, member: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks replay the whole line (33 ms for an Archway win) and read the game's moves:
    inside the winning move's transaction they held the write lock, and on SQLite every
    other move on the site waited (a review)."""
    depths: list[int] = []
    copies = leaderboard.copies_the_solution

    def judged(*args: object) -> str:
        depths.append(len(connection.atomic_blocks))
        return copies(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(leaderboard, "copies_the_solution", judged)
    outside = len(connection.atomic_blocks)

    win(member, daily, at=NOON)

    assert depths == [outside]
    assert not Entry.objects.get().flagged
