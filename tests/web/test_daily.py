import datetime as dt
import hashlib
import html
import itertools
import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote

import pytest
from django.contrib.admin.sites import site as admin_site
from django.contrib.auth.models import User
from django.core.cache.backends import locmem
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection
from django.db.models.signals import post_init
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games import daily as dailies
from games import daily_tasks, daily_views, leaderboard, schedule, services, solver_jobs
from games.admin import EntryAdmin
from games.leaderboard_views import ROWS_PER_PAGE
from games.models import Daily, DailyPreparation, Entry, Game, PlayedMove, Player
from games.players import player_adopt
from games.presentation import hint_message, histogram
from games.rules import GAMES, MAX_DEAL, Board, RulesError
from games.rules.solver import UNKNOWN, difficulty, solve

from .browsers import FROM_THIS_SITE
from .dailies import DAY, LINE, NOON, PASSWORD, SOLUTION, make_daily, midnight, utc_now


@pytest.fixture
def member(db: None) -> Player:
    """A player with an account: their wins rank."""
    return Player.objects.create(user=User.objects.create_user("ada"), display_name="Ada")


PERSONS_PACE = (0.5, 1.6, 0.8, 1.1)
"""A person's gaps between moves, as shares of their mean: an obvious move comes quickly,
another after a thought (half of them lie 32 % or more from their median; the speed
rule's steadiness flags under 10 %)."""


def win(
    player: Player,
    daily: Daily,
    *,
    at: dt.datetime,
    seconds_per_move: float = 1,
    line: list[str] = LINE,
    autoplay: bool = False,
    steady: bool = False,
) -> Game:
    """Play the known line on the player's daily game, a move every ``seconds_per_move`` on
    average, at a person's uneven pace unless ``steady`` (``autoplay``: the player's choice,
    which plays the safe moves the line leaves out)."""
    Player.objects.filter(pk=player.pk).update(autoplay=autoplay)
    player.autoplay = autoplay
    game = dailies.daily_start(player=player, daily=daily, now=at)
    pace = itertools.repeat(1.0) if steady else itertools.cycle(PERSONS_PACE)
    played_at = at
    for move, share in zip(line, pace, strict=False):
        played_at += dt.timedelta(seconds=share * seconds_per_move)
        services.game_play_move(
            game_id=game.pk, player_id=player.pk, move=move, expected_ply=None, now=played_at
        )
    game.refresh_from_db()
    return game


def client_of(player: Player) -> Client:
    client = Client(headers=FROM_THIS_SITE)
    if player.user is not None:
        client.force_login(player.user)
    else:
        session = client.session
        session["castle_player"] = str(player.pk)
        session.save()
        client.cookies["sessionid"] = session.session_key or ""
    return client


# -- deals ------------------------------------------------------------------------------


def test_candidate_deals_are_stable_across_processes_sharing_the_secret() -> None:
    here = list(dailies.candidate_deals("fortress", DAY))[:5]
    code = (
        "import datetime as dt; from games.daily import candidate_deals;"
        "print(list(candidate_deals('fortress', dt.date(2026, 11, 22)))[:5])"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "castle_site.settings", "DEBUG": "1"}
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup();" + code],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    assert out.strip() == str(here)
    assert len(set(here)) == 5


def test_tomorrows_deals_cannot_be_computed_from_the_public_code(settings) -> None:
    """The attack: sha256 of game, date and index, as the old code did. With a secret the
    candidates are neither those nor another server secret's."""
    tomorrow = DAY + dt.timedelta(days=1)
    public = [
        int.from_bytes(
            hashlib.sha256(f"castle daily citadel {tomorrow} {i}".encode()).digest()[:8], "big"
        )
        % MAX_DEAL
        + 1
        for i in range(60)
    ]
    ours = list(dailies.candidate_deals("citadel", tomorrow))
    settings.DAILY_SECRET = "another server's secret"
    theirs = list(dailies.candidate_deals("citadel", tomorrow))

    assert not set(ours) & set(public)
    assert not set(ours) & set(theirs)


def test_each_game_has_its_own_budget_and_archway_tries_thousands() -> None:
    assert set(dailies.BUDGETS) == set(GAMES)
    assert dailies.BUDGETS["archway"].candidates >= 20_000
    assert (
        len(list(dailies.candidate_deals("archway", DAY))) == dailies.BUDGETS["archway"].candidates
    )


def test_the_chosen_deal_is_proved_winnable(db: None) -> None:
    daily = dailies.daily_prepare(slug="citadel", date=DAY)

    board = Board("citadel", daily.deal)
    for move in daily.solution.split():
        board.play(move)
    assert board.is_won() and board.ply == daily.par
    assert daily.deal in set(dailies.candidate_deals("citadel", DAY))
    assert dailies.daily_prepare(slug="citadel", date=DAY).pk == daily.pk


def test_no_archway_pool_of_answers_is_left_in_the_repository() -> None:
    package = Path(dailies.__file__).parent
    assert not (package / "winnable").exists()
    assert not hasattr(dailies, "pool")


@pytest.mark.django_db(transaction=True)
def test_concurrent_preparations_store_one_daily() -> None:
    if connection.vendor == "sqlite" and connection.is_in_memory_db():  # type: ignore[attr-defined]
        pytest.skip("in-memory SQLite fails shared-cache locks at once; a file database waits")
    barrier = threading.Barrier(4)
    results: list[object] = []

    def prepare() -> None:
        barrier.wait()
        try:
            results.append(dailies.daily_prepare(slug="citadel", date=DAY).pk)
        except Exception as error:  # reported by the assertion below
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=prepare) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(set(results)) == 1, results
    assert Daily.objects.filter(slug="citadel", date=DAY).count() == 1


def test_prepare_dailies_twice_creates_each_day_once(db: None, capsys) -> None:
    for _ in range(2):
        call_command("prepare_dailies", "--days", "1", "--games", "citadel", "fortress")

    assert Daily.objects.count() == 4
    for daily in Daily.objects.all():  # by the pools' rule: the positions its proof took
        proof = solve(Board(daily.slug, daily.deal), max_nodes=dailies.BUDGETS[daily.slug].nodes)
        assert proof.stats is not None and daily.difficulty == difficulty(proof.stats)
    out = capsys.readouterr().out
    assert "prepared in" in out
    assert all(f"deal {d.deal}" not in out for d in Daily.objects.all())  # secret ahead


def test_prepare_dailies_prepares_each_days_daily_games_by_default(
    db: None, monkeypatch, capsys
) -> None:
    monkeypatch.setattr(
        dailies, "choose_deal", lambda game, date: dailies.ProvedDeal(7, ["t1-t2"], "easy")
    )
    call_command("prepare_dailies", "--days", "1")

    today = dailies.utc_today(utc_now())
    for date in (today, today + dt.timedelta(days=1)):
        stored = set(Daily.objects.filter(date=date).values_list("slug", flat=True))
        assert stored == set(dailies.daily_games(date))


def test_prepare_dailies_exits_1_when_a_game_day_has_no_deal(db: None, monkeypatch, capsys) -> None:
    """It said so and exited 0: a deploy step or a cron job could not tell (a review)."""

    def unprovable(game: str, date: dt.date) -> dailies.ProvedDeal:
        if game == "fortress":
            raise dailies.DailyUnavailable("No Fortress deal proved winnable")
        return dailies.ProvedDeal(7, ["t1-t2"], "easy")

    monkeypatch.setattr(dailies, "choose_deal", unprovable)
    with pytest.raises(SystemExit) as exit_info:
        call_command("prepare_dailies", "--days", "0", "--games", "citadel", "fortress")

    assert exit_info.value.code == 1
    assert "1 game-days have no deal proved winnable" in capsys.readouterr().err
    assert list(Daily.objects.values_list("slug", flat=True)) == ["citadel"]


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--nodes", "0"], "--nodes must be at least 1"),
        (["--nodes", "-5"], "--nodes must be at least 1"),
        (["--to", str(MAX_DEAL + 1)], f"at most {MAX_DEAL}"),
    ],
)
def test_find_winnable_deals_refuses_a_budget_below_one_or_a_deal_past_the_last(
    arguments: list[str], said: str, capsys
) -> None:
    """``--nodes -5`` searched nothing and printed "0 winnable deals found", exit 0; ``0``
    meant the default budget (a review); a deal past the last ended in a traceback (an
    attacker's pass)."""
    with pytest.raises(SystemExit) as exit_info:
        call_command("find_winnable_deals", "citadel", "--from", "1", "--to", "2", *arguments)

    assert exit_info.value.code == 2
    assert said in capsys.readouterr().err


def test_prepare_dailies_refuses_games_with_no_game_named(db: None) -> None:
    """``--games`` and nothing after it prepared every game of the week (an attacker's
    pass)."""
    with pytest.raises(CommandError, match="--games"):
        call_command("prepare_dailies", "--games")

    assert not Daily.objects.exists()


def test_a_daily_shows_its_difficulty(client: Client, live: Daily) -> None:
    """Players ask New game for a difficulty; the daily showed none of its own."""
    Daily.objects.filter(pk=live.pk).update(difficulty="medium")

    assert f"Par <b>{live.par}</b> moves · Medium · " in client.get(reverse("games:daily")).text
    leaderboard = client.get(reverse("games:daily_leaderboard", args=[live.date, live.slug]))
    assert f"· par {live.par} · medium</small>" in leaderboard.text
    game = client.get(reverse("games:daily_play", args=[live.date, live.slug]))
    assert f"· par {live.par} · medium" in client.get(game["Location"]).text
    rules = client.get(reverse("games:rules", args=[live.slug])).text
    assert "The daily challenge is labelled by the same rule" in rules


