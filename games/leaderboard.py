"""Daily leaderboards: the entries a win records, their ranking, each player's place, the
champions of a game over all its dailies, and what moderators check.

Entries are created only here, by ``record_win``, which the game service calls at the move
that wins a daily game. Ranking (RULES.md): fewest moves, then play time, then earliest
finish. Only entries of players with an account, not flagged (held for a moderator:
``win_reason``) and not hidden by a moderator, rank.
"""

from __future__ import annotations

import datetime as dt
import itertools
import secrets
import statistics
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from time import sleep
from typing import NamedTuple, cast, overload

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q, QuerySet
from django.db.models.signals import post_delete
from django.dispatch import receiver

from games.models import Daily, DailyLook, Entry, Game, Player
from games.rules import Board, Move, RulesError


def min_human_gap() -> dt.timedelta:
    """The speed rule: a win whose player-made moves (auto-play excluded) came with a median
    gap under this (``DAILY_MIN_HUMAN_GAP_MS``, default 150 ms), or a mean gap under
    ``min_human_pace``, is flagged. People need several hundred milliseconds to pick a card
    and then its destination (two clicks, or a drag); a script replaying a known line needs
    none. The median, not the fastest gap, so a quick double move or a burst of obvious
    moves does not flag a person."""
    return dt.timedelta(milliseconds=settings.DAILY_MIN_HUMAN_GAP_MS)


def min_human_pace() -> dt.timedelta:
    """The speed rule's mean gap (``DAILY_MIN_HUMAN_PACE_MS``, default 300 ms): the player's
    first move to their last, over the gaps between. The median alone let a script through
    that sent five moves in nine 155 ms apart and the rest at once: 79 moves in 8 s ranked
    1st (an attacker's pass). A person's bursts come with the pauses of reading the
    board."""
    return dt.timedelta(milliseconds=settings.DAILY_MIN_HUMAN_PACE_MS)


def min_human_spread() -> float:
    """The speed rule's steadiness (``DAILY_MIN_HUMAN_SPREAD``, default 0.1): a win half of
    whose gaps between player-made moves lie within this share of their median gap (their
    median distance from it, over it) is flagged. A script sending a line found offline (the
    live deal is on every visitor's screen) at 0.36 s a move, each gap within a few
    milliseconds of the last, ranked 1st at 2 under par (an attacker's pass). Measured as
    the standard deviation over the mean, one pause of 0.8 s in 85 gaps let it through (the
    next pass): half the gaps are what a pause or a busy server cannot move. A person
    answers an obvious move in a few hundred milliseconds and thinks for seconds over
    another. A script that varies its pace by more passes; this takes away only the easiest
    way through."""
    return float(settings.DAILY_MIN_HUMAN_SPREAD)


MIN_GAPS = 3
"""Gaps needed before the speed rule judges (one or two say too little of a pace). It was
10: a daily that needs ten moves of the player's or fewer was never judged, however fast
its moves came (an attacker's pass; the fewest a daily needed that day was 26)."""
STEADY_GAPS = 20
"""Gaps needed before the steadiness is judged: a person's short burst can be even."""


# -- recording wins -----------------------------------------------------------------------


def too_fast(game: Game, now: dt.datetime | None = None) -> str:
    """Why the game's player-made moves look scripted (empty: they do not), by the speed
    rule of ``min_human_gap`` and ``min_human_pace``. ``now``: the time of the action that
    won, whose rows are not stored yet (``win_reason``): without it, the gap before the
    winning move went uncounted (a script's last move could come at once)."""
    times = sorted(game.played_moves.filter(auto=False).values_list("played_at", flat=True))
    if now is not None:
        times.append(now)
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    if len(gaps) < MIN_GAPS:
        return ""
    median, floor = _median(gaps), min_human_gap()
    mean, pace = (times[-1] - times[0]) / len(gaps), min_human_pace()
    if median < floor:
        return (
            f"moves faster than a person clicks: a median gap of {_ms(median)} between player "
            f"moves over {len(gaps)} gaps, under {_ms(floor)}"
        )
    if mean < pace:
        return (
            f"moves faster than a person plays: a mean gap of {_ms(mean)} between player "
            f"moves over {len(gaps)} gaps, under {_ms(pace)}"
        )
    spread, least = _spread(gaps), min_human_spread()
    if len(gaps) >= STEADY_GAPS and spread < least:
        return (
            f"moves at a machine's steady pace: half of its {len(gaps)} gaps between player "
            f"moves lie within {spread:.0%} of their median, {_ms(median)}, where a person's "
            f"spread is wider than {least:.0%}"
        )
    return ""


