"""Everything that writes a game: start, move, undo, redo, restart, preferences.

Each write checks the ply the sender saw, then compares and swaps the game row's version,
so a double click or a second tab cannot store a move twice; the unique (game, ply)
constraint backs that up. A move's row reads and writes go through ``games.move_sql`` (the hot
path's SQL); the rest through the ORM. Time comes in as ``now=`` so tests never patch the
clock.
"""

from __future__ import annotations

import functools
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F

from games import move_sql, solver_jobs
from games.dealing import random_playable_deal
from games.leaderboard import counts_for, record_win, win_reason
from games.models import Daily, Game, PlayedMove, Player
from games.players import hold
from games.rules import Board, GameRecord, IllegalMove, Move, get_game, solver
from games.rules.solver import UNSOLVABLE, Hint

IDLE_CAP = timedelta(minutes=2)
"""The longest gap between two actions that counts as play time (a tab left open does not)."""

PlayerId = uuid.UUID | None

MAX_PLIES = 2000
"""Moves one game (or an imported record) may hold: real games end far sooner (a win takes
52 to a few hundred moves), and each move costs a row and replay time."""

BOARD_CACHE_WEIGHT = 400_000
"""What the board cache may hold, in plies plus ``BOARD_WEIGHT`` per board: a board's memory
grows with its move stack, so the cap is on the plies held, not the number of boards."""
BOARD_WEIGHT = 64
_boards: OrderedDict[tuple[uuid.UUID, int], Board] = OrderedDict()
_boards_weight = 0
_boards_lock = threading.Lock()
"""Boards by (game id, version): a version names one line of moves, so an entry can never be
stale, and every app server may keep its own. Callers get copies."""


class GameConflict(Exception):
    """The sender's board is stale: another tab, device or click moved first (HTTP 409)."""

    def __init__(self, game: Game, message: str = "") -> None:
        super().__init__(message or MOVED_ON)
        self.game = game


MOVED_ON = "This game moved on in another tab or on another device: here is where it stands."
"""A stale page's answer (it said "in another tab" to a player whose phone had moved)."""


class NotOwner(Exception):
    """Only the owner may change a game (HTTP 403)."""


class DailyGameKept(Exception):
    """A daily game is its player's one try at the day's deal: it is never deleted (HTTP 403).

    Deleting it would deal the player a fresh game of the same daily, and take its
    leaderboard entry (and a moderator's hiding of it) along."""

    def __init__(
        self, message: str = "A daily game is your one try at that day's deal: it stays"
    ) -> None:
        super().__init__(message)


@dataclass(frozen=True)
class Outcome:
    """A write's result: the game row, its board and the moves this action played (for an
    undo, ``back``, the moves it took back), in play order; the last ``automatic`` of them
    were auto-play or auto-finish."""

    game: Game
    board: Board
    played: tuple[str, ...] = ()
    automatic: int = 0
    back: bool = False
    to_ply: int = 0
    """A restart's: the move of the line it went back to (0: the opening)."""
    rows: int = 0
    """The move rows this action wrote or changed (what ``limits.PLAYING`` counts)."""


def game_start(
    *,
    player: Player,
    slug: str,
    deal: int | None = None,
    autoplay: bool | None = None,
    options: Iterable[str] = (),
    daily: Daily | None = None,
    now: datetime,
) -> Game:
    """Create a game of ``deal`` and play its safe opening. Without a ``deal``, a random one
    that leaves a legal move after that opening (``games.pools`` deals proved ones)."""
    rules = get_game(slug)
    options = tuple(options)
    number = deal if deal is not None else random_playable_deal(rules, options)
    board = Board(rules, number, options=options)
    autoplay = player.autoplay if autoplay is None else autoplay
    with transaction.atomic():
        hold(player)
        row = Game.objects.create(
            slug=rules.slug,
            deal=number,
            options=sorted(board.options),
            owner=player,
            autoplay=autoplay,
            position=board.layout(),
            active_at=now,
            daily=daily,
        )
        played = board.autoplay() if autoplay else []
        _append(row, board, [(m.notation(), True) for m in played], now=now)
    return row


