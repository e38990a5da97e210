"""The schedule deletes what nobody played: anonymous games without a move of their player's,
then anonymous players left with nothing (``games.schedule.prune_abandoned_games``).

Every test has one game or player that must go, so a job that deleted nothing fails it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from importlib import import_module
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db.models import QuerySet
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import pools, schedule, services
from games.models import Analysis, Daily, DealVerdict, Entry, Game, PlayedMove, Player
from games.players import SESSION_KEY, hold
from games.rules import replay_record

from .browsers import FROM_THIS_SITE

pytestmark = pytest.mark.django_db

session_store = import_module(settings.SESSION_ENGINE).SessionStore

OLD = schedule.KEEP_UNPLAYED + timedelta(minutes=1)
RECENT = schedule.KEEP_UNPLAYED - timedelta(minutes=1)

Start = Callable[..., Game]


@pytest.fixture
def untouched(now: datetime) -> Callable[..., None]:
    """Dates a game's last change (and its player's creation) ``ago`` before ``now``: both are
    automatic fields, set to the real clock when written."""

    def date(game: Game, ago: timedelta = OLD) -> None:
        Game.objects.filter(pk=game.pk).update(created_at=now - ago, updated_at=now - ago)
        Player.objects.filter(pk=game.owner_id).update(created_at=now - ago)

    return date


@pytest.fixture
def start(now: datetime) -> Start:
    """A new game of Beleaguered Castle deal 1 (t3-t6 is legal; with auto-play on, the opening
    plays t7-f3), by a new anonymous player unless one is given."""

    def new(
        player: Player | None = None,
        *,
        slug: str = "beleaguered-castle",
        deal: int = 1,
        autoplay: bool = False,
        daily: Daily | None = None,
    ) -> Game:
        player = player or Player.objects.create()
        return services.game_start(
            player=player, slug=slug, deal=deal, autoplay=autoplay, daily=daily, now=now
        )

    return new


@pytest.fixture
def abandoned(start: Start, untouched: Callable[..., None]) -> Game:
    """An anonymous player's game opened and never played, untouched for longer than kept."""
    game = start()
    untouched(game)
    return game


def gone(row: Game | Player) -> bool:
    return not type(row).objects.filter(pk=row.pk).exists()


def play(game: Game, move: str, now: datetime) -> None:
    services.game_play_move(
        game_id=game.pk, player_id=game.owner_id, move=move, expected_ply=None, now=now
    )


def test_an_old_unplayed_anonymous_game_goes_with_its_player(abandoned: Game, now) -> None:
    assert "games.schedule.prune_abandoned_games" in schedule.JOBS
    assert schedule.delete_abandoned_games(now) == 1
    assert gone(abandoned)
    assert gone(abandoned.owner)


def test_the_job_runs_once_an_hour(start: Start, untouched, now) -> None:
    """It reads the games table through: the ticks of the next hour skip it."""
    first, second = start(), start()
    untouched(first)
    assert schedule.prune_abandoned_games(now) == 1
    untouched(second)

    assert schedule.prune_abandoned_games(now + timedelta(minutes=59)) == 0
    assert not gone(second)
    cache.clear()  # as an hour later
    assert schedule.prune_abandoned_games(now + schedule.PRUNE_EVERY) == 1
    assert gone(second)


def test_the_opening_auto_play_is_no_move_of_the_player(start: Start, untouched, now) -> None:
    """Starting with auto-play on stores the opening's safe moves as rows marked ``auto``: the
    player still never moved, and the rows go with the game."""
    game = start(autoplay=True)
    assert list(game.played_moves.values_list("notation", "auto")) == [("t7-f3", True)]
    untouched(game)

    assert schedule.delete_abandoned_games(now) == 1
    assert gone(game)
    assert not PlayedMove.objects.exists()


