"""Readable labels for what happened in a step, in the game's own words.

>>> from domain.wolves.events import Paid, LoneWolfHowled
>>> label(("Ana", "Bo"), [LoneWolfHowled(0, Paid((0, 2), 0, "tundra"), (12, 6), "pack")])
'Ana howls the lone wolf at (12, 6), paying 2 tundra'
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.hexes import Hex
from domain.wolves import events as ev

PIECE_NAMES = {"alpha": "alpha", "pack": "pack wolf", "den": "den", "lair": "lair"}


def at(h: Hex) -> str:
    """A hex as people read it: ``(12, 6)``."""
    return f"({h[0]}, {h[1]})"


def paying(paid: ev.Paid) -> str:
    """``paying 2 tundra`` / ``paying 1 forest and 1 bonus terrain token``."""
    parts = []
    if paid.tiles:
        parts.append(f"{len(paid.tiles)} {paid.terrain}")
    if paid.bonus_terrain:
        tokens = "token" if paid.bonus_terrain == 1 else "tokens"
        parts.append(f"{paid.bonus_terrain} bonus terrain {tokens}")
    return "paying " + " and ".join(parts)


def _action(names: Sequence[str], e: ev.Event) -> str | None:
    who = names[e.player] if hasattr(e, "player") else ""
    match e:
        case ev.WolvesDrafted():
            return f"{who} drafts an alpha and a pack wolf onto {at(e.hex)}"
        case ev.BonusActionSpent():
            return f"{who} spends a bonus action token"
        case ev.WolvesMoved():
            wolves = ", ".join(f"{PIECE_NAMES[m.kind]} {at(m.src)}→{at(m.dst)}" for m in e.moves)
            return f"{who} moves {wolves}, {paying(e.paid)}"
        case ev.DenBuilt():
            return f"{who} builds a den at {at(e.hex)} from the {e.track} track, {paying(e.paid)}"
        case ev.LairBuilt():
            return f"{who} upgrades the den at {at(e.hex)} to a lair, {paying(e.paid)}"
        case ev.LoneWolfHowled():
            return f"{who} howls the lone wolf at {at(e.hex)}, {paying(e.paid)}"
        case ev.PieceDominated():
            victim = f"{names[e.victim]}'s {PIECE_NAMES[e.piece]}"
            return f"{who} dominates {victim} at {at(e.hex)}, {paying(e.paid)}"
        case ev.Passed():
            return f"{who} passes"
    return None


def _consequence(names: Sequence[str], e: ev.Event) -> str | None:
    match e:
        case ev.WolfPushed():
            return f"pushing {names[e.player]}'s {PIECE_NAMES[e.kind]} to {at(e.dst)}"
        case ev.PreyHunted():
            return f"{names[e.player]} hunts a {e.prey}"
        case ev.RegionScored():
            placed = [
                f"{'the automaton' if s.seat is None else names[s.seat]} {s.points}"
                for s in e.standings
                if s.place is not None
            ]
            return f"{e.phase} scoring of region {e.region}: " + (", ".join(placed) or "nobody")
        case ev.GameEnded():
            return "the game ends" + (" (stalled)" if e.reason == "stall" else "")
    return None


def label(names: Sequence[str], events: Sequence[ev.Event]) -> str:
    """One line for the events one action caused: the action, then what followed."""
    parts = [text for e in events if (text := _action(names, e))]
    parts += [text for e in events if (text := _consequence(names, e))]
    return "; ".join(parts)
