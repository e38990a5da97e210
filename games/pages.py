"""The game page's view model, built in one place: what ``games/game.html`` and its partials
(``#board``, ``#counter``, ``#controls``, ``#status``, ``#play``) draw for one viewer.

Views call a service, then one of these, then render: the page itself, the page after an
action (with the piles it touched), after a hint, or after a conflict.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Collection
from datetime import datetime
from typing import Any, cast

from django.utils.functional import SimpleLazyObject

from games import leaderboard, move_sql
from games.daily import daily_games, prepared_games
from games.models import Daily, DealVerdict, Game
from games.players import BoardLook, board_look
from games.presentation import (
    Replay,
    board_view,
    carry_run,
    daily_ending,
    describe_outcome,
    flags_key,
    hint_message,
    opening_said,
    replay,
    touched_piles,
)
from games.rules import Board, Move
from games.rules.solver import SOLVED, Hint
from games.services import IDLE_CAP, Outcome, at_opening, live_daily, takes_back

Page = dict[str, Any]
"""A template context: what the game page's template and its partials read."""


def viewers_look(viewer: uuid.UUID | None) -> BoardLook:
    """The viewer's deck colours and card motion, read from its player only when a template
    draws the board."""
    return cast(BoardLook, SimpleLazyObject(functools.partial(board_look, viewer)))


POLL_DELAYS = (2, 3, 5, 8, 13, 21, 30, 30, 30, 30, 30, 30)
"""Seconds before each next look at a pending verdict; then the page stops asking (the
badge shows the answer on the next page load)."""


def game_page(
    game: Game,
    board: Board,
    *,
    viewer: uuid.UUID | None,
    now: datetime,
    selected: str | None = None,
    message: str = "",
    hint: Move | None = None,
    error: bool | None = None,
    only: Collection[str] | None = None,
    whole: bool = False,
) -> Page:
    """The game page as ``viewer`` (a player id, or nobody) sees it: the board (with the
    owner's ``selected`` card and the ``hint``), the controls it may use and the status line.
    With ``only``, a partial response's page: only those piles are drawn (``board_view``).
    ``whole``: the whole page (its load, and a refusal's page without JavaScript), with the
    deal's verdict badge, which a refusal's page left out.
    """
    owner = viewer is not None and viewer == game.owner_id
    if whole and owner and not message and not game.undos and _opened(game, board):
        message, error = opening_said(board.ply), False  # a new game: nothing said yet
    won = board.is_won()
    # A won game is over: nothing to undo, redo or restart.
    can_undo, can_restart = takes_back(game, board) if owner and not won else (False, False)
    stuck = owner and not won and board.is_cycle_stuck()
    page: Page = {
        "game": game,
        "rules": game.rules,
        "board": board,
        "view": board_view(board, selected if owner else None, hint=hint, only=only),
        "owner": owner,
        # Whose game a visitor watches (a shared link): nothing on its board answers a click,
        # and nothing said why (a player's pass). A won game's panel says it already.
        "watching": game.owner.name if not owner and not won else "",
        "look": viewers_look(viewer),
        "message": message,
        "error": bool(message) if error is None else error,
        "won": won,
        "ending": _daily_ending(game, now) if won and game.daily_id else None,
        "late": game.daily is not None and game.daily.is_late(game.finished_at or now),
        "stuck": stuck,
        "lost_from_start": stuck and (at_opening(game, board) or proved_unwinnable(game)),
        # The stuck panel's Analyse waits for the day's end (services.game_analyse refuses it).
        "analyse_withheld": stuck and live_daily(game, now),
        "can_undo": can_undo,
        "can_redo": owner and not won and game.redo > 0,
        "can_restart": can_restart,
        "clock": _clock(game, now) if owner and not game.is_finished else None,
        "played": (),
        "back": False,
    }
    # What the controls show, as the board script's Castle-Controls header says it back.
    flags = [page[name] for name in ("can_undo", "can_redo", "can_restart", "won")]
    page["controls"] = flags_key(*flags, game.autoplay)
    return page | verdict_badge(game) if whole else page


