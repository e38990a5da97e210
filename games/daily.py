"""The daily challenge: one proved-winnable deal per game and UTC date, and its leaderboard.

Every server computes the same deal for a date without talking to the others: the candidate
deal numbers come from a hash of the game and the date, and the solver's budget is a number
of positions (deterministic), not seconds. The first candidate the solver wins becomes the
day's deal and its line's length the par. A unique (game, date) constraint, not luck, makes
two servers preparing the same day store one row.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from games.models import Daily, Entry, Game, Player
from games.rules import MAX_DEAL, Board, get_game
from games.rules.solver import solve

CANDIDATE_NODES = 100_000
"""The solver's budget per candidate deal, in positions: the same on every machine."""
MAX_CANDIDATES = 60
"""How many candidate deals a day tries before giving up on a game."""
SECONDS_CAP = 60.0
"""A safety cap per candidate, far above what the node budget takes on this hardware."""


class DailyUnavailable(Exception):
    """No candidate deal for this game and date was proved winnable within the budget."""


def utc_today(now: dt.datetime) -> dt.date:
    return now.astimezone(dt.UTC).date()


def candidate_deals(game: str, date: dt.date) -> Iterator[int]:
    """The deal numbers a date tries, in order: stable across runs, processes and servers."""
    for index in range(MAX_CANDIDATES):
        digest = hashlib.sha256(f"castle daily {game} {date.isoformat()} {index}".encode())
        yield int.from_bytes(digest.digest()[:8], "big") % MAX_DEAL + 1


POOLS = Path(__file__).resolve().parent / "winnable"
"""Deals proved winnable offline, one ``DEAL MOVE MOVE …`` line each, for games where a
winnable deal is too rare to find within a day's budget (Archway: about one in 800)."""


def pool(game: str) -> list[tuple[int, list[str]]]:
    """A game's pool of winnable deals with their winning lines (empty: no pool)."""
    path = POOLS / f"{game}.txt"
    if not path.exists():
        return []
    entries = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            deal, *moves = line.split()
            entries.append((int(deal), moves))
    return entries


def choose_deal(game: str, date: dt.date) -> tuple[int, list[str]]:
    """The day's deal and a winning line for it (the proof)."""
    rules = get_game(game)
    if pooled := pool(rules.slug):
        # Consecutive days take consecutive entries: a deal comes back only once the whole
        # pool has been played.
        deal, line = pooled[date.toordinal() % len(pooled)]
        board = Board(rules, deal)
        for move in line:
            board.play(move)  # the stored proof is replayed, not trusted
        if not board.is_won():
            raise DailyUnavailable(f"the pooled line for {rules.name} deal {deal} does not win")
        return deal, line
    for deal in candidate_deals(rules.slug, date):
        result = solve(Board(rules, deal), seconds=SECONDS_CAP, max_nodes=CANDIDATE_NODES)
        if result.solved:
            return deal, [move.notation() for move in result.moves]
    raise DailyUnavailable(
        f"no {rules.name} deal for {date.isoformat()} was proved winnable "
        f"among {MAX_CANDIDATES} candidates"
    )


def daily_for_date(*, game: str, date: dt.date) -> Daily:
    """The daily of ``game`` on ``date``, prepared on the spot if nobody has yet (idempotent)."""
    slug = get_game(game).slug
    daily = Daily.objects.filter(game=slug, date=date).first()
    if daily is not None:
        return daily
    deal, line = choose_deal(slug, date)
    try:
        with transaction.atomic():
            return Daily.objects.create(
                game=slug, date=date, deal=deal, par=len(line), solution=" ".join(line)
            )
    except IntegrityError:  # another server or request stored the same day first
        return Daily.objects.get(game=slug, date=date)


def daily_start(*, player: Player, daily: Daily, now: dt.datetime) -> Game:
    """The player's unfinished game of this daily, or a new one (replays are allowed)."""
    from games.services import game_start

    unfinished = player.games.filter(daily=daily, status=Game.Status.PLAYING).first()
    if unfinished is not None:
        return unfinished
    return game_start(player=player, game=daily.game, deal=daily.deal, daily=daily, now=now)


def is_late(daily: Daily, when: dt.datetime) -> bool:
    """A win after the daily's UTC date is late: shown, never ranked."""
    return utc_today(when) > daily.date


