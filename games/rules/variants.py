"""One declarative definition per game; :class:`games.rules.Board` does the rest.

A reader finds a game's whole rule set in its block at the bottom of this file, a family game
as what it changes in its parent. Adding a Castle-family game is one more :class:`GameRules`
here (with its rules page and golden files).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .building import (
    AlternateColourDown,
    Build,
    DownAnySuit,
    NoBuilding,
    OtherSuitDown,
    SameSuitUpOrDown,
)
from .cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, SPADES
from .errors import RulesError, UnknownGame

TAKE_BACK = "take-back"
"""Easing option (seed 003): a foundation's top card may come back to the tableau."""


@dataclass(frozen=True)
class FoundationRule:
    """One foundation: its suit, its direction and how it starts.

    ``first_rank`` is the rank that starts it; ``None`` means the player's first move to any
    foundation chooses the base rank for all of them (Chessboard). ``dealt`` means the first
    card is taken out of the deck and starts on the foundation before the deal.
    """

    suit: int
    step: int = 1
    first_rank: int | None = ACE
    dealt: bool = False
    wrap: bool = False


@dataclass(frozen=True)
class Deal:
    """How the shuffled deck is laid out.

    The deck is PySolFC's shuffle for the deal number (``pysol_cards``), dealt from the top.
    Cards that start foundations are taken out first, in deck order. Then ``rounds`` rounds
    over the tableau piles (round ``r`` starts at pile ``round_starts[r]``, 0 when not given:
    Somerset's staircase), then one card to each pile in ``extra_to`` (0-based), then, when
    ``rest_to_reserves``, every remaining card onto the reserve pile of its rank.
    ``to_foundations`` (Citadel): a card that fits its foundation goes there instead of onto
    its pile, and that pile's turn is used up. ``to_cells`` (Bastion): after the tableau,
    the next cards go one each to the first free cells.
    """

    rounds: int
    extra_to: tuple[int, ...] = ()
    to_foundations: bool = False
    rest_to_reserves: bool = False
    round_starts: tuple[int, ...] = ()
    to_cells: int = 0

    def __post_init__(self) -> None:
        if self.round_starts and len(self.round_starts) != self.rounds:
            raise ValueError(f"{self.rounds} rounds need {self.rounds} round starts")

    def plan(self, piles: int) -> list[int]:
        """The tableau pile (0-based) each dealt card goes to, in dealing order.

        >>> Deal(rounds=3, round_starts=(0, 1, 2)).plan(3)
        [0, 1, 2, 1, 2, 2]
        """
        starts = self.round_starts or (0,) * self.rounds
        order = [pile for start in starts for pile in range(start, piles)]
        return order + list(self.extra_to)


RunLimit = Literal["supermove", "any"]
"""How many cards a run move may carry (see ``GameRules.run_limit``)."""


GROUPS: dict[str, tuple[str, str]] = {
    "classic": ("The six classics", "The games Castle began with, each with its own daily."),
    "free-cells": ("With free cells", "A cell holds any one card: park a card to free another."),
    "kings-only": ("Only kings fill a space", "An empty pile waits for a king."),
    "runs": ("Runs move together", "A run built by the rule moves as one."),
    "two-decks": ("Two decks", "104 cards, eight foundations."),
    "other": ("Other ways to build", "Colours alternate, suits must differ, the base is yours."),
}
"""What a game adds to the classics, as the home page groups them, in that order: its
title and one line."""


@dataclass(frozen=True)
class Wings:
    """The tableau in two wings either side of a column of foundations, cards fanned
    sideways (Beleaguered Castle): ``left`` piles on the left, the rest on the right."""

    left: int
    kind = "wings"


@dataclass(frozen=True)
class Arch:
    """Reserves in an arch over the central tableau piles, foundations in a row beneath
    (Archway)."""

    kind = "arch"


@dataclass(frozen=True)
class Rows:
    """Foundations in a row (free cells beside them), tableau piles in a row beneath, cards
    fanned downwards."""

    kind = "rows"