def _spread(gaps: list[dt.timedelta]) -> float:
    """How much ``gaps`` vary, as a pause or a busy server does not change it: their median
    distance from their median, over their median."""
    seconds = [gap.total_seconds() for gap in gaps]
    middle = statistics.median(seconds)
    distance = statistics.median(abs(gap - middle) for gap in seconds)
    return distance / middle if middle > 0 else 0.0


def _ms(duration: dt.timedelta) -> str:
    return f"{duration.total_seconds() * 1000:.0f} ms"


def copies_the_solution(daily: Daily, line: Sequence[str]) -> str:
    """Why a win's ``line`` looks copied (empty: it does not): its moves between piles lay at
    least ``COPIED_SHARE`` of the daily's own solution's placements (which card went onto
    which, or into a space), in any order, in a line of at most ``COPIED_LENGTH`` times as
    many (foundation moves aside: auto-play orders them its own way). A solution of fewer
    than ``MIN_COPIED`` such moves is compared otherwise: ``follows_the_solution``.

    The solution is what Hint shows of a live daily, a move at a time: a second player's
    game can ask for all of it and the ranked one replay it at a person's pace, its hints
    counted on the other game. Compared move for move, a copy passed once two independent
    moves were swapped; compared as placements, it is the same whatever the order of such
    moves and whichever empty pile a card went to. Counted against the longer line, a copy
    padded with a few extra moves passed (an attacker's pass: 1st, 2-5 over par, each
    detour adding a placement the solution lacks); counted against the solution's, padding
    alone never escapes, and only lines half again as long are let go. Two solvers' lines
    for one deal lay 27-59 % of each other's placements where one is at most half again as
    long as the other (7 of 25 Citadel deals, ours against fc-solve's; 27-75 % over all 25),
    and a person's line played for the tests 10 of the solution's 14, in 28. A moderator
    clears a person who found the solver's line anyway."""
    solution = daily.solution.split()
    try:
        if len(_between_piles(solution)) < MIN_COPIED:
            return follows_the_solution(daily, solution, line)
        theirs = _placements(daily, solution)
    except RulesError:  # no line stored (a daily made by hand)
        return ""
    mine = _placements(daily, line)
    same = (mine & theirs).total()
    if same < COPIED_SHARE * theirs.total() or mine.total() > COPIED_LENGTH * theirs.total():
        return ""
    return (
        f"it makes {same} of the {theirs.total()} moves between piles of the daily's own "
        f"solution, which Hint shows a move at a time"
    )


MIN_COPIED = 10
"""Moves between piles a daily's solution needs before a win that repeats them is judged
copied by its placements (as ``MIN_GAPS`` for the speed rule: a short line says too
little), and choices (``follows_the_solution``) before one is judged by its positions."""

COPIED_SHARE = 0.7
"""The share of the daily's solution's placements a win lays from which it is judged
copied: ``copies_the_solution``."""

COPIED_LENGTH = 1.5
"""How many times the solution's moves between piles (or choices) a win may have and still
be judged a copy: a longer line is a player's own, whatever it shares."""

FOLLOWED_SHARE = 0.75
"""The share of the positions the daily's solution settles in that a win settles in too,
from which it is judged copied: ``follows_the_solution``."""