def test_todays_page_reads_the_clock_once(client: Client, db: None, monkeypatch) -> None:
    """The view chose the day by one reading and drew it by another: a request in the last
    moment of a day, its second reading past midnight, showed today as a past day (its wins
    "late and unranked", no countdown)."""
    for slug in dailies.daily_games(DAY):
        make_daily(DAY, slug)
    last_moment = dt.datetime.combine(DAY, dt.time.max, tzinfo=dt.UTC)
    readings = iter([last_moment])
    clock = SimpleNamespace(now=lambda: next(readings, last_moment + dt.timedelta(microseconds=2)))
    monkeypatch.setattr(daily_views, "timezone", clock)

    page = client.get(reverse("games:daily"))

    assert page.status_code == 200
    assert "Today's challenge" in page.text
    assert "past day: wins are late and unranked" not in page.text
    assert 'class="countdown"' in page.text


# -- no solver in a request; background preparation ---------------------------------------


@pytest.fixture
def no_solver(monkeypatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver ran inside a web request")

    monkeypatch.setattr(dailies, "solve", refuse)


def test_a_past_day_nobody_prepared_is_404_without_solver_or_task(
    client: Client, db: None, no_solver: None
) -> None:
    make_daily(utc_now().date() - dt.timedelta(days=3))  # launch
    for date in ["0001-01-01", "2000-06-15", str(utc_now().date() - dt.timedelta(days=1))]:
        assert client.get(f"/daily/{date}/").status_code == 404
        assert client.get(f"/daily/{date}/citadel/").status_code == 404
        assert client.get(f"/daily/{date}/citadel/play").status_code == 404

    assert Daily.objects.count() == 1
    assert not DBTaskResult.objects.exists()


def test_days_before_launch_are_404_even_when_prepared(client: Client, db: None, settings) -> None:
    today = utc_now().date()
    make_daily(today - dt.timedelta(days=10))
    settings.DAILY_LAUNCH = str(today - dt.timedelta(days=2))

    assert client.get(f"/daily/{today - dt.timedelta(days=10)}/").status_code == 404
    assert client.get(f"/daily/{today - dt.timedelta(days=10)}/citadel/").status_code == 404


def test_future_days_are_404_everywhere_even_when_prepared_ahead(client: Client, db: None) -> None:
    tomorrow = utc_now().date() + dt.timedelta(days=1)
    make_daily(tomorrow)

    assert client.get(f"/daily/{tomorrow}/").status_code == 404
    assert client.get(f"/daily/{tomorrow}/citadel/").status_code == 404
    assert client.get(f"/daily/{tomorrow}/citadel/play").status_code == 404
    assert not Game.objects.exists()
    assert client.get("/daily/2026-02-30/").status_code == 404
    assert str(tomorrow) not in client.get(reverse("games:daily_archive")).text


@pytest.mark.django_db(transaction=True)  # the worker closes its connection (PostgreSQL)
def test_a_missing_today_is_being_prepared_with_one_task_however_many_requests(
    client: Client, no_solver: None, run_tasks, monkeypatch
) -> None:
    for _ in range(5):
        response = client.get(reverse("games:daily"))
        assert response.status_code == 200
        assert "being prepared" in response.text
    play = client.get(f"/daily/{utc_now().date()}/citadel/play")

    assert play.status_code == 302 and play["Location"] == f"/daily/{utc_now().date()}/"
    assert DBTaskResult.objects.count() == 1
    assert not Daily.objects.exists()

    monkeypatch.setattr(
        dailies, "choose_deal", lambda game, date: dailies.ProvedDeal(3, LINE, "hard")
    )
    run_tasks()

    assert Daily.objects.filter(date=utc_now().date()).count() == 7
    assert "being prepared" not in client.get(reverse("games:daily")).text
    assert DBTaskResult.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_for_a_missing_today_queue_one_task() -> None:
    if connection.vendor == "sqlite" and connection.is_in_memory_db():  # type: ignore[attr-defined]
        pytest.skip("in-memory SQLite fails shared-cache locks at once; a file database waits")
    barrier = threading.Barrier(6)
    errors: list[Exception] = []

    def request() -> None:
        barrier.wait()
        try:
            daily_tasks.daily_request(date=DAY, now=NOON)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=request) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert DBTaskResult.objects.count() == 1
    assert DailyPreparation.objects.count() == 1


def test_the_schedule_queues_today_and_the_days_ahead_once(db: None, settings) -> None:
    settings.DAILY_DAYS_AHEAD = 7
    assert "games.daily_tasks.schedule_dailies" in schedule.JOBS

    daily_tasks.schedule_dailies(NOON)
    daily_tasks.schedule_dailies(NOON + dt.timedelta(minutes=1))

    queued = DBTaskResult.objects.values_list("args_kwargs", flat=True)
    dates = sorted(args["args"][0] for args in queued)
    assert dates == [str(DAY + dt.timedelta(days=n)) for n in range(8)]


def test_a_failed_preparation_is_queued_again_only_after_a_pause(db: None, run_tasks) -> None:
    daily_tasks.daily_request(date=DAY, now=NOON)
    DBTaskResult.objects.update(status="FAILED")

    daily_tasks.daily_request(date=DAY, now=NOON + dt.timedelta(minutes=1))
    assert DBTaskResult.objects.count() == 1

    daily_tasks.daily_request(date=DAY, now=NOON + daily_tasks.RETRY_AFTER)
    assert DBTaskResult.objects.count() == 2


def test_a_preparation_whose_worker_died_is_queued_again(db: None) -> None:
    daily_tasks.daily_request(date=DAY, now=NOON)
    DBTaskResult.objects.update(status="RUNNING", started_at=NOON)

    daily_tasks.daily_request(date=DAY, now=NOON + daily_tasks.RETRY_AFTER)
    assert DBTaskResult.objects.count() == 1  # still running: a live worker

    daily_tasks.daily_request(date=DAY, now=NOON + daily_tasks.STUCK_AFTER * 2)
    assert DBTaskResult.objects.count() == 2


@pytest.mark.django_db(transaction=True)  # the worker closes its connection (PostgreSQL)
def test_a_day_its_task_could_not_prove_is_not_queued_again_and_says_so(
    client: Client, run_tasks, monkeypatch
) -> None:
    """The date's candidates and budgets are its own: a task that ran to its end without a
    deal for a game would fail alike again, yet it was queued again every ``RETRY_AFTER``,
    ahead of players' analyses, and the day said the game was still being prepared (a
    review)."""

    def unprovable(game: str, date: dt.date) -> dailies.ProvedDeal:
        if game == "archway":
            raise dailies.DailyUnavailable(f"No deal of {game} proved winnable")
        return dailies.ProvedDeal(3, LINE, "hard")

    monkeypatch.setattr(dailies, "choose_deal", unprovable)
    client.get(reverse("games:daily"))
    run_tasks()

    today = utc_now().date()
    assert not daily_tasks.daily_request(date=today, now=utc_now() + daily_tasks.RETRY_AFTER)
    page = client.get(reverse("games:daily")).text
    assert DBTaskResult.objects.count() == 1
    assert "being prepared" not in page.lower()
    assert "so there is no Archway challenge" in page
    assert Daily.objects.filter(date=today).count() == len(dailies.daily_games(today)) - 1


def test_a_day_ahead_its_task_could_not_prove_is_not_searched_again_once_its_result_is_pruned(
    db: None, run_tasks, monkeypatch, settings
) -> None:
    """The task's result said the date's search had run to its end, and the schedule prunes
    results after a day: the date, still missing a game, was searched again every day it
    stayed ahead, and said to be on its way (a review)."""
    settings.DAILY_DAYS_AHEAD = 3
    searched: list[tuple[str, dt.date]] = []

    def unprovable(game: str, date: dt.date) -> dailies.ProvedDeal:
        searched.append((game, date))
        if game == "archway":
            raise dailies.DailyUnavailable(f"No deal of {game} proved winnable")
        return dailies.ProvedDeal(3, LINE, "hard")

    monkeypatch.setattr(dailies, "choose_deal", unprovable)
    now = utc_now()
    ahead = now.date() + dt.timedelta(days=3)
    daily_tasks.schedule_dailies(now)
    run_tasks()
    assert "archway" in dailies.daily_games(ahead)
    assert searched.count(("archway", ahead)) == 1

    later = now + dt.timedelta(days=1, minutes=1)
    for tick in (later, later + dt.timedelta(minutes=1)):  # the worker's ticks, in JOBS order
        daily_tasks.schedule_dailies(tick)
        schedule.prune_task_results(tick)
    run_tasks()

    assert searched.count(("archway", ahead)) == 1, searched
    task_id = DailyPreparation.objects.get(date=ahead).task_id
    assert not DBTaskResult.objects.filter(id=task_id).exists()  # its result is gone
    assert not daily_tasks.daily_request(date=ahead, now=later + dt.timedelta(days=2))