Screen = Wings | Arch | Rows
"""How the page lays a game out: part of its declaration."""


@dataclass(frozen=True)
class DifficultyLimits:
    """How the solver labels a deal it won (``solver.difficulty``): *easy* when winning it
    took at most ``easy`` positions, *medium* at most ``medium``, else *hard*.

    Each game's limits are the tertiles of ``SolveResult.nodes`` over the deals the solver
    won among its first deals at ``max_nodes=60_000`` (November 2026), so each label takes
    about a third of the winnable deals: deals 1-150 for the first five classics (92 won for
    Beleaguered Castle, 130 for Citadel, 61 for Streets and Alleys, 23 for Fortress, 104 for
    Chessboard), Archway's nine winnable deals of 1-20,000 (30 to 8,216 positions), and
    deals 1-200 for the family games (the count won is beside each declaration). ``easy``
    is the most positions among the third won soonest, ``medium`` among two thirds. The
    games of one deck without reserves or free cells, whose search plays its own safe moves
    (``solver.Techniques.idle_targets``), were measured again once it did."""

    easy: int
    medium: int

    def __post_init__(self) -> None:
        if not 0 < self.easy <= self.medium:
            raise ValueError(f"difficulty limits must rise: {self.easy}, {self.medium}")


def _suited(**kwargs: object) -> tuple[FoundationRule, ...]:
    return tuple(FoundationRule(suit, **kwargs) for suit in (CLUBS, DIAMONDS, HEARTS, SPADES))  # type: ignore[arg-type]


@dataclass(frozen=True)
class GameRules:
    """Everything that makes one game: the board's engine reads only this."""

    slug: str
    name: str
    summary: str
    tableau: int
    screen: Screen
    foundations: tuple[FoundationRule, ...]
    build: Build
    deal: Deal
    difficulty: DifficultyLimits
    """Where the solver's effort splits easy, medium and hard deals; measured per game."""
    decks: int = 1
    reserves: int = 0
    """Reserve piles, one per rank from ace up (Archway: 13); every card of one is
    available, and goes to a foundation only."""
    cells: int = 0
    """Free cells: each holds one card, available like a top card."""
    kings_only: bool = False
    """Only a king may go to an empty tableau pile."""
    runs: bool = False
    """Cards on top of a tableau pile that follow the building rule may move together as one
    move (``t3-t5x3``: the count of cards, so the notation stays context-free and
    round-trips), at most ``(empty free cells + 1) * 2 ** (empty piles)`` of them (an empty
    target pile does not count), the number a player could move one by one through those
    cells and piles.

    A run move counts as one move, not one per card. RULES.md counts "every single-card
    movement" because until now every movement was one card; the count is the length of
    the winning line (the ply), and a run is one entry of it: one action, one undo, one
    replay step, one move of the solver's line (whose length sets a daily's par), as
    PySolFC and fc-solve count it. Counting cards would add a second measure beside the ply
    for the leaderboards to keep in step."""
    run_limit: RunLimit = "supermove"
    """With ``runs``, how long a run may be: ``"supermove"`` the limit above (as many cards
    as could move one by one; with ``kings_only`` empty piles do not count, as no card but
    a king may pass through one), ``"any"`` any length (PySolFC's ``RK_RowStack``: Penelope's
    Web, Exiled Kings)."""
    options: tuple[str, ...] = ()
    aliases: tuple[str, ...] = field(default=())
    group: str = "classic"
    """What the game adds to the classics (a key of :data:`GROUPS`)."""
    pysolfc_id: int | None = None
    """PySolFC's number for the same game, whose deal numbers ours follow."""

    def __hash__(self) -> int:
        """By the slug, which names one game: caches keyed by the rules (the rule book, the
        piles' labels) hash them on every lookup, and hashing every field takes microseconds.
        Rules equal field by field have the same slug, so equal rules hash alike."""
        return hash(self.slug)

    def __post_init__(self) -> None:
        if self.group not in GROUPS:
            raise ValueError(f"{self.name}: unknown group {self.group!r}")
        if self.run_limit not in ("supermove", "any"):
            raise ValueError(f"{self.name}: unknown run limit {self.run_limit!r}")
        if self.run_limit != "supermove" and not self.runs:
            raise ValueError(f"{self.name}: a run limit needs runs=True")

    @property
    def is_classic(self) -> bool:
        """One of the six games the site started with (each has its own daily)."""
        return self.group == "classic"

    @property
    def cards(self) -> int:
        return 52 * self.decks

    @property
    def base_is_chosen(self) -> bool:
        """Chessboard: the player's first foundation move fixes the base rank."""
        return any(f.first_rank is None for f in self.foundations)

    def check_options(self, options: frozenset[str]) -> frozenset[str]:
        unknown = sorted(options - set(self.options))
        if unknown:
            allowed = ", ".join(self.options) or "none"
            raise RulesError(f"{self.name} has no option {unknown[0]!r} (options: {allowed})")
        return options


