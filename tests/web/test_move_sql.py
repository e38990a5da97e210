"""The move hot path's hand-written SQL reads and writes exactly what the ORM would."""

import datetime as dt
import uuid

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import move_sql, pages, services
from games.models import Daily, DealVerdict, Game, PlayedMove, Player


@pytest.fixture
def full_game(player: Player, now: dt.datetime) -> Game:
    """A game whose every column holds a value, null ones included where they can."""
    daily = Daily.objects.create(
        slug="beleaguered-castle", date=dt.date(2026, 11, 22), deal=9, par=80, solution=""
    )
    game = services.game_start(
        player=player,
        slug="beleaguered-castle",
        deal=9,
        options=["take-back"],
        daily=daily,
        now=now,
    )
    Game.objects.filter(pk=game.pk).update(
        elapsed=dt.timedelta(minutes=3, seconds=7, microseconds=5),
        hints=2,
        undos=3,
        redo=1,
        restart_ply=4,
        finished_at=now + dt.timedelta(hours=1),
    )
    return Game.objects.get(pk=game.pk)


def columns(game: Game) -> dict[str, object]:
    return {field.attname: getattr(game, field.attname) for field in Game._meta.concrete_fields}


def test_read_game_reads_every_column_as_the_orm_does(full_game: Game) -> None:
    read = move_sql.read_game(full_game.pk)

    assert columns(read) == columns(Game.objects.get(pk=full_game.pk))
    assert read.options == ["take-back"] and read.daily_id is not None
    assert not read._state.adding and read._state.db == "default"


def test_read_game_takes_the_id_as_text_too(full_game: Game) -> None:
    assert move_sql.read_game(str(full_game.pk)).pk == full_game.pk


@pytest.mark.parametrize("game_id", [uuid.uuid4(), "not-a-game-id", ""])
def test_read_game_of_no_game_raises_does_not_exist(db: None, game_id: object) -> None:
    with pytest.raises(Game.DoesNotExist):
        move_sql.read_game(game_id)  # type: ignore[arg-type]


def test_swap_game_writes_the_changes_and_bumps_the_version(
    full_game: Game, now: dt.datetime
) -> None:
    game = move_sql.read_game(full_game.pk)
    version = game.version
    game.ply, game.position, game.status = 7, "somewhere", Game.Status.WON
    game.elapsed, game.active_at, game.restart_ply = dt.timedelta(seconds=90), now, None

    assert move_sql.swap_game(game)

    stored = Game.objects.get(pk=game.pk)
    assert game.version == stored.version == version + 1
    assert (stored.ply, stored.position, stored.status) == (7, "somewhere", "won")
    assert (stored.elapsed, stored.active_at, stored.restart_ply) == (
        dt.timedelta(seconds=90),
        now,
        None,
    )
    assert stored.hints == 2  # not a column the hot path writes


def test_swap_game_at_a_stale_version_writes_nothing(full_game: Game) -> None:
    first, second = move_sql.read_game(full_game.pk), move_sql.read_game(full_game.pk)
    first.ply = 1
    assert move_sql.swap_game(first)

    second.ply = 2
    assert not move_sql.swap_game(second)

    stored = Game.objects.get(pk=full_game.pk)
    assert (stored.ply, stored.version) == (1, first.version)
    assert second.version == first.version - 1


def test_insert_moves_appends_rows_and_read_line_returns_the_current_line(
    game: Game, now: dt.datetime
) -> None:
    with transaction.atomic():
        move_sql.insert_moves(game, 1, [("t3-t6", False), ("t7-f3", True)], now=now)
    PlayedMove.objects.create(game=game, ply=3, notation="t1-t2", undone=True)

    stored = list(game.played_moves.values_list("ply", "notation", "auto", "undone"))
    assert stored == [
        (1, "t3-t6", False, False),
        (2, "t7-f3", True, False),
        (3, "t1-t2", False, True),
    ]
    assert list(game.played_moves.filter(ply__lte=2).values_list("played_at", flat=True)) == [
        now,
        now,
    ]
    assert move_sql.read_line(game) == ["t3-t6", "t7-f3"]


def test_insert_moves_refuses_a_taken_ply(game: Game, now: dt.datetime) -> None:
    move_sql.insert_moves(game, 1, [("t3-t6", False)], now=now)

    with pytest.raises(IntegrityError), transaction.atomic():
        move_sql.insert_moves(game, 1, [("t7-f3", False)], now=now)

    assert move_sql.read_line(game) == ["t3-t6"]


