"""Game records: game, deal, options and the moves, as text that replays to the position.

::

    game: citadel
    deal: 1
    t6-t2 t1-f1
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .board import Board
from .deals import DEAL_DIGITS, MAX_DEAL, check_deal_number, not_deal_digits
from .errors import BadDealNumber, IllegalMove, LayoutError, RulesError, UnknownGame
from .moves import Move
from .variants import GameRules, game_named

_HEADER = re.compile(r"^\s*(?P<key>[A-Za-z][A-Za-z_-]*)\s*:(?:\s+(?P<value>.*)|\s*$)")


class ReplayError(IllegalMove):
    """A move of a record that cannot be played; ``index`` counts from 1, ``line`` is the
    record's line that holds it (when the moves came from a text), and ``rules`` the game's
    when the reason is a rule's refusal, whose piles it names (``None`` for a word that is
    no move, whose notation help names the notation's piles)."""

    def __init__(
        self,
        index: int,
        move: str,
        reason: str,
        line: int | None = None,
        rules: GameRules | None = None,
    ) -> None:
        super().__init__(move, reason)
        self.index = index
        self.line = line
        self.rules = rules

    def __str__(self) -> str:
        return f"illegal move {self.index} ({self.move}): {self.reason}"


def read_record(text: str) -> tuple[dict[str, list[tuple[int, str]]], list[tuple[int, str]]]:
    """Header fields and move words of a record, each with its line number (from 1);
    :class:`LayoutError` names a header line the format does not have."""
    headers: dict[str, list[tuple[int, str]]] = {}
    words: list[tuple[int, str]] = []
    # A file saved with a byte order mark (some editors write one) starts with it.
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        match = _HEADER.match(line)
        if match:
            value = (match["value"] or "").strip()
            headers.setdefault(match["key"].lower(), []).append((number, value))
        else:
            words.extend((number, word) for word in line.split())
    _check_header_names(headers)
    return headers, words


HEADER_NAMES = ("game", "deal", "option")
"""The header lines a record has (``GameRecord.to_text`` writes them)."""


def _check_header_names(headers: dict[str, list[tuple[int, str]]]) -> None:
    """Raise :class:`LayoutError` naming the first line whose header a record does not have:
    a misspelt ``options: take-back`` was passed over, and the game imported without its
    option."""
    unknown = [
        (line, key)
        for key, lines in headers.items()
        if key not in HEADER_NAMES
        for line, _ in lines
    ]
    if unknown:
        line, key = min(unknown)
        names = ", ".join(f"'{name}:'" for name in HEADER_NAMES)
        raise LayoutError(f"line {line}: a record has no '{key}:' line (its lines: {names})")


def split_record(text: str) -> tuple[dict[str, list[str]], list[str]]:
    """Header fields (``game``, ``deal``, ``option`` …) and the move words, in order."""
    headers, words = read_record(text)
    return {k: [v for _, v in vs] for k, vs in headers.items()}, [w for _, w in words]


def play_words(board: Board, words: list[str] | list[tuple[int, str]]) -> Board:
    """Play moves given in notation; :class:`ReplayError` names the first bad one."""
    for index, item in enumerate(words, 1):
        line, word = item if isinstance(item, tuple) else (None, item)
        try:
            board.play(word)
        except IllegalMove as error:
            raise ReplayError(index, word, error.reason, line, board.rules) from error
        except RulesError as error:  # the word is no move: said as written, no piles named
            raise ReplayError(index, word, str(error), line) from error
    return board


@dataclass(frozen=True)
class GameRecord:
    """A game as stored and shared: it replays, with the engine, to the same position."""

    slug: str
    deal: int
    moves: tuple[Move, ...] = ()
    options: frozenset[str] = frozenset()

    @classmethod
    def from_board(cls, board: Board) -> GameRecord:
        return cls(board.rules.slug, board.deal_number, tuple(board.move_stack), board.options)

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Read a record; the error names the first bad line (as :func:`replay_record`)."""
        return cls.from_board(replay_record(text))

    def to_text(self) -> str:
        lines = [f"game: {self.slug}", f"deal: {self.deal}"]
        lines += [f"option: {option}" for option in sorted(self.options)]
        lines += [
            " ".join(m.notation() for m in self.moves[i : i + 10])
            for i in range(0, len(self.moves), 10)
        ]
        return "\n".join(lines) + "\n"

    def replay(self) -> Board:
        """The board after every move; :class:`ReplayError` if the record does not replay."""
        board = Board(self.slug, self.deal, options=self.options)
        return play_words(board, [m.notation() for m in self.moves])


def replay_record(text: str) -> Board:
    """The board a record's text replays to, every move checked; the error names the first
    bad line.

    Raises :class:`LayoutError` ("line 2: …") for the header and :class:`ReplayError`
    (with ``line``) for a move that cannot be played.
    """
    headers, words = read_record(text)
    for key in ("game", "deal"):
        if len(headers.get(key, [])) != 1:
            raise LayoutError(f"a game record needs exactly one '{key}:' line")
    (game_line, game), (deal_line, deal) = headers["game"][0], headers["deal"][0]
    if not game:
        raise LayoutError(f"line {game_line}: the 'game:' line names no game")
    try:
        rules = game_named(game)
    except UnknownGame as error:
        raise UnknownGame(f"line {game_line}: {error}") from error
    if not DEAL_DIGITS.fullmatch(deal):
        raise LayoutError(f"line {deal_line}: {not_deal_digits(deal)}")
    for option_line, option in headers.get("option", []):
        try:  # the option's own line (it was the deal's)
            rules.check_options(frozenset([option]))
        except RulesError as error:
            raise type(error)(f"line {option_line}: {error}") from error
    try:
        number = check_deal_number(_deal_number(deal))
        options = [value for _, value in headers.get("option", [])]
        board = Board(rules, number, options=options)
    except RulesError as error:
        raise type(error)(f"line {deal_line}: {error}") from error
    return play_words(board, words)


def _deal_number(digits: str) -> int:
    """A record's deal number, leading zeros and all; one too long to be a deal is refused
    before ``int`` reads it (a record may hold thousands of digits), in its own words."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(MAX_DEAL)):
        raise BadDealNumber(
            f"deal number {significant[:20]}... ({len(significant):,} digits) is out of range:"
            f" use 1 to {MAX_DEAL}"
        )
    return int(significant)