def _variant(parent: GameRules, **changes: Any) -> GameRules:
    """A game declared by what it changes in ``parent`` (Stronghold: Streets and Alleys with
    one free cell). Its names, options and PySolFC number are its own, never inherited."""
    return replace(parent, **{"aliases": (), "options": (), "pysolfc_id": None, **changes})


BELEAGUERED_CASTLE = GameRules(
    slug="beleaguered-castle",
    name="Beleaguered Castle",
    summary="Eight piles of six flank the aces; build down regardless of suit, one card at a time.",
    tableau=8,
    screen=Wings(left=4),
    foundations=_suited(dealt=True),
    build=DownAnySuit(),
    deal=Deal(rounds=6),
    difficulty=DifficultyLimits(easy=431, medium=1_503),
    options=(TAKE_BACK,),
    aliases=("beleaguered-fortress",),
    pysolfc_id=34,
)

CITADEL = GameRules(
    slug="citadel",
    name="Citadel",
    summary="Beleaguered Castle, but cards that fit a foundation go up while the deal is made.",
    tableau=8,
    screen=Wings(left=4),
    foundations=_suited(dealt=True),
    build=DownAnySuit(),
    deal=Deal(rounds=6, to_foundations=True),
    difficulty=DifficultyLimits(easy=96, medium=270),
    pysolfc_id=145,
)

STREETS_AND_ALLEYS = GameRules(
    slug="streets-and-alleys",
    name="Streets and Alleys",
    summary="Beleaguered Castle with the aces left in the deal: the hardest of the three.",
    tableau=8,
    screen=Wings(left=4),
    foundations=_suited(),
    build=DownAnySuit(),
    deal=Deal(rounds=6, extra_to=(0, 1, 2, 3)),
    difficulty=DifficultyLimits(easy=1_301, medium=5_197),
    pysolfc_id=146,
)

FORTRESS = GameRules(
    slug="fortress",
    name="Fortress",
    summary="Ten short piles; build up or down in suit, no wrap between king and ace.",
    tableau=10,
    screen=Wings(left=5),
    foundations=_suited(),
    build=SameSuitUpOrDown(wrap=False),
    deal=Deal(rounds=5, extra_to=(0, 5)),
    difficulty=DifficultyLimits(easy=141, medium=392),
)

CHESSBOARD = GameRules(
    slug="chessboard",
    name="Chessboard",
    summary="Fortress where your first foundation card sets the base rank, and ranks wrap.",
    tableau=10,
    screen=Wings(left=5),
    foundations=_suited(first_rank=None, wrap=True),
    build=SameSuitUpOrDown(wrap=True),
    deal=Deal(rounds=5, extra_to=(0, 5)),
    difficulty=DifficultyLimits(easy=189, medium=645),
)

ARCHWAY = GameRules(
    slug="archway",
    name="Archway",
    summary="Two decks: four central piles, an arch of reserves by rank, eight foundations.",
    tableau=4,
    screen=Arch(),
    foundations=_suited(dealt=True) + _suited(step=-1, first_rank=KING, dealt=True),
    build=NoBuilding(),
    deal=Deal(rounds=12, rest_to_reserves=True),
    difficulty=DifficultyLimits(easy=44, medium=271),
    decks=2,
    reserves=13,
)

