"""Seats a computer played, as records and positions write them (``players[i].bot``).

A seat's ``bot`` names the game's computer player that played it (``"heuristic"``); a bot
that searches also has ``bot_depth``, 1 … 4 (1 when left out). A person's seat has
neither, so records without bots read and write as before.

>>> read_bot({"bot": "review", "bot_depth": 2}, "players[1]", ("heuristic", "review"), ("review",))
('review', 2)
>>> read_bot({"bot": "review"}, "players[1]", ("review",), ("review",)), read_bot({}, "p", (), ())
(('review', 1), (None, None))
>>> bot_json("heuristic", None), bot_json(None, None)
({'bot': 'heuristic'}, {})
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from domain import bounds
from domain.documents import join
from domain.ruleset import InvalidRecord

DEPTHS = range(1, 5)
"""How deep a bot that searches may be asked to search."""
DEFAULT_DEPTH = 1


def read_bot(
    doc: Mapping[str, Any], path: str, names: Collection[str], searching: Collection[str]
) -> tuple[str | None, int | None]:
    """A seat's ``(bot, bot_depth)``: a bot of ``names`` (those of ``searching`` with a
    depth in :data:`DEPTHS`), or ``(None, None)`` for a person."""
    bot, depth = doc.get("bot"), doc.get("bot_depth")
    if bot is None:
        if depth is not None:
            raise InvalidRecord(join(path, "bot_depth"), "only a bot's seat has a depth")
        return None, None
    if not isinstance(bot, str) or bot not in names:
        known = ", ".join(names) or "none"
        raise InvalidRecord(join(path, "bot"), f"expected a bot of this game ({known}), "
                            f"got {bounds.brief(bot)}")  # fmt: skip
    if bot not in searching:
        if depth is not None:
            raise InvalidRecord(join(path, "bot_depth"), f"the {bot} bot does not search")
        return bot, None
    if depth is None:
        return bot, DEFAULT_DEPTH
    if isinstance(depth, bool) or not isinstance(depth, int) or depth not in DEPTHS:
        raise InvalidRecord(join(path, "bot_depth"), f"expected an integer {DEPTHS.start} to "
                            f"{DEPTHS.stop - 1}, got {bounds.brief(depth)}")  # fmt: skip
    return bot, depth


def bot_json(bot: str | None, depth: int | None) -> dict[str, Any]:
    """The seat's bot fields as written (none for a person's seat)."""
    if bot is None:
        return {}
    return {"bot": bot} if depth is None else {"bot": bot, "bot_depth": depth}