def test_an_old_player_that_never_had_a_game_goes(now) -> None:
    player = Player.objects.create()
    Player.objects.filter(pk=player.pk).update(created_at=now - OLD)

    assert schedule.delete_abandoned_games(now) == 0  # games deleted: none
    assert gone(player)


def one_move(game: Game, now: datetime, daily: Daily) -> None:
    play(game, "t3-t6", now)


def a_move_undone(game: Game, now: datetime, daily: Daily) -> None:
    play(game, "t3-t6", now)
    services.game_undo(game_id=game.pk, player_id=game.owner_id, expected_ply=None, now=now)


def an_undo_whose_rows_auto_play_dropped(game: Game, now: datetime, daily: Daily) -> None:
    a_move_undone(game, now, daily)
    services.game_autoplay(game_id=game.pk, player_id=game.owner_id, on=True, now=now)
    assert not game.played_moves.filter(auto=False).exists()  # only the undo says it was played


def an_entry(game: Game, now: datetime, daily: Daily) -> None:
    """Only a daily game wins an entry: this one, of no daily, holds the entry check apart
    from the daily check."""
    Entry.objects.create(
        daily=daily, player=game.owner, game=game, moves=1, elapsed=timedelta(), finished_at=now
    )


@pytest.mark.parametrize(
    "kept_by", [one_move, a_move_undone, an_undo_whose_rows_auto_play_dropped, an_entry]
)
def test_an_old_game_stays_once_played_or_with_an_entry(
    kept_by: Callable[[Game, datetime, Daily], None],
    abandoned: Game,
    start: Start,
    untouched,
    daily: Daily,
    now,
) -> None:
    game = start()
    kept_by(game, now, daily)
    untouched(game)

    assert schedule.delete_abandoned_games(now) == 1
    assert gone(abandoned)
    assert not gone(game)
    assert not gone(game.owner)


def test_a_daily_game_stays_unplayed_on_its_day(
    abandoned: Game, start: Start, untouched, daily: Daily, now
) -> None:
    """The player's one try at the day's deal: deleting it would deal them another."""
    game = start(slug="citadel", deal=3, daily=daily)
    untouched(game)

    assert schedule.delete_abandoned_games(now) == 1
    assert gone(abandoned)
    assert not gone(game)


@pytest.mark.parametrize("then", ["nothing", "a move", "an undo"])
def test_an_old_import_goes_unless_played_since(
    untouched: Callable[..., None], now: datetime, then: str
) -> None:
    """An imported record's moves are rows of the player's own, so an import left untouched
    counted as played, kept 400 days: 2,000 rows an import, 12 imports a second from
    clients without cookies (an attacker's pass)."""
    board = replay_record("game: beleaguered-castle\ndeal: 1\nt3-t6\n")
    game = services.game_import(player=Player.objects.create(), board=board, now=now)
    later = now + timedelta(minutes=5)
    if then == "a move":
        play(game, "t7-f3", later)
    elif then == "an undo":
        services.game_undo(game_id=game.pk, player_id=game.owner_id, expected_ply=None, now=later)
    untouched(game)

    assert schedule.delete_abandoned_games(now + OLD) == (1 if then == "nothing" else 0)
    assert gone(game) is (then == "nothing")


def test_an_old_unplayed_daily_game_goes_once_its_day_is_over(
    abandoned: Game, start: Start, untouched, daily: Daily, now
) -> None:
    """A game dealt again from the daily's link after its day is late, never ranked, as
    this one would be: nothing is lost."""
    game = start(slug="citadel", deal=3, daily=daily)
    untouched(game)
    next_day = now + timedelta(days=1)

    assert schedule.delete_abandoned_games(next_day) == 2
    assert gone(abandoned)
    assert gone(game)
    assert gone(game.owner)


