"""Shared helpers for the engine tests: hand-built positions and random play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from hypothesis import strategies as st

from games.rules import GAMES, Board, GameRecord, Move, get_game
from games.rules.cards import ALL_CARDS, parse_cards

GOLDEN = Path(__file__).parent / "golden"

GAME_SLUGS = list(GAMES)
"""Every game, by slug, in the order the site lists them."""

VARIANTS: list[tuple[str, frozenset[str]]] = [(slug, frozenset()) for slug in GAME_SLUGS] + [
    ("beleaguered-castle", frozenset({"take-back"}))
]
"""Every game as played, plus Beleaguered Castle with its easing option."""


def board_from(
    game: str,
    piles: dict[str, str],
    *,
    fill: tuple[str, ...] = (),
    deal: int = 1,
    options: tuple[str, ...] = (),
) -> Board:
    """A hand-built position through ``Board.from_layout``.

    ``piles`` gives pile contents in notation, bottom card first. Every card of the game's
    decks not named there is slipped under the piles of ``fill``, round-robin, so the named
    top cards stay on top and the layout holds every card exactly once per deck. A ``fill``
    pile not named in ``piles`` gets a top card from the rest too.
    """
    rules = get_game(game)
    names = (
        [f"f{i}" for i in range(1, len(rules.foundations) + 1)]
        + [f"t{i}" for i in range(1, rules.tableau + 1)]
        + [f"r{i}" for i in range(1, rules.reserves + 1)]
        + [f"c{i}" for i in range(1, rules.cells + 1)]
    )
    content = {name: parse_cards(piles.get(name, "")) for name in names}
    unknown = set(piles) - set(names)
    assert not unknown, f"{game} has no piles {unknown}"
    used = Counter(card for cards in content.values() for card in cards)
    # High cards first, so the cards right under the named tops are kings and queens: they
    # neither fit a young foundation nor take the usual small cards.
    rest = [card for card in reversed(ALL_CARDS) for _ in range(rules.decks - used[card])]
    assert all(used[card] <= rules.decks for card in used), "a card is named too often"
    assert fill or not rest, f"{len(rest)} cards left over and no pile to put them in"
    for index, card in enumerate(rest):
        content[fill[index % len(fill)]].insert(0, card)
    lines = [f"game: {game}", f"deal: {deal}", *(f"option: {o}" for o in options)]
    lines += [" ".join([f"{name}:", *map(str, content[name])]) for name in names]
    return Board.from_layout("\n".join(lines) + "\n")


def golden_layout(game: str, number: int) -> str:
    return (GOLDEN / f"{game}-{number}.txt").read_text()


def won_record(slug: str) -> GameRecord:
    """The game's pinned winning line: ``golden/<slug>-won.txt``, a game record made with
    ``python -m games.rules solve --record`` on a deal the solver wins within the pool's
    budget (60,000 positions)."""
    path = GOLDEN / f"{slug}-won.txt"
    assert path.exists(), f"{slug} has no winning line: make {path} with solve --record"
    return GameRecord.from_text(path.read_text())


WON_DEALS = {slug: won_record(slug).deal for slug in GAME_SLUGS}
"""A deal of each game the solver wins within the pool's budget, from its golden line."""


def exhaustive(board: Board, limit: int | None = None) -> str:
    """Depth-first over every legal move with the engine alone (no pruning, no auto-play,
    keys with piles in place): ``solved`` or ``unsolvable``, or ``unknown`` past ``limit``
    positions. The truth the solver's verdicts are checked against."""
    board = board.copy(stack=False)
    seen = {board.position_key()}
    stack = [iter(board.raw_legal_moves())]
    while stack:
        for raw in stack[-1]:
            board.push(raw)
            key = board.position_key()
            if key in seen:
                board.pop()
                continue
            seen.add(key)
            if board.is_won():
                return "solved"
            if limit is not None and len(seen) > limit:
                return "unknown"
            stack.append(iter(board.raw_legal_moves()))
            break
        else:
            stack.pop()
            if stack:
                board.pop()
    return "unsolvable"


def replays_to_win(board: Board, moves: Iterable[Move]) -> bool:
    """Whether ``moves`` are legal from ``board``, one by one, and end in a win."""
    replay = board.copy()
    for move in moves:
        replay.play(move)  # raises IllegalMove on any illegal move
    return replay.is_won()


def all_cards(board: Board) -> Counter[int]:
    """The multiset of every card in the position, wherever it lies."""
    return Counter(
        card
        for group in (board.tableau, board.foundations, board.reserves, board.cells)
        for pile in group
        for card in pile
    )


def notations(moves: object) -> list[str]:
    return [move.notation() for move in moves]  # type: ignore[attr-defined]


@st.composite
def played_boards(
    draw: st.DrawFn,
    game: str | None = None,
    *,
    max_moves: int = 40,
    options: frozenset[str] | None = None,
) -> Board:
    """A board of a random game and deal after a few random legal moves."""
    if game is None:
        game, options = draw(st.sampled_from(VARIANTS))
    number = draw(st.integers(min_value=1, max_value=2**63 - 1) | st.integers(1, 32000))
    board = Board(game, number, options=options or ())
    for _ in range(draw(st.integers(min_value=0, max_value=max_moves))):
        moves = board.legal_moves()
        if not moves:
            break
        board.play(draw(st.sampled_from(moves)))
    return board
