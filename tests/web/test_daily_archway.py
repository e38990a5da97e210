"""Archway's daily: a fresh winnable deal every day from secret-seeded candidates.

About one Archway deal in 2,000 is winnable, so a day searches up to 20,000 candidates with
the solver's exact Archway verdicts (a few milliseconds each): thirty days take about three
minutes, the suite's slowest test, kept because it is what the daily promises. Its
solution's few moves between piles leave the copy check to the positions a win passes through.
"""

import datetime as dt
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from games import daily as dailies
from games import leaderboard, services
from games.models import Daily, Entry, Game, Player
from games.rules import Board, RulesError
from games.rules.record import split_record

from .dailies import DAY, NOON
from .test_daily import win

GOLDEN = Path(__file__).parents[1] / "rules/golden"


def test_thirty_consecutive_archway_dailies_are_different_deals_each_proved_won() -> None:
    first = dt.date(2026, 12, 1)
    deals = []
    for offset in range(30):
        date = first + dt.timedelta(days=offset)
        deal, line, _ = dailies.choose_deal("archway", date)
        board = Board("archway", deal)
        for move in line:
            board.play(move)  # the proof replays through the rules
        assert board.is_won(), (date, deal)
        assert deal in set(dailies.candidate_deals("archway", date))
        deals.append(deal)

    assert len(set(deals)) == 30


ARCHWAY = split_record((GOLDEN / "archway-won.txt").read_text())[1]
"""Archway deal 783's winning line: 6 moves between piles in 102."""


@pytest.fixture
def member(db: None) -> Player:
    """A player with an account: their wins rank."""
    return Player.objects.create(user=User.objects.create_user("ada"), display_name="Ada")


@pytest.fixture
def archway(db: None) -> Daily:
    """Archway deal 783 as the daily of ``DAY``, live at ``NOON``."""
    return Daily.objects.create(
        slug="archway", date=DAY, deal=783, par=len(ARCHWAY), solution=" ".join(ARCHWAY)
    )


def test_a_copy_of_the_archway_dailys_hints_is_held(archway: Daily, member: Player) -> None:
    """A throwaway game followed Hint to the win; an account replayed its moves, 0.4 s
    apart: 1st at par, unflagged, no hint counted (an attacker's pass). The solution's few
    moves between piles were too few to compare, and every Archway win sends its cards up
    much as the solution does: what a copy shares with it is the positions it passes
    through."""
    assert len(leaderboard._between_piles(ARCHWAY)) < leaderboard.MIN_COPIED
    throwaway = Player.objects.create()
    game = dailies.daily_start(player=throwaway, daily=archway, now=NOON)
    while game.status != Game.Status.WON:
        game, _, hint, _ = services.game_hint(game_id=game.pk, player_id=throwaway.pk, now=NOON)
        assert hint.move is not None
        game = services.game_play_move(
            game_id=game.pk,
            player_id=throwaway.pk,
            move=hint.move.notation(),
            expected_ply=None,
            now=NOON,
        ).game
    hinted = list(game.played_moves.filter(auto=False).values_list("notation", flat=True))
    win(member, archway, at=NOON, seconds_per_move=0.4, line=hinted, autoplay=True)

    entry = Entry.objects.get(player=member)
    assert entry.moves == archway.par and entry.hints == 0
    assert entry.flagged, "the copy ranks"
    assert "passes through 30 of the 30 positions of the daily's own" in entry.flag_reason
    assert leaderboard.ranking(archway, now=NOON) == []


def swapped(line: list[str], swaps: int) -> list[str]:
    """``line`` (Archway deal 783's) with ``swaps`` pairs of neighbouring moves, neither of
    which auto-play would make, played the other way round where the line still wins (no
    move in two pairs)."""
    line, index = list(line), -1
    while swaps and index < len(line) - 2:
        index += 1
        board = Board("archway", 783)
        board.push_line(line[:index])
        first = board.parse_move(line[index])
        if first in board.safe_moves():
            continue
        board.push(first)
        if board.parse_move(line[index + 1]) in board.safe_moves():
            continue
        trial = [*line[:index], line[index + 1], line[index], *line[index + 2 :]]
        check = Board("archway", 783)
        try:
            for text in trial:
                check.play(text)  # checked
        except RulesError:
            continue
        if check.is_won():  # and the next pair starts after this one
            line, swaps, index = trial, swaps - 1, index + 1
    assert swaps == 0
    return line


def test_a_copy_with_choices_swapped_is_held(archway: Daily, member: Player) -> None:
    """A copy of the hints with four pairs of independent choices swapped ranked 1st at par
    (an attacker's pass): compared in order, each swap cost the copy one choice of thirty.
    Such a copy passes through 26 of the solution's 30 positions."""
    copy = swapped(ARCHWAY, 4)
    assert copy != ARCHWAY

    win(member, archway, at=NOON, seconds_per_move=0.4, line=copy)

    entry = Entry.objects.get()
    assert entry.moves == archway.par
    assert entry.flagged and "of the 30 positions of the daily's own" in entry.flag_reason


def test_a_persons_archway_win_is_not_a_copy(archway: Daily, member: Player) -> None:
    """A winning line of the deal of its own (found by a random search with auto-play, the
    closest in the order of its choices to the solution of ten such lines: 22 of 30) passes
    through 6 of the 30 positions the solution settles in after its choices."""
    own = split_record((Path(__file__).parent / "lines/archway-783-own.txt").read_text())[1]
    mine, theirs = leaderboard._settled(archway, own), leaderboard._settled(archway, ARCHWAY)
    assert (len(set(mine) & set(theirs)), len(mine), len(theirs)) == (6, 31, 30)

    win(member, archway, at=NOON, seconds_per_move=2, line=own)

    entry = Entry.objects.get()
    assert not entry.flagged, entry.flag_reason
    assert [row.entry for row in leaderboard.ranking(archway, now=NOON)] == [entry]