def follows_the_solution(daily: Daily, solution: Sequence[str], line: Sequence[str]) -> str:
    """Why ``line`` looks copied from ``solution`` (empty: it does not), for a solution of
    few moves between piles: an Archway daily's has 2 to 6 in about 100 moves, and its cards
    go up whichever line wins, so every win lays much the same cards as the solution
    (independent winning lines of five winnable deals sent 90-100 % of their cards where
    the solution does). Its placements were not compared at all: a copy of the Archway
    daily's hints, replayed by an account at 0.4 s a move, ranked 1st (an attacker's pass).

    What a line chooses shows in the positions it passes through: compared as the positions
    each line settles in after each of its choices (``_settled``), a copy of the solution
    passes through all of them, with auto-play on or off, in any order of the moves it
    makes that auto-play would have made. Compared as the order of the choices, a copy
    with four independent choices swapped ranked 1st (an attacker's pass); each such swap
    changes one position in thirty, and a copy with up to 12 swaps kept 90-100 % of them.
    Random winning lines of the same deals, played with auto-play, settled in 9-56 % of the
    solution's (24 lines, 3 deals)."""
    theirs = _settled(daily, solution)
    if len(theirs) < MIN_COPIED:
        return ""
    mine = _settled(daily, line)
    same = len(set(theirs) & set(mine))
    if same < FOLLOWED_SHARE * len(set(theirs)) or len(mine) > COPIED_LENGTH * len(theirs):
        return ""
    return (
        f"it passes through {same} of the {len(set(theirs))} positions of the daily's own "
        f"solution, which Hint shows a move at a time"
    )


def _settled(daily: Daily, line: Sequence[str]) -> list[bytes]:
    """The positions ``line``, played from the daily's deal, settles in after each of its
    choices (its moves that auto-play would not make, ``Board.safe_moves``): the position
    with every safe move played, so the same whoever made those moves, and whenever."""
    board = Board(daily.slug, daily.deal)
    settled: list[bytes] = []
    for notation in line:
        move = board.parse_move(notation)
        chosen = move not in board.safe_moves()
        board.push(move)
        if chosen:
            position = board.copy(stack=False)
            position.autoplay()
            settled.append(position.position_key())
    return settled


def _between_piles(line: Iterable[str]) -> list[str]:
    """The moves of ``line`` (notation) whose destination is not a foundation."""
    return [move for move in line if not Move.from_notation(move).to_foundation]


def _placements(daily: Daily, line: Sequence[str]) -> Counter[tuple[int, int]]:
    """The moves between piles of ``line``, played from the daily's deal, as placements:
    the card moved (a run's lowest) and the card it was laid on (0: a space or a cell)."""
    board = Board(daily.slug, daily.deal)
    placed: Counter[tuple[int, int]] = Counter()
    for notation in line:
        move = board.parse_move(notation)
        if not move.to_foundation:
            under = board.pile(move.target)
            placed[board.pile(move.source)[-move.count], under[-1] if under else 0] += 1
        board.push(move)
    return placed


def _median(gaps: list[dt.timedelta]) -> dt.timedelta:
    """``statistics.median`` of durations (its types accept numbers only)."""
    ordered, middle = sorted(gaps), len(gaps) // 2
    return ordered[middle] if len(gaps) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


OPENED_ELSEWHERE = (
    "another game of this daily was opened from the network this game was opened from, "
    "before this win: one try a day each"
)


def opened_elsewhere(game: Game) -> str:
    """Why a daily win looks like a second try (empty: it does not): another game of the
    same daily was opened, before the win (as it is asked at the win), from the network
    ``game`` was opened from (``DailyLook``), even if a log-in has merged that game away
    since. The network the game is opened from, not the one a move comes from: the deal is
    seen when the game opens.

    The live deal shows on its player's screen: a script opened the daily in an anonymous
    session, which starts no clock on the account, solved it offline and played the line
    from the account at a person's uneven pace, 2 under par, 1st (an attacker's pass). So
    were the best of several anonymous tries claimed by logging in. Seen from one network,
    the look and the play are two games of one daily. Players who share a network (a
    household, an office) are held too, until a moderator clears them; a script that
    looks from one network and opens its ranked game from another passes."""
    if game.daily_id is None:
        return ""
    mine = DailyLook.objects.filter(daily_id=game.daily_id, game=game.pk)
    network = mine.values_list("network", flat=True).first()
    if network is None:
        return ""
    looks = DailyLook.objects.filter(daily_id=game.daily_id, network=network)
    return OPENED_ELSEWHERE if looks.exclude(game=game.pk).exists() else ""