def test_daily_links_opened_without_cookies_leave_nothing_once_unplayed(daily: Daily) -> None:
    """What a script did: open a past daily's link over and over without cookies, a game
    and a player each time, which no pruning deleted. (It says it comes from the site: a
    request that may come from a link elsewhere starts no daily game.)"""
    url = reverse("games:daily_play", args=[daily.date, daily.slug])
    for _ in range(3):
        assert Client(headers=FROM_THIS_SITE).get(url).status_code == 302
    owners = list(Game.objects.filter(daily=daily).values_list("owner", flat=True))
    assert len(owners) == 3

    assert Session.objects.count() == 3

    assert schedule.delete_abandoned_games(timezone.now() + OLD) == 3
    assert not Game.objects.exists()
    assert not Player.objects.filter(pk__in=owners).exists()
    assert not Session.objects.exists()


def test_a_recent_unplayed_game_stays(abandoned: Game, start: Start, untouched, now) -> None:
    game = start()
    untouched(game, RECENT)

    assert schedule.delete_abandoned_games(now) == 1
    assert gone(abandoned)
    assert not gone(game)
    assert not gone(game.owner)


def test_an_account_keeps_its_unplayed_games_for_a_year(
    abandoned: Game, start: Start, untouched, now
) -> None:
    """New game over and over on an account left rows that nothing ever deleted."""
    account = Player.objects.create(user=User.objects.create_user("ada"))
    kept, expired = start(account), start(account, deal=2)
    untouched(kept, schedule.KEEP_UNPLAYED_OF_ACCOUNTS - timedelta(minutes=1))
    untouched(expired, schedule.KEEP_UNPLAYED_OF_ACCOUNTS + timedelta(minutes=1))

    assert schedule.delete_abandoned_games(now) == 2
    assert gone(abandoned)
    assert gone(expired)
    assert not gone(kept)
    assert not gone(account)


@pytest.mark.parametrize(
    ("fields", "ago"),
    [
        pytest.param(dict, RECENT, id="created recently"),
        pytest.param(lambda: {"display_name": "Ada"}, OLD, id="named"),
        pytest.param(lambda: {"user": User.objects.create_user("ada")}, OLD, id="account"),
    ],
)
def test_a_player_without_games_stays_while_recent_named_or_with_an_account(
    fields: Callable[[], dict[str, Any]], ago: timedelta, abandoned: Game, now
) -> None:
    player = Player.objects.create(**fields())
    Player.objects.filter(pk=player.pk).update(created_at=now - ago)

    assert schedule.delete_abandoned_games(now) == 1
    assert gone(abandoned.owner)
    assert not gone(player)


def test_a_second_run_deletes_nothing(
    abandoned: Game, start: Start, untouched, daily: Daily, now
) -> None:
    played = start()
    one_move(played, now, daily)
    for game in (played, start(autoplay=True), start(slug="citadel", deal=3, daily=daily)):
        untouched(game)

    def rows() -> tuple[int, int, int]:
        return Game.objects.count(), Player.objects.count(), PlayedMove.objects.count()

    assert schedule.delete_abandoned_games(now) == 2
    left = rows()
    assert schedule.delete_abandoned_games(now) == 0
    assert rows() == left


def test_pruning_deletes_batch_after_batch_until_none_is_left(
    monkeypatch: pytest.MonkeyPatch, start: Start, untouched, now
) -> None:
    monkeypatch.setattr(schedule, "PRUNE_BATCH", 2)
    player = Player.objects.create()
    for deal in range(1, 6):
        untouched(start(player, deal=deal))

    assert schedule.delete_abandoned_games(now) == 5
    assert not Game.objects.exists()
    assert gone(player)


