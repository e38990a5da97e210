"""Display names as people read them: look-alike characters and separators aside.

A leaderboard shows names, and one name that reads as another's passes for that player:
``AIice Lord`` (a capital I) or ``Alice Lord.`` for ``Alice Lord``, ``Player Se0bec`` for
the player without a name shown as ``Player 5e0bec``. Two names with the same skeleton are
one name."""

from __future__ import annotations

import re

LOOK_ALIKES = str.maketrans(
    {
        "i": "l",
        "1": "l",
        "|": "l",
        "0": "o",
        "5": "s",
        "2": "z",
        "3": "e",
        "4": "a",
        "7": "t",
        "u": "v",
        "9": "g",
        "q": "g",
        "8": "b",
        "6": "b",
    }
)
"""Characters read as another, lower case: I (as i), 1 and | as l; 0 as o; 5 as S; 2 as
Z; 3 as E; 4 as A; 7 as T; u as v; 9 and q as g; 8 and 6 as B (a player's pass took "6ob"
beside "Bob", another "7om 7yler" beside "Tom Tyler", "Hugh Lavrie" beside "Hugh Laurie"
and "Uictor" beside "Victor")."""

CAPITALS = str.maketrans({"Q": "O"})
"""Capitals read as another letter, before the case goes: Q as O ("Qliver" beside "Oliver"),
where a small q reads as g."""

PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
"""Two letters read as one, after the characters: rn as m, vv as w, cl (or cI) as d. An
attacker's pass took "Ernrna VVoods" beside "Emma Woods", "Aclam Docld" beside "Adam
Dodd"."""

NAMELESS = re.compile(r"player[olzeasbtgcdf]{6}")
"""The handle of a player without a name (``Player 3703dd``: ``models.Player.name``) as its
skeleton reads: its six hexadecimal digits after the look-alikes."""


def skeleton(name: str, *, pairs: bool = True) -> str:
    """``name`` as it reads: lower case, look-alikes as one character (and, with ``pairs``,
    the ``PAIRS`` as one letter), nothing but letters and digits.

    >>> skeleton("AIice Lord.") == skeleton("A1ice Lord") == skeleton("alice_lord")
    True
    >>> skeleton("Player Se0bec")
    'playerseobec'
    >>> skeleton("Ernrna VVoods") == skeleton("Emma Woods"), skeleton("Player 37o3cId")
    (True, 'playeretoedd')
    """
    text = re.sub(r"[^a-z0-9]", "", name.translate(CAPITALS).lower().translate(LOOK_ALIKES))
    for pair, letter in PAIRS if pairs else ():
        text = text.replace(pair, letter)
    return text


def looks_nameless(name: str) -> bool:
    """Whether ``name`` reads as the handle of a player without a name: ``PIayer cl6bec.``,
    ``Player_c16bec``, ``Player Se0bec`` and ``Player 37o3cld`` passed for players shown as
    ``Player c16bec``, ``Player 5e0bec`` and ``Player 3703dd``. Read with and without the
    pairs: a handle's own "c1" reads as "cl", not "d"."""
    return any(NAMELESS.fullmatch(skeleton(name, pairs=p)) for p in (False, True))