def test_a_day_ahead_already_searched_prepares_a_game_added_since(
    db: None, run_tasks, monkeypatch, settings
) -> None:
    """A day searched to its end was never queued again: a game added to the day's list
    since (a family game deployed: the turn moves for every day ahead) was never prepared,
    and the day, once today, said it had no such challenge (a review)."""
    settings.DAILY_DAYS_AHEAD = 3
    monkeypatch.setattr(
        dailies, "choose_deal", lambda game, date: dailies.ProvedDeal(3, LINE, "hard")
    )
    every = dailies.daily_games
    monkeypatch.setattr(
        daily_tasks, "daily_games", lambda date, prepared=None: every(date, prepared=prepared)[:-1]
    )
    now = utc_now()
    ahead = now.date() + dt.timedelta(days=3)
    daily_tasks.schedule_dailies(now)
    run_tasks()
    assert Daily.objects.filter(date=ahead).count() == len(every(ahead)) - 1

    monkeypatch.setattr(daily_tasks, "daily_games", every)  # the deploy
    later = now + dt.timedelta(days=1, minutes=1)
    for tick in (later, later + dt.timedelta(minutes=1)):
        daily_tasks.schedule_dailies(tick)
        schedule.prune_task_results(tick)
    run_tasks()

    assert daily_tasks.missing_games(ahead) == []


def test_a_page_asking_while_the_task_waits_locks_nothing(db: None) -> None:
    """Every view of a day with a game missing took the date's row lock (on SQLite, the
    database's write lock, behind every move) to learn that its task was queued."""
    daily_tasks.daily_request(date=DAY, now=NOON)

    with CaptureQueriesContext(connection) as queries:
        assert daily_tasks.daily_request(date=DAY, now=NOON + dt.timedelta(minutes=1))

    sql = " ".join(query["sql"] for query in queries.captured_queries).upper()
    assert "FOR UPDATE" not in sql and "SAVEPOINT" not in sql and "INSERT" not in sql, sql


def test_the_preparation_task_stores_every_game_of_the_day(db: None, monkeypatch) -> None:
    monkeypatch.setattr(
        dailies, "choose_deal", lambda game, date: dailies.ProvedDeal(7, ["t1-t2", "t2-t1"], "")
    )

    pars = daily_tasks.prepare_day.call(str(DAY))

    # The six classics and the family game of the day; never the deals (results are kept).
    assert pars == dict.fromkeys(dailies.daily_games(DAY), 2)
    assert len(pars) == 7 and dailies.family_game(DAY) in pars
    assert set(Daily.objects.values_list("deal", flat=True)) == {7}
    assert Daily.objects.filter(date=DAY).count() == 7


# -- entries and ranking ---------------------------------------------------------------


def test_a_daily_win_creates_an_entry_and_the_record_verifies(daily: Daily, member) -> None:
    game = win(member, daily, at=NOON)

    entry = Entry.objects.get()
    assert (entry.game, entry.moves, entry.player) == (game, len(LINE), member)
    assert not entry.flagged
    assert leaderboard.verify_entries() == []


def make_entry(daily: Daily, player: Player, moves: int, seconds: int, minute: int) -> Entry:
    game = Game.objects.create(
        slug="citadel", deal=3, owner=player, daily=daily, position="", status="won"
    )
    return Entry.objects.create(
        daily=daily,
        player=player,
        game=game,
        moves=moves,
        elapsed=dt.timedelta(seconds=seconds),
        finished_at=NOON + dt.timedelta(minutes=minute),
    )


def test_ranking_orders_by_moves_then_time_then_finish(daily: Daily) -> None:
    players = [
        Player.objects.create(display_name=n, user=User.objects.create_user(n)) for n in "ABCD"
    ]
    for player, moves, seconds, minute in [
        (players[0], 70, 300, 5),
        (players[1], 68, 400, 6),
        (players[2], 68, 200, 7),
        (players[3], 68, 200, 1),
    ]:
        make_entry(daily, player, moves, seconds, minute)

    names = [row.entry.player.display_name for row in leaderboard.ranking(daily, now=NOON)]

    assert names == ["D", "C", "B", "A"]


def test_one_daily_game_per_player_even_after_a_win(daily: Daily, member) -> None:
    game = win(member, daily, at=NOON)

    again = dailies.daily_start(player=member, daily=daily, now=NOON)

    assert again == game and again.is_finished
    with pytest.raises(IntegrityError):
        services.game_start(player=member, slug="citadel", deal=3, daily=daily, now=NOON)


@pytest.mark.django_db(transaction=True)
def test_concurrent_first_requests_create_one_daily_game() -> None:
    if connection.vendor == "sqlite" and connection.is_in_memory_db():  # type: ignore[attr-defined]
        pytest.skip("in-memory SQLite fails shared-cache locks at once; a file database waits")
    daily, player = make_daily(DAY), Player.objects.create()
    barrier = threading.Barrier(4)
    results: list[object] = []

    def first_request() -> None:
        barrier.wait()
        try:
            results.append(dailies.daily_start(player=player, daily=daily, now=NOON).pk)
        except Exception as error:
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=first_request) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(set(results)) == 1, results
    assert Game.objects.filter(owner=player, daily=daily).count() == 1


def test_late_wins_are_never_ranked(daily: Daily, member) -> None:
    game = win(member, daily, at=NOON + dt.timedelta(days=1))

    assert game.status == Game.Status.WON
    assert not Entry.objects.exists()


def test_games_with_an_easing_option_are_never_ranked(member) -> None:
    daily = Daily.objects.create(slug="beleaguered-castle", date=DAY, deal=1, par=1, solution="")
    game = Game.objects.create(
        slug="beleaguered-castle",
        deal=1,
        owner=member,
        daily=daily,
        position="",
        options=["take-back"],
        status="won",
        ply=90,
    )

    assert leaderboard.record_win(game, NOON, "") is None
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    "finished,ranked",
    [
        (dt.datetime(2026, 11, 22, 23, 0, 0, tzinfo=dt.UTC), True),
        (dt.datetime(2026, 11, 23, 0, 0, 0, tzinfo=dt.UTC), False),
        (dt.datetime(2026, 11, 22, 19, 0, tzinfo=dt.timezone(dt.timedelta(hours=-5))), False),
    ],
)
def test_the_utc_date_boundary(daily: Daily, member, finished, ranked: bool) -> None:
    win(member, daily, at=finished - dt.timedelta(seconds=len(LINE)))

    assert Entry.objects.exists() is ranked


def test_verify_leaderboard_catches_a_tampered_move(daily: Daily, member, capsys) -> None:
    game = win(member, daily, at=NOON)
    call_command("verify_leaderboard")
    assert "0 mismatches" in capsys.readouterr().out

    PlayedMove.objects.filter(game=game, ply=5).update(notation="t1-t2")

    with pytest.raises(SystemExit) as exit_:
        call_command("verify_leaderboard")
    assert exit_.value.code == 1
    assert "1 mismatches" in capsys.readouterr().out


def test_there_is_no_endpoint_that_accepts_a_score(client: Client, live: Daily) -> None:
    url = reverse("games:daily_leaderboard", args=[live.date, "citadel"])

    assert client.post(url, {"moves": 1}).status_code == 405
    assert not Entry.objects.exists()


# -- restart and hints are counted -----------------------------------------------------


def test_restart_after_forty_moves_counts_forty_undos_on_the_entry(daily: Daily, member) -> None:
    Player.objects.filter(pk=member.pk).update(autoplay=False)
    member.refresh_from_db()
    game = dailies.daily_start(player=member, daily=daily, now=NOON)
    for ply, move in enumerate(LINE[:40], 1):
        services.game_play_move(
            game_id=game.pk,
            player_id=member.pk,
            move=move,
            expected_ply=ply - 1,
            now=NOON + dt.timedelta(seconds=ply),
        )
    services.game_restart(
        game_id=game.pk, player_id=member.pk, expected_ply=40, now=NOON + dt.timedelta(minutes=1)
    )
    game.refresh_from_db()
    assert game.undos == 40

    start = NOON + dt.timedelta(minutes=2)
    for ply, move in enumerate(LINE, 1):
        services.game_play_move(
            game_id=game.pk,
            player_id=member.pk,
            move=move,
            expected_ply=None,
            now=start + dt.timedelta(seconds=ply),
        )

    entry = Entry.objects.get()
    assert (entry.moves, entry.undos) == (len(LINE), 40)


def test_restart_through_the_page_is_counted(client_for, live: Daily, member) -> None:
    Player.objects.filter(pk=member.pk).update(autoplay=False)
    browser = client_of(member)
    game_url = browser.get(reverse("games:daily_play", args=[live.date, "citadel"]))["Location"]
    game = Game.objects.get()
    for ply, move in enumerate(LINE[:5]):
        browser.post(f"{game_url}moves", {"move": move, "ply": ply})

    response = browser.post(f"{game_url}restart", {"ply": 5})

    assert response.status_code == 303
    game.refresh_from_db()
    assert (game.ply, game.undos) == (0, 5)


# -- secrecy while the day is live ------------------------------------------------------


@pytest.fixture
def leader(live: Daily, member) -> Game:
    """Ada's winning game of today's daily: what an attacker wants to copy."""
    return win(member, live, at=midnight())


def test_copying_the_leaders_line_is_refused_while_the_day_is_live(
    leader: Game, other_client: Client
) -> None:
    for url in [
        reverse("games:game", args=[leader.pk]),
        reverse("games:replay", args=[leader.pk]),
        reverse("games:replay", args=[leader.pk]) + "?ply=68",
        reverse("games:record", args=[leader.pk]),
    ]:
        response = other_client.get(url)
        assert response.status_code == 403, url
        assert "secret until the day ends" in response.text
        assert LINE[0] not in response.text and "f1:" not in response.text
        # Not "That did not work": the secrecy is no fault (a player's pass).
        assert "<h1>Secret until the day ends</h1>" in response.text, url


