"""Display names as people read them: look-alike characters and separators aside.

A leaderboard shows names, and one name that reads as another's passes for that player:
``AIice Lord`` (a capital I) or ``Alice Lord.`` for ``Alice Lord``, ``Player Se0bec`` for
the player without a name shown as ``Player 5e0bec``. Two names with the same skeleton are
one name."""

from __future__ import annotations

import re

LOOK_ALIKES = str.maketrans(
    {"i": "l", "1": "l", "|": "l", "0": "o", "5": "s", "2": "z", "9": "g", "q": "g"}
)
"""Characters read as another, lower case: I (as i), 1 and | as l; 0 as o; 5 as S; 2 as
Z; 9 and q as g."""

NAMELESS = re.compile(r"player[olz34s678gabcdef]{6}")
"""The handle of a player without a name (``Player 3703dd``: ``models.Player.name``) as its
skeleton reads: its six hexadecimal digits after the look-alikes."""


def skeleton(name: str) -> str:
    """``name`` as it reads: lower case, look-alikes as one character, nothing but letters
    and digits.

    >>> skeleton("AIice Lord.") == skeleton("A1ice Lord") == skeleton("alice_lord")
    True
    >>> skeleton("Player Se0bec")
    'playerseobec'
    """
    return re.sub(r"[^a-z0-9]", "", name.lower().translate(LOOK_ALIKES))


def looks_nameless(name: str) -> bool:
    """Whether ``name`` reads as the handle of a player without a name: ``PIayer cl6bec.``,
    ``Player_c16bec`` and ``Player Se0bec`` passed for players shown as ``Player c16bec``
    and ``Player 5e0bec``."""
    return NAMELESS.fullmatch(skeleton(name)) is not None
