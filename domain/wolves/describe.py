"""Readable labels for what happened in a step, in the game's own words.

Labels are made from events as the store keeps them (:func:`codec.stored`: a type name
and its JSON fields), so the timeline projection labels steps without decoding events.

>>> from domain.wolves.events import Paid, LoneWolfHowled
>>> label(("Ana", "Bo"), [LoneWolfHowled(0, Paid((0, 2), 0, "tundra"), (12, 6), "pack")])
'Ana howls the lone wolf at (12, 6), paying 2 tundra'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.wolves import codec
from domain.wolves import events as ev
from domain.wolves.codec import Stored

PIECE_NAMES = {"alpha": "alpha", "pack": "pack wolf", "den": "den", "lair": "lair"}


def label(names: Sequence[str], events: Sequence[ev.Event]) -> str:
    """One line for the events one action caused, in their order (see :func:`stored_label`)."""
    return stored_label(names, [codec.stored(e) for e in events])


def _at(h: Sequence[int]) -> str:
    return f"({h[0]}, {h[1]})"


def _paying(paid: dict[str, Any]) -> str:
    tiles, n = paid["tiles"], paid["bonus_terrain"]
    if not n:  # most payments: tiles only
        return f"paying {len(tiles)} {paid['terrain']}" if tiles else "paying "
    parts = [f"{len(tiles)} {paid['terrain']}"] if tiles else []
    parts.append(f"{n} bonus terrain {'token' if n == 1 else 'tokens'}")
    return "paying " + " and ".join(parts)


def _moves(names: Sequence[str], e: dict[str, Any]) -> str:
    wolves = ", ".join([
        f"{PIECE_NAMES[m['kind']]} ({m['src'][0]}, {m['src'][1]})→({m['dst'][0]}, {m['dst'][1]})"
        for m in e["moves"]
    ])  # fmt: skip
    return f"{names[e['player']]} moves {wolves}, {_paying(e['paid'])}"


def _scored(names: Sequence[str], e: dict[str, Any]) -> str:
    placed = [
        f"{'the automaton' if s['seat'] is None else names[s['seat']]} {s['points']}"
        for s in e["standings"]
        if s["place"] is not None
    ]
    return f"{e['phase']} scoring of region {e['region']}: " + (", ".join(placed) or "nobody")


Text = Callable[[Sequence[str], dict[str, Any]], str]
_ACTIONS: dict[str, Text] = {
    "WolvesDrafted": lambda names, e: (
        f"{names[e['player']]} drafts an alpha and a pack wolf onto {_at(e['hex'])}"
    ),
    "BonusActionSpent": lambda names, e: f"{names[e['player']]} spends a bonus action token",
    "WolvesMoved": _moves,
    "DenBuilt": lambda names, e: (
        f"{names[e['player']]} builds a den at {_at(e['hex'])} from the {e['track']} track, "
        f"{_paying(e['paid'])}"
    ),
    "LairBuilt": lambda names, e: (
        f"{names[e['player']]} upgrades the den at {_at(e['hex'])} to a lair, {_paying(e['paid'])}"
    ),
    "LoneWolfHowled": lambda names, e: (
        f"{names[e['player']]} howls the lone wolf at {_at(e['hex'])}, {_paying(e['paid'])}"
    ),
    "PieceDominated": lambda names, e: (
        f"{names[e['player']]} dominates {names[e['victim']]}'s {PIECE_NAMES[e['piece']]} "
        f"at {_at(e['hex'])}, {_paying(e['paid'])}"
    ),
    "Passed": lambda names, e: f"{names[e['player']]} passes",
}
"""The text of each action event."""
_CONSEQUENCES: dict[str, Text] = {
    "WolfPushed": lambda names, e: (
        f"pushing {names[e['player']]}'s {PIECE_NAMES[e['kind']]} to {_at(e['dst'])}"
    ),
    "PreyHunted": lambda names, e: f"{names[e['player']]} hunts a {e['prey']}",
    "RegionScored": _scored,
    "TurnEnded": lambda names, e: (
        f"{names[e['player']]} ends the turn keeping {e['tokens_left']} bonus action "
        f"{'token' if e['tokens_left'] == 1 else 'tokens'}"
        if e.get("tokens_left")
        else ""
    ),
    "GameEnded": lambda names, e: (
        "the game ends" + (" (stalled)" if e["reason"] == "stall" else "")
    ),
}
"""The text of each event that follows an action."""
_TEXTS = {**_CONSEQUENCES, **_ACTIONS}
"""The text of every event that has one."""


def stored_label(names: Sequence[str], events: Sequence[Stored]) -> str:
    """One line for the stored events one action caused, in their order: the action and
    what followed. An action of the next seat that ends a turn kept open by tokens (W-6)
    comes after that turn's end (and any phase scored at it).

    >>> stored_label(("Ana", "Bo"), [
    ...     {"type": "TurnEnded", "data": {"player": 0, "next_player": 1, "stalled_rounds": 0,
    ...                                   "tokens_left": 1}},
    ...     {"type": "Passed", "data": {"player": 1}}])
    'Ana ends the turn keeping 1 bonus action token; Bo passes'
    """
    if len(events) == 1 and (text := _ACTIONS.get(events[0]["type"])) is not None:
        return text(names, events[0]["data"])
    parts = []
    for e in events:
        text = _TEXTS.get(e["type"])
        if text is not None and (line := text(names, e["data"])):
            parts.append(line)
    return "; ".join(parts)