def test_a_session_naming_a_pruned_player_is_a_first_visit(client: Client, now) -> None:
    """The cookie outlives the player (its session ends with it, or lasts 400 days when it
    was made before players knew their session's key): either way the next game makes a
    new player."""
    url = reverse("games:play_deal", args=["beleaguered-castle", 1]) + "?autoplay=0"
    first = client.get(url)
    assert first.status_code == 302
    pruned = Player.objects.get(pk=client.session[SESSION_KEY])
    Game.objects.update(updated_at=now - OLD)
    Player.objects.update(created_at=now - OLD)
    assert schedule.delete_abandoned_games(now) == 1
    assert gone(pruned)

    for page in ("games:home", "games:my_games", "games:stats", "games:profile"):
        assert client.get(reverse(page)).status_code == 200, page
    again = client.get(url)

    assert again.status_code == 302
    game = Game.objects.get()
    assert again["Location"] == game.get_absolute_url()
    assert game.owner_id != pruned.pk
    assert client.session[SESSION_KEY] == str(game.owner_id)


def test_a_pruned_player_takes_its_session_with_it(client: Client, now) -> None:
    """A client without cookies makes a player and a session with every game it starts: the
    session stayed 400 days after its player was pruned."""
    client.get(reverse("games:play_deal", args=["beleaguered-castle", 1]) + "?autoplay=0")
    key = client.session.session_key
    player = Player.objects.get(pk=client.session[SESSION_KEY])
    assert player.session_key == key
    Game.objects.update(updated_at=now - OLD)
    Player.objects.update(created_at=now - OLD)

    assert schedule.delete_abandoned_games(now) == 1
    assert gone(player)
    assert not Session.objects.filter(session_key=key).exists()
    assert session_store(session_key=key).load() == {}  # nor in the cache in front


def test_a_player_kept_keeps_its_session(client: Client, now) -> None:
    client.get(reverse("games:play_deal", args=["beleaguered-castle", 1]) + "?autoplay=0")
    game = Game.objects.get()
    client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6", "ply": "0"})
    key = client.session.session_key
    Game.objects.update(updated_at=now - OLD)
    Player.objects.update(created_at=now - OLD)
    abandoned = Player.objects.create()
    Player.objects.filter(pk=abandoned.pk).update(created_at=now - OLD)

    assert schedule.delete_abandoned_games(now) == 0
    assert gone(abandoned)
    assert Session.objects.filter(session_key=key).exists()
    assert session_store(session_key=key).load()[SESSION_KEY] == str(game.owner_id)


# -- players whose session has ended --------------------------------------------------------

SESSION_ENDED = timedelta(seconds=settings.SESSION_COOKIE_AGE) + schedule.SESSION_MARGIN
OUT_OF_REACH = SESSION_ENDED + timedelta(minutes=1)


def test_an_anonymous_session_ends_a_cookie_age_after_its_player_was_made(client: Client) -> None:
    """What the pruning of players out of reach rests on: playing never writes the session
    again, so it ends when it was first written, with the player."""
    client.get(reverse("games:play_deal", args=["beleaguered-castle", 1]) + "?autoplay=0")
    session = Session.objects.get()
    player = Player.objects.get(pk=client.session[SESSION_KEY])
    game = player.games.get()
    client.post(reverse("games:move", args=[game.pk]), {"move": "t3-t6", "ply": "0"})
    client.get(reverse("games:play_deal", args=["citadel", 3]))
    client.get(game.get_absolute_url())

    assert game.played_moves.filter(auto=False).count() == 1  # the move was played
    assert Session.objects.get().expire_date == session.expire_date
    assert abs(session.expire_date - player.created_at - SESSION_ENDED) < schedule.SESSION_MARGIN


def test_a_player_out_of_reach_goes_with_every_game(
    start: Start, untouched, daily: Daily, now
) -> None:
    player = Player.objects.create(display_name="Ada")
    won, playing = start(player), start(player, deal=2)
    play(won, "t3-t6", now)
    start(player, slug="citadel", deal=3, daily=daily)
    untouched(playing, timedelta(0))  # played until the session's last day
    Player.objects.filter(pk=player.pk).update(created_at=now - OUT_OF_REACH)

    assert schedule.delete_players_out_of_reach(now) == 3
    assert gone(player)
    assert not PlayedMove.objects.exists()


