"""The engine's errors: few, typed, and each message names the offending input."""


class RulesError(ValueError):
    """Base class of every error the rules engine raises for bad input."""


class UnknownGame(RulesError):
    """A game slug that names none of the games."""


class BadDealNumber(RulesError):
    """A deal number outside 1 to 2**63 - 1."""


class NotationError(RulesError):
    """Text that is not a card, a pile or a move in the notation of RULES.md."""


class IllegalMove(RulesError):
    """A well-formed move that the rules forbid in the current position.

    The message is one sentence a player can read, e.g. ``A 9 can only go on a 10``.
    """

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(reason)
        self.move = move
        self.reason = reason


class LayoutError(RulesError):
    """A layout text or game record that cannot be read."""
