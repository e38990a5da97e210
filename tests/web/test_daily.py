import datetime as dt
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import daily as dailies
from games import services
from games.models import Daily, Entry, Game, Move, Player
from games.rules import Board
from games.rules.record import split_record

LINE = split_record((Path(__file__).parents[1] / "browser/lines/citadel-3.txt").read_text())[1]
DAY = dt.date(2026, 11, 22)
NOON = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)


@pytest.fixture
def daily(db: None) -> Daily:
    """Citadel deal 3 as the daily of DAY (its 68-move winning line is known)."""
    return Daily.objects.create(
        game="citadel", date=DAY, deal=3, par=len(LINE) - 4, solution=" ".join(LINE)
    )


def win(player: Player, daily: Daily, *, at: dt.datetime, seconds_per_move: int = 0) -> Game:
    game = services.game_start(
        player=player, game=daily.game, deal=daily.deal, autoplay=False, daily=daily, now=at
    )
    for ply, move in enumerate(LINE, 1):
        services.game_play_move(
            game_id=game.pk,
            player_id=player.pk,
            notation=move,
            expected_ply=None,
            now=at + dt.timedelta(seconds=ply * seconds_per_move),
        )
    game.refresh_from_db()
    return game


def test_candidate_deals_are_stable_across_processes() -> None:
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


def test_the_chosen_deal_is_proved_winnable(db: None) -> None:
    daily = dailies.daily_for_date(game="citadel", date=DAY)

    board = Board("citadel", daily.deal)
    for move in daily.solution.split():
        board.play(move)
    assert board.is_won() and board.ply == daily.par
    assert dailies.daily_for_date(game="citadel", date=DAY).pk == daily.pk


def test_pooled_games_draw_a_proved_deal_from_their_pool(db: None) -> None:
    deal, line = dailies.choose_deal("archway", DAY)

    assert deal in {d for d, _ in dailies.pool("archway")}
    board = Board("archway", deal)
    for move in line:
        board.play(move)
    assert board.is_won()


def test_a_pooled_deal_comes_back_only_after_the_whole_pool(db: None) -> None:
    pooled = dailies.pool("archway")
    days = [DAY + dt.timedelta(days=n) for n in range(len(pooled) + 1)]

    deals = [dailies.choose_deal("archway", day)[0] for day in days]

    assert sorted(deals[:-1]) == sorted(deal for deal, _ in pooled)
    assert deals[-1] == deals[0]


@pytest.mark.django_db(transaction=True)
def test_concurrent_first_requests_store_one_daily() -> None:
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("in-memory SQLite fails shared-cache locks at once; a file database waits")
    barrier = threading.Barrier(4)
    results: list[object] = []

    def first_request() -> None:
        barrier.wait()
        try:
            results.append(dailies.daily_for_date(game="citadel", date=DAY).pk)
        except Exception as error:  # reported by the assertion below
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=first_request) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(set(results)) == 1, results
    assert Daily.objects.filter(game="citadel", date=DAY).count() == 1


def test_prepare_dailies_twice_creates_each_day_once(db: None, capsys) -> None:
    for _ in range(2):
        call_command("prepare_dailies", "--days", "1", "--games", "citadel", "fortress")

    assert Daily.objects.count() == 4
    assert "prepared in" in capsys.readouterr().out


def test_a_daily_win_creates_an_entry_and_the_record_verifies(daily: Daily, player) -> None:
    game = win(player, daily, at=NOON)

    entry = Entry.objects.get()
    assert (entry.game, entry.moves, entry.player) == (game, len(LINE), player)
    assert dailies.verify_entries() == []


def test_ranking_orders_by_moves_then_time_then_finish(daily: Daily) -> None:
    players = [Player.objects.create(display_name=n) for n in ("A", "B", "C", "D")]
    for player, moves, seconds, minute in [
        (players[0], 70, 300, 5),
        (players[1], 68, 400, 6),
        (players[2], 68, 200, 7),
        (players[3], 68, 200, 1),
    ]:
        game = Game.objects.create(
            game="citadel", deal=3, owner=player, daily=daily, position="", status="won"
        )
        Entry.objects.create(
            daily=daily,
            player=player,
            game=game,
            moves=moves,
            elapsed=dt.timedelta(seconds=seconds),
            finished_at=NOON + dt.timedelta(minutes=minute),
        )

    names = [row.entry.player.display_name for row in dailies.ranking(daily)]

    assert names == ["D", "C", "B", "A"]


def test_only_a_players_best_result_is_kept(daily: Daily, player) -> None:
    win(player, daily, at=NOON, seconds_per_move=2)
    faster = win(player, daily, at=NOON, seconds_per_move=1)
    win(player, daily, at=NOON, seconds_per_move=3)

    entry = Entry.objects.get()
    assert entry.game == faster
    assert entry.elapsed == dt.timedelta(seconds=len(LINE))


def test_late_wins_are_never_ranked(daily: Daily, player) -> None:
    game = win(player, daily, at=NOON + dt.timedelta(days=1))

    assert game.status == Game.Status.WON
    assert not Entry.objects.exists()


