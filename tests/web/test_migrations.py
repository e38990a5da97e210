"""Migrations that rename keep the rows: a game's moves survive ``Move`` becoming
``PlayedMove``."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0007_game_list_in_code")]
AFTER = [("games", "0008_played_move")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


@pytest.mark.django_db(transaction=True)
def test_renaming_the_move_model_keeps_the_stored_moves() -> None:
    old = migrate(BEFORE).loader.project_state(BEFORE).apps
    player = old.get_model("games", "Player").objects.create()
    game = old.get_model("games", "Game").objects.create(
        game="citadel", deal=1, owner=player, position="-"
    )
    old.get_model("games", "Move").objects.create(game=game, ply=1, notation="t1-f1")

    new = migrate(AFTER).loader.project_state(AFTER).apps

    moves = new.get_model("games", "PlayedMove").objects.filter(game_id=game.pk)
    assert list(moves.values_list("ply", "notation")) == [(1, "t1-f1")]
