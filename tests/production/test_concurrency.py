"""Writers racing on PostgreSQL: real threads, each with its own database connection.

Races are staged with PostgreSQL's own locks: the test holds the game row ``FOR UPDATE``
until every racer has read the game, checked its move and is waiting to write, then lets
them go. Each racer's compare-and-swap of ``Game.version`` must then find out that another
one wrote first.
"""

import functools
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from games import daily as dailies
from games import leaderboard, services
from games.models import Daily, Entry, Game, PlayedMove, Player
from games.players import player_adopt
from games.rules import GAMES, RulesError
from games.rules.record import split_record
from tools.loadtest import replay_problems

from .helpers import NOW, browser

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrent writers need PostgreSQL (set DATABASE_URL; .ci/run does)",
    ),
    pytest.mark.django_db(transaction=True),
]


def in_threads(actions: list[Callable[[], Any]], *, timeout: float = 30) -> list[Any]:
    """Run each action in its own thread and connection; its result, or the exception."""
    results: list[Any] = [None] * len(actions)

    def run(index: int) -> None:
        try:
            results[index] = actions[index]()
        except Exception as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(thread.is_alive() for thread in threads), "a racer never finished"
    return results


def racing(game: Game, actions: list[Callable[[], Any]]) -> list[Any]:
    """Run ``actions`` at once, releasing them only when all wait to write ``game``."""
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        results: list[Any] = []
        runner = threading.Thread(target=lambda: results.extend(in_threads(actions)))
        runner.start()
        wait_for_lock_waiters(len(actions))
    runner.join(60)
    return results