def test_a_refused_move_on_the_leaders_game_does_not_show_its_position(
    leader: Game, other_client: Client
) -> None:
    url = reverse("games:move", args=[leader.pk])
    for headers in [{}, {"HX-Request": "true"}]:
        response = other_client.post(url, {"move": "t1-t2", "ply": 0}, headers=headers)
        assert response.status_code == 403
        assert 'id="board"' not in response.text
    hint = other_client.post(reverse("games:hint", args=[leader.pk]), {"ply": 0})
    assert hint.status_code == 403 and 'id="board"' not in hint.text


def test_the_live_leaderboard_shows_the_row_but_no_replay_link(
    leader: Game, other_client: Client
) -> None:
    assert leader.daily is not None
    body = other_client.get(reverse("games:daily_leaderboard", args=[leader.daily.date, "citadel"]))

    assert body.status_code == 200
    assert (
        '<td class="who">Ada<span' in body.text and f'<td class="num">{len(LINE)}</td>' in body.text
    )
    # On a phone, where the Undos, Hints, Par and Replay columns do not fit, they show under
    # the name.
    over = len(LINE) - leader.daily.par
    assert (
        f'<span class="row-extra">0 undos, 0 hints, par +{over} · <span class="after-day">after'
        in body.text
    )
    assert str(leader.pk) not in body.text
    assert "replays open when it ends" in body.text


def test_the_player_sees_their_own_live_game_without_its_deal_number(leader: Game, member) -> None:
    browser = client_of(member)

    page = browser.get(reverse("games:game", args=[leader.pk]))
    replay = browser.get(reverse("games:replay", args=[leader.pk]))

    assert page.status_code == replay.status_code == 200
    for body in (page.text, replay.text):
        assert "deal 3" not in body and "/play/citadel/3/" not in body
        assert "daily of" in body
    assert leader.daily is not None
    assert f"/daily/{leader.daily.date}/" in page.text  # the win panel shares the challenge
    # Its record began "deal: 3": to be solved elsewhere, or dealt again once the day is over.
    record_url = reverse("games:record", args=[leader.pk])
    record = browser.get(record_url)
    assert record.status_code == 403 and "deal: 3" not in record.text
    assert "stays secret until the day ends" in record.text
    assert record_url not in replay.text


def test_after_the_day_every_entry_is_a_public_shareable_replay(
    daily: Daily, member, other_client: Client
) -> None:
    game = win(member, daily, at=NOON)  # DAY is over

    board = other_client.get(reverse("games:daily_leaderboard", args=[DAY, "citadel"])).text
    replay = other_client.get(reverse("games:replay", args=[game.pk]))
    record = other_client.get(reverse("games:record", args=[game.pk]))

    assert reverse("games:replay", args=[game.pk]) in board
    assert replay.status_code == record.status_code == 200
    assert "deal 3" in replay.text and LINE[0] in record.text


# -- no practice on a live daily -------------------------------------------------------


def test_practising_the_live_deal_through_play_sends_you_to_your_daily(
    live: Daily, other_client: Client
) -> None:
    response = other_client.get(reverse("games:play_deal", args=["citadel", live.deal]))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:daily_play", args=[live.date, "citadel"])
    assert not Game.objects.filter(daily=None).exists()


def test_importing_the_live_deal_is_refused(live: Daily, other_client: Client) -> None:
    record = "game: citadel\ndeal: 3\n" + " ".join(LINE) + "\n"
    for then in ["continue", "replay"]:
        response = other_client.post(reverse("games:import"), {"record": record, "then": then})
        assert response.status_code == 403
        assert "Citadel daily challenge: it can only be played as your daily game" in response.text
    assert not Game.objects.exists()


def test_a_game_of_the_same_layout_cannot_practise_the_live_deal(
    live: Daily, other_client: Client
) -> None:
    """Exiled Kings deals Citadel's cards for the same number: the daily's deal, moves and
    all, could be tried out there while the day is live."""
    assert Board("exiled-kings", live.deal).tableau == Board("citadel", live.deal).tableau

    response = other_client.get(reverse("games:play_deal", args=["exiled-kings", live.deal]))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:daily_play", args=[live.date, "citadel"])
    assert not Game.objects.filter(daily=None).exists()


def test_importing_the_live_deal_as_a_game_of_the_same_layout_is_refused(
    live: Daily, other_client: Client
) -> None:
    record = "game: exiled-kings\ndeal: 3\n" + " ".join(LINE[:3]) + "\n"

    response = other_client.post(reverse("games:import"), {"record": record, "then": "continue"})

    assert response.status_code == 403
    assert "Citadel daily challenge: it can only be played as your daily game" in response.text
    assert not Game.objects.exists()


def test_the_deal_is_free_to_practise_once_the_day_is_over(
    daily: Daily, other_client: Client
) -> None:
    response = other_client.get(reverse("games:play_deal", args=["citadel", daily.deal]))

    assert response.status_code == 302
    assert Game.objects.get().daily is None


# -- accounts rank; sybils do not ------------------------------------------------------


def post_line(browser: Client, daily: Daily, line: list[str]) -> Game:
    """What the attack script did: open its daily game, post every move as fast as it can."""
    url = browser.get(reverse("games:daily_play", args=[daily.date, daily.slug]))["Location"]
    for ply, move in enumerate(line):
        assert browser.post(f"{url}moves", {"move": move, "ply": ply}).status_code == 303
    return Game.objects.get(pk=url.split("/")[2])


def test_twenty_throwaway_cookies_do_not_reach_the_public_leaderboard(
    leader: Game, live: Daily
) -> None:
    for n in range(20):  # from as many addresses: one would meet the limit on moves
        throwaway = client_of(Player.objects.create(autoplay=False))
        throwaway.defaults["REMOTE_ADDR"] = f"192.0.2.{n + 1}"
        post_line(throwaway, live, LINE)

    rows = leaderboard.ranking(live, now=utc_now())
    board = Client().get(reverse("games:daily_leaderboard", args=[live.date, "citadel"])).text

    assert Entry.objects.count() == 21
    assert [row.entry.player.display_name for row in rows] == ["Ada"]
    assert board.count("<tr>") + board.count("<tr class") == 2  # head and Ada


def test_a_script_with_an_account_replaying_a_line_is_flagged_not_ranked(
    leader: Game, live: Daily
) -> None:
    cheat = Player.objects.create(user=User.objects.create_user("eve"), autoplay=False)

    post_line(client_of(cheat), live, LINE)

    entry = Entry.objects.get(player=cheat)
    assert entry.flagged
    assert [row.entry.player for row in leaderboard.ranking(live, now=utc_now())] == [leader.owner]


def test_an_anonymous_winner_sees_where_they_would_place(live: Daily, leader: Game) -> None:
    anonymous = Player.objects.create()
    win(anonymous, live, at=midnight(), seconds_per_move=0.5)
    browser = client_of(anonymous)

    board = browser.get(reverse("games:daily_leaderboard", args=[live.date, "citadel"])).text
    day = browser.get(reverse("games:daily")).text

    assert "You would place <b>1</b>" in board and "sign up" in board
    assert "you would place <b>1</b>" in day


def test_an_anonymous_win_ranks_after_signing_up(live: Daily) -> None:
    anonymous = Player.objects.create()
    client = client_of(anonymous)
    win(anonymous, live, at=midnight())
    assert leaderboard.ranking(live, now=utc_now()) == []

    client.post(
        reverse("games:signup"), {"username": "bo", "password1": PASSWORD, "password2": PASSWORD}
    )

    [row] = leaderboard.ranking(live, now=utc_now())
    user = row.entry.player.user
    assert user is not None and user.username == "bo"


def test_logging_in_to_an_existing_account_keeps_the_anonymous_win(live: Daily, member) -> None:
    member.user.set_password(PASSWORD)
    member.user.save()
    anonymous = Player.objects.create()
    client = client_of(anonymous)
    win(anonymous, live, at=midnight())

    client.post(reverse("games:login"), {"username": "ada", "password": PASSWORD})

    entry = Entry.objects.get()
    assert entry.player == member
    assert [row.entry for row in leaderboard.ranking(live, now=utc_now())] == [entry]
    assert not Player.objects.filter(pk=anonymous.pk).exists()


def test_merging_keeps_the_accounts_played_game_for_a_day_both_played(
    daily: Daily, member, db: None
) -> None:
    """The account's result stands even against a better anonymous one: one try a day
    (tests/web/test_daily_one_try.py has the rest of the rule)."""
    slow = win(member, daily, at=NOON, seconds_per_move=3)
    anonymous = Player.objects.create()
    fast = win(anonymous, daily, at=NOON, seconds_per_move=1)
    other_day = make_daily(DAY - dt.timedelta(days=1))
    kept_game = win(anonymous, other_day, at=NOON - dt.timedelta(days=1))

    player_adopt(anonymous_id=anonymous.pk, user=member.user)

    entries = Entry.objects.order_by("daily__date")
    assert [(e.player, e.game) for e in entries] == [(member, kept_game), (member, slow)]
    assert not Game.objects.filter(pk=fast.pk).exists()
    assert Game.objects.filter(owner=member, daily=daily).count() == 1


