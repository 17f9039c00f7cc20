"""Players are people, not strings: how names match, and the aliases that make several
spellings one player.

Names match by their key (:func:`name_key`: case, accents, width and surrounding space
ignored). A merge makes one name's player (with every name merged into it before) the
same player as another name's, shown by the name merged into; a player is named by the
key of its first name that no merge took into another.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from domain.bounds import text_problem

MAX_NAME = 200
"""Most characters of a name a merge takes (a record's seat names are as long at most)."""


def name_key(name: str) -> str:
    """How player names are matched: case, accents and surrounding space ignored (the
    name's compatibility decomposition without its combining marks, case-folded).

    >>> name_key("  Ana ") == name_key("ANA"), name_key("Zoë") == name_key("zoe")
    (True, True)
    >>> name_key("Łukasz"), name_key("Ｍｉｋｉ")
    ('łukasz', 'miki')
    """
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a player in a merge, or None.

    >>> name_problem("Zoë"), name_problem("  "), name_problem("a" * 201)
    (None, 'is blank', 'longer than 200 characters')
    """
    if not name.strip():
        return "is blank"
    return text_problem(name, MAX_NAME)


@dataclass
class Aliases:
    """Each merged-away name key's player key (``players``), and the name each player a
    merge took another into is shown by (``shown``)."""

    players: dict[str, str] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)

    def player(self, name: str) -> str:
        """The key of the player ``name`` is.

        >>> aliases = Aliases()
        >>> aliases.merge("Zoey", "Zoë"), aliases.player("ZOEY"), aliases.player("Ana")
        (('zoey', 'zoe'), 'zoe', 'ana')
        """
        key = name_key(name)
        return self.players.get(key, key)

    def merge(self, alias: str, into: str) -> tuple[str, str] | None:
        """Make ``alias``'s player ``into``'s; returns the player key merged away and the one
        kept, or None when they already are one player.

        >>> aliases = Aliases()
        >>> aliases.merge("Zo", "Zoey"), aliases.merge("Zoey", "Zoë"), aliases.players
        (('zo', 'zoey'), ('zoey', 'zoe'), {'zo': 'zoe', 'zoey': 'zoe'})
        >>> aliases.merge("zoe", "ZO"), aliases.shown
        (None, {'zoey': 'Zoey', 'zoe': 'Zoë'})
        """
        gone, kept = self.player(alias), self.player(into)
        if gone == kept:
            return None
        for key, player in self.players.items():
            if player == gone:
                self.players[key] = kept
        self.players[gone] = kept
        self.shown.setdefault(kept, into.strip())
        return gone, kept