def test_a_server_that_did_not_serve_the_last_move_replays_the_same_board(
    owner_client, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner_client.post(f"/games/{game.pk}/moves", {"move": "t3-t6", "ply": "0"})
    game.refresh_from_db()
    monkeypatch.setattr(services, "_boards", type(services._boards)())  # a cold cache

    board = services.game_board(game)

    assert board.layout() == game.position == services.game_board(game, checked=True).layout()
    assert board.ply == 1 and board.undo().notation() == "t3-t6"


def test_a_board_read_across_another_tabs_move_is_not_cached_as_the_older_version(
    owner_client, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = Game.objects.get(pk=game.pk)
    owner_client.post(f"/games/{game.pk}/moves", {"move": "t3-t6", "ply": "0"})  # lands now
    monkeypatch.setattr(services, "_boards", type(services._boards)())  # another app server

    board = services.game_board(stale)

    assert board.ply == 1  # the line as it is now, newer than the row that was read
    assert (stale.pk, stale.version) not in services._boards
    game.refresh_from_db()
    assert services.game_board(game).layout() == game.position
    assert (game.pk, game.version) in services._boards


def test_insert_moves_stores_a_long_line_in_few_statements(
    game: Game, now: dt.datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An imported record holds up to 2,000 moves: PostgreSQL takes them as arrays in one
    statement, other backends in statements of ``MOVES_PER_STATEMENT`` rows (six
    parameters each: SQLite takes 999 at least)."""
    monkeypatch.setattr(move_sql, "MOVES_PER_STATEMENT", 2)
    line = [(f"t{1 + n % 8}-t{1 + (n + 1) % 8}", n % 3 == 0) for n in range(5)]

    with CaptureQueriesContext(connection) as queries:
        move_sql.insert_moves(game, 4, line, now=now)

    inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) == (1 if connection.vendor == "postgresql" else 3)
    stored = game.played_moves.values_list("ply", "notation", "auto", "undone", "played_at")
    assert list(stored) == [
        (ply, notation, auto, False, now) for ply, (notation, auto) in enumerate(line, 4)
    ]


@pytest.mark.parametrize("verdict", [None, *DealVerdict.Verdict.values])
def test_read_verdict_reads_the_deals_verdict_as_the_orm_does(
    db: None, now: dt.datetime, verdict: str | None
) -> None:
    if verdict is not None:
        DealVerdict.objects.create(
            slug="beleaguered-castle", deal=7, verdict=verdict, solution="t1-f1", requested_at=now
        )
    DealVerdict.objects.create(
        slug="beleaguered-castle", deal=8, verdict="winnable", solution="t1-f1", requested_at=now
    )

    assert move_sql.read_verdict("beleaguered-castle", 7) == verdict
    assert move_sql.read_verdict("fortress", 8) is None


@pytest.mark.parametrize("verdict", DealVerdict.Verdict.values)
@pytest.mark.parametrize("kind", ["plain", "eased", "daily"])
def test_a_stuck_games_lost_deal_is_the_one_its_badge_calls_unwinnable(
    player: Player, now: dt.datetime, verdict: str, kind: str
) -> None:
    """``pages.proved_unwinnable`` reads the verdict in SQL of its own, as
    ``DealVerdict.for_game`` reads the badge's: never for a daily, and with an easing
    option only a winnable verdict counts."""
    daily = None
    if kind == "daily":
        daily = Daily.objects.create(
            slug="beleaguered-castle", date=dt.date(2026, 11, 20), deal=7, par=80, solution="t1-f1"
        )
    game = services.game_start(
        player=player,
        slug="beleaguered-castle",
        deal=7,
        options=["take-back"] if kind == "eased" else [],
        daily=daily,
        now=now,
    )
    DealVerdict.objects.create(
        slug="beleaguered-castle", deal=7, verdict=verdict, solution="t1-f1", requested_at=now
    )
    badge = DealVerdict.for_game(game)

    expected = badge is not None and badge.verdict == DealVerdict.Verdict.UNWINNABLE
    assert pages.proved_unwinnable(game) is expected
    assert expected is (kind == "plain" and verdict == "unwinnable")