def test_merging_keeps_the_accounts_better_entry(daily: Daily, member, db: None) -> None:
    fast = win(member, daily, at=NOON, seconds_per_move=1)
    anonymous = Player.objects.create()
    win(anonymous, daily, at=NOON, seconds_per_move=3)

    player_adopt(anonymous_id=anonymous.pk, user=member.user)

    assert list(Entry.objects.values_list("game", flat=True)) == [fast.pk]


# -- humans, not scripts ---------------------------------------------------------------


def test_a_scripted_win_is_flagged_and_unranked_until_a_moderator_clears_it(
    daily: Daily, member, capsys
) -> None:
    win(member, daily, at=NOON, seconds_per_move=0.04)
    entry = Entry.objects.get()

    assert entry.flagged and "median gap" in entry.flag_reason
    assert leaderboard.ranking(daily, now=NOON) == []
    call_command("verify_leaderboard")
    out = capsys.readouterr().out
    assert "1 flagged, 0 hidden" in out and f"entry {entry.pk}" in out

    request = RequestFactory().post("/admin/")
    request._messages = _Messages()  # type: ignore[attr-defined]
    EntryAdmin(Entry, admin_site).clear_flag(request, Entry.objects.all())

    assert [row.entry for row in leaderboard.ranking(daily, now=NOON)] == [entry]


def test_a_win_replaying_the_dailys_solution_is_flagged_and_unranked(daily: Daily, member) -> None:
    """Hint shows the daily's solution a move at a time: a second player's game asked for
    all of it, and the ranked game replayed it at a person's pace with no hint counted
    (an attacker's pass: rank 1 at par, 0 hints, in 9 s)."""
    win(member, daily, at=NOON, seconds_per_move=2, line=SOLUTION)
    entry = Entry.objects.get()

    assert entry.flagged and "the daily's own solution" in entry.flag_reason
    assert entry.moves == daily.par
    assert leaderboard.ranking(daily, now=NOON) == []


def test_an_anonymous_held_win_still_says_an_account_is_needed_to_rank(live: Daily) -> None:
    """The held win's sentence stood in place of the sign-up one: held or not, an anonymous
    win ranks only once an account holds it (a player's pass)."""
    anonymous = Player.objects.create()
    game = win(anonymous, live, at=midnight(), seconds_per_move=0.04)

    browser = client_of(anonymous)
    page = html.unescape(browser.get(game.get_absolute_url()).text)
    board = browser.get(reverse("games:daily_leaderboard", args=[live.date, live.slug])).text

    assert "Your win is waiting for a moderator (moves faster than a person" in page
    assert "log in</a> to be ranked: this win comes with you" in page
    assert "your win is waiting for a moderator (moves faster than a person" in board
    assert "log in</a> to appear on the leaderboard.</p>" in board


def test_a_held_win_says_its_own_reason_on_the_leaderboard(daily: Daily, member) -> None:
    """Any held win read "moves faster than a person clicks", a copied solution's too."""
    win(member, daily, at=NOON, seconds_per_move=2, line=SOLUTION)
    client = Client()
    client.force_login(member.user)

    page = client.get(reverse("games:daily_leaderboard", args=[daily.date, daily.slug])).text

    assert "your win is waiting for a moderator (it makes " in html.unescape(page)
    assert (
        "it makes 14 of the 14 moves between piles of the daily&#x27;s own solution, which Hint"
        in page
    )
    assert "faster than a person clicks" not in page.split('class="mine-note"')[1]
    # The win's own panel said "Would place 1" and nothing of the hold (a player's pass).
    game = Game.objects.get()
    panel = html.unescape(client.get(game.get_absolute_url()).text)
    assert "Your win is waiting for a moderator (it makes 14 of the 14 moves between piles" in panel
    # "No wins yet: be the first." stood above the player's own (held) row.
    assert "No wins yet" not in page and "No ranked wins yet: yours is below." in page
    assert 'class="gap"' not in page


def test_a_short_solution_repeated_flags_nothing() -> None:
    """A solution of five moves says too little of a win that repeats it."""
    short = Daily(slug="citadel", deal=3, solution=" ".join(SOLUTION[:5]))

    assert leaderboard.copies_the_solution(short, short.solution.split()) == ""
    assert leaderboard.copies_the_solution(make_copied(), SOLUTION).startswith("it makes ")


def make_copied() -> Daily:
    """Citadel deal 3's daily, not stored: what ``copies_the_solution`` reads."""
    return Daily(slug="citadel", deal=3, solution=" ".join(SOLUTION))


def test_the_solution_is_recognised_whatever_order_foundation_moves_come_in() -> None:
    daily = make_copied()
    assert SOLUTION[:2] == ["t1-t4", "t1-f1"]
    reordered = [SOLUTION[1], SOLUTION[0], *SOLUTION[2:]]  # auto-play's order, say
    assert leaderboard.copies_the_solution(daily, reordered)
    assert not leaderboard.copies_the_solution(daily, LINE)
    assert not leaderboard.copies_the_solution(Daily(solution=""), [])
    assert not leaderboard.copies_the_solution(Daily(solution="-"), LINE)


def test_a_copy_with_two_moves_swapped_is_recognised(daily: Daily, member) -> None:
    """An attacker's pass swapped two moves between piles that do not depend on each other
    (t5-t2 and t7-t3 here): the copy, compared move for move, ranked 1st at par with no
    hint, flagged nothing. Compared as placements it is the same line."""
    assert SOLUTION[7:9] == ["t5-t2", "t7-t3"]
    swapped = [*SOLUTION[:7], "t7-t3", "t5-t2", *SOLUTION[9:]]

    win(member, daily, at=NOON, seconds_per_move=2, line=swapped)

    entry = Entry.objects.get()
    assert entry.moves == daily.par
    assert (
        entry.flagged
        and "it makes 14 of the 14 moves between piles of the daily's" in entry.flag_reason
    )
    assert leaderboard.ranking(daily, now=NOON) == []


def padded(line: list[str], detours: int) -> list[str]:
    """``line`` (Citadel deal 3's) with ``detours`` of its moves between piles made in two:
    the card laid on another pile's top first, then where the line lays it."""
    board, out = Board("citadel", 3), []
    for notation in line:
        move = board.parse_move(notation)
        steps = [notation]
        if detours and not move.to_foundation:
            for first in board.legal_moves():
                if (
                    first.source != move.source
                    or first.to_foundation
                    or first.target == move.target
                ):
                    continue
                trial = board.copy()
                trial.play(first)
                then = f"{first.target}-{move.target}"
                try:
                    trial.play(then)
                except RulesError:
                    continue
                steps, detours = [first.notation(), then], detours - 1
                break
        for step in steps:
            board.play(step)
        out += steps
    assert detours == 0 and board.is_won()
    return out


@pytest.mark.parametrize("detours", [1, 4, 7])
def test_a_copy_padded_with_detours_is_recognised(detours: int) -> None:
    """An attacker's pass laid a card on another pile first, then where the solution lays
    it: a move more for each, and a placement the solution lacks. Counted against the
    longer line, 5 such detours in 42 placements let a copy rank 1st, 5 over par; counted
    against the solution's, padding never escapes, short of half again as many moves (the
    solution has 14 moves between piles)."""
    line = padded(SOLUTION, detours)

    assert len(line) == len(SOLUTION) + detours
    assert leaderboard.copies_the_solution(make_copied(), line)


def test_a_line_sharing_some_placements_with_the_solution_is_not_a_copy() -> None:
    """A person's line (``LINE``) lays 10 of its 28 moves between piles as the solution's
    14 do: well under the share."""
    daily = make_copied()
    assert leaderboard.copies_the_solution(daily, LINE) == ""
    mine, theirs = leaderboard._placements(daily, LINE), leaderboard._placements(daily, SOLUTION)
    assert ((mine & theirs).total(), mine.total(), theirs.total()) == (10, 28, 14)


@pytest.mark.parametrize(("day", "off_the_line_shows"), [("live", False), ("past", True)])
def test_a_live_dailys_hints_follow_only_its_own_line(
    member, day: str, off_the_line_shows: bool
) -> None:
    """A throwaway game played one move off the daily's line, then followed the hints of the
    solver's search from there, and the ranked game replayed that line, which the copy check
    does not know (an attacker's pass: 1st, 4 over par, unflagged). While the day is live,
    off the daily's line Hint says the position can still be won, not how."""
    daily = make_daily(utc_now().date() if day == "live" else DAY)
    now = utc_now()
    game = dailies.daily_start(player=member, daily=daily, now=now)
    first = services.game_hint(game_id=game.pk, player_id=member.pk, now=now)[2]
    assert first.move is not None and first.move.notation() == SOLUTION[0]  # on the line
    services.game_play_move(
        game_id=game.pk, player_id=member.pk, move="t1-t8", expected_ply=None, now=now
    )

    off = services.game_hint(game_id=game.pk, player_id=member.pk, now=now)[2]

    assert (off.move is not None) is off_the_line_shows
    assert off.withheld is not off_the_line_shows
    said = hint_message(services.game_board(game), off)[0]
    assert said.startswith("Hint: " if off_the_line_shows else "Off the daily's own line,")
    game.refresh_from_db()
    assert game.hints == (2 if off_the_line_shows else 1)  # a hint that says nothing counts none
    page = " ".join(Client().get(reverse("games:daily")).text.split())
    assert "Hint follows the daily's own solution" in html.unescape(page)


