"""The SQL of the move hot path: read a game row and its line, compare-and-swap the row,
append move rows, and read a stuck game's deal verdict.

Every move reads the game row and writes it back with one or more move rows; an app server
that did not serve the game's last move also reads the game's line to replay it. Through the
ORM these statements cost several times what the database spends on them (building and
compiling each query), so this module writes them once per database from the models'
metadata and runs them with Django's own value conversions: the same column types, time
zones and JSON handling as the ORM, on SQLite and PostgreSQL alike. Everything else goes
through the ORM.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from games.models import DealVerdict, Game, PlayedMove

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]

GAME_FIELDS: tuple[Field[Any, Any], ...] = tuple(Game._meta.concrete_fields)
"""Every column of the game row, in the order ``read_game`` selects them."""

SWAPPED = (
    "elapsed",
    "active_at",
    "ply",
    "position",
    "restart_ply",
    "status",
    "finished_at",
    "undos",
    "redo",
    "autoplay",
    "updated_at",
)
"""What a write to a game changes (besides ``version``): ``hints`` and ``owner`` are written
elsewhere, and the deal, its options and the daily never change."""

MOVE_COLUMNS = ("game", "ply", "notation", "auto", "undone", "played_at")
MOVES_PER_STATEMENT = 100
"""Rows per ``INSERT`` of move rows: 600 parameters, within every SQLite build's limit
(999 on old ones), and one statement text that the drivers parse once and reuse."""


@dataclass(frozen=True)
class _Statements:
    select_game: str
    converters: tuple[tuple[int, tuple[Converter, ...], Any], ...]
    swap_game: str
    insert_move_row: str
    insert_moves: str
    insert_arrays: str | None
    """PostgreSQL's: every row in one statement, its plies, notations and auto flags as
    three arrays (``unnest``), whatever the line's length."""
    select_line: str
    select_verdict: str