def game_board(game: Game, *, checked: bool = False) -> Board:
    """The game's position: the replay of its current line from its deal.

    Every stored move was checked when it was played, so by default the replay takes the
    engine's trusted fast path (or the cache of replays); ``checked=True`` plays each move
    through the rules again, from the database (for records that leave the site and for
    verification).
    """
    if not checked:
        with _boards_lock:
            cached = _boards.get((game.pk, game.version))
        if cached is not None:
            return cached.copy()
    board = line_board(game, game_line(game), checked=checked)
    # The row and its moves are two reads: a move committed in between gives a newer line
    # than ``game.version`` names. Such a board is returned (a write on it fails its compare
    # and swap) but never cached under the older version.
    if board.layout() == game.position:
        _remember(game, board)
    return board


def game_line(game: Game) -> list[str]:
    """The notation of the game's current line, in play order."""
    return move_sql.read_line(game)


def line_board(game: Game, line: Iterable[str], *, checked: bool = False) -> Board:
    """The board after ``line`` from the game's deal; ``checked`` plays every move through
    the rules, otherwise the moves are trusted (they were checked when played)."""
    if not checked:
        board = _deal(game.slug, game.deal, tuple(game.options))
        board.push_line(line)
        return board
    board = game.fresh_board()
    for notation in line:
        board.play(notation)
    return board


@functools.lru_cache(maxsize=256)
def _dealt(slug: str, deal: int, options: tuple[str, ...]) -> Board:
    return Board(slug, deal, options=options)


def _deal(slug: str, deal: int, options: tuple[str, ...]) -> Board:
    """A fresh board of a deal: shuffling and dealing cost more than a long replay, and an
    app server that did not serve a game's last move replays it from its deal."""
    return _dealt(slug, deal, options).copy()


def _weight(board: Board) -> int:
    return BOARD_WEIGHT + board.ply


def _remember(game: Game, board: Board) -> None:
    global _boards_weight
    copy = board.copy()
    key = (game.pk, game.version)
    with _boards_lock:  # threaded servers (runserver, gthread workers) share the cache
        if (old := _boards.pop(key, None)) is not None:
            _boards_weight -= _weight(old)
        _boards[key] = copy
        _boards_weight += _weight(copy)
        while _boards_weight > BOARD_CACHE_WEIGHT and len(_boards) > 1:
            _, dropped = _boards.popitem(last=False)
            _boards_weight -= _weight(dropped)


def game_record(game: Game) -> GameRecord:
    return GameRecord.from_board(game_board(game, checked=True))


def game_play_move(
    *,
    game_id: uuid.UUID,
    player_id: PlayerId,
    move: str | tuple[str, str],
    expected_ply: int | None,
    now: datetime,
) -> Outcome:
    """Play one move (raises ``IllegalMove`` or ``NotationError``), then with auto-play on,
    the safe foundation moves and, once only foundation moves are left, the rest of them.
    ``move`` is in notation, or a selection and its target (``Board.selected_move``)."""
    game, board = _load(game_id, player_id, expected_ply)
    played_move = board.play(move if isinstance(move, str) else board.selected_move(*move))
    played = [(played_move.notation(), False)]
    if game.autoplay:
        played += [(m.notation(), True) for m in (*board.autoplay(), *auto_finish(board))]
    judged = _judged_win(game, board, now)
    with transaction.atomic():
        rows = _append(game, board, played, now=now, judged=judged)
    return Outcome(game, board, tuple(n for n, _ in played), automatic=len(played) - 1, rows=rows)


def auto_finish(board: Board) -> list[Move]:
    """Play the game out when foundation moves alone win it; return those moves (none when
    they do not). Each is a move like any other (RULES.md counts every card moved).

    Never while Chessboard's base rank is open: only a player's move may choose it.
    """
    if board.rules.base_is_chosen and board.base_rank is None:
        return []
    if not any(m.to_foundation for m in board.legal_moves()):
        return []  # the usual case, answered before copying the board
    trial = board.copy(stack=False)
    moves: list[Move] = []
    while not trial.is_won():
        step = next((m for m in trial.legal_moves() if m.to_foundation), None)
        if step is None:
            return []
        trial.push(step)
        moves.append(step)
    for step in moves:
        board.push(step)
    return moves