def _opened(game: Game, board: Board) -> bool:
    """Whether the game stands at an opening that auto-play played."""
    return board.ply > 0 and at_opening(game, board)


def proved_unwinnable(game: Game) -> bool:
    """Whether the solver proved that no line wins ``game``'s deal: a stuck game's panel
    then says so, not "Undo or restart to try another line" beside the badge's
    "Unwinnable" (a player's pass). As :meth:`DealVerdict.for_game` reads the verdict: a
    daily's deal is winnable, and an easing option may win a deal lost without it."""
    if game.daily_id is not None or game.options:
        return False
    return move_sql.read_verdict(game.slug, game.deal) == DealVerdict.Verdict.UNWINNABLE


def after_action(outcome: Outcome, *, kind: str, viewer: uuid.UUID | None, now: datetime) -> Page:
    """The page after a move, undo, redo, restart or auto-play switch: its sentence, and the
    piles the action touched (every pile after a restart)."""
    board, played, back = outcome.board, outcome.played, outcome.back
    replayed = replay(board, played, back=back)
    message = action_message(outcome, replayed, kind=kind)
    only = None if kind == "restart" else replayed.names
    page = game_page(outcome.game, board, viewer=viewer, now=now, message=message, only=only)
    page["error"] = False
    view = page["view"]
    if kind == "restart":
        page["changed"] = list(view.piles.values())
    else:
        page["changed"] = touched_piles(view, board, replayed, back=back)
        carry_run(view, board, replayed, back=back)
    page |= {"played": played, "back": back, "whole_counter": kind != "move"}
    if page["won"]:  # a pending badge goes ("Checking whether this deal can be won…")
        page |= verdict_badge(outcome.game)
    return page


def after_analysis(
    game: Game,
    board: Board,
    *,
    message: str,
    ply: int | None,
    viewer: uuid.UUID | None,
    now: datetime,
) -> Page:
    """The stuck panel with an analysis's answer (``message``: the line was lost at move
    ``ply``, 0 for a deal lost from its start, None where the solver found no such move):
    a link to replay from the last winnable position, no second Analyse, and, lost from the
    start, advice that says so, not "Undo or restart to try another line" beside it."""
    page = game_page(game, board, viewer=viewer, now=now, message=message, error=False)
    page["replay_from"] = ply - 1 if ply else None
    page["analysed"] = True  # asking again would only bring the same answer
    page["lost_from_start"] = page["lost_from_start"] or ply == 0
    badge = verdict_badge(game)
    if badge["verdict"] is not None and badge["verdict"].verdict == DealVerdict.Verdict.UNWINNABLE:
        page |= badge  # settled by this analysis, maybe: "Checking…" goes with its answer
    return page


def verdict_answer(game: Game, looks: int) -> Page:
    """The badge's answer to its poll (``#verdict-answer``): the badge, and a stuck panel's
    advice when the deal was proved unwinnable meanwhile ("Undo or restart to try another
    line" stood beside the badge's "Unwinnable" until a reload, a player's pass)."""
    page = {"game": game, **verdict_badge(game, looks)}
    badge = page["verdict"]
    page["lost_from_start"] = badge is not None and badge.verdict == DealVerdict.Verdict.UNWINNABLE
    return page


def verdict_badge(game: Game, looks: int = 0) -> Page:
    """The ``#verdict`` partial's context: the verdict, and when to look again. None while
    it is pending for a won game: the player proved the deal winnable, and "Checking
    whether this deal can be won…" stood beside the win until the worker came to it."""
    verdict = DealVerdict.for_game(game)
    pending = verdict is not None and verdict.verdict == DealVerdict.Verdict.PENDING
    if pending and game.is_finished:
        return {"verdict": None, "poll": None}
    again = POLL_DELAYS[looks] if pending and looks < len(POLL_DELAYS) else None
    return {"verdict": verdict, "poll": {"next": looks + 1, "delay": again} if again else None}


