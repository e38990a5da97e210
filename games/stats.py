"""A player's statistics per game: reads only, computed from the saved games."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db.models import Count, Exists, Max, OuterRef

from games.models import Game, PlayedMove, Player
from games.rules import GAMES


@dataclass
class GameStats:
    slug: str
    name: str
    played: int = 0
    won: int = 0
    current_streak: int = 0
    best_streak: int = 0
    fewest_moves: int | None = None
    fastest: timedelta | None = None
    results: list[bool] = field(default_factory=list)
    """Oldest first: one entry per finished or abandoned game (the recent ones)."""
    in_progress: bool = False
    """Whether the newest game played is still open: played, but neither won nor lost."""

    @property
    def win_percent(self) -> int | None:
        """Wins among the games decided (the open newest one aside), in whole percent;
        None before one is. An open game read as a loss: "Played 1, Won 0, Win rate 0 %"
        for a game four moves in (a player's pass)."""
        decided = self.played - self.in_progress
        return round(100 * self.won / decided) if decided else None


def player_stats(player: Player, *, recent: int = 40) -> list[GameStats]:
    """Per game: played, won, win rate, current and best win streak, fewest moves, fastest.

    A game counts once the player made a move in it (opening one and leaving is not a game
    played; auto-play alone is not a move); imported games never count (a pasted record is
    not a win). A streak counts wins in the order games were started; a game left
    unfinished breaks it, except the newest one, which may still be won.
    """
    stats = {slug: GameStats(slug, rules.name) for slug, rules in GAMES.items()}
    played = PlayedMove.objects.filter(game=OuterRef("pk"), auto=False)
    rows = list(
        Game.objects.filter(owner=player, imported=False)
        .filter(Exists(played))
        .order_by("created_at")
        .values_list("slug", "status", "ply", "elapsed")
    )
    last_index = {row[0]: index for index, row in enumerate(rows)}
    for index, (slug, status, ply, elapsed) in enumerate(rows):
        entry = stats[slug]
        entry.played += 1
        won = status == Game.Status.WON
        if not won and index == last_index[slug]:
            entry.in_progress = True  # the newest game is still open
            continue
        entry.results.append(won)
        if won:
            entry.won += 1
            entry.current_streak += 1
            entry.best_streak = max(entry.best_streak, entry.current_streak)
            entry.fewest_moves = ply if entry.fewest_moves is None else min(entry.fewest_moves, ply)
            entry.fastest = elapsed if entry.fastest is None else min(entry.fastest, elapsed)
        else:
            entry.current_streak = 0
    for entry in stats.values():
        entry.results = entry.results[-recent:]
    return list(stats.values())


STATS_KEPT = 10 * 60
"""Seconds a player's statistics stay cached (``viewed_stats``): how long a table can be
out of date when two of the player's games changed at once (below)."""


def viewed_stats(player: Player) -> list[GameStats]:
    """``player_stats`` as the statistics page shows them, cached for each player with the
    state of their games it was computed from: their number and their last change, which
    one read of the owner's index gives (``game_owner_idx`` covers it).

    ``player_stats`` reads every game the player ever played: 195 ms at 20,000 games, 376
    ms at 60,000, on every view of a page no limit counts (a review). The state changes with
    every move, undo, restart, import, deletion and adopted game (each writes a game's
    ``updated_at``, or adds or takes away a game), so a table cached with the state the
    games still have is the one ``player_stats`` would give. Not quite always, hence the
    short ``STATS_KEPT``: a write commits after a later one it raced (in another game, from
    another tab) with the earlier time, and a view between the two commits keeps the older
    table under the final state (an attacker's pass). A log-in that adopts a session's games
    can leave as many games, changed last at the same time (of a daily both played, one
    game goes): it calls ``forget_stats``.

    One entry per player: one per state let a client store an entry (1.7 KB, kept a day)
    with each action and view, 600 a minute (an attacker's pass).
    """
    found = Game.objects.filter(owner=player).aggregate(games=Count("*"), last=Max("updated_at"))
    state = (found["games"], found["last"])
    key = _key(player.pk)
    cached: tuple[tuple[int, datetime | None], list[GameStats]] | None = cache.get(key)
    if cached is not None and cached[0] == state:
        return cached[1]
    table = player_stats(player)
    cache.set(key, (state, table), STATS_KEPT)
    return table


def forget_stats(player_id: uuid.UUID) -> None:
    """Let ``viewed_stats`` compute the player's statistics again at the next view."""
    cache.delete(_key(player_id))


def _key(player_id: uuid.UUID) -> str:
    return f"stats:{player_id}"