@pytest.mark.parametrize("which", ["within its session", "with an account"])
def test_a_player_within_reach_or_with_an_account_keeps_its_games_and_entries(
    start: Start, daily: Daily, now, which: str
) -> None:
    doomed = start()
    Player.objects.filter(pk=doomed.owner_id).update(created_at=now - OUT_OF_REACH)
    kept = Player.objects.create()
    game = start(kept, slug="citadel", deal=3, daily=daily)
    Entry.objects.create(
        daily=daily, player=kept, game=game, moves=80, elapsed=timedelta(), finished_at=now
    )
    if which == "with an account":
        Player.objects.filter(pk=kept.pk).update(user=User.objects.create_user("ada"))
    ago = SESSION_ENDED - timedelta(minutes=1) if which == "within its session" else OUT_OF_REACH
    Player.objects.filter(pk=kept.pk).update(created_at=now - ago)

    assert schedule.delete_players_out_of_reach(now) == 1
    assert gone(doomed)
    assert not gone(kept) and not gone(game) and Entry.objects.filter(game=game).exists()


@pytest.mark.parametrize("account", ["never had one", "deleted"])
def test_a_player_out_of_reach_goes_with_its_unranked_daily_wins(
    start: Start, daily: Daily, now, account: str
) -> None:
    """An entry ranks only once an account holds it: one of a player without an account is
    on no leaderboard, and after its session nobody can claim it. Such a player, with its
    games and their moves, was kept for ever: a daily win from each new session, never
    deleted (an attacker's pass)."""
    player = Player.objects.create()
    game = start(player, slug="citadel", deal=3, daily=daily)
    play(game, "t1-t4", now)
    entry = Entry.objects.create(
        daily=daily, player=player, game=game, moves=80, elapsed=timedelta(), finished_at=now
    )
    if account == "deleted":
        user = User.objects.create_user("ada")
        Player.objects.filter(pk=player.pk).update(user=user)
        user.delete()  # the player stays, without an account
    Player.objects.filter(pk=player.pk).update(created_at=now - OUT_OF_REACH)

    assert schedule.delete_players_out_of_reach(now) == 1
    assert gone(player) and gone(game)
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert not PlayedMove.objects.exists()


# -- a player pruned while its request is on its way ---------------------------------------


def pruned_as_read(monkeypatch: pytest.MonkeyPatch, module: Any) -> None:
    """The race: the request reads its player, then the pruning deletes it before the
    request writes (the player was old and had nothing kept)."""
    read = module.current_player

    def read_then_pruned(request: Any) -> Player:
        player = read(request)
        Player.objects.filter(pk=player.pk).delete()
        return player

    monkeypatch.setattr(module, "current_player", read_then_pruned)