def record_win(game: Game, now: dt.datetime) -> Entry | None:
    """At the move that wins a daily game: keep the player's best on-time result.

    Called inside the move's transaction by the service that validated it; nothing else
    creates entries. Late wins and games with easing options never rank.
    """
    daily = game.daily
    if daily is None or game.options or game.deal != daily.deal or is_late(daily, now):
        return None
    candidate = Entry(
        daily=daily,
        player_id=game.owner_id,
        game=game,
        moves=game.ply,
        elapsed=game.elapsed,
        undos=game.undos,
        hints=game.hints,
        finished_at=now,
    )
    best = Entry.objects.select_for_update().filter(daily=daily, player_id=game.owner_id).first()
    if best is None:
        candidate.save()
        return candidate
    if candidate.rank_key < best.rank_key:
        candidate.pk = best.pk
        candidate.save(force_update=True)
        return candidate
    return best


@dataclass(frozen=True)
class Row:
    rank: int
    entry: Entry

    @property
    def over_par(self) -> int:
        return self.entry.moves - self.entry.daily.par


def ranking(daily: Daily) -> list[Row]:
    """The daily's entries ranked: fewest moves, then play time, then earliest finish."""
    entries = daily.entries.select_related("player", "daily").order_by(
        "moves", "elapsed", "finished_at", "pk"
    )
    return [Row(rank, entry) for rank, entry in enumerate(entries, 1)]


def winners_by_daily(dailies: list[Daily]) -> dict[int, int]:
    counts = Entry.objects.filter(daily__in=dailies).values("daily").annotate(n=Count("pk"))
    return {row["daily"]: row["n"] for row in counts}


def player_status(player: Player | None, dailies: list[Daily]) -> dict[int, dict[str, object]]:
    """For each daily: the player's unfinished game, best entry and rank (when any)."""
    if player is None:
        return {}
    status: dict[int, dict[str, object]] = {d.pk: {} for d in dailies}
    for game in player.games.filter(daily__in=dailies, status=Game.Status.PLAYING):
        status[game.daily_id]["playing"] = game
    for entry in Entry.objects.filter(player=player, daily__in=dailies):
        better = Entry.objects.filter(daily_id=entry.daily_id).filter(
            Q(moves__lt=entry.moves)
            | Q(moves=entry.moves, elapsed__lt=entry.elapsed)
            | Q(moves=entry.moves, elapsed=entry.elapsed, finished_at__lt=entry.finished_at)
        )
        status[entry.daily_id]["entry"] = entry
        status[entry.daily_id]["rank"] = better.count() + 1
    return status


def champions(game: str, *, top: int = 20) -> dict[str, list[dict[str, object]]]:
    """Per game over all dailies: most daily wins, best streak of consecutive days, best
    average over par; each list best first."""
    per_player: dict[Player, list[Entry]] = {}
    for entry in Entry.objects.filter(daily__game=game).select_related("player", "daily"):
        per_player.setdefault(entry.player, []).append(entry)
    table = []
    for player, won in per_player.items():
        streak = best = 0
        previous: dt.date | None = None
        for date in sorted({entry.daily.date for entry in won}):
            streak = streak + 1 if previous and date - previous == dt.timedelta(days=1) else 1
            best, previous = max(best, streak), date
        over = sum(e.moves - e.daily.par for e in won) / len(won)
        table.append({"player": player, "wins": len(won), "streak": best, "over_par": over})
    return {
        "Most daily wins": sorted(table, key=lambda r: (-r["wins"], r["over_par"]))[:top],
        "Best streak": sorted(table, key=lambda r: (-r["streak"], -r["wins"]))[:top],
        "Best average over par": sorted(table, key=lambda r: (r["over_par"], -r["wins"]))[:top],
    }


def verify_entries() -> list[str]:
    """Replay every leaderboard entry from its daily's deal and stored moves with the engine.

    Returns one line per mismatch (an empty list means every entry is what it claims).
    """
    problems = []
    for entry in Entry.objects.select_related("daily", "game").iterator():
        game, daily = entry.game, entry.daily
        board = Board(daily.game, daily.deal)
        moves = game.moves.filter(undone=False, ply__lte=entry.moves).order_by("ply")
        try:
            for move in moves.values_list("notation", flat=True):
                board.play(move)
        except ValueError as error:
            problems.append(f"entry {entry.pk}: {error}")
            continue
        if game.game != daily.game or game.deal != daily.deal or game.options:
            problems.append(f"entry {entry.pk}: its game is not the daily's deal")
        elif not board.is_won() or board.ply != entry.moves:
            problems.append(
                f"entry {entry.pk}: the moves replay to {board.cards_on_foundations} cards up "
                f"in {board.ply} moves, not a win in {entry.moves}"
            )
    return problems