# -- The family: PySolFC's other Castle games, dealt with PySolFC's numbers ------------

CASTLES_IN_SPAIN = GameRules(
    slug="castles-in-spain",
    name="Castles in Spain",
    summary="Thirteen piles of four, all face up; build down in alternating colours.",
    tableau=13,
    screen=Rows(),
    foundations=_suited(),
    build=AlternateColourDown(),
    deal=Deal(rounds=4),
    difficulty=DifficultyLimits(easy=60, medium=112),  # 182 of deals 1-200 won
    group="other",
    pysolfc_id=83,
)

SOMERSET = GameRules(
    slug="somerset",
    name="Somerset",
    summary="Ten piles dealt as a staircase of 1 to 8 cards; build down in alternating colours.",
    tableau=10,
    screen=Wings(left=5),
    foundations=_suited(),
    build=AlternateColourDown(),
    deal=Deal(rounds=8, round_starts=(0, 1, 2, 3, 4, 5, 6, 7)),
    difficulty=DifficultyLimits(easy=751, medium=2_631),  # 112 of deals 1-200 won
    group="other",
    pysolfc_id=215,
)

MOREHEAD = _variant(
    SOMERSET,
    slug="morehead",
    name="Morehead",
    summary="Somerset where a card goes on any suit but its own.",
    build=OtherSuitDown(),
    difficulty=DifficultyLimits(easy=162, medium=495),  # 187 of deals 1-200 won
    pysolfc_id=362,
)

# -- Free cells ------------------------------------------------------------------------------

SIEGECRAFT = _variant(
    BELEAGUERED_CASTLE,
    slug="siegecraft",
    name="Siegecraft",
    summary="Beleaguered Castle with one free cell: park a card, free another.",
    screen=Rows(),
    difficulty=DifficultyLimits(easy=178, medium=559),  # 193 of deals 1-200 won
    cells=1,
    group="free-cells",
    pysolfc_id=831,
)

STRONGHOLD = _variant(
    STREETS_AND_ALLEYS,
    slug="stronghold",
    name="Stronghold",
    summary="Streets and Alleys with one free cell.",
    screen=Rows(),
    difficulty=DifficultyLimits(easy=416, medium=1_552),  # 185 of deals 1-200 won
    cells=1,
    group="free-cells",
    pysolfc_id=300,
)

PRIVATE_LANE = _variant(
    STREETS_AND_ALLEYS,
    slug="private-lane",
    name="Private Lane",
    summary="Streets and Alleys with two free cells.",
    screen=Rows(),
    difficulty=DifficultyLimits(easy=188, medium=719),  # 198 of deals 1-200 won
    cells=2,
    aliases=("fastness",),
    group="free-cells",
    pysolfc_id=301,
)

TEN_BY_ONE = _variant(
    FORTRESS,
    slug="ten-by-one",
    name="Ten by One",
    summary="Fortress with one free cell; build up or down in suit.",
    screen=Rows(),
    deal=Deal(rounds=5, extra_to=(0, 1)),
    difficulty=DifficultyLimits(easy=111, medium=472),  # 161 of deals 1-200 won
    cells=1,
    group="free-cells",
    pysolfc_id=325,
)

BASTION = GameRules(
    slug="bastion",
    name="Bastion",
    summary="Ten piles of five and two free cells dealt full; build up or down in suit.",
    tableau=10,
    screen=Rows(),
    foundations=_suited(),
    build=SameSuitUpOrDown(wrap=False),
    deal=Deal(rounds=5, to_cells=2),
    difficulty=DifficultyLimits(easy=75, medium=229),  # 167 of deals 1-200 won
    cells=2,
    group="free-cells",
    pysolfc_id=324,
)

