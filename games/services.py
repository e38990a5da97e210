"""Everything that writes a game: start, move, undo, redo, restart, preferences.

Each write locks the game row and checks the ply the sender saw, so a double click or a
second tab cannot store a move twice; the unique (game, ply) constraint backs that up.
Time comes in as ``now=`` so tests never patch the clock.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction

from games.models import Game, Move, Player
from games.rules import MAX_DEAL, Board, GameRecord, IllegalMove, get_game

IDLE_CAP = timedelta(minutes=2)
"""The longest gap between two actions that counts as play time (a tab left open does not)."""


class GameConflict(Exception):
    """The sender's board is stale: another tab or click moved first (HTTP 409)."""

    def __init__(self, game: Game, message: str) -> None:
        super().__init__(message)
        self.game = game


class NotOwner(Exception):
    """Only the owner may change a game (HTTP 403)."""


@dataclass(frozen=True)
class Outcome:
    """A write's result: the game row, its board and the moves this action played."""

    game: Game
    board: Board
    played: tuple[str, ...] = ()


def game_start(
    *,
    player: Player,
    game: str,
    deal: int | None = None,
    autoplay: bool | None = None,
    options: Iterable[str] = (),
    now: datetime,
) -> Game:
    """Create a game of ``deal`` (a random one when ``None``) and play its safe opening."""
    rules = get_game(game)
    number = deal if deal is not None else secrets.randbelow(MAX_DEAL) + 1
    board = Board(rules, number, options=options)
    autoplay = player.autoplay if autoplay is None else autoplay
    with transaction.atomic():
        row = Game.objects.create(
            game=rules.slug,
            deal=number,
            options=sorted(board.options),
            owner=player,
            autoplay=autoplay,
            position=board.layout(),
        )
        played = board.autoplay() if autoplay else []
        _append(row, board, [(m.notation(), True) for m in played], now=now)
    return row


def game_board(game: Game) -> Board:
    """Replay the game's current line from its deal (checked: a bad row raises)."""
    board = game.fresh_board()
    for notation in game.moves.filter(undone=False).values_list("notation", flat=True):
        board.play(notation)
    return board


def game_record(game: Game) -> GameRecord:
    return GameRecord.from_board(game_board(game))


def game_play_move(
    *, game_id: object, player: Player, notation: str, expected_ply: int | None, now: datetime
) -> Outcome:
    """Play one move (raises ``IllegalMove`` or ``NotationError``), then safe auto-play."""
    with transaction.atomic():
        game, board = _locked(game_id, player, expected_ply)
        move = board.play(notation)
        played = [(move.notation(), False)]
        if game.autoplay:
            played += [(m.notation(), True) for m in board.autoplay()]
        _drop_redo(game)
        _append(game, board, played, now=now)
    return Outcome(game, board, tuple(n for n, _ in played))


def game_undo(
    *, game_id: object, player: Player, expected_ply: int | None, now: datetime
) -> Outcome:
    """Take back the last player move and the auto-play that followed it; or a restart."""
    with transaction.atomic():
        game, board = _locked(game_id, player, expected_ply)
        line = list(game.moves.filter(undone=False).order_by("ply"))
        if not line and game.restart_ply:
            return _redo(game, board, now=now, upto=game.restart_ply, count_undo=True)
        group = _last_group(line)
        if not group:
            raise IllegalMove("undo", "There is no move to undo")
        for _ in group:
            board.pop()
        Move.objects.filter(pk__in=[m.pk for m in group]).update(undone=True)
        game.undos += 1
        _save(game, board, now=now)
    return Outcome(game, board, tuple(m.notation for m in group))


def game_redo(
    *, game_id: object, player: Player, expected_ply: int | None, now: datetime
) -> Outcome:
    """Play again the next undone player move and its auto-play."""
    with transaction.atomic():
        game, board = _locked(game_id, player, expected_ply)
        return _redo(game, board, now=now, upto=None, count_undo=False)


def game_restart(
    *, game_id: object, player: Player, expected_ply: int | None, now: datetime
) -> Outcome:
    """Back to the deal; one undo brings the position back."""
    with transaction.atomic():
        game, board = _locked(game_id, player, expected_ply)
        if board.ply == 0:
            raise IllegalMove("restart", "The game is already at its start")
        restart_ply = board.ply
        while board.ply:
            board.pop()
        game.moves.filter(undone=False).update(undone=True)
        game.restart_ply = restart_ply
        _save(game, board, now=now, keep_restart=True)
    return Outcome(game, board)


def game_set_autoplay(*, game_id: object, player: Player, on: bool, now: datetime) -> Outcome:
    """Switch auto-play for this game and save it as the player's preference."""
    with transaction.atomic():
        game, board = _locked(game_id, player, None)
        game.autoplay = on
        player.autoplay = on
        player.save(update_fields=["autoplay"])
        played: list[tuple[str, bool]] = []
        if on:
            played = [(m.notation(), True) for m in board.autoplay()]
            if played:
                _drop_redo(game)
        _append(game, board, played, now=now)
    return Outcome(game, board, tuple(n for n, _ in played))


# -- helpers ------------------------------------------------------------------------------


def _locked(game_id: object, player: Player, expected_ply: int | None) -> tuple[Game, Board]:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.owner_id != player.pk:
        raise NotOwner("Only the player who started this game can change it")
    if expected_ply is not None and expected_ply != game.ply:
        raise GameConflict(game, "This game moved on in another tab: here is where it stands")
    if game.is_finished:
        raise IllegalMove("-", "This game is won: start a new one")
    return game, game_board(game)


def _last_group(line: list[Move]) -> list[Move]:
    """The last player move with the auto-played moves after it (empty if none)."""
    for index in range(len(line) - 1, -1, -1):
        if not line[index].auto:
            return line[index:]
    return []


def _redo(
    game: Game, board: Board, *, now: datetime, upto: int | None, count_undo: bool
) -> Outcome:
    pending = list(game.moves.filter(undone=True, ply__gt=board.ply).order_by("ply"))
    if upto is None:
        end = next((i for i, m in enumerate(pending) if i and not m.auto), len(pending))
        pending = pending[:end]
    else:
        pending = [m for m in pending if m.ply <= upto]
    if not pending:
        raise IllegalMove("redo", "There is no move to redo")
    for move in pending:
        board.play(move.notation)
    Move.objects.filter(pk__in=[m.pk for m in pending]).update(undone=False)
    if count_undo:
        game.undos += 1
    _save(game, board, now=now)
    return Outcome(game, board, tuple(m.notation for m in pending))


def _drop_redo(game: Game) -> None:
    game.moves.filter(undone=True).delete()


def _append(game: Game, board: Board, played: list[tuple[str, bool]], *, now: datetime) -> None:
    first = board.ply - len(played) + 1
    try:
        with transaction.atomic():
            Move.objects.bulk_create(
                Move(game=game, ply=first + i, notation=notation, auto=auto)
                for i, (notation, auto) in enumerate(played)
            )
    except IntegrityError as error:
        raise GameConflict(game, "This move was already played in another tab") from error
    _save(game, board, now=now)


def _save(game: Game, board: Board, *, now: datetime, keep_restart: bool = False) -> None:
    if game.active_at is not None:
        game.elapsed += min(max(now - game.active_at, timedelta()), IDLE_CAP)
    game.active_at = now
    game.ply = board.ply
    game.position = board.layout()
    if not keep_restart:
        game.restart_ply = None
    if board.is_won():
        game.status = Game.Status.WON
        game.finished_at = now
    game.save()