_statements: dict[str, _Statements] = {}


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    """A concrete field of ``model`` (``get_field`` also finds reverse relations)."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    return field


def _column(field: Field[Any, Any]) -> str:
    assert field.column is not None
    return field.column


def _prepare(connection: BaseDatabaseWrapper) -> _Statements:
    """The statements and converters for one database (its vendor and column types)."""
    quote = connection.ops.quote_name
    game_table = quote(Game._meta.db_table)
    pk_column = quote(_column(_field(Game, "id")))
    columns = ", ".join(quote(_column(field)) for field in GAME_FIELDS)
    converters = []
    for index, field in enumerate(GAME_FIELDS):
        expression = field.get_col(Game._meta.db_table)
        found = connection.ops.get_db_converters(expression)
        found += expression.get_db_converters(connection)
        if found:
            converters.append((index, tuple(found), expression))
    assignments = ", ".join(
        f"{quote(_column(_field(Game, name)))} = %s" for name in ("version", *SWAPPED)
    )
    version = quote(_column(_field(Game, "version")))
    move_columns = ", ".join(quote(_column(_field(PlayedMove, name))) for name in MOVE_COLUMNS)
    placeholders = "(" + ", ".join(["%s"] * len(MOVE_COLUMNS)) + ")"
    move_table = quote(PlayedMove._meta.db_table)
    return _Statements(
        select_game=f"SELECT {columns} FROM {game_table} WHERE {pk_column} = %s",
        converters=tuple(converters),
        swap_game=(
            f"UPDATE {game_table} SET {assignments} WHERE {pk_column} = %s AND {version} = %s"
        ),
        insert_move_row=placeholders,
        insert_moves=f"INSERT INTO {move_table} ({move_columns}) VALUES ",
        insert_arrays=(
            f"INSERT INTO {move_table} ({move_columns})"
            " SELECT %s, line.ply, line.notation, line.auto, %s, %s"
            " FROM unnest(%s::integer[], %s::text[], %s::boolean[]) AS line(ply, notation, auto)"
            if connection.vendor == "postgresql"
            else None
        ),
        select_line=(
            f"SELECT {quote(_column(_field(PlayedMove, 'notation')))}"
            f" FROM {quote(PlayedMove._meta.db_table)}"
            f" WHERE {quote(_column(_field(PlayedMove, 'game')))} = %s"
            f" AND {quote(_column(_field(PlayedMove, 'undone')))} = %s"
            f" ORDER BY {quote(_column(_field(PlayedMove, 'ply')))}"
        ),
        select_verdict=(
            f"SELECT {quote(_column(_field(DealVerdict, 'verdict')))}"
            f" FROM {quote(DealVerdict._meta.db_table)}"
            f" WHERE {quote(_column(_field(DealVerdict, 'slug')))} = %s"
            f" AND {quote(_column(_field(DealVerdict, 'deal')))} = %s"
        ),
    )


def _for(connection: BaseDatabaseWrapper) -> _Statements:
    key = f"{connection.alias}:{connection.vendor}"
    statements = _statements.get(key)
    if statements is None:
        statements = _statements[key] = _prepare(connection)
    return statements


def read_game(game_id: uuid.UUID | str, *, using: str = "default") -> Game:
    """The game row as ``Game.objects.get(pk=game_id)`` reads it (``Game.DoesNotExist`` if
    there is none, or if ``game_id`` is not a game id)."""
    connection = connections[using]
    statements = _for(connection)
    try:
        key = Game._meta.pk.get_db_prep_value(game_id, connection)
    except Exception as error:  # what the ORM raises for a malformed id varies by field
        raise Game.DoesNotExist(f"No game {game_id!r}") from error
    with connection.cursor() as cursor:
        cursor.execute(statements.select_game, [key])
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"No game {game_id!r}")
    values = list(row)
    for index, converters, expression in statements.converters:
        for converter in converters:
            values[index] = converter(values[index], expression, connection)
    return Game.from_db(using, [field.attname for field in GAME_FIELDS], values)


def read_line(game: Game, *, using: str = "default") -> list[str]:
    """The notation of the game's current line, in play order (its moves not undone)."""
    connection = connections[using]
    statements = _for(connection)
    game_key = PlayedMove._meta.get_field("game").get_db_prep_value(game.pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(statements.select_line, [game_key, False])
        return [notation for (notation,) in cursor.fetchall()]


def read_verdict(slug: str, deal: int, *, using: str = "default") -> str | None:
    """The verdict of a deal (a ``DealVerdict.Verdict`` value), or None where there is no
    row. A stuck game's panel asks it on every move that leaves the game stuck: through the
    ORM the question cost more than the rest of the move's answer."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_for(connection).select_verdict, [slug, deal])
        row = cursor.fetchone()
    return None if row is None else str(row[0])


def swap_game(game: Game, *, using: str = "default") -> bool:
    """Write ``game``'s changing fields and bump its version, if its row still has the
    version ``game`` was read at; ``False`` (nothing written) when another writer was first.
    On success ``game.version`` is the new version."""
    connection = connections[using]
    statements = _for(connection)
    values = [game.version + 1]
    for name in SWAPPED:
        field = _field(Game, name)
        values.append(field.get_db_prep_save(getattr(game, field.attname), connection))
    values.append(Game._meta.pk.get_db_prep_value(game.pk, connection))
    values.append(game.version)
    with connection.cursor() as cursor:
        cursor.execute(statements.swap_game, values)
        changed = cursor.rowcount
    if changed != 1:
        return False
    game.version += 1
    return True


def insert_moves(
    game: Game,
    first_ply: int,
    played: Sequence[tuple[str, bool]],
    *,
    now: datetime,
    using: str = "default",
) -> None:
    """Append move rows ``first_ply``, ``first_ply + 1``... (an ``IntegrityError`` if one
    of those plies is taken): on PostgreSQL in one statement, elsewhere in one per
    ``MOVES_PER_STATEMENT`` rows. An imported record holds up to 2,000 moves: the ORM's
    ``bulk_create`` (a model instance per row) took 80 ms to store them, rows of
    parameters 18 ms on SQLite but 48 ms on PostgreSQL (the driver merges the parameters
    into the statement), its arrays 15 ms."""
    if not played:
        return
    connection = connections[using]
    statements = _for(connection)
    game_key = PlayedMove._meta.get_field("game").get_db_prep_save(game.pk, connection)
    played_at = PlayedMove._meta.get_field("played_at").get_db_prep_save(now, connection)
    if statements.insert_arrays is not None:
        plies = list(range(first_ply, first_ply + len(played)))
        notations, autos = [notation for notation, _ in played], [auto for _, auto in played]
        with connection.cursor() as cursor:
            cursor.execute(
                statements.insert_arrays, [game_key, False, played_at, plies, notations, autos]
            )
        return
    with connection.cursor() as cursor:
        for start in range(0, len(played), MOVES_PER_STATEMENT):
            chunk = played[start : start + MOVES_PER_STATEMENT]
            values: list[Any] = []
            for offset, (notation, auto) in enumerate(chunk, first_ply + start):
                values += [game_key, offset, notation, auto, False, played_at]
            tuples = ", ".join([statements.insert_move_row] * len(chunk))
            cursor.execute(statements.insert_moves + tuples, values)