def counts_for(game: Game, now: dt.datetime) -> bool:
    """Whether a win of ``game`` now may rank: a daily game of the daily's own deal, without
    easing options, on its day."""
    daily = game.daily
    return not (daily is None or game.options or game.deal != daily.deal or daily.is_late(now))


def win_reason(game: Game, now: dt.datetime, line: Sequence[str]) -> str:
    """Why a win of ``game`` at ``now`` with ``line`` (its moves, the winning ones included) is
    held for a moderator (empty: it ranks): the speed rule, a copy of the daily's solution,
    a second try from one network. Reads only: the game service asks it before the winning
    move's transaction, which holds the write lock (a copy check replays the line: 33 ms on
    an Archway win, every other move on SQLite waiting; a review)."""
    assert game.daily is not None
    return too_fast(game, now) or copies_the_solution(game.daily, line) or opened_elsewhere(game)


def record_win(game: Game, now: dt.datetime, reason: str) -> Entry | None:
    """At the move that wins a daily game: keep the player's best on-time result.

    Called inside the move's transaction by the service that validated it; nothing else
    creates entries. Late wins and games with easing options never rank (``counts_for``). A
    win with a ``reason`` (``win_reason``, which the moves' services ask before the
    transaction) is stored flagged (unranked until a moderator clears it).
    """
    daily = game.daily
    if daily is None or not counts_for(game, now):  # None: for mypy, as counts_for says
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
        flagged=bool(reason),
        flag_reason=reason,
    )
    best = Entry.objects.select_for_update().filter(daily=daily, player_id=game.owner_id).first()
    if best is None:
        try:
            with transaction.atomic():  # a savepoint: a racing win keeps the transaction
                candidate.save()
        except IntegrityError:  # the same player's other win landed first
            best = Entry.objects.select_for_update().get(daily=daily, player_id=game.owner_id)
        else:
            _forget_if_ranked(candidate)
            return candidate
    if candidate.rank_key < best.rank_key:
        candidate.pk = best.pk
        candidate.hidden = best.hidden
        candidate.save(force_update=True)
        _forget_if_ranked(candidate)
        return candidate
    return best


def _forget_if_ranked(entry: Entry) -> None:
    """A win just stored changes its daily's counts if it ranks: forget them once it is
    committed (``forget_counts``), so the winner's own page counts it. Wins that do not rank
    (anonymous, flagged, hidden) change nothing counted: a flood of throwaway players' wins
    recounts nothing."""
    if entry.flagged or entry.hidden:
        return
    if Player.objects.filter(pk=entry.player_id, user__is_active=True).exists():
        transaction.on_commit(lambda: forget_counts([entry.daily_id]))


# -- leaderboards -------------------------------------------------------------------------


