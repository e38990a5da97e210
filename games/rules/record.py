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
from .deals import check_deal_number
from .errors import IllegalMove, LayoutError, RulesError
from .moves import Move
from .variants import get_game

_HEADER = re.compile(r"^\s*(?P<key>[A-Za-z][A-Za-z_-]*)\s*:(?:\s+(?P<value>.*)|\s*$)")


class ReplayError(IllegalMove):
    """A move of a record that cannot be played; ``index`` counts from 1."""

    def __init__(self, index: int, move: str, reason: str) -> None:
        super().__init__(move, reason)
        self.index = index

    def __str__(self) -> str:
        return f"illegal move {self.index} ({self.move}): {self.reason}"


def split_record(text: str) -> tuple[dict[str, list[str]], list[str]]:
    """Header fields (``game``, ``deal``, ``option`` …) and the move words, in order."""
    headers: dict[str, list[str]] = {}
    words: list[str] = []
    for line in text.splitlines():
        match = _HEADER.match(line)
        if match:
            headers.setdefault(match["key"].lower(), []).append((match["value"] or "").strip())
        else:
            words.extend(line.split())
    return headers, words


def play_words(board: Board, words: list[str]) -> Board:
    """Play moves given in notation; :class:`ReplayError` names the first bad one."""
    for index, word in enumerate(words, 1):
        try:
            board.play(word)
        except RulesError as error:
            reason = error.reason if isinstance(error, IllegalMove) else str(error)
            raise ReplayError(index, word, reason) from error
    return board


@dataclass(frozen=True)
class GameRecord:
    """A game as stored and shared: it replays, with the engine, to the same position."""

    game: str
    deal: int
    moves: tuple[Move, ...] = ()
    options: frozenset[str] = frozenset()

    @classmethod
    def from_board(cls, board: Board) -> GameRecord:
        return cls(board.rules.slug, board.deal_number, tuple(board.move_stack), board.options)

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Read a record; :class:`LayoutError` or :class:`ReplayError` says what is wrong."""
        headers, words = split_record(text)
        for key in ("game", "deal"):
            if len(headers.get(key, [])) != 1:
                raise LayoutError(f"a game record needs exactly one '{key}:' line")
        rules = get_game(headers["game"][0])
        if not headers["deal"][0].isdigit():
            raise LayoutError(f"deal {headers['deal'][0]!r} is not a whole number")
        number = check_deal_number(int(headers["deal"][0]))
        options = frozenset(headers.get("option", []))
        board = play_words(Board(rules, number, options=options), words)
        return cls.from_board(board)

    def to_text(self) -> str:
        lines = [f"game: {self.game}", f"deal: {self.deal}"]
        lines += [f"option: {option}" for option in sorted(self.options)]
        lines += [
            " ".join(m.notation() for m in self.moves[i : i + 10])
            for i in range(0, len(self.moves), 10)
        ]
        return "\n".join(lines) + "\n"

    def replay(self) -> Board:
        """The board after every move; :class:`ReplayError` if the record does not replay."""
        board = Board(self.game, self.deal, options=self.options)
        return play_words(board, [m.notation() for m in self.moves])