@functools.lru_cache(maxsize=1024)
def _opening(slug: str, deal: int, options: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(m.notation() for m in _deal(slug, deal, options).autoplay())


def opening_ply(game: Game, board: Board) -> int:
    """Where the game's opening ends: after the deal's safe auto-play when the game's line
    begins with it (a game started with auto-play on), else at the deal."""
    opening = _opening(game.slug, game.deal, tuple(game.options))
    if not opening or board.ply < len(opening):
        return 0
    line = board.first_moves(len(opening))
    return len(opening) if tuple(m.notation() for m in line) == opening else 0


def at_opening(game: Game, board: Board) -> bool:
    """Whether the game stands at its opening (the deal, or the deal's safe auto-play that
    opened it), where a lost position means a lost deal: safe moves never lose one."""
    return board.ply == opening_ply(game, board)


def takes_back(game: Game, board: Board) -> tuple[bool, bool]:
    """Whether Undo and Restart would each be taken now, decided as :func:`game_undo` and
    :func:`game_restart` decide (the page's buttons; tests/web/test_game_controls.py holds
    them to it).

    Undo takes back a restart, or the last player move: the auto-play that opened the game
    is none. Restart goes back to that opening, or to the deal when the player made the
    opening's moves by hand. Past the opening some move is the player's (auto-play plays
    only the opening, or after a player's move), so only a game standing exactly at its
    opening asks its rows which it was: a move's answer, nearly always past it, asks nothing.
    """
    restarted = game.restart_ply is not None and board.ply < game.restart_ply
    opening = opening_ply(game, board)
    if board.ply == 0:
        return restarted, False
    if board.ply > opening:
        return True, True
    by_hand = game.played_moves.filter(undone=False, auto=False).exists()
    return restarted or by_hand, by_hand


def game_undo(
    *, game_id: uuid.UUID, player_id: PlayerId, expected_ply: int | None, now: datetime
) -> Outcome:
    """Take back the last player move and the auto-play that followed it; or a restart."""
    game, board = _load(game_id, player_id, expected_ply)
    if game.restart_ply and board.ply < game.restart_ply:
        return _redo(game, board, now=now, upto=game.restart_ply)
    group = _last_group(_line(game, board))
    if not group:
        raise IllegalMove("undo", "There is no move to undo")
    for _ in group:
        board.pop()
    game.undos += len(group)  # every move taken back, its auto-play's too (RULES.md)
    game.redo += len(group)
    with transaction.atomic():
        _save(game, board, now=now)
        PlayedMove.objects.filter(pk__in=[pk for pk, _, _ in group]).update(undone=True)
    played = tuple(notation for _, notation, _ in group)
    return Outcome(game, board, played, automatic=len(group) - 1, back=True, rows=len(group))


def game_redo(
    *, game_id: uuid.UUID, player_id: PlayerId, expected_ply: int | None, now: datetime
) -> Outcome:
    """Play again the next undone player move and its auto-play."""
    game, board = _load(game_id, player_id, expected_ply)
    return _redo(game, board, now=now, upto=None)


def game_restart(
    *,
    game_id: uuid.UUID,
    player_id: PlayerId,
    expected_ply: int | None,
    now: datetime,
    to_ply: int | None = None,
) -> Outcome:
    """Back to the opening the player first saw (the deal, and the safe auto-play that
    opened the game when it was started with auto-play on), or to the position after
    ``to_ply`` moves of its line (the replay's "Go back to this move", where Analyse says the
    game was lost), counting each move taken back as an undo; one undo brings the position
    back."""
    game, board = _load(game_id, player_id, expected_ply)
    line = _line(game, board)
    opening = opening_ply(game, board)
    if not all(auto for _, _, auto in line[:opening]):
        opening = 0  # the player made those moves by hand
    if to_ply is not None:
        if to_ply >= board.ply:
            raise IllegalMove("restart", f"The game has not gone past move {to_ply}")
        opening = to_ply
    if board.ply <= opening:
        raise IllegalMove("restart", "The game is already at its start")
    restart_ply = board.ply
    while board.ply > opening:
        board.pop()
    game.redo += restart_ply - opening
    game.undos += restart_ply - opening  # every move a restart takes back is an undo (RULES.md)
    with transaction.atomic():
        _save(game, board, now=now, restart_ply=restart_ply)
        PlayedMove.objects.filter(pk__in=[pk for pk, _, _ in line[opening:]]).update(undone=True)
    return Outcome(game, board, to_ply=to_ply or 0, rows=restart_ply - opening)


def game_autoplay(
    *,
    game_id: uuid.UUID,
    player_id: PlayerId,
    on: bool,
    expected_ply: int | None = None,
    now: datetime,
) -> Outcome:
    """Switch auto-play for this game and save it as the player's preference. Switched on,
    it plays the safe moves of the position at ``expected_ply``, and only there: a tab
    behind the game gets a ``GameConflict``."""
    game, board = _load(game_id, player_id, expected_ply)
    assert player_id is not None  # _load checked the owner
    game.autoplay = on
    moves = [*board.autoplay(), *auto_finish(board)] if on else []
    played = [(m.notation(), True) for m in moves]
    judged = _judged_win(game, board, now)
    with transaction.atomic():
        rows = _append(game, board, played, now=now, judged=judged)
        Player.objects.filter(pk=player_id).update(autoplay=on)
    return Outcome(game, board, tuple(n for n, _ in played), automatic=len(played), rows=rows)


# -- helpers ------------------------------------------------------------------------------


Line = list[tuple[int, str, bool]]
"""The current line's move rows as (primary key, notation, auto)."""


def _line(game: Game, board: Board) -> Line:
    """The current line's rows; they must be the ones ``board`` was replayed from.

    The game row and its move rows are read one after the other, not in one snapshot: a
    move that lands in between shows up as a line longer than the board (HTTP 409).
    """
    line = list(
        game.played_moves.filter(undone=False).order_by("ply").values_list("pk", "notation", "auto")
    )
    if len(line) != board.ply:
        raise GameConflict(game)
    return line


def _load(game_id: uuid.UUID, player_id: PlayerId, expected_ply: int | None) -> tuple[Game, Board]:
    """The game row and its board, when ``player_id`` may change it now.

    Nothing is locked: the write that follows compares and swaps ``Game.version``, so a
    concurrent writer turns this action into a ``GameConflict`` instead of a lost update.
    Raises ``Game.DoesNotExist`` for an unknown id, ``NotOwner``, ``GameConflict`` for a
    stale ``expected_ply`` and ``IllegalMove`` for a finished game.
    """
    game = move_sql.read_game(game_id)
    if player_id is None or game.owner_id != player_id:
        raise NotOwner("Only the player who started this game can change it")
    if expected_ply is not None and expected_ply != game.ply:
        raise GameConflict(game)
    if game.is_finished:
        raise IllegalMove("-", "This game is won: start a new one")
    return game, game_board(game)


def _last_group(line: Line) -> Line:
    """The last player move with the auto-played moves after it (empty if none)."""
    for index in range(len(line) - 1, -1, -1):
        if not line[index][2]:
            return line[index:]
    return []


def _redo(game: Game, board: Board, *, now: datetime, upto: int | None) -> Outcome:
    """Replay undone rows: the next player move and its auto-play, or all up to ``upto`` (the
    Undo of a restart, which takes back no move and so counts no undo: RULES.md)."""
    pending = list(
        game.played_moves.filter(undone=True, ply__gt=board.ply)
        .order_by("ply")
        .values_list("pk", "ply", "notation", "auto")
    )
    if upto is None:
        end = next((i for i, m in enumerate(pending) if i and not m[3]), len(pending))
        pending = pending[:end]
    else:
        pending = [m for m in pending if m[1] <= upto]
    if not pending:
        raise IllegalMove("redo", "There is no move to redo")
    try:
        for _, _, notation, _ in pending:
            board.play(notation)
    except IllegalMove as error:  # the rows changed since the game row was read
        raise GameConflict(game) from error
    game.redo -= len(pending)
    judged = _judged_win(game, board, now)
    with transaction.atomic():
        _save(game, board, now=now, judged=judged)
        PlayedMove.objects.filter(pk__in=[m[0] for m in pending]).update(undone=False)
    automatic = len(pending) - 1 - max((i for i, m in enumerate(pending) if not m[3]), default=-1)
    return Outcome(
        game, board, tuple(m[2] for m in pending), automatic=automatic, rows=len(pending)
    )


def _append(
    game: Game,
    board: Board,
    played: list[tuple[str, bool]],
    *,
    now: datetime,
    judged: str | None = None,
) -> int:
    """Store moves just played on ``board``; a new move replaces the redo line. Returns the
    move rows written and deleted. ``judged``: as ``_save``'s.

    Call it inside a transaction: a taken ply (which the compare and swap in ``_save``
    already rules out) raises ``GameConflict`` and the transaction rolls back. A line past
    ``MAX_PLIES`` raises ``IllegalMove``."""
    if board.ply > MAX_PLIES:
        raise IllegalMove(
            played[0][0] if played else "-",
            f"A game holds at most {MAX_PLIES:,} moves: restart it or start a new one",
        )
    dropped = game.redo if played else 0
    if dropped:
        game.redo = 0
    _save(game, board, now=now, judged=judged)
    if dropped:
        game.played_moves.filter(undone=True).delete()
    try:
        move_sql.insert_moves(game, board.ply - len(played) + 1, played, now=now)
    except IntegrityError as error:
        raise GameConflict(game, "This move was already played in another tab") from error
    return len(played) + dropped


def _judged_win(game: Game, board: Board, now: datetime) -> str | None:
    """Why the daily win ``board`` stands at would be held for a moderator
    (``leaderboard.win_reason``), asked before the transaction that saves it: its checks
    replay the line and read the game's moves, and the transaction holds the write lock.
    ``None`` when there is no win to record."""
    if game.daily_id is None or game.status == Game.Status.WON or not board.is_won():
        return None
    if not counts_for(game, now):
        return None
    return win_reason(game, now, [move.notation() for move in board.move_stack])


def _save(
    game: Game,
    board: Board,
    *,
    now: datetime,
    restart_ply: int | None = None,
    judged: str | None = None,
) -> None:
    """Write the game row if nobody wrote it since we read it (compare and swap ``version``).

    Call it first inside the transaction: the update takes the row's write lock, so the move
    rows written after it cannot interleave with another writer's. ``judged``: a daily win's
    ``_judged_win``, asked before the transaction; a win saved without it is judged here.
    """
    if game.active_at is not None:
        game.elapsed += min(max(now - game.active_at, timedelta()), IDLE_CAP)
    game.active_at = now
    game.ply = board.ply
    game.position = board.layout()
    game.restart_ply = restart_ply
    won = board.is_won() and game.status != Game.Status.WON
    if won and judged is None:  # a win saved by a path that did not ask (game_start's)
        judged = _judged_win(game, board, now)
    if won:
        game.status = Game.Status.WON
        game.finished_at = now
    game.updated_at = now
    if not move_sql.swap_game(game):
        raise GameConflict(game)
    transaction.on_commit(lambda: _remember(game, board))
    if won and game.daily_id is not None:
        record_win(game, now, judged or "")


def game_hint(
    *,
    game_id: uuid.UUID,
    player_id: PlayerId,
    now: datetime,
    may_solve: bool = True,
    expected_ply: int | None = None,
) -> tuple[Game, Board, Hint, bool]:
    """The next move of a winning line from the game's position (counted on the game), and
    whether the solver ran for it (a position no one had asked about). A lost opening is a
    lost deal (:func:`at_opening`), which the answer says (``Hint.deal_lost``): Undo and
    Restart cannot help there. (Not in the position's cache: the same position may stand
    past the opening of another game.)

    While a daily's day is live, its hints follow only its own line (the solution it was
    proved with): off it, the solver does not run and the answer says nothing of the
    position (``Hint.withheld``). A throwaway game played one move off that line, then
    followed the hints of the solver's search from there, a line the copy check
    (``leaderboard.copies_the_solution``) does not know, and the ranked game replayed it (an
    attacker's pass: 1st, 4 over par, unflagged, no hint counted). Then off the line Hint
    still said whether the position could be won: a script kept the first move after which
    it could, and walked a winning line of its own, a solver's search a step (an attacker's
    pass: 6 steps off the daily's line from 7 hints in 4 s).

    Raises ``SolverBusy`` (nothing counted) when the solver cannot run for this player now,
    and ``GameConflict`` when the game is no longer at ``expected_ply`` (the page asking is
    behind it: a hint answered there marked a position the page did not show).
    """
    game, board = _load(game_id, player_id, expected_ply)
    assert player_id is not None  # _load checked the owner
    if _off_the_live_dailys_line(game, board, now):  # says nothing, so counts nothing
        return game, board, Hint(solver.UNKNOWN, withheld=True), False
    answer, solved = solver_jobs.position_hint(
        board, player_id=player_id, may_solve=may_solve, game=game
    )
    if answer.verdict == UNSOLVABLE and not answer.deal_lost and at_opening(game, board):
        answer = replace(answer, deal_lost=True)
        solver_jobs.settle_lost_deal(game)
    Game.objects.filter(pk=game.pk).update(hints=F("hints") + 1)
    game.hints += 1
    return game, board, answer, solved


def _off_the_live_dailys_line(game: Game, board: Board, now: datetime) -> bool:
    """Whether ``board``, a daily game's, stands off its daily's own line while the day is
    live (``game_hint``)."""
    if not live_daily(game, now):
        return False
    assert game.daily is not None
    return solver.hint_from_line(board, game.daily.solution.split()) is None


def live_daily(game: Game, now: datetime) -> bool:
    """Whether ``game`` is a daily game whose day is not over: the solver then says nothing
    of it beyond its daily's own line (``game_hint``, ``game_analyse``)."""
    return game.daily is not None and game.daily.is_live(now)


class DailyLive(Exception):
    """Analyse on a daily game while its day is live."""

    def __init__(self) -> None:
        super().__init__(
            "Analyse answers once the day is over (midnight UTC): while a daily is live, the "
            "solver says nothing of positions off its own line."
        )


def game_analyse(
    *, game: Game, now: datetime, wait_for_new: Callable[[], int | None] = lambda: None
) -> tuple[list[str], solver_jobs.AnalysisState]:
    """Where the game's current line was lost: done, or queued for the task worker
    (``wait_for_new``: the client's limit on new analyses, ``solver_jobs.analysis_request``).

    On a daily game, asking counts as a hint (once per line of play). While the day is
    live it raises ``DailyLive`` (nothing queued, nothing counted): where a line was lost
    tells a script which of its moves still win, a solver's search of its own a request
    (as off-line hints did: ``game_hint``)."""
    line = _line_to_analyse(game, now)
    state = solver_jobs.analysis_request(game=game, line=line, now=now, wait_for_new=wait_for_new)
    if state.counted and game.daily_id is not None:
        Game.objects.filter(pk=game.pk).update(hints=F("hints") + 1)
    return line, state


def game_analysis(*, game: Game, now: datetime) -> tuple[list[str], solver_jobs.AnalysisState]:
    """The analysis of the game's current line as it stands (queues nothing); ``DailyLive``
    while the game's daily is live, as :func:`game_analyse`."""
    line = _line_to_analyse(game, now)
    return line, solver_jobs.analysis_state(game=game, line=line)


def _line_to_analyse(game: Game, now: datetime) -> list[str]:
    """The game's current line, which Analyse reads: ``DailyLive`` while its daily is live."""
    if live_daily(game, now):
        raise DailyLive()
    return game_line(game)


def game_import(*, player: Player, board: Board, now: datetime) -> Game:
    """A new game of the player's own from a record's board, every move checked as the
    record was read (``replay_record``); it never counts in statistics. A record longer
    than ``MAX_PLIES`` raises ``IllegalMove``."""
    if board.ply > MAX_PLIES:
        raise IllegalMove(
            "-", f"A record holds at most {MAX_PLIES:,} moves; this one has {board.ply:,}"
        )
    won = board.is_won()
    with transaction.atomic():
        hold(player)
        game = Game.objects.create(
            slug=board.rules.slug,
            deal=board.deal_number,
            options=sorted(board.options),
            owner=player,
            autoplay=False,
            position=board.layout(),
            ply=board.ply,
            status=Game.Status.WON if won else Game.Status.PLAYING,
            finished_at=now if won else None,
            active_at=now,
            imported=True,
        )
        line = [(move.notation(), False) for move in board.move_stack]
        move_sql.insert_moves(game, 1, line, now=now)
    return game


def game_delete(*, game_id: uuid.UUID, player_id: PlayerId) -> None:
    """Delete a game and its moves; only its owner may (else ``NotOwner``), and never a daily
    game (``DailyGameKept``: it is the player's one try at that day's deal). Deleting a game
    already gone is a no-op (a double-clicked Delete).

    The game row is locked first: a move in flight either commits before the delete (whose
    cascade then sees its rows) or finds the row gone (a ``GameConflict`` for that move),
    never a move row left pointing at a deleted game.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return
        if player_id is None or game.owner_id != player_id:
            raise NotOwner("Only the player who started this game can delete it")
        if game.daily_id is not None:
            raise DailyGameKept()
        game.delete()