SELECTIVE_CASTLE = _variant(
    STREETS_AND_ALLEYS,
    slug="selective-castle",
    name="Selective Castle",
    summary="Streets and Alleys with a base rank you choose, ranks that wrap, and runs that move.",
    foundations=_suited(first_rank=None, wrap=True),
    build=DownAnySuit(wrap=True),
    runs=True,
    run_limit="any",
    difficulty=DifficultyLimits(easy=459, medium=3_882),  # 51 of deals 1-200 won
    group="other",
    pysolfc_id=524,
)

# -- Only kings fill a space ---------------------------------------------------------------

PENELOPES_WEB = _variant(
    STREETS_AND_ALLEYS,
    slug="penelopes-web",
    name="Penelope's Web",
    summary="Streets and Alleys where runs move whole and only a king fills a space.",
    difficulty=DifficultyLimits(easy=311, medium=2_639),  # 119 of deals 1-200 won
    kings_only=True,
    runs=True,
    run_limit="any",
    group="kings-only",
    pysolfc_id=665,
)

EXILED_KINGS = _variant(
    CITADEL,
    slug="exiled-kings",
    name="Exiled Kings",
    summary="Citadel where runs move whole and only a king fills a space.",
    difficulty=DifficultyLimits(easy=50, medium=115),  # 183 of deals 1-200 won
    kings_only=True,
    runs=True,
    run_limit="any",
    group="kings-only",
    pysolfc_id=535,
)

GAMES: dict[str, GameRules] = {
    rules.slug: rules
    for rules in (
        BELEAGUERED_CASTLE,
        CITADEL,
        STREETS_AND_ALLEYS,
        FORTRESS,
        CHESSBOARD,
        ARCHWAY,
        CASTLES_IN_SPAIN,
        SOMERSET,
        MOREHEAD,
        SIEGECRAFT,
        STRONGHOLD,
        PRIVATE_LANE,
        TEN_BY_ONE,
        BASTION,
        SELECTIVE_CASTLE,
        PENELOPES_WEB,
        EXILED_KINGS,
    )
}
"""The games by slug, in the order the site lists them."""

_ALIASES = {alias: rules for rules in GAMES.values() for alias in rules.aliases}


def get_game(slug: str) -> GameRules:
    """The rules for a slug or alias; :class:`UnknownGame` names the slug otherwise.

    >>> get_game("beleaguered-fortress") is get_game("beleaguered-castle")
    True
    """
    rules = GAMES.get(slug) or _ALIASES.get(slug)
    if rules is None:
        raise unknown_game(slug)
    return rules


def _spelling(name: str) -> str | None:
    """A game's name as a record may write it, in one spelling: lower case, words joined
    by ``-`` (spaces and ``_`` alike), a typographer's apostrophe as a plain one. None
    beyond ASCII, where lower case makes one letter of another (the Kelvin sign a k)."""
    plain = name.strip().replace("\u2019", "'")
    return re.sub(r"[ \t_]+", "-", plain.lower()) if plain.isascii() else None


_NAMED = {
    spelt: rules
    for rules in GAMES.values()
    for name in (rules.slug, *rules.aliases, rules.name, rules.name.replace("'", ""))
    if (spelt := _spelling(name))
}
"""Every game by each name a record may give it: its slug, an alias, its name as its pages
write it ("Penelope's Web"), or that name without its apostrophe."""


def game_named(name: str) -> GameRules:
    """The rules of the game a hand-written record names: "game: Citadel" and "game:
    Penelope's Web" met "unknown game" when only a slug was read."""
    spelt = _spelling(name)
    rules = _NAMED.get(spelt) if spelt else None
    if rules is None:
        raise unknown_game(name)
    return rules


SHOWN_NAME = 40
"""How much of an unknown game's name its error says: a record's game line, of any length,
was said back whole."""


def unknown_game(name: str) -> UnknownGame:
    """The error for a game nobody plays here, named as asked (in its first characters)."""
    shown = name if len(name) <= SHOWN_NAME else name[:SHOWN_NAME] + "…"
    return UnknownGame(f"unknown game {shown!r}: choose one of {', '.join(GAMES)}")