def action_message(outcome: Outcome, replayed: Replay | None = None, *, kind: str) -> str:
    """What an action did, in the words the live region says (``replayed``: its moves as
    :func:`replay` gives them, computed here when not given). A plain form's post needs this
    sentence alone, after its redirect: not the page around it."""
    if replayed is None:
        replayed = replay(outcome.board, outcome.played, back=outcome.back)
    message = describe_outcome(
        replayed,
        automatic=outcome.automatic,
        back=outcome.back,
        restart=kind == "restart",
        to_ply=outcome.to_ply,
        restart_undone=kind == "undo" and not outcome.back,
    )
    if kind == "autoplay":
        message = f"Auto-play is {'on' if outcome.game.autoplay else 'off'}. {message}".strip()
    return message


def after_hint(
    game: Game,
    board: Board,
    answer: Hint,
    *,
    viewer: uuid.UUID | None,
    now: datetime,
) -> Page:
    """What changes on the board script's page with a hint: its sentence, its card and
    destination marked. (Without JavaScript the game page shows it, its card selected:
    ``views.game_page``'s ``?hint=``.)"""
    message, bad_news = hint_message(board, answer)
    move = answer.move
    replayed = replay(board, [move.notation()] if move else [], back=True)
    page = game_page(
        game,
        board,
        viewer=viewer,
        now=now,
        message=message,
        hint=move,
        error=bad_news,
        only=replayed.names,
    )
    # A touched pile draws from ``start`` on.
    page["changed"] = touched_piles(page["view"], board, replayed, back=True)
    # A hint that proved the deal won or lost may have settled its badge.
    if (answer.verdict == SOLVED or answer.deal_lost) and not game.daily_id:
        badge = verdict_badge(game)
        settled = badge["verdict"] and badge["verdict"].verdict != DealVerdict.Verdict.PENDING
        page |= {**badge, "settled": True} if settled else {}
    return page


def after_conflict(
    game: Game, board: Board, *, message: str, viewer: uuid.UUID | None, now: datetime
) -> Page:
    """The page as the game now stands, after another tab moved first, as a partial
    response: every pile."""
    page = game_page(game, board, viewer=viewer, now=now, message=message)
    page["changed"] = list(page["view"].piles.values())
    page["whole_counter"] = True
    return page


def _daily_ending(game: Game, now: datetime) -> dict[str, object]:
    daily = game.daily
    assert daily is not None
    row = leaderboard.own_standing(daily, game.owner, now=now)
    players = leaderboard.winners_by_daily([daily], now=now)[daily.pk]
    return daily_ending(
        game.slug,
        moves=game.ply,
        par=daily.par,
        rank=row.rank if row else None,
        ranked=bool(row and row.ranked),
        players=players,
        held=row.entry.flag_reason if row and row.entry.flagged else "",
        following=_next_daily(game, daily),
    )


def _next_daily(game: Game, daily: Daily) -> str | None:
    """The game of the next daily of ``daily``'s day the player has not won, after
    ``game``'s in the day's order: the one after it among all games led to a day without it
    (after Archway's, Castles in Spain's: a 404; a player's pass)."""
    prepared = prepared_games(daily.date)
    day = [slug for slug in daily_games(daily.date, prepared=prepared) if slug in prepared]
    won = set(
        Game.objects.filter(
            owner_id=game.owner_id, daily__date=daily.date, status=Game.Status.WON
        ).values_list("slug", flat=True)
    )
    at = day.index(game.slug) if game.slug in day else -1
    later = day[at + 1 :] + day[: at + 1]
    return next((slug for slug in later if slug not in won), None)


def _clock(game: Game, now: datetime) -> dict[str, int] | None:
    """What the page's clock (static/js/clock.js) needs to tick between moves as the server
    counts play time: the gap since the last action, and its cap (the time stored is the
    ``<time>``'s own ``datetime``)."""
    if game.active_at is None:
        return None
    since = (now - game.active_at).total_seconds()
    return {
        "since": max(int(since), 0),
        "cap": int(IDLE_CAP.total_seconds()),
    }
