"""Castle's rules engine: pure Python, no Django.

>>> from games.rules import Board
>>> board = Board("beleaguered-castle", 1)
>>> board.pile("t1")[-1], len(board.legal_moves()) > 0
(Card.from_str('6C'), True)
"""

from .board import Board
from .cards import Card
from .deals import MAX_DEAL, Layout, deal
from .errors import (
    BadDealNumber,
    IllegalMove,
    LayoutError,
    NotationError,
    RulesError,
    UnknownGame,
)
from .moves import Move
from .record import GameRecord, ReplayError, replay_record
from .variants import GAMES, GROUPS, TAKE_BACK, GameRules, get_game

__all__ = [
    "GAMES",
    "GROUPS",
    "MAX_DEAL",
    "TAKE_BACK",
    "BadDealNumber",
    "Board",
    "Card",
    "GameRecord",
    "GameRules",
    "IllegalMove",
    "Layout",
    "LayoutError",
    "Move",
    "NotationError",
    "ReplayError",
    "RulesError",
    "UnknownGame",
    "deal",
    "get_game",
    "replay_record",
]