def ranked(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """The entries that rank: players with an active account, not flagged, not hidden."""
    return entries.filter(player__user__is_active=True, flagged=False, hidden=False)


@dataclass(frozen=True)
class Standing:
    """One line of a daily's leaderboard: a place and the entry holding it."""

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
"""The ranking (RULES.md), the primary key last so equal results keep their places from one
page to the next. ``entry_rank_idx`` (daily first) serves it: a page reads its rows from the
index in order, with no sort."""


def ranking(daily: Daily, *, now: dt.datetime) -> list[Standing]:
    """The daily's ranked entries: fewest moves, then play time, then earliest finish. All of
    them, each read: a page of the leaderboard asks ``ranking_page``."""
    length = ranked(daily.entries.all()).count()
    return list(_Ranking(daily, length=length, watchable=not daily.is_live(now)))


class _Ranking(Sequence[Standing]):
    """A daily's ranking as the sequence a ``Paginator`` slices: a slice reads only its own
    entries (a LIMIT and OFFSET on ``RANK_ORDER``), each numbered by its place; the length
    is given, not counted again."""

    def __init__(self, daily: Daily, *, length: int, watchable: bool) -> None:
        entries = ranked(daily.entries.all()).select_related("player", "daily")
        self._entries = entries.order_by(*RANK_ORDER)
        self._length, self._watchable = length, watchable

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[Standing]:
        return iter(self[:])  # one read, not Sequence's one per index

    @overload
    def __getitem__(self, index: int) -> Standing: ...
    @overload
    def __getitem__(self, index: slice) -> list[Standing]: ...
    def __getitem__(self, index: int | slice) -> Standing | list[Standing]:
        if isinstance(index, int):
            return self[index : index + 1 or None][0]
        start, stop, _ = index.indices(self._length)
        entries = self._entries[start:stop]
        return [
            Standing(place, entry, self._watchable)
            for place, entry in enumerate(entries, start + 1)
        ]


@dataclass(frozen=True)
class RankingPage:
    """A page of a daily's leaderboard, and the spread of all its ranked results."""

    page: Page[Standing]
    move_counts: dict[int, int]
    """How many ranked entries won in each number of moves (the histogram)."""


MAX_PLACES = 5_000
"""The places a leaderboard lists, page by page (a player further down sees their own row
under every page). A page's OFFSET walks every row before it: the last of 320 pages took
162 ms, and any page number out of range served it (an attacker's pass)."""


def ranking_page(
    daily: Daily, number: str | int | None, *, per_page: int, now: dt.datetime
) -> RankingPage:
    """Page ``number`` of the daily's ranking (the first when none is given), of its first
    ``MAX_PLACES``; ``InvalidPage`` for a number that is not one of its pages. The page
    reads its ``per_page`` entries and no more: the whole leaderboard, read on every view,
    took 1.3-1.6 s at 20,000 entries to draw 50 rows. The spread is the daily's shared
    ``move_counts``, and their sum the number ranked."""
    counts = move_counts(daily, now=now)
    listed = min(sum(counts.values()), MAX_PLACES)
    rows = _Ranking(daily, length=listed, watchable=not daily.is_live(now))
    return RankingPage(Paginator(rows, per_page).page(number or 1), counts)


TALLY_LIVE_SECONDS = 30
"""How long a live daily's ``move_counts`` stay fresh: what no hook forgets (an anonymous
win claimed by an account, an account deactivated) shows within this."""

TALLY_OVER_SECONDS = 10 * 60
"""How long an ended daily's ``move_counts`` stay fresh: its wins are late and never rank,
so its standings change only by moderation (which forgets them at once) and by accounts
deactivated, which show within this."""


def move_counts(daily: Daily, *, now: dt.datetime) -> dict[int, int]:
    """How many ranked entries won ``daily`` in each number of moves (the histogram; its sum
    is how many rank), fewest first. A count over every entry of the daily (153 ms on
    SQLite, 35 ms on PostgreSQL at 20,000 entries, a review measured), once ran on every
    view of its public leaderboard: now shared (``_counted``), one process counting at a
    time, fresh ``TALLY_LIVE_SECONDS`` while the day is live and ``TALLY_OVER_SECONDS``
    after, and forgotten (``forget_counts``) as soon as a win that ranks is stored
    (``record_win``), a moderator changes an entry (``entries_moderate``) or an entry is
    deleted (``_forget_a_deleted_entry``)."""
    seconds = TALLY_LIVE_SECONDS if daily.is_live(now) else TALLY_OVER_SECONDS
    return _counted(_tally_key(daily.pk), seconds, lambda: _move_counts(daily.pk))


def _move_counts(daily_id: int) -> dict[int, int]:
    entries = ranked(Entry.objects.filter(daily_id=daily_id))
    counts = entries.values("moves").annotate(n=Count("pk")).order_by("moves")
    return {row["moves"]: row["n"] for row in counts}


def _tally_key(daily_id: int) -> str:
    return f"tally:{daily_id}"


def forget_counts(daily_ids: Iterable[int]) -> None:
    """End the freshness of these dailies' ``move_counts``: the next view counts again (the
    others meanwhile serve the last count, ``_counted``), a count already under way
    included (``_forget``)."""
    for daily_id in daily_ids:
        _forget(_tally_key(daily_id))


def place_of(entry: Entry, *, now: dt.datetime) -> int:
    """Where ``entry`` ranks, or would rank if it counted: 1 + the ranked entries before it.
    Those with fewer moves are read from its daily's ``move_counts``; only its ties on
    moves are counted here (one range of ``entry_rank_idx``), not every entry before it."""
    fewer = sum(n for moves, n in move_counts(entry.daily, now=now).items() if moves < entry.moves)
    tied = ranked(Entry.objects.filter(daily_id=entry.daily_id, moves=entry.moves))
    before = tied.exclude(pk=entry.pk).filter(
        Q(elapsed__lt=entry.elapsed) | Q(elapsed=entry.elapsed, finished_at__lt=entry.finished_at)
    )
    return fewer + before.count() + 1


def is_ranked(entry: Entry) -> bool:
    """As ``ranked`` says of ``entry`` (its player and their account read with it)."""
    user = entry.player.user
    return user is not None and user.is_active and not entry.flagged and not entry.hidden


def own_standing(daily: Daily, player: Player | None, *, now: dt.datetime) -> Standing | None:
    """The player's entry of this daily, ranked or where it would place."""
    if player is None:
        return None
    entry = daily.entries.select_related("player__user", "daily").filter(player=player).first()
    if entry is None:
        return None
    return Standing(place_of(entry, now=now), entry, watchable=True, ranked=is_ranked(entry))


def winners_by_daily(dailies: list[Daily], *, now: dt.datetime) -> dict[int, int]:
    """How many ranked entries each daily has (the sum of its ``move_counts``)."""
    return {daily.pk: sum(move_counts(daily, now=now).values()) for daily in dailies}


def player_status(
    player: Player | None, dailies: list[Daily], *, now: dt.datetime
) -> dict[int, dict[str, object]]:
    """For each daily: the player's game, best entry and (would-be) rank, when any."""
    if player is None:
        return {}
    status: dict[int, dict[str, object]] = {d.pk: {} for d in dailies}
    for game in player.games.filter(daily__in=dailies):
        assert game.daily_id is not None
        status[game.daily_id]["game"] = game
    by_pk = {daily.pk: daily for daily in dailies}
    entries = Entry.objects.filter(player=player, daily__in=dailies).select_related("player__user")
    for entry in entries:
        entry.daily = by_pk[entry.daily_id]
        status[entry.daily_id]["entry"] = entry
        status[entry.daily_id]["rank"] = place_of(entry, now=now)
        status[entry.daily_id]["ranked"] = is_ranked(entry)
    return status


@dataclass(frozen=True)
class Champion:
    """A player's record over all dailies of one game (ranked entries only)."""

    player: Player
    wins: int
    streak: int
    """The most of the game's dailies won one after another, in the order of their days:
    a day without one of its dailies (a family game's come every few days; a day whose deal
    no search proved) breaks no streak."""
    over_par: float
    """Moves over par, on average."""


CHAMPIONS_SECONDS = 60
"""How long a game's champions stay fresh in the shared cache: the page is public and
anonymous, and its count grows with every daily ever played (577 ms at 20,000 entries, a
review measured). A win shows there within a minute."""


def champions(slug: str, *, top: int = 20) -> dict[str, list[Champion]]:
    """Per game over all dailies: most daily wins, best streak (of the game's dailies won
    one after another, ``Champion.streak``), best average over par; each list best first
    (ranked entries only). Counted by one process at a time, at most once per
    ``CHAMPIONS_SECONDS`` (``_counted``): a flood of requests, however many arrive
    together, costs one count a minute."""
    return _counted(f"champions:{slug}:{top}", CHAMPIONS_SECONDS, lambda: _champions(slug, top))


KEPT_SECONDS = 24 * 60 * 60
"""How long a count is kept in the shared cache after it was made: past its freshness it is
still served while one process counts again (``_counted``)."""

COUNTING_SECONDS = 30
"""How long the lock of a count lasts at most (``_counted``): a process that died counting
holds it no longer."""

WAIT_SECONDS = 2.0
"""How long a request waits for another process's first count of a value the cache has
never held (``_counted``) before it counts itself."""


def _counted[T](key: str, seconds: float, count: Callable[[], T]) -> T:
    """``count()``, kept in the shared cache under ``key`` and fresh for ``seconds``.

    Once it is no longer fresh, the one request that takes the lock (``cache.add``, atomic
    in Redis and in a memory cache alike) counts again; every other request meanwhile is
    served the value counted before (kept ``KEPT_SECONDS``), never a count of its own. A
    plain get-or-set had every request that arrived while the count ran count too: when a
    value expired under a flood, each of them paid for the whole count at once.

    A value the cache has not held (a new key, a cache restarted) has nothing to serve:
    requests finding the lock taken wait for it, ``WAIT_SECONDS`` at most, then count
    themselves. Freshness is a second key that expires (the cache's own clock, shared by
    every process) holding the key's generation read before counting, and a value is fresh
    only while that is still the key's generation (``_forget`` starts a new one). A count
    under way when the key is forgotten may have read what the change it forgets had not
    yet committed: its value, stored after, is fresh for a generation gone. Forgetting had
    deleted the freshness key, which such a count then set again: a win hidden meanwhile
    went on counting as long as the value stayed fresh (ten minutes, an ended daily's). A
    fresh value is still one read (``get_many``)."""
    fresh, lock, generation = f"{key}:fresh", f"{key}:lock", f"{key}:generation"
    kept = cache.get_many([key, fresh, generation])
    current = kept.get(generation, 0)
    if key in kept and kept.get(fresh) == current:
        return cast(T, kept[key])
    locked = cache.add(lock, True, COUNTING_SECONDS)
    if not locked and key in kept:
        return cast(T, kept[key])
    waited = 0.0
    while not locked and waited < WAIT_SECONDS:
        sleep(0.05)
        waited += 0.05
        if (value := cache.get(key, _MISSING)) is not _MISSING:
            return cast(T, value)
    try:
        value = count()
        cache.set(key, value, KEPT_SECONDS)
        cache.set(fresh, current, seconds)
    finally:
        if locked:  # not another process's lock, after a wait for it
            cache.delete(lock)
    return value


_MISSING = object()


def _forget(key: str) -> None:
    """End the freshness of ``_counted``'s ``key``, a count already under way included: a
    new generation of the key (``cache.incr``, atomic in Redis). A key with none (never
    forgotten, or its generation expired as its count does, ``KEPT_SECONDS``) starts at a
    random one: values counted meanwhile are fresh for none (0), and a generation started
    again at 1 would make fresh again a value counted under an earlier 1."""
    generation = f"{key}:generation"
    try:
        cache.incr(generation)
    except ValueError:  # no generation yet
        if not cache.add(generation, secrets.randbits(62), KEPT_SECONDS):
            cache.incr(generation)  # another process's first: this change may come after


class _Record(NamedTuple):
    """One player's record before the player is read (:func:`_champions`)."""

    player_id: uuid.UUID
    wins: int
    streak: int
    over_par: float


def _champions(slug: str, top: int) -> dict[str, list[Champion]]:
    """:func:`champions`, counted from one row of plain values per ranked entry (a player,
    a daily, moves over par) and the game's dailies in the order of their days; the players
    themselves are read only for the lists.

    A streak counted consecutive calendar days: a family game's daily comes every few days,
    so its best streak was never more than 1, and a classic's day without a daily broke
    every streak."""
    rows = (
        ranked(Entry.objects.filter(daily__slug=slug))
        .annotate(over=F("moves") - F("daily__par"))
        .values_list("player_id", "daily_id", "over")
    )
    per_player: dict[uuid.UUID, list[tuple[int, int]]] = {}
    for player_id, daily_id, over in rows.iterator(chunk_size=5_000):
        per_player.setdefault(player_id, []).append((daily_id, over))
    # Read after the entries, so every entry's daily is here unless deleted since.
    dailies = Daily.objects.filter(slug=slug).order_by("date").values_list("pk", flat=True)
    turn = {daily_id: index for index, daily_id in enumerate(dailies)}
    table: list[_Record] = []
    for player_id, won in per_player.items():
        streak = best = 0
        previous: int | None = None
        for index in sorted({turn[daily_id] for daily_id, _ in won if daily_id in turn}):
            streak = streak + 1 if previous is not None and index == previous + 1 else 1
            best, previous = max(best, streak), index
        table.append(_Record(player_id, len(won), best, sum(over for _, over in won) / len(won)))
    lists = {
        "Most daily wins": sorted(table, key=lambda r: (-r.wins, r.over_par))[:top],
        "Best streak": sorted(table, key=lambda r: (-r.streak, -r.wins))[:top],
        "Best average over par": sorted(table, key=lambda r: (r.over_par, -r.wins))[:top],
    }
    players = Player.objects.in_bulk({r.player_id for records in lists.values() for r in records})
    return {
        title: [
            Champion(players[r.player_id], wins=r.wins, streak=r.streak, over_par=r.over_par)
            for r in records
            if r.player_id in players  # not deleted between the two reads
        ]
        for title, records in lists.items()
    }


# -- moderation ---------------------------------------------------------------------------


def verify_entries() -> list[str]:
    """Replay every leaderboard entry from its daily's deal and stored moves with the engine.

    Returns one line per mismatch (an empty list means every entry is what it claims).
    """
    problems = []
    for entry in Entry.objects.select_related("daily", "game").iterator():
        game, daily = entry.game, entry.daily
        board = Board(daily.slug, daily.deal)
        moves = game.played_moves.filter(undone=False, ply__lte=entry.moves).order_by("ply")
        try:
            for move in moves.values_list("notation", flat=True):
                board.play(move)
        except ValueError as error:
            problems.append(f"entry {entry.pk}: {error}")
            continue
        if game.slug != daily.slug or game.deal != daily.deal or game.options:
            problems.append(f"entry {entry.pk}: its game is not the daily's deal")
        elif not board.is_won() or board.ply != entry.moves:
            problems.append(
                f"entry {entry.pk}: the moves replay to {board.cards_on_foundations} cards up "
                f"in {board.ply} moves, not a win in {entry.moves}"
            )
    return problems


def entries_moderate(entries: QuerySet[Entry], **changes: bool) -> int:
    """A moderator's change to ``entries`` (``flagged``, ``hidden``); how many changed. Their
    dailies' ``move_counts`` are forgotten once it is committed: a hidden win leaves the
    counts, and a cleared one joins them, at once."""
    daily_ids = set(entries.values_list("daily_id", flat=True))
    changed = entries.update(**changes)
    transaction.on_commit(lambda: forget_counts(daily_ids))
    return changed


@receiver(post_delete, sender=Entry)
def _forget_a_deleted_entry(sender: object, instance: Entry, **_: object) -> None:
    """An entry deleted, however (the admin's own deletion, or a game's or a player's that
    takes its entries along), forgets its daily's ``move_counts`` once committed: an ended
    daily went on counting a deleted win for ten minutes (a review)."""
    daily_id = instance.daily_id
    transaction.on_commit(lambda: forget_counts([daily_id]))


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
