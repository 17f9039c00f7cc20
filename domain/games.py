"""The registry of rulesets: a record's ``"game"`` names the ruleset that reads it.

>>> ruleset("the-wolves").title
'The Wolves'
>>> ruleset("chess")
Traceback (most recent call last):
...
domain.games.UnknownGame: game: no game 'chess': known games are moonlight, the-wolves
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from domain.documents import check_header, parse, read_annotations
from domain.ruleset import GameRecord, InvalidRecord, Ruleset

_RULESETS: dict[str, Ruleset] = {}
FIRST = "the-wolves"
"""The first game Howl served: the game ``howl simulate`` plays unless told another, and
that of the games stored before records named theirs (the store's upcast)."""
DEMO = {FIRST: 12, "moonlight": 4}
"""How many games of each game ``howl serve --demo`` stores, by name: the one place to add a
game to the demo once its ruleset is registered."""


class UnknownGame(InvalidRecord):
    """A ``"game"`` no registered ruleset plays (an ``invalid_record`` at path ``game``)."""

    def __init__(self, name: object) -> None:
        super().__init__(
            "game", f"no game {name!r}: known games are {', '.join(sorted(_RULESETS))}"
        )
        self.name = name


def register(rules: Ruleset) -> Ruleset:
    """Make ``rules`` the ruleset of records whose ``"game"`` is ``rules.name``."""
    _RULESETS[rules.name] = rules
    return rules


def unregister(name: str) -> None:
    """Forget the ruleset named ``name`` (a test's own game)."""
    _RULESETS.pop(name, None)


def ruleset(name: object) -> Ruleset:
    """The ruleset registered as ``name``; ``UnknownGame`` when none is."""
    found = _RULESETS.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownGame(name)
    return found


def of_document(doc: Mapping[str, Any]) -> Ruleset:
    """The ruleset of a parsed record or position: by its ``"game"`` (``UnknownGame``)."""
    return ruleset(doc.get("game"))


def read_record(data: bytes | str | Mapping[str, Any]) -> tuple[Ruleset, GameRecord]:
    """The ruleset and the record of a ``howl.game`` document of any registered game (JSON
    or parsed): its ``format`` and ``version`` first, then its ``"game"`` picks the reader;
    its ``annotations``, if any, are checked too (the record holds none). ``InvalidRecord``
    (``UnknownGame`` at path ``game``) when it is not such a record."""
    doc = parse(data)
    check_header(doc, (("format", "howl.game"), ("version", 1)))
    rules = of_document(doc)
    record = rules.read_record(doc)
    read_annotations(doc, len(record.actions))
    return rules, record


def rulesets() -> Iterator[Ruleset]:
    """Every registered ruleset, by name."""
    return iter([_RULESETS[name] for name in sorted(_RULESETS)])


def _register_builtin() -> None:
    from domain.moonlight.ruleset import MOONLIGHT
    from domain.wolves.ruleset import WOLVES

    register(WOLVES)
    register(MOONLIGHT)


_register_builtin()
