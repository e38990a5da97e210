"""The daily challenge: one proved-winnable deal per game and UTC date, and its leaderboard.

Deals. A day's candidate deal numbers come from an HMAC of the game and the date keyed by
``settings.DAILY_SECRET``: every server and worker computes the same candidates, nobody
without the secret can. The solver's budget is a number of positions (deterministic), not
seconds. The first candidate the solver wins becomes the day's deal and its line's length
the par. Preparation is solver work, so it runs only in the task worker
(``games.daily_tasks``) or the ``prepare_dailies`` command, days ahead; web requests only
read prepared rows. A unique (game, date) constraint, not luck, makes two workers preparing
the same day store one row.

Secrecy. Until a daily's UTC day ends ("live"), nobody but its player sees a daily game's
moves or position, and the live deal cannot be practised outside the player's one daily
game. Future days do not exist for anyone.

Ranking (RULES.md): fewest moves, then play time, then earliest finish. Only entries of
players with an account, not flagged as too fast and not hidden by a moderator, rank.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import itertools
import statistics
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet

from games.models import Daily, Entry, Game, Player
from games.rules import GAMES, MAX_DEAL, Board, get_game
from games.rules.solver import solve


@dataclass(frozen=True)
class Budget:
    """How hard a day tries to find a winnable deal of one game."""

    candidates: int
    """Candidate deals tried, in order, stopping at the first the solver wins."""
    nodes: int
    """The solver's budget per candidate, in positions: the same on every machine."""


BUDGETS: dict[str, Budget] = {
    slug: Budget(candidates=60, nodes=100_000) for slug in GAMES if slug != "archway"
}
# About one Archway deal in 2,000 is winnable (RULES.md): many candidates, each decided by
# the solver's exact Archway search within a small budget.
BUDGETS["archway"] = Budget(candidates=20_000, nodes=20_000)
SECONDS_CAP = 60.0
"""A safety cap per candidate, far above what the node budget takes on this hardware."""


def family_game(date: dt.date) -> str:
    """The family game of ``date``: the games beyond the six classics take turns, one a
    day, in the order the site lists them (the same on every server, known in advance:
    only the deals are secret)."""
    family = [slug for slug, rules in GAMES.items() if not rules.is_classic]
    return family[date.toordinal() % len(family)]


def daily_games(date: dt.date) -> list[str]:
    """The games with a daily on ``date``: the six classics, then the family game of the
    day."""
    return [slug for slug, rules in GAMES.items() if rules.is_classic] + [family_game(date)]


def min_human_gap() -> dt.timedelta:
    """The speed rule: a win whose player-made moves (auto-play excluded) came with a median
    gap under this (``DAILY_MIN_HUMAN_GAP_MS``, default 150 ms) is flagged. People need
    several hundred milliseconds to pick a card and then its destination (two clicks, or a
    drag); a script replaying a known line needs none. The median, not the fastest gap, so
    a quick double move or a burst of obvious moves does not flag a person."""
    return dt.timedelta(milliseconds=settings.DAILY_MIN_HUMAN_GAP_MS)


MIN_GAPS = 10
"""Gaps needed before the speed rule judges (a short game says too little)."""


class DailyUnavailable(Exception):
    """No candidate deal for this game and date was proved winnable within the budget."""


def utc_today(now: dt.datetime) -> dt.date:
    return now.astimezone(dt.UTC).date()


def is_live(daily: Daily, now: dt.datetime) -> bool:
    """Until its UTC day ends, a daily's moves are secret and its deal cannot be practised."""
    return utc_today(now) <= daily.date


def is_late(daily: Daily, when: dt.datetime) -> bool:
    """A win after the daily's UTC date is late: shown, never ranked."""
    return utc_today(when) > daily.date


# -- deals --------------------------------------------------------------------------------


def candidate_deals(game: str, date: dt.date, *, secret: str | None = None) -> Iterator[int]:
    """The deal numbers a date tries, in order: stable across runs, processes and servers
    that share ``DAILY_SECRET``, and unpredictable without it."""
    key = (secret if secret is not None else settings.DAILY_SECRET).encode()
    for index in range(BUDGETS[game].candidates):
        message = f"castle daily {game} {date.isoformat()} {index}".encode()
        digest = hmac.new(key, message, hashlib.sha256).digest()
        yield int.from_bytes(digest[:8], "big") % MAX_DEAL + 1