def test_off_a_live_dailys_line_hint_runs_no_solver_and_says_nothing_of_the_position(
    member, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Off the line, Hint still said whether the position could be won ("can still be won",
    or "can no longer be won"): a script kept the first move after which it could and
    walked a winning line of its own, a solver's search a step, the ranked game replaying
    it (an attacker's pass: 6 steps from 7 hints in 4 s)."""
    daily = make_daily(utc_now().date())
    now = utc_now()
    game = dailies.daily_start(player=member, daily=daily, now=now)
    services.game_play_move(
        game_id=game.pk, player_id=member.pk, move="t1-t8", expected_ply=None, now=now
    )

    def no_solver(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver ran on a live daily's position off its line")

    monkeypatch.setattr(solver_jobs, "position_hint", no_solver)
    answer = services.game_hint(game_id=game.pk, player_id=member.pk, now=now)[2]

    assert answer.verdict == UNKNOWN and answer.move is None and not answer.deal_lost
    said, bad_news = hint_message(services.game_board(game), answer)
    assert "won" not in said.replace("own line", "") and not bad_news


@pytest.mark.parametrize(("day", "answered"), [("live", False), ("past", True)])
def test_analyse_waits_for_the_end_of_a_dailys_day(member, day: str, answered: bool) -> None:
    """Where a line was lost tells a script which of its moves still win (as Hint's verdict
    off the daily's line did): while the day is live, Analyse queues nothing, counts no
    hint and says when it answers; its stuck panel offers no Analyse."""
    daily = make_daily(utc_now().date() if day == "live" else DAY)
    game = dailies.daily_start(player=member, daily=daily, now=utc_now())
    client = client_of(member)
    services.game_play_move(
        game_id=game.pk, player_id=member.pk, move="t1-t8", expected_ply=None, now=utc_now()
    )

    asked = client.post(reverse("games:analyse", args=[game.pk]), HTTP_HX_REQUEST="true")
    looked = client.get(reverse("games:analysis", args=[game.pk]), HTTP_HX_REQUEST="true")

    assert (asked.status_code, looked.status_code) == ((200, 200) if answered else (403, 403))
    game.refresh_from_db()
    assert game.hints == (1 if answered else 0)
    assert DBTaskResult.objects.exists() is answered
    if not answered:
        said = html.unescape(asked.text)
        assert "Analyse answers once the day is over (midnight UTC)" in said
        assert html.unescape(looked.text).count("Analyse answers once the day is over") == 1


def test_a_live_dailys_stuck_panel_offers_no_analyse(
    member, monkeypatch: pytest.MonkeyPatch
) -> None:
    daily = make_daily(utc_now().date())
    game = dailies.daily_start(player=member, daily=daily, now=utc_now())
    monkeypatch.setattr(Board, "is_cycle_stuck", lambda self: True)

    page = html.unescape(client_of(member).get(game.get_absolute_url()).text)

    assert "No way forward" in page
    assert 'action="analyse"' not in page
    assert "Analyse answers once the day is over (midnight UTC)." in page


def test_a_script_pacing_most_moves_and_sending_the_rest_at_once_is_flagged(
    daily: Daily, member
) -> None:
    """The median alone passed five gaps in nine at 155 ms and the rest at 0 ms: an
    attacker's pass ranked 1st, 79 moves in 8 s."""
    game = win(member, daily, at=NOON)
    times = [NOON]
    for index in range(1, len(LINE)):
        times.append(times[-1] + dt.timedelta(milliseconds=155 if index % 9 < 5 else 0))
    for move, at in zip(game.played_moves.order_by("ply"), times, strict=True):
        PlayedMove.objects.filter(pk=move.pk).update(played_at=at)

    mean = (times[-1] - times[0]) / (len(times) - 1)

    reason = leaderboard.too_fast(game)

    assert f"a mean gap of {mean.total_seconds() * 1000:.0f} ms" in reason
    assert "under 300 ms" in reason


def test_the_gap_before_the_winning_move_counts(daily: Daily, member) -> None:
    """The win is judged before its own move is stored: a script paced just over the rule
    sent its last move at once, uncounted (an attacker's pass)."""
    game = win(member, daily, at=NOON)
    moves = list(game.played_moves.filter(auto=False).order_by("ply"))
    at = NOON
    for index, move in enumerate(moves[:-1]):
        at += dt.timedelta(milliseconds=202 if index % 2 else 402)  # 302 ms on average
        PlayedMove.objects.filter(pk=move.pk).update(played_at=at)
    PlayedMove.objects.filter(pk=moves[-1].pk).delete()  # not stored yet when judged
    last = at  # at once

    assert leaderboard.too_fast(game) == ""
    assert "a mean gap of" in leaderboard.too_fast(game, last)


def test_a_person_playing_at_human_speed_is_not_flagged(daily: Daily, member) -> None:
    win(member, daily, at=NOON, seconds_per_move=0.4)

    assert not Entry.objects.get().flagged


def test_a_script_at_a_steady_pace_is_flagged(daily: Daily, member) -> None:
    """The attack: a line found offline (the deal is on every visitor's screen), sent a
    move every 0.36 s, ranked 1st. Each gap was within a few milliseconds of the last."""
    win(member, daily, at=NOON, seconds_per_move=0.36, steady=True)

    entry = Entry.objects.get()
    assert entry.flagged
    assert entry.flag_reason == (
        f"moves at a machine's steady pace: half of its {len(LINE) - 1} gaps between player"
        " moves lie within 0% of their median, 360 ms, where a person's spread is wider than 10%"
    )
    assert list(leaderboard.ranking(daily, now=NOON)) == []


def test_a_script_with_a_few_milliseconds_of_jitter_is_flagged_too(daily: Daily, member) -> None:
    game = win(member, daily, at=NOON, seconds_per_move=0.36, steady=True)
    at = NOON
    for index, move in enumerate(game.played_moves.order_by("ply")):
        at += dt.timedelta(milliseconds=360 + (index * 37) % 50 - 25)  # 335-384 ms
        PlayedMove.objects.filter(pk=move.pk).update(played_at=at)

    assert "steady pace" in leaderboard.too_fast(game)


@pytest.mark.parametrize("pauses", [[40], [40, 41], [10, 30, 50, 60]])
def test_a_steady_script_with_a_few_pauses_is_flagged_too(
    daily: Daily, member, pauses: list[int]
) -> None:
    """One pause of 0.8 s in 85 gaps let a steady script rank when the spread was the
    standard deviation over the mean (an attacker's pass), and so did a busy server's slow
    answers: half the gaps are what they cannot move."""
    game = win(member, daily, at=NOON, seconds_per_move=0.36, steady=True)
    at = NOON
    for index, move in enumerate(game.played_moves.order_by("ply")):
        at += dt.timedelta(seconds=1.2 if index in pauses else 0.36)
        PlayedMove.objects.filter(pk=move.pk).update(played_at=at)

    assert "steady pace" in leaderboard.too_fast(game)


def test_a_short_line_sent_at_a_machines_speed_is_flagged(daily: Daily, member) -> None:
    """A win of ten moves or fewer was never judged, however fast (an attacker's pass): a
    daily that needs so few would rank a script's line sent at once."""
    scripted = win(member, daily, at=NOON, line=LINE[:5], seconds_per_move=0.04, steady=True)
    person = win(Player.objects.create(), daily, at=NOON, line=LINE[:5], seconds_per_move=1.2)

    assert "faster than a person clicks" in leaderboard.too_fast(scripted)
    assert leaderboard.too_fast(person) == ""


def test_a_short_even_burst_is_not_judged_steady(daily: Daily, member) -> None:
    """A person's run of obvious moves can be even; the steadiness needs 20 gaps."""
    game = win(member, daily, at=NOON, line=LINE[:20], seconds_per_move=0.5, steady=True)

    assert game.status != Game.Status.WON
    assert leaderboard.too_fast(game) == ""
    assert leaderboard.too_fast(game, NOON + dt.timedelta(seconds=10.5)) != ""


def test_the_steadiness_check_can_be_turned_off(daily: Daily, member, settings) -> None:
    settings.DAILY_MIN_HUMAN_SPREAD = 0

    win(member, daily, at=NOON, seconds_per_move=0.36, steady=True)

    assert not Entry.objects.get().flagged


def test_auto_play_does_not_count_toward_the_speed_rule(daily: Daily, member) -> None:
    """Auto-play moves land in the same instant as the click that caused them."""
    game = win(member, daily, at=NOON, seconds_per_move=0.5)
    PlayedMove.objects.filter(game=game, ply__gt=30).update(auto=True, played_at=NOON)

    assert leaderboard.too_fast(game) == ""


def test_a_moderator_can_hide_an_entry(daily: Daily, member, capsys) -> None:
    win(member, daily, at=NOON)
    request = RequestFactory().post("/admin/")
    request._messages = _Messages()  # type: ignore[attr-defined]

    EntryAdmin(Entry, admin_site).hide(request, Entry.objects.all())

    assert leaderboard.ranking(daily, now=NOON) == []
    call_command("verify_leaderboard")
    assert "0 flagged, 1 hidden" in capsys.readouterr().out


class _Messages:
    def add(self, *args: object, **kwargs: object) -> None:
        pass


# -- pages ------------------------------------------------------------------------------


def test_daily_page_shows_par_winners_my_status_and_the_ranking_rules(
    live: Daily, leader: Game, member
) -> None:
    body = client_of(member).get(reverse("games:daily")).text

    assert f"Par <b>{live.par}</b> moves · 1 ranked win" in body
    assert f"You won in <b>{len(LINE)}</b> moves, rank <b>1</b>" in body
    assert "How the ranking works" in body
    assert "every move you take back counts as an undo" in body
    assert "150 ms" in body and "300 ms" in body


def test_leaderboard_highlights_my_row_and_draws_the_spread(daily: Daily, member) -> None:
    win(member, daily, at=NOON)

    body = client_of(member).get(reverse("games:daily_leaderboard", args=[DAY, "citadel"])).text

    assert 'class="mine" aria-current="true"' in body
    assert '<figure class="histogram">' in body
    assert reverse("games:replay", args=[Entry.objects.get().game_id]) in body


def test_my_row_without_a_name_says_where_to_choose_one(daily: Daily, member) -> None:
    """A new account's row read "Player fb21ef (you)" beside the name it signed up with, and
    nothing said where the name shown comes from (a player's pass)."""
    Player.objects.filter(pk=member.pk).update(display_name="")
    win(member, daily, at=NOON)
    url = reverse("games:daily_leaderboard", args=[DAY, "citadel"])

    nameless = client_of(member).get(url).text
    Player.objects.filter(pk=member.pk).update(display_name="Ada")
    named = client_of(member).get(url).text

    choose = f'(you: <a href="{reverse("games:profile")}?next={quote(url)}">choose a name'
    assert choose in nameless
    assert "choose a name" not in named and "(you)" in named


@pytest.mark.parametrize(
    ("asked", "back"),
    [
        ("/daily/2026-11-22/citadel/?page=2", "/daily/2026-11-22/citadel/?page=2"),
        ("//elsewhere.example/", "/me/"),
        ("https://elsewhere.example/", "/me/"),
        ("/\\elsewhere.example", "/me/"),
        ("javascript:alert(1)", "/me/"),
    ],
)
def test_a_name_chosen_from_a_leaderboard_returns_there(member, asked: str, back: str) -> None:
    """Saved, the name left the player on the profile, the row they came from out of reach
    (a player's pass); only a page of this site is returned to."""
    Player.objects.filter(pk=member.pk).update(display_name="")
    browser = client_of(member)
    profile = reverse("games:profile")

    page = browser.get(profile, {"next": asked}).text
    saved = browser.post(profile, {"display_name": "Ada", "next": asked})

    assert saved.status_code == 302 and saved["Location"] == back
    assert ('name="next"' in page) == (back != profile)


def test_one_result_draws_a_bar_not_the_whole_chart() -> None:
    """One win at par drew one bar as wide as the chart, its axis "84 … 84 moves"."""
    chart = histogram({84: 1}, 84)

    assert chart is not None
    low, high, width, bars = chart["low"], chart["high"], chart["width"], chart["bars"]
    assert isinstance(low, int) and isinstance(high, int) and isinstance(bars, list)
    assert low < 84 < high
    assert len(bars) == 1 and bars[0]["w"] < int(str(width)) / 10


ROW = re.compile(r'<td class="num">\(?(\d+)\)?</td><td class="who">([^<]+)<')
"""A leaderboard row as drawn: its place (in brackets when unranked) and its player's name."""


def shown(body: str) -> list[tuple[int, str]]:
    """The rows a leaderboard page draws, the viewer's own row below it included."""
    return [(int(rank), html.unescape(name)) for rank, name in ROW.findall(body)]


@pytest.fixture
def crowd(daily: Daily) -> Callable[[int], list[Entry]]:
    """Adds ``n`` ranked wins of the daily at once (a thousand, made one by one, took
    seconds): many tied on moves, and every 66th on moves, time and finish alike (the
    primary key orders those); with each call four better wins that do not rank (flagged,
    hidden, an inactive account's, an anonymous player's). Returns the ranked ones."""
    made = itertools.count()

    def make(n: int) -> list[Entry]:
        first = next(made) * 100_000
        names = [f"Crowd {first + i:06}" for i in range(n)]
        names += [f"{unranked} {first}" for unranked in ("Flagged", "Hidden", "Inactive")]
        users = User.objects.bulk_create(
            User(username=name, password="!", is_active=not name.startswith("Inactive"))
            for name in names
        )
        players = Player.objects.bulk_create(
            [Player(user=user, display_name=user.username) for user in users] + [Player()]
        )
        games = Game.objects.bulk_create(
            Game(slug="citadel", deal=3, owner=player, daily=daily, position="", status="won")
            for player in players
        )
        entries = Entry.objects.bulk_create(
            Entry(
                daily=daily,
                player=player,
                game=game,
                moves=80 + i * 7 % 11 if i < n else 50,
                elapsed=dt.timedelta(seconds=60 + i % 3),
                finished_at=NOON + dt.timedelta(minutes=i % 2),
                flagged=i == n,
                hidden=i == n + 1,
            )
            for i, (player, game) in enumerate(zip(players, games, strict=True))
        )
        return entries[:n]

    return make


def test_a_leaderboard_page_reads_a_page_of_entries_however_many_rank(
    daily: Daily, member, crowd: Callable[[int], list[Entry]]
) -> None:
    """The page read every ranked entry to draw fifty (1.3-1.6 s a view at 20,000, a
    review measured). Now it builds a page of them and the viewer's own, whatever the
    number ranked, and reads the entries table only a page (LIMIT) or a count at a time."""
    make_entry(daily, member, 200, 60, 0)  # the viewer's own row, last
    browser = client_of(member)
    url = reverse("games:daily_leaderboard", args=[DAY, "citadel"])
    built: list[Entry] = []

    def counted(sender: type[Entry], instance: Entry, **kwargs: object) -> None:
        built.append(instance)

    def read(page: str) -> tuple[int, list[str]]:
        built.clear()
        post_init.connect(counted, sender=Entry)
        try:
            with CaptureQueriesContext(connection) as queries:
                assert browser.get(url, {"page": page}).status_code == 200
        finally:
            post_init.disconnect(counted, sender=Entry)
        assert len(built) <= ROWS_PER_PAGE + 1
        reads = [query["sql"] for query in queries if '"games_entry"' in query["sql"]]
        assert all("LIMIT" in sql or "COUNT(" in sql for sql in reads), reads
        return len(queries), reads

    crowd(50)
    few = [read(page) for page in ("1", "2")]
    crowd(950)
    leaderboard.forget_counts([daily.pk])  # made in bulk, not by wins (``record_win``)
    many = [read(page) for page in ("1", "3", "20")]

    assert {n for n, _ in few} == {n for n, _ in many}  # as many queries at 51 as at 1,001


def test_leaderboard_pages_rank_as_the_whole_ranking_ties_included(
    client: Client, daily: Daily, crowd: Callable[[int], list[Entry]]
) -> None:
    entries = crowd(120)
    url = reverse("games:daily_leaderboard", args=[DAY, "citadel"])

    pages = [client.get(url, {"page": n}).text for n in (1, 2, 3)]

    order = sorted(entries, key=lambda e: (e.moves, e.elapsed, e.finished_at, e.pk))
    whole = [(rank, entry.player.name) for rank, entry in enumerate(order, 1)]
    assert [row for page in pages for row in shown(page)] == whole
    assert [len(shown(page)) for page in pages] == [50, 50, 20]
    assert "Page 3 of 3" in pages[2]
    # Past the end, or no number: any of them served the last page, the dearest to read.
    for bad in ("99", "4", "0", "-1", "x", "2.0", "9" * 4000):
        assert client.get(url, {"page": bad}).status_code == 404, bad
    assert not any(name in page for page in pages for name in ("Flagged", "Hidden", "Inactive"))
    assert [(row.rank, row.entry.player.name) for row in leaderboard.ranking(daily, now=NOON)] == (
        whole
    )


def test_a_leaderboard_lists_its_first_places_only(
    client: Client, daily: Daily, crowd: Callable[[int], list[Entry]], monkeypatch
) -> None:
    """A page's read walks every row before it: the last of 320 pages took 162 ms."""
    monkeypatch.setattr(leaderboard, "MAX_PLACES", 60)
    crowd(120)
    url = reverse("games:daily_leaderboard", args=[DAY, "citadel"])

    last = client.get(url, {"page": 2}).text
    assert "Page 2 of 2" in last and len(shown(last)) == 10
    assert client.get(url, {"page": 3}).status_code == 404
    assert sum(leaderboard.ranking_page(daily, 1, per_page=50, now=NOON).move_counts.values()) == (
        120
    )  # the spread counts every ranked win


def test_my_row_shows_below_a_page_without_it_and_in_its_place_on_its_own(
    daily: Daily, member, crowd: Callable[[int], list[Entry]]
) -> None:
    crowd(120)
    make_entry(daily, member, 200, 60, 0)  # the most moves: 121st
    browser = client_of(member)
    url = reverse("games:daily_leaderboard", args=[DAY, "citadel"])

    first, last = (browser.get(url, {"page": n}).text for n in (1, 3))

    assert [rank for rank, _ in shown(first)] == [*range(1, 51), 121]
    assert shown(first)[-1] == (121, "Ada") and '<tr class="gap">' in first
    assert [rank for rank, _ in shown(last)] == list(range(101, 122))
    assert shown(last)[-1] == (121, "Ada") and '<tr class="gap">' not in last
    assert first.count('class="mine"') == last.count('class="mine"') == 1


def test_the_spread_counts_every_ranked_win_not_only_the_page(
    client: Client, daily: Daily, crowd: Callable[[int], list[Entry]]
) -> None:
    entries = crowd(120)

    body = client.get(reverse("games:daily_leaderboard", args=[DAY, "citadel"]), {"page": 2})

    bars = re.findall(r"<title>(\d+) won in (\d+) moves</title>", body.text)
    assert {int(moves): int(n) for n, moves in bars} == Counter(e.moves for e in entries)


def test_starting_a_daily_links_the_game_and_resumes_it(owner_client: Client, live: Daily) -> None:
    url = reverse("games:daily_play", args=[live.date, "citadel"])

    first = owner_client.get(url)
    second = owner_client.get(url)

    game = Game.objects.get()
    assert first["Location"] == second["Location"] == game.get_absolute_url()
    assert game.daily == live and game.deal == live.deal


def test_a_link_on_another_site_starts_no_daily_game(owner_client: Client, live: Daily) -> None:
    """A cross-site link to a daily's play URL created the visitor's one daily game, its
    clock running from that visit (120 s on the entry before their first move, in an
    attacker's pass); it now shows the daily's page, whose Play starts it."""
    url = reverse("games:daily_play", args=[live.date, "citadel"])
    elsewhere = {"Sec-Fetch-Site": "cross-site"}

    shown = owner_client.get(url, headers=elsewhere)

    assert shown["Location"] == reverse("games:daily_leaderboard", args=[live.date, "citadel"])
    assert not Game.objects.exists()
    started = owner_client.get(url, headers={"Sec-Fetch-Site": "same-origin"})
    again = owner_client.get(url, headers=elsewhere)
    assert started["Location"] == again["Location"] == Game.objects.get().get_absolute_url()


def test_a_browser_without_sec_fetch_site_starts_its_daily_only_from_the_site(
    player: Player, live: Daily
) -> None:
    """A browser that sends no ``Sec-Fetch-Site`` (Safari before 16.4) was taken for the
    site itself: a link elsewhere started its daily game, the clock running (an attacker's
    pass). It is believed with a ``Referer`` of the site's, which the site's links send."""
    url = reverse("games:daily_play", args=[live.date, "citadel"])
    old_browser = client_of(player)
    del old_browser.defaults["HTTP_SEC_FETCH_SITE"]
    shown = reverse("games:daily_leaderboard", args=[live.date, "citadel"])

    assert old_browser.get(url)["Location"] == shown
    assert old_browser.get(url, headers={"Referer": "https://elsewhere.example/"})["Location"] == (
        shown
    )
    assert old_browser.get(url, headers={"Referer": "https://testserver/"})["Location"] == shown
    assert not Game.objects.exists()
    started = old_browser.get(url, headers={"Referer": f"http://testserver{shown}"})
    assert started["Location"] == Game.objects.get().get_absolute_url()


def test_the_archive_shows_one_month_at_a_time(client: Client, db: None) -> None:
    today = utc_now().date()
    this_month = today.replace(day=1)
    last_month = (this_month - dt.timedelta(days=1)).replace(day=1)
    for date in [last_month, last_month + dt.timedelta(days=1), this_month]:
        make_daily(date)
    make_daily(today + dt.timedelta(days=1))

    latest = client.get(reverse("games:daily_archive"))
    older = client.get(reverse("games:daily_archive"), {"month": f"{last_month:%Y-%m}"})

    assert f'href="/daily/{this_month}/"' in latest.text
    assert f"/daily/{last_month}/" not in latest.text
    assert f'?month={last_month:%Y-%m}"' in latest.text
    assert latest.text.count('<li><a href="/daily/') == 1
    assert older.text.count('<li><a href="/daily/') == 2
    for bad in ["1999-01", "2026-13", "x"]:
        assert client.get(reverse("games:daily_archive"), {"month": bad}).status_code == 404


def test_game_champions_count_only_ranked_wins(client: Client, db: None) -> None:
    ada, bob = (
        Player.objects.create(display_name=n, user=User.objects.create_user(n))
        for n in ("Ada", "Bob")
    )
    anonymous = Player.objects.create(display_name="Anon")
    for offset, (player, moves) in enumerate([(ada, 70), (ada, 66), (bob, 61), (anonymous, 50)]):
        date = DAY + dt.timedelta(days=offset if player is ada else 5 + offset)
        daily = Daily.objects.create(slug="citadel", date=date, deal=offset + 1, par=60)
        make_entry(daily, player, moves, 60, 0)

    body = client.get(reverse("games:game_leaderboard", args=["citadel"])).text

    assert '<td class="who">Ada</td><td>2</td><td>2 dailies</td><td>8.0</td>' in body
    assert '<td class="who">Bob</td><td>1</td><td>1 daily</td><td>1.0</td>' in body
    assert "Anon" not in body


def streaks(slug: str, won: dict[str, list[int]], days: list[int]) -> dict[str, int]:
    """Each player's best streak of ``slug``'s dailies, the game having a daily on each of
    ``days`` (days after ``DAY``) and each player winning those of ``won``."""
    of_day = {
        day: Daily.objects.create(
            slug=slug, date=DAY + dt.timedelta(days=day), deal=day + 1, par=60
        )
        for day in days
    }
    for name, days_won in won.items():
        player = Player.objects.create(display_name=name, user=User.objects.create_user(name))
        for day in days_won:
            make_entry(of_day[day], player, 62, 60, day)
    return {row.player.name: row.streak for row in leaderboard.champions(slug)["Best streak"]}


def test_a_family_games_streak_counts_its_dailies_won_one_after_another(
    client: Client, db: None
) -> None:
    """A streak counted consecutive days, and a family game's daily comes every few days: its
    best streak could never be more than 1."""
    every = len([rules for rules in GAMES.values() if not rules.is_classic])
    days = [0, every, 2 * every, 3 * every]

    best = streaks("penelopes-web", {"Ada": days[:3], "Bob": [days[0], days[3]]}, days)

    assert best == {"Ada": 3, "Bob": 1}
    body = client.get(reverse("games:game_leaderboard", args=["penelopes-web"])).text
    assert '<td class="who">Ada</td><td>3</td><td>3 dailies</td>' in body
    assert "A streak counts Penelope&#x27;s Web dailies won one after another" in body


def test_a_day_without_a_classic_daily_breaks_no_streak(db: None) -> None:
    """A day whose deal no search proved has no daily of that game: it broke every
    streak, though nobody could have won it. A daily the player did not win still does."""
    best = streaks("citadel", {"Ada": [0, 2, 3], "Bob": [0, 3]}, [0, 2, 3])

    assert best == {"Ada": 3, "Bob": 1}


def test_a_flood_of_champion_pages_counts_the_entries_once_a_minute(
    client: Client, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page is public and its count grows with every daily ever played: it read every
    ranked entry, with its player and daily, on every anonymous request."""
    ada = Player.objects.create(display_name="Ada", user=User.objects.create_user("Ada"))
    daily = Daily.objects.create(slug="citadel", date=DAY, deal=1, par=60)
    make_entry(daily, ada, 70, 60, 0)
    url = reverse("games:game_leaderboard", args=["citadel"])

    with CaptureQueriesContext(connection) as queries:
        pages = [client.get(url).text for _ in range(5)]
    reads = [q["sql"] for q in queries if '"games_entry"' in q["sql"]]

    assert len(reads) == 1
    assert all('<td class="who">Ada</td><td>1</td>' in page for page in pages)
    later = Daily.objects.create(slug="citadel", date=DAY + dt.timedelta(days=1), deal=2, par=60)
    make_entry(later, ada, 62, 60, 0)
    assert '<td class="who">Ada</td><td>1</td>' in client.get(url).text  # counted a moment ago

    class AMinuteLater:
        @staticmethod
        def time() -> float:
            return time.time() + leaderboard.CHAMPIONS_SECONDS + 1

    monkeypatch.setattr(locmem, "time", AMinuteLater)
    assert '<td class="who">Ada</td><td>2</td><td>2 dailies</td>' in client.get(url).text


def test_a_daily_link_of_a_game_without_a_daily_that_day_is_a_404(client: Client, db: None) -> None:
    """It sent the player to the day's page, as if that game's daily were being prepared."""
    today = utc_now().date()
    slug = next(slug for slug in GAMES if slug not in dailies.daily_games(today))

    response = client.get(reverse("games:daily_play", args=[today, slug]))

    assert response.status_code == 404
    assert f"{GAMES[slug].name} has no daily challenge that day." in response.text
    assert not Game.objects.exists()


def test_a_deactivated_accounts_win_does_not_rank(daily: Daily, member) -> None:
    """However its account was deactivated (here past the signal that ends its sessions)."""
    entry_game = win(member, daily, at=NOON)
    assert [row.entry.game for row in leaderboard.ranking(daily, now=NOON)] == [entry_game]

    User.objects.filter(pk=member.user.pk).update(is_active=False)

    assert leaderboard.ranking(daily, now=NOON) == []
    standing = leaderboard.own_standing(daily, member, now=NOON)
    assert standing is not None and not standing.ranked


def test_a_live_daily_game_offers_no_record_link_until_the_day_ends(
    live: Daily, daily: Daily
) -> None:
    """The record names the deal, which stays secret while the day is live: the link led to
    an error page whose only way on was the home page (a player's pass)."""
    player = Player.objects.create()
    today = dailies.daily_start(player=player, daily=live, now=utc_now())
    past = dailies.daily_start(player=player, daily=daily, now=NOON)
    browser = client_of(player)

    assert 'href="record"' not in browser.get(today.get_absolute_url()).text
    assert 'href="record"' in browser.get(past.get_absolute_url()).text