def wait_for_lock_waiters(count: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            # Inside a transaction the activity view is a snapshot unless cleared.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0] >= count:
                return
            time.sleep(0.01)
    raise AssertionError(f"{count} writers never queued for the game row")


def start(player: Player, deal: int = 1, slug: str = "beleaguered-castle") -> Game:
    return services.game_start(player=player, slug=slug, deal=deal, autoplay=False, now=NOW)


def play(game: Game, notation: str, ply: int) -> Callable[[], services.Outcome]:
    return lambda: services.game_play_move(
        game_id=game.pk, player_id=game.owner_id, move=notation, expected_ply=ply, now=NOW
    )


def undo(game: Game, ply: int) -> Callable[[], services.Outcome]:
    return lambda: services.game_undo(
        game_id=game.pk, player_id=game.owner_id, expected_ply=ply, now=NOW
    )


def restart(game: Game, ply: int) -> Callable[[], services.Outcome]:
    return lambda: services.game_restart(
        game_id=game.pk, player_id=game.owner_id, expected_ply=ply, now=NOW
    )


def line(game: Game) -> list[tuple[int, str]]:
    return list(
        game.played_moves.filter(undone=False).order_by("ply").values_list("ply", "notation")
    )


def assert_consistent() -> None:
    checked, problems = replay_problems()
    assert checked > 0
    assert problems == []


def test_two_moves_at_the_same_ply_store_exactly_one() -> None:
    game = start(Player.objects.create())

    results = racing(game, [play(game, "t3-t6", 0), play(game, "t7-f3", 0)])

    winners = [r for r in results if isinstance(r, services.Outcome)]
    losers = [r for r in results if isinstance(r, services.GameConflict)]
    assert len(winners) == 1 and len(losers) == 1, results
    assert line(game) == [(1, winners[0].played[0])]
    game.refresh_from_db()
    assert (game.ply, game.version) == (1, 2)
    assert_consistent()


def test_the_same_move_sent_twice_at_once_is_stored_once() -> None:
    game = start(Player.objects.create())

    results = racing(game, [play(game, "t3-t6", 0), play(game, "t3-t6", 0)])

    assert Counter(type(r).__name__ for r in results) == {"Outcome": 1, "GameConflict": 1}
    assert line(game) == [(1, "t3-t6")]
    assert_consistent()


@pytest.mark.parametrize(
    "racers",
    [
        lambda game: [undo(game, 1), play(game, "t7-f3", 1)],
        lambda game: [restart(game, 1), play(game, "t7-f3", 1)],
        lambda game: [undo(game, 1), undo(game, 1), restart(game, 1)],
    ],
    ids=["undo-vs-move", "restart-vs-move", "undo-undo-restart"],
)
def test_one_of_several_racing_writers_wins(racers: Callable[[Game], list]) -> None:
    game = start(Player.objects.create())
    services.game_play_move(
        game_id=game.pk, player_id=game.owner_id, move="t3-t6", expected_ply=0, now=NOW
    )

    results = racing(game, racers(game))

    outcomes = Counter(type(r).__name__ for r in results)
    assert outcomes == {"Outcome": 1, "GameConflict": len(results) - 1}, results
    assert_consistent()


def test_two_browsers_posting_the_same_ply_get_one_success_and_one_409() -> None:
    player = Player.objects.create()
    game = start(player)
    clients = [browser(player), browser(player)]
    url = f"{game.get_absolute_url()}moves"
    hx = {"HX-Request": "true", "X-CSRFToken": clients[0].cookies["csrftoken"].value}

    def post(client: Client, move: str) -> Callable[[], int]:
        return lambda: client.post(url, {"move": move, "ply": "0"}, headers=hx).status_code

    statuses = racing(game, [post(clients[0], "t3-t6"), post(clients[1], "t7-f3")])

    assert sorted(statuses) == [200, 409]
    assert len(line(game)) == 1
    assert_consistent()


def test_unstaged_races_on_one_game_never_store_a_ply_twice() -> None:
    """No staging: two threads fire at the same instant, over and over."""
    game = start(Player.objects.create(), deal=7)
    tally: Counter[str] = Counter()
    for _ in range(25):
        game.refresh_from_db()
        board = services.game_board(game)
        moves = [m.notation() for m in board.legal_moves()][:2]
        if len(moves) < 2:
            break
        gate = threading.Barrier(2, timeout=10)

        def fire(notation: str, ply: int = game.ply, gate=gate) -> services.Outcome:
            gate.wait()
            return play(game, notation, ply)()

        results = in_threads([functools.partial(fire, n) for n in moves])
        kinds = Counter(type(r).__name__ for r in results)
        assert kinds == {"Outcome": 1, "GameConflict": 1}, results
        tally.update(kinds)

    assert tally["Outcome"] >= 10
    game.refresh_from_db()
    assert [ply for ply, _ in line(game)] == list(range(1, game.ply + 1))
    assert_consistent()


def test_undo_reading_a_move_committed_after_its_game_row_conflicts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = start(Player.objects.create())
    real_board = services.game_board

    def board_then_another_tab_moves(row: Game, **kwargs: Any) -> Any:
        board = real_board(row, **kwargs)
        monkeypatch.setattr(services, "game_board", real_board)
        play(game, "t3-t6", 0)()
        return board

    monkeypatch.setattr(services, "game_board", board_then_another_tab_moves)

    with pytest.raises(services.GameConflict):
        undo(game, 0)()


def test_many_games_played_at_once_stay_replayable() -> None:
    """Eight threads share twelve games (tabs of one player, and their auto-play), moving,
    undoing, redoing and restarting whichever they pick; every refusal must be a conflict
    or a rule, and every game must replay to its stored position afterwards."""
    player = Player.objects.create()
    slugs = list(GAMES)
    games = [
        services.game_start(
            player=player, slug=slugs[i % len(slugs)], deal=100 + i, autoplay=i % 3 == 0, now=NOW
        )
        for i in range(12)
    ]
    ids = [g.pk for g in games]

    def worker(seed: int) -> Counter[str]:
        rng = random.Random(seed)
        tally: Counter[str] = Counter()
        for _ in range(60):
            game = Game.objects.get(pk=rng.choice(ids))
            kwargs: dict[str, Any] = {"game_id": game.pk, "player_id": player.pk, "now": NOW}
            roll = rng.random()
            try:
                if roll < 0.12:
                    services.game_undo(expected_ply=game.ply, **kwargs)
                elif roll < 0.18:
                    services.game_redo(expected_ply=game.ply, **kwargs)
                elif roll < 0.2:
                    services.game_restart(expected_ply=game.ply, **kwargs)
                else:
                    moves = services.game_board(game).legal_moves()
                    if not moves:
                        services.game_restart(expected_ply=game.ply, **kwargs)
                    else:
                        notation = rng.choice(moves).notation()
                        services.game_play_move(move=notation, expected_ply=game.ply, **kwargs)
                tally["stored"] += 1
            except services.GameConflict:
                tally["conflict"] += 1
            except RulesError:
                tally["refused by the rules"] += 1
        return tally

    results = in_threads([functools.partial(worker, seed) for seed in range(8)], timeout=120)

    unexpected = [r for r in results if not isinstance(r, Counter)]
    assert unexpected == []
    tally: Counter[str] = sum(results, Counter())
    assert tally["stored"] >= 200 and tally["conflict"] > 0, tally
    assert_consistent()
    for game in Game.objects.filter(pk__in=ids):
        plies = list(game.played_moves.filter(undone=False).values_list("ply", flat=True))
        assert sorted(plies) == list(range(1, game.ply + 1))


# -- the daily challenge ---------------------------------------------------------------

LINES = Path(__file__).parents[1] / "browser/lines"


def daily_line(slug: str) -> list[str]:
    return split_record((LINES / f"{slug}-3.txt").read_text())[1]


def todays_daily(slug: str) -> Daily:
    line = daily_line(slug)
    today = datetime.now(UTC).date()
    return Daily.objects.create(
        slug=slug, date=today, deal=3, par=len(line), solution=" ".join(line)
    )


def test_concurrent_first_daily_requests_create_one_game() -> None:
    """The attack: several tabs (or a script) open today's daily at once, hoping for two
    attempts. Every request lands on the one game."""
    daily = todays_daily("citadel")
    player = Player.objects.create()
    url = reverse("games:daily_play", args=[daily.date, "citadel"])
    barrier = threading.Barrier(8)

    def first_request() -> str:
        client = browser(player)
        barrier.wait()
        response = client.get(url)
        assert response.status_code == 302, response.status_code
        return response["Location"]

    results = in_threads([first_request] * 8)

    assert all(isinstance(r, str) for r in results), results
    assert len(set(results)) == 1
    assert Game.objects.filter(owner=player, daily=daily).count() == 1


def near_win(player: Player, daily: Daily) -> tuple[Game, str]:
    """The player's daily game one move from winning, and that move."""
    Player.objects.filter(pk=player.pk).update(autoplay=False)
    player.refresh_from_db()
    line = daily_line(daily.slug)
    game = dailies.daily_start(player=player, daily=daily, now=NOW)
    for ply, move in enumerate(line[:-1], 1):
        services.game_play_move(
            game_id=game.pk,
            player_id=player.pk,
            move=move,
            expected_ply=None,
            now=NOW + timedelta(seconds=ply),
        )
    return game, line[-1]


def winning(game: Game, move: str) -> Callable[[], services.Outcome]:
    ply = Game.objects.get(pk=game.pk).ply
    return lambda: services.game_play_move(
        game_id=game.pk,
        player_id=game.owner_id,
        move=move,
        expected_ply=ply,
        now=datetime.now(UTC),
    )


def test_two_winning_moves_at_once_on_one_players_two_daily_games() -> None:
    player = Player.objects.create()
    first, first_move = near_win(player, todays_daily("citadel"))
    second, second_move = near_win(player, todays_daily("fortress"))
    barrier = threading.Barrier(2)

    def at_once(action: Callable[[], services.Outcome]) -> Callable[[], services.Outcome]:
        def run() -> services.Outcome:
            barrier.wait()
            return action()

        return run

    results = in_threads(
        [at_once(winning(first, first_move)), at_once(winning(second, second_move))]
    )

    assert all(isinstance(r, services.Outcome) for r in results), results
    assert Entry.objects.filter(player=player).count() == 2


def test_the_same_winning_move_from_two_tabs_stores_one_entry() -> None:
    player = Player.objects.create()
    game, move = near_win(player, todays_daily("citadel"))

    results = racing(game, [winning(game, move), winning(game, move)])

    kinds = sorted(type(r).__name__ for r in results)
    assert kinds == ["GameConflict", "Outcome"], results
    assert Entry.objects.filter(player=player).count() == 1
    assert_consistent()


# -- double submissions of forms (issue: nothing a client sends can crash a page) ----------


def at_once(actions: list[Callable[[], Any]]) -> list[Any]:
    """Fire ``actions`` at the same instant, each in its own thread and connection."""
    gate = threading.Barrier(len(actions), timeout=10)

    def gated(action: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            gate.wait()
            return action()

        return run

    return in_threads([gated(action) for action in actions])


@pytest.mark.parametrize("attempt", range(3))
def test_two_identical_sign_ups_at_once_make_one_account_and_no_500(attempt: int) -> None:
    from django.contrib.auth.models import User

    form = {"username": "twin", "password1": "long enough pw 1", "password2": "long enough pw 1"}
    clients = [browser(Player.objects.create()) for _ in range(2)]
    token = clients[0].cookies["csrftoken"].value

    def post(client: Client) -> Callable[[], int]:
        return lambda: (
            client.post("/accounts/signup/", form, headers={"X-CSRFToken": token}).status_code
        )

    statuses = at_once([post(client) for client in clients])

    assert sorted(statuses) == [302, 400], statuses
    assert User.objects.filter(username="twin").count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_a_double_clicked_delete_deletes_once_and_never_500s(attempt: int) -> None:
    player = Player.objects.create()
    game = start(player)
    client = browser(player)
    token = client.cookies["csrftoken"].value
    url = f"{game.get_absolute_url()}delete"

    def post() -> int:
        return client.post(url, headers={"X-CSRFToken": token}).status_code

    statuses = at_once([post, post])

    assert all(status in (302, 404) for status in statuses), statuses
    assert 302 in statuses
    assert not Game.objects.filter(pk=game.pk).exists()


@pytest.mark.parametrize("attempt", range(3))
def test_a_delete_racing_moves_leaves_no_orphan_and_no_500(attempt: int) -> None:
    player = Player.objects.create()
    client = browser(player)
    token = client.cookies["csrftoken"].value
    hx = {"HX-Request": "true", "X-CSRFToken": token}
    game = start(player)
    url = game.get_absolute_url()

    def move() -> int:
        return client.post(f"{url}moves", {"move": "t3-t6", "ply": "0"}, headers=hx).status_code

    def delete() -> int:
        return client.post(f"{url}delete", headers={"X-CSRFToken": token}).status_code

    statuses = at_once([move, delete, move])

    assert all(status < 500 for status in statuses), statuses
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not PlayedMove.objects.filter(game_id=game.pk).exists()


def test_analyse_requests_at_once_queue_one_task() -> None:
    from django_tasks_db.models import DBTaskResult

    player = Player.objects.create()
    game = start(player)
    clients = [browser(player) for _ in range(4)]
    url = f"{game.get_absolute_url()}analyse"

    def analyse(client: Client) -> int:
        token = client.cookies["csrftoken"].value
        hx = {"HX-Request": "true", "X-CSRFToken": token}
        return client.post(url, headers=hx).status_code

    statuses = at_once([functools.partial(analyse, c) for c in clients])

    assert statuses == [200] * 4
    assert DBTaskResult.objects.count() == 1


# -- a log-in adopting an anonymous player's games while one of them is played -------------


def held_at_its_win(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """Pause a winning move between its game row's write and its entry: (reached, go on)."""
    reached, go_on = threading.Event(), threading.Event()
    record_win = leaderboard.record_win

    def paused(*args: Any, **kwargs: Any) -> Any:
        reached.set()
        assert go_on.wait(20)
        return record_win(*args, **kwargs)

    monkeypatch.setattr(services, "record_win", paused)
    return reached, go_on


def test_a_log_in_while_a_daily_win_is_written_waits_for_it_and_takes_its_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The win holds its game row when the log-in starts: the log-in waits for the win, then
    moves the game and its entry to the account. It had locked the anonymous player first,
    which the win's entry needs: a deadlock on PostgreSQL, and the winning move a 500."""
    anonymous = Player.objects.create()
    game, move = near_win(anonymous, todays_daily("citadel"))
    user = User.objects.create_user("reader")
    account = Player.objects.create(user=user)
    reached, go_on = held_at_its_win(monkeypatch)
    results: list[Any] = []
    the_win = winning(game, move)
    win = threading.Thread(target=lambda: results.extend(in_threads([the_win])))
    win.start()
    assert reached.wait(20)
    log_in = threading.Thread(
        target=lambda: results.extend(
            in_threads([lambda: player_adopt(anonymous_id=anonymous.pk, user=user)])
        )
    )
    log_in.start()
    wait_for_lock_waiters(1)  # the log-in, queued behind the win's game row
    go_on.set()
    win.join(60)
    log_in.join(60)

    assert isinstance(results[0], services.Outcome), results
    assert results[1] == account, results
    assert Entry.objects.get().player == account
    assert Game.objects.get().owner == account
    assert not Player.objects.filter(pk=anonymous.pk).exists()
    assert_consistent()


def test_a_daily_win_sent_while_a_log_in_moves_its_game_conflicts_and_writes_nothing() -> None:
    """The log-in holds the game when the win arrives: the win waits, then finds the game
    moved on (to the account) and answers a conflict, as a move from a stale tab does. It
    had written its entry for the anonymous player the log-in deleted: a foreign-key error
    at the commit, and a 500."""
    anonymous = Player.objects.create()
    game, move = near_win(anonymous, todays_daily("citadel"))
    user = User.objects.create_user("reader")
    account = Player.objects.create(user=user)
    results: list[Any] = []
    the_win = winning(game, move)
    with transaction.atomic():
        player_adopt(anonymous_id=anonymous.pk, user=user)
        win = threading.Thread(target=lambda: results.extend(in_threads([the_win])))
        win.start()
        wait_for_lock_waiters(1)
    win.join(60)

    assert isinstance(results[0], services.GameConflict), results
    assert not Entry.objects.exists()
    assert Game.objects.get().owner == account
    assert Game.objects.get().status != Game.Status.WON
    assert_consistent()


def test_two_log_ins_at_once_to_an_account_without_a_player_make_one() -> None:
    """An account made outside sign-up (``createsuperuser``, the admin) has no player until
    its first log-in makes one: two log-ins at once, from two browsers, both made one, and
    the second broke the unique user, a 500 (a review). The second now waits and merges."""
    user = User.objects.create_user("twice")
    laptop, phone = Player.objects.create(), Player.objects.create()
    results: list[Any] = []
    with transaction.atomic():
        account = player_adopt(anonymous_id=laptop.pk, user=user)
        second = threading.Thread(
            target=lambda: results.extend(
                in_threads([lambda: player_adopt(anonymous_id=phone.pk, user=user)])
            )
        )
        second.start()
        wait_for_lock_waiters(1)
    second.join(60)

    assert results == [account], results
    assert list(Player.objects.filter(user=user)) == [account]
    assert not Player.objects.filter(pk=phone.pk).exists()