def test_games_with_an_easing_option_are_never_ranked(player) -> None:
    daily = Daily.objects.create(game="beleaguered-castle", date=DAY, deal=1, par=1, solution="")
    game = Game.objects.create(
        game="beleaguered-castle",
        deal=1,
        owner=player,
        daily=daily,
        position="",
        options=["take-back"],
        status="won",
        ply=90,
    )

    assert dailies.record_win(game, NOON) is None
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    "finished,ranked",
    [
        (dt.datetime(2026, 11, 22, 23, 59, 59, tzinfo=dt.UTC), True),
        (dt.datetime(2026, 11, 23, 0, 0, 0, tzinfo=dt.UTC), False),
        (dt.datetime(2026, 11, 22, 19, 0, tzinfo=dt.timezone(dt.timedelta(hours=-5))), False),
    ],
)
def test_the_utc_date_boundary(daily: Daily, player, finished, ranked: bool) -> None:
    win(player, daily, at=finished)

    assert Entry.objects.exists() is ranked


def test_verify_leaderboard_catches_a_tampered_move(daily: Daily, player, capsys) -> None:
    game = win(player, daily, at=NOON)
    call_command("verify_leaderboard")
    assert "0 mismatches" in capsys.readouterr().out

    Move.objects.filter(game=game, ply=5).update(notation="t1-t2")

    with pytest.raises(SystemExit) as exit_:
        call_command("verify_leaderboard")
    assert exit_.value.code == 1
    assert "1 mismatches" in capsys.readouterr().out


def test_there_is_no_endpoint_that_accepts_a_score(client: Client, daily: Daily) -> None:
    url = reverse("games:daily_board", args=[DAY, "citadel"])

    assert client.post(url, {"moves": 1}).status_code == 405
    assert not Entry.objects.exists()


def test_daily_page_shows_par_winners_and_my_status(
    owner_client: Client, daily: Daily, player, monkeypatch
) -> None:
    monkeypatch.setattr(dailies, "utc_today", lambda now: DAY)
    monkeypatch.setattr(dailies, "daily_for_date", _only_citadel(daily))
    win(player, daily, at=NOON)

    body = owner_client.get(reverse("games:daily_day", args=[DAY])).text

    assert f"Par <b>{daily.par}</b> moves · 1 won" in body
    assert f"You won in <b>{len(LINE)}</b> moves, rank <b>1</b>" in body


def _only_citadel(daily: Daily):  # type: ignore[no-untyped-def]
    def fake(*, game: str, date: dt.date) -> Daily:
        if game == "citadel":
            return daily
        raise dailies.DailyUnavailable("not in this test")

    return fake


def test_future_days_are_not_out_yet(client: Client, db: None) -> None:
    tomorrow = dailies.utc_today(dt.datetime.now(dt.UTC)) + dt.timedelta(days=1)

    assert client.get(reverse("games:daily_day", args=[tomorrow])).status_code == 404
    assert client.get("/daily/2026-02-30/").status_code == 404


def test_leaderboard_highlights_my_row_and_draws_the_spread(
    owner_client: Client, daily: Daily, player
) -> None:
    win(player, daily, at=NOON)

    body = owner_client.get(reverse("games:daily_board", args=[DAY, "citadel"])).text

    assert 'class="mine" aria-current="true"' in body
    assert '<figure class="histogram">' in body
    assert reverse("games:replay", args=[Entry.objects.get().game_id]) in body


def test_starting_a_daily_links_the_game_and_resumes_it(
    owner_client: Client, daily: Daily, monkeypatch
) -> None:
    monkeypatch.setattr(dailies, "utc_today", lambda now: DAY)
    url = reverse("games:daily_play", args=[DAY, "citadel"])

    first = owner_client.get(url)
    second = owner_client.get(url)

    game = Game.objects.get()
    assert first["Location"] == second["Location"] == game.get_absolute_url()
    assert game.daily == daily and game.deal == daily.deal


def test_game_champions_count_wins_streaks_and_average_over_par(client: Client, db: None) -> None:
    ada, bob = (Player.objects.create(display_name=n) for n in ("Ada", "Bob"))
    for offset, (player, moves) in enumerate([(ada, 70), (ada, 66), (bob, 61)]):
        date = DAY + dt.timedelta(days=offset if player is ada else 5)
        daily = Daily.objects.create(game="citadel", date=date, deal=offset + 1, par=60)
        game = Game.objects.create(
            game="citadel", deal=offset + 1, owner=player, daily=daily, position="", status="won"
        )
        Entry.objects.create(
            daily=daily,
            player=player,
            game=game,
            moves=moves,
            elapsed=dt.timedelta(seconds=60),
            finished_at=NOON,
        )

    body = client.get(reverse("games:game_board", args=["citadel"])).text

    assert "<td>Ada</td><td>2</td><td>2 days</td><td>8.0</td>" in body
    assert "<td>Bob</td><td>1</td><td>1 day</td><td>1.0</td>" in body
