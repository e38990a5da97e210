"""Migrations that rename keep the rows: a game's moves survive ``Move`` becoming
``PlayedMove``, and every stored slug survives its field becoming ``slug``."""

import datetime as dt
from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps

Target = list[tuple[str, str]]


def migrate(targets: Target) -> StateApps:
    """The models as of ``targets``, after migrating the test database there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.fixture
def migrations() -> Iterator[None]:
    """Leave the database at the newest migrations for the tests that follow."""
    yield
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrations")
def test_renaming_the_move_model_keeps_the_stored_moves() -> None:
    old = migrate([("games", "0007_game_list_in_code")])
    player = old.get_model("games", "Player").objects.create()
    game = old.get_model("games", "Game").objects.create(
        game="citadel", deal=1, owner=player, position="-"
    )
    old.get_model("games", "Move").objects.create(game=game, ply=1, notation="t1-f1")

    new = migrate([("games", "0008_played_move")])

    moves = new.get_model("games", "PlayedMove").objects.filter(game_id=game.pk)
    assert list(moves.values_list("ply", "notation")) == [(1, "t1-f1")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrations")
def test_naming_the_slug_fields_slug_keeps_every_slug() -> None:
    old = migrate([("games", "0008_played_move")])
    player = old.get_model("games", "Player").objects.create()
    day = dt.date(2026, 11, 25)
    daily = old.get_model("games", "Daily").objects.create(
        game="citadel", date=day, deal=3, par=60, solution="-"
    )
    game = old.get_model("games", "Game").objects.create(
        game="fortress", deal=7, owner=player, position="-", daily=daily
    )
    old.get_model("games", "DealVerdict").objects.create(
        game="chessboard", deal=5, requested_at=dt.datetime(2026, 11, 25, tzinfo=dt.UTC)
    )

    new = migrate([("games", "0009_slug_fields")])

    assert new.get_model("games", "Game").objects.get(pk=game.pk).slug == "fortress"
    assert new.get_model("games", "Daily").objects.get(date=day).slug == "citadel"
    assert new.get_model("games", "DealVerdict").objects.get(deal=5).slug == "chessboard"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrations")
def test_names_get_their_keys_and_an_older_look_alike_keeps_its_name() -> None:
    """Names older than their keys: the first of those that read alike gets the key; a
    later one keeps its name with no key (the constraint would refuse a second)."""
    old = migrate([("games", "0012_game_deal_index")])
    players = old.get_model("games", "Player").objects
    first = players.create(display_name="Alice Lord")
    alike = players.create(display_name="AIice Lord")
    nameless = players.create()

    new = migrate([("games", "0013_player_name_key")])

    keys = dict(new.get_model("games", "Player").objects.values_list("pk", "name_key"))
    assert keys == {first.pk: "allcelord", alike.pk: "", nameless.pk: ""}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrations")
def test_names_get_their_keys_again_when_digits_read_as_letters() -> None:
    """3, 4 and 7 read as E, A and T since 0015: an older "7om" keeps its name with no key
    beside an older "Tom", and "R2-D4" gets its new key."""
    old = migrate([("games", "0014_dealverdict_hinted")])
    players = old.get_model("games", "Player").objects
    tom = players.create(display_name="Tom", name_key="tom")
    digits = players.create(display_name="7om", name_key="7om")
    droid = players.create(display_name="R2-D4", name_key="rzd4")

    new = migrate([("games", "0015_player_name_key_digits")])

    keys = dict(new.get_model("games", "Player").objects.values_list("pk", "name_key"))
    assert keys == {tom.pk: "tom", digits.pk: "", droid.pk: "rzda"}


@pytest.mark.django_db
@pytest.mark.parametrize("table", ["games_game", "games_playedmove", "games_entry"])
def test_no_index_is_the_start_of_another(table: str) -> None:
    """An index whose columns begin another's serves no lookup the longer one does not,
    and costs every write: each move wrote ``games_playedmove``'s ``game_id`` index beside
    ``move_unique_game_ply`` (a review). Unique ones are constraints, kept."""
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, table)
    columns = {
        name: tuple(about["columns"])
        for name, about in indexes.items()
        if about["index"] or about["unique"]
    }
    covered = [
        (name, other)
        for name, mine in columns.items()
        for other, theirs in columns.items()
        if name != other
        and not indexes[name]["unique"]
        and len(mine) < len(theirs)
        and theirs[: len(mine)] == mine
    ]

    assert not covered, covered