def choose_deal(game: str, date: dt.date) -> tuple[int, list[str]]:
    """The day's deal and a winning line for it (the proof). Solver work: seconds."""
    rules = get_game(game)
    budget = BUDGETS[rules.slug]
    for deal in candidate_deals(rules.slug, date):
        result = solve(Board(rules, deal), seconds=SECONDS_CAP, max_nodes=budget.nodes)
        if result.solved:
            return deal, [move.notation() for move in result.moves]
    raise DailyUnavailable(
        f"no {rules.name} deal for {date.isoformat()} was proved winnable "
        f"among {budget.candidates} candidates"
    )


def daily_prepare(*, game: str, date: dt.date) -> Daily:
    """Store the daily of ``game`` on ``date`` unless it exists (idempotent). Runs the
    solver: call it from the task worker or a command, never from a web request."""
    slug = get_game(game).slug
    if (daily := daily_get(game=slug, date=date)) is not None:
        return daily
    deal, line = choose_deal(slug, date)
    try:
        with transaction.atomic():
            return Daily.objects.create(
                game=slug, date=date, deal=deal, par=len(line), solution=" ".join(line)
            )
    except IntegrityError:  # another worker stored the same day first
        return Daily.objects.get(game=slug, date=date)


def daily_get(*, game: str, date: dt.date) -> Daily | None:
    """The prepared daily, if any (a read: never runs the solver)."""
    return Daily.objects.filter(game=get_game(game).slug, date=date).first()


def launch() -> dt.date | None:
    """The first day of the challenge: ``DAILY_LAUNCH``, else the first prepared daily."""
    if settings.DAILY_LAUNCH:
        return dt.date.fromisoformat(settings.DAILY_LAUNCH)
    return Daily.objects.order_by("date").values_list("date", flat=True).first()


def day_exists(date: dt.date, *, now: dt.datetime) -> bool:
    """Whether ``date`` has a daily page: today (prepared or being prepared), or a past day
    from launch on that has prepared dailies. Never the future."""
    today = utc_today(now)
    if date > today:
        return False
    first = launch()
    if first is not None and date < first:
        return False
    return date == today or Daily.objects.filter(date=date).exists()


def visible_daily(*, game: str, date: dt.date, now: dt.datetime) -> Daily | None:
    """The daily of ``game`` on ``date`` if the public may know it exists (not the future)."""
    if date > utc_today(now) or not day_exists(date, now=now):
        return None
    return daily_get(game=game, date=date)


def live_daily_of_deal(*, game: str, deal: int, now: dt.datetime) -> Daily | None:
    """Today's daily of ``game`` when ``deal`` is its deal: no practice on it until the day
    ends. (Future dailies are not refused: a refusal would tell their deal away.)"""
    return Daily.objects.filter(game=get_game(game).slug, deal=deal, date=utc_today(now)).first()


# -- who sees what ------------------------------------------------------------------------


def game_visible_to(game: Game, player_id: uuid.UUID | None, *, now: dt.datetime) -> bool:
    """Whether ``player_id`` may see ``game``'s moves and position: always its owner; anyone
    else unless it is a daily game whose day is live."""
    if game.daily_id is None or (player_id is not None and game.owner_id == player_id):
        return True
    return not is_live(game.daily, now)


# -- playing and winning ------------------------------------------------------------------


def daily_start(*, player: Player, daily: Daily, now: dt.datetime) -> Game:
    """The player's one game of this daily, created on the first request (the unique
    (owner, daily) constraint makes concurrent first requests share one game)."""
    from games.services import game_start

    existing = player.games.filter(daily=daily).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return game_start(player=player, game=daily.game, deal=daily.deal, daily=daily, now=now)
    except IntegrityError:  # a concurrent request created it first
        return player.games.get(daily=daily)


def too_fast(game: Game) -> str:
    """Why the game's player-made moves look scripted (empty: they do not), by the speed
    rule of ``min_human_gap``."""
    times = sorted(game.moves.filter(auto=False).values_list("played_at", flat=True))
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    if len(gaps) < MIN_GAPS:
        return ""
    median, floor = statistics.median(gaps), min_human_gap()
    if median >= floor:
        return ""
    return (
        f"median gap between player moves {median.total_seconds() * 1000:.0f} ms "
        f"(under {floor.total_seconds() * 1000:.0f} ms) over {len(gaps)} gaps"
    )