def test_a_game_started_by_a_player_pruned_meanwhile_brings_the_player_back(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import views

    client.get(reverse("games:home"))
    url = reverse("games:play_deal", args=["beleaguered-castle", 1]) + "?autoplay=0"
    client.get(url)  # the session's player
    player = Player.objects.get(pk=client.session[SESSION_KEY])
    Player.objects.filter(pk=player.pk).update(four_colour=True)
    pruned_as_read(monkeypatch, views)

    response = client.get(reverse("games:play_deal", args=["citadel", 3]))

    assert response.status_code == 302
    game = Game.objects.get(slug="citadel")
    assert game.owner_id == player.pk
    assert Player.objects.get(pk=player.pk).four_colour  # as the request read it


def test_preferences_saved_by_a_player_pruned_meanwhile_are_kept(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import player_views

    client.post(reverse("games:profile"), {"four_colour": "on", "autoplay": "on"})
    player_id = client.session[SESSION_KEY]
    pruned_as_read(monkeypatch, player_views)

    response = client.post(reverse("games:profile"), {"autoplay": "on"})

    assert response.status_code == 302
    assert not Player.objects.get(pk=player_id).four_colour


@pytest.mark.parametrize(
    "preference",
    [{"four_colour": True}, {"autoplay": False}, {"new_deals": "any"}],
    ids=lambda preference: next(iter(preference)),
)
def test_an_old_player_that_chose_a_preference_stays(
    preference: dict[str, Any], abandoned: Game, now
) -> None:
    player = Player.objects.create(**preference)
    Player.objects.filter(pk=player.pk).update(created_at=now - OLD)

    assert schedule.delete_abandoned_games(now) == 1
    assert gone(abandoned.owner)
    assert not gone(player)


def test_two_requests_that_both_find_their_player_pruned_bring_it_back_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both looked before either wrote it again: the second one's write finds the first
    one's row (a duplicate key), and it holds that row instead."""
    player_id = Player.objects.create(four_colour=True).pk
    first, second = Player.objects.get(pk=player_id), Player.objects.get(pk=player_id)
    Player.objects.filter(pk=player_id).delete()
    hold(first)
    with monkeypatch.context() as looked_before:
        looked_before.setattr(QuerySet, "exists", lambda self: False)
        hold(second)

    assert Player.objects.get(pk=player_id).four_colour


# -- solver answers nothing shows (prune_solver_answers) -----------------------------------


def verdict(now: datetime, deal: int, *, ago: timedelta, **fields: Any) -> DealVerdict:
    settled = {"verdict": DealVerdict.Verdict.UNWINNABLE, "solved_at": now - ago}
    return DealVerdict.objects.create(
        slug="citadel", deal=deal, requested_at=now - ago, **{**settled, **fields}
    )


def test_a_typed_deals_old_verdict_goes_once_no_game_shows_it(start: Start, now) -> None:
    assert "games.schedule.prune_solver_answers" in schedule.JOBS
    old = schedule.KEEP_ANSWERS + timedelta(minutes=1)
    orphan = verdict(now, 11, ago=old)
    shown = verdict(now, 12, ago=old)
    start(slug="citadel", deal=12)
    same_deal_other_game = verdict(now, 13, ago=old)
    start(slug="fortress", deal=13)
    recent = verdict(now, 14, ago=schedule.KEEP_ANSWERS - timedelta(minutes=1))
    waiting = verdict(now, 15, ago=old, verdict=DealVerdict.Verdict.PENDING, solved_at=None)
    pooled = verdict(
        now,
        16,
        ago=old,
        verdict=DealVerdict.Verdict.WINNABLE,
        solution="t1-t2",
        pooled=True,
        dealt=3,
    )

    assert schedule.prune_solver_answers(now) == 2

    assert not DealVerdict.objects.filter(pk__in=[orphan.pk, same_deal_other_game.pk]).exists()
    kept = DealVerdict.objects.values_list("pk", flat=True)
    assert set(kept) == {shown.pk, recent.pk, waiting.pk, pooled.pk}


def test_an_old_analysis_goes_and_a_recent_one_stays(now) -> None:
    old = Analysis.objects.create(
        key="a" * 64, ply=7, done=True, requested_at=now - schedule.KEEP_ANSWERS - timedelta(1)
    )
    recent = Analysis.objects.create(key="b" * 64, requested_at=now - timedelta(days=1))
    assert schedule.prune_solver_answers(now) == 1
    assert list(Analysis.objects.values_list("pk", flat=True)) == [recent.pk]
    assert not Analysis.objects.filter(pk=old.pk).exists()


def test_solver_answers_are_pruned_once_an_hour(now) -> None:
    """It reads the verdicts through, each against the games of its deal: the ticks of the
    next hour skip it."""
    old = schedule.KEEP_ANSWERS + timedelta(minutes=1)
    verdict(now, 21, ago=old)
    assert schedule.prune_solver_answers(now) == 1
    verdict(now, 22, ago=old)
    assert schedule.prune_solver_answers(now + timedelta(minutes=59)) == 0
    cache.clear()  # as an hour later
    assert schedule.prune_solver_answers(now + schedule.PRUNE_EVERY) == 1


# -- the pools' dealt deals (prune_pools) --------------------------------------------------


def pooled(
    now: datetime, deal: int, *, dealt: int, slug: str = "citadel", **fields: Any
) -> DealVerdict:
    proof = {"verdict": DealVerdict.Verdict.WINNABLE, "solution": "t1-t2", "moves": 1}
    return DealVerdict.objects.create(
        slug=slug,
        deal=deal,
        pooled=True,
        dealt=dealt,
        difficulty=fields.pop("difficulty", "easy"),
        requested_at=now - timedelta(days=90),
        **{**proof, **fields},
    )


def pool_of(slug: str, difficulty: str) -> list[int]:
    rows = DealVerdict.objects.filter(slug=slug, difficulty=difficulty, pooled=True)
    return sorted(rows.values_list("dealt", flat=True))


@pytest.fixture
def small_bound(monkeypatch: pytest.MonkeyPatch) -> int:
    """A bound of 3 pooled deals per game and difficulty, pruned 2 rows a batch."""
    monkeypatch.setattr(schedule, "KEEP_POOLED", 3)
    monkeypatch.setattr(schedule, "PRUNE_BATCH", 2)
    return 3


def test_each_pool_keeps_its_least_dealt_deals_up_to_the_bound(small_bound: int, now) -> None:
    assert "games.schedule.prune_pools" in schedule.JOBS
    for deal, dealt in enumerate([0, 1, 9, 2, 7, 5, 2, 8], start=1):
        pooled(now, deal, dealt=dealt)
    for deal in (20, 21, 22):
        pooled(now, deal, dealt=40, difficulty="hard")
    for deal in (30, 31, 32, 33):
        pooled(now, deal, dealt=1, slug="fortress")
    typed = verdict(now, 40, ago=timedelta(days=90))

    assert schedule.prune_pools(now) == 5 + 1

    assert pool_of("citadel", "easy") == [0, 1, 2]  # the fresh one, then the least dealt
    assert pool_of("citadel", "hard") == [40, 40, 40]  # within the bound: however dealt
    assert pool_of("fortress", "easy") == [1, 1, 1]  # a tie: one of them goes
    assert DealVerdict.objects.filter(pk=typed.pk).exists()  # not pooled: not this job's
    assert DealVerdict.objects.count() == 3 + 3 + 3 + 1
    assert schedule.prune_pools(now + schedule.PRUNE_EVERY) == 0  # cache cleared or not


def test_the_bound_holds_the_fresh_deals_a_pool_stores() -> None:
    assert schedule.KEEP_POOLED >= pools.POOL_CAP


def test_a_verdict_in_use_leaves_the_pool_instead_of_going(
    small_bound: int, start: Start, now
) -> None:
    """A game of the deal shows its badge. Past the bound such a verdict is no longer dealt,
    and stays while it is in use."""
    for deal in (1, 2, 3):
        pooled(now, deal, dealt=0)
    shown = pooled(now, 4, dealt=8)
    game = start(slug="citadel", deal=4)
    other_game = pooled(now, 6, dealt=9)
    start(slug="fortress", deal=6)  # another game's deal: no badge of citadel's

    assert schedule.prune_pools(now) == 1

    assert not DealVerdict.objects.filter(pk=other_game.pk).exists()
    shown.refresh_from_db()
    assert not shown.pooled and shown.verdict == DealVerdict.Verdict.WINNABLE
    assert pool_of("citadel", "easy") == [0, 0, 0]
    assert DealVerdict.for_game(game) == shown

    # Then an ordinary verdict: it goes once nothing uses it.
    cache.clear()
    assert schedule.prune_solver_answers(now) == 0
    game.delete()
    cache.clear()
    assert schedule.prune_solver_answers(now) == 1
    assert not DealVerdict.objects.filter(pk=shown.pk).exists()