def record_win(game: Game, now: dt.datetime) -> Entry | None:
    """At the move that wins a daily game: keep the player's best on-time result.

    Called inside the move's transaction by the service that validated it; nothing else
    creates entries. Late wins and games with easing options never rank. A win that breaks
    the speed rule is stored flagged (unranked until a moderator clears it).
    """
    daily = game.daily
    if daily is None or game.options or game.deal != daily.deal or is_late(daily, now):
        return None
    reason = too_fast(game)
    candidate = Entry(
        daily=daily,
        player_id=game.owner_id,
        game=game,
        moves=game.ply,
        elapsed=game.elapsed,
        undos=game.undos,
        hints=game.hints,
        finished_at=now,
        flagged=bool(reason),
        flag_reason=reason,
    )
    best = Entry.objects.select_for_update().filter(daily=daily, player_id=game.owner_id).first()
    if best is None:
        try:
            with transaction.atomic():  # a savepoint: a racing win keeps the transaction
                candidate.save()
            return candidate
        except IntegrityError:  # the same player's other win landed first
            best = Entry.objects.select_for_update().get(daily=daily, player_id=game.owner_id)
    if candidate.rank_key < best.rank_key:
        candidate.pk = best.pk
        candidate.hidden = best.hidden
        candidate.save(force_update=True)
        return candidate
    return best


# -- leaderboards -------------------------------------------------------------------------


def ranked(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """The entries that rank: players with an account, not flagged, not hidden."""
    return entries.filter(player__user__isnull=False, flagged=False, hidden=False)


@dataclass(frozen=True)
class Row:
    rank: int
    entry: Entry
    watchable: bool = False
    """The day has ended: the row links to its replay."""
    ranked: bool = True
    """False for the player's own unranked entry (no account, flagged or hidden)."""

    @property
    def over_par(self) -> int:
        return self.entry.moves - self.entry.daily.par


RANK_ORDER = ("moves", "elapsed", "finished_at", "pk")


def ranking(daily: Daily, *, now: dt.datetime) -> list[Row]:
    """The daily's ranked entries: fewest moves, then play time, then earliest finish."""
    entries = ranked(daily.entries.all()).select_related("player", "daily").order_by(*RANK_ORDER)
    watchable = not is_live(daily, now)
    return [Row(rank, entry, watchable) for rank, entry in enumerate(entries, 1)]


def place_of(entry: Entry) -> int:
    """Where ``entry`` ranks, or would rank if it counted: 1 + the ranked entries before it."""
    better = ranked(Entry.objects.filter(daily_id=entry.daily_id)).exclude(pk=entry.pk)
    better = better.filter(
        Q(moves__lt=entry.moves)
        | Q(moves=entry.moves, elapsed__lt=entry.elapsed)
        | Q(moves=entry.moves, elapsed=entry.elapsed, finished_at__lt=entry.finished_at)
    )
    return better.count() + 1


def is_ranked(entry: Entry) -> bool:
    return entry.player.user_id is not None and not entry.flagged and not entry.hidden


def own_row(daily: Daily, player: Player | None, *, now: dt.datetime) -> Row | None:
    """The player's entry of this daily, ranked or where it would place."""
    if player is None:
        return None
    entry = daily.entries.select_related("player", "daily").filter(player=player).first()
    if entry is None:
        return None
    return Row(place_of(entry), entry, watchable=True, ranked=is_ranked(entry))


def winners_by_daily(dailies: list[Daily]) -> dict[int, int]:
    counts = ranked(Entry.objects.filter(daily__in=dailies)).values("daily").annotate(n=Count("pk"))
    return {row["daily"]: row["n"] for row in counts}


def player_status(player: Player | None, dailies: list[Daily]) -> dict[int, dict[str, object]]:
    """For each daily: the player's game, best entry and (would-be) rank, when any."""
    if player is None:
        return {}
    status: dict[int, dict[str, object]] = {d.pk: {} for d in dailies}
    for game in player.games.filter(daily__in=dailies):
        status[game.daily_id]["game"] = game
    for entry in Entry.objects.filter(player=player, daily__in=dailies).select_related("player"):
        status[entry.daily_id]["entry"] = entry
        status[entry.daily_id]["rank"] = place_of(entry)
        status[entry.daily_id]["ranked"] = is_ranked(entry)
    return status


def champions(game: str, *, top: int = 20) -> dict[str, list[dict[str, object]]]:
    """Per game over all dailies: most daily wins, best streak of consecutive days, best
    average over par; each list best first (ranked entries only)."""
    per_player: dict[Player, list[Entry]] = {}
    for entry in ranked(Entry.objects.filter(daily__game=game)).select_related("player", "daily"):
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


# -- moderation ---------------------------------------------------------------------------


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


def moderation_report() -> list[str]:
    """One line per flagged or hidden entry: what a moderator has to look at."""
    lines = []
    entries = Entry.objects.filter(Q(flagged=True) | Q(hidden=True)).select_related(
        "daily", "player"
    )
    for entry in entries.order_by("daily__date", "pk"):
        states = [f"flagged ({entry.flag_reason})"] if entry.flagged else []
        states += ["hidden"] if entry.hidden else []
        lines.append(f"entry {entry.pk} {entry.daily} {entry.player}: {', '.join(states)}")
    return lines
