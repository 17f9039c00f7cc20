"""Readable labels for what one action caused, in the game's own words.

Drawn cards are left out: hands are hidden at the table.

>>> from domain.moonlight import events as ev
>>> label(("Ana", "Bo"), [ev.CardCovered(1, 4, (1, 0), 3)])
"Bo covers Ana's 3 on [1, 0] with a 4"
>>> label(("Ana", "Bo"), [ev.AlphaPowerChosen(1, "Howl")])
"Bo chooses the Alpha Power 'Howl' (recorded only: the engine knows no Alpha Power's effect)"
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.moonlight import events as ev
from domain.moonlight.cards import card_name
from domain.moonlight.cells import fmt

REASONS: dict[str, str] = {
    "rectangle_full": "the rectangle is full",
    "last_card": "the last card is played",
}


def describe(names: Sequence[str], event: ev.Event) -> str:
    """One event in words; empty for what is hidden (a card drawn)."""
    match event:
        case ev.RoundStarted(round=number, starter=seat, named=named):
            return f"round {number} begins, {names[seat]} {'named to start' if named else 'starts'}"
        case ev.CardDrawn():
            return ""
        case ev.CardPlaced(player=seat, card=card, cell=cell):
            return f"{names[seat]} places {card_name(card)} on {fmt(cell)}"
        case ev.CardCovered(player=seat, card=card, cell=cell, covered=under):
            shown = "Lone Wolf" if under == "lone_wolf" else str(under)
            whose = f"{names[1 - seat]}'s {shown} on {fmt(cell)}"
            return f"{names[seat]} covers {whose} with {card_name(card)}"
        case ev.LastCardPlaced(player=seat):
            return f"that is {names[seat]}'s last card: {names[1 - seat]} takes one more turn"
        case ev.RoundEnded(round=number, reason=reason):
            return f"round {number} ends ({REASONS[reason]})"
        case ev.RoundScored(seats=seats):
            return ", ".join(f"{names[s]} {points.points}" for s, points in enumerate(seats))
        case ev.RoundWon(round=number, player=seat, by=by):
            return f"{names[seat]} wins round {number}" + (
                " on visible cards" if by == "cards" else ""
            )
        case ev.RoundReplayed(round=number):
            return f"round {number} is tied on points and cards and is played again"
        case ev.LoneWolfGained(player=seat):
            return f"{names[seat]} gains the Lone Wolf"
        case ev.AlphaPowerChosen(player=seat, power=power):
            return (
                f"{names[seat]} chooses the Alpha Power {power!r} (recorded only: the engine "
                "knows no Alpha Power's effect)"
            )
        case ev.GameEnded(winner=seat):
            return f"{names[seat]} wins the game"
    raise TypeError(f"not a Moonlight event: {event!r}")


def label(names: Sequence[str], events: Sequence[ev.Event]) -> str:
    """One line for the events of one action, in their order."""
    return "; ".join(text for e in events if (text := describe(names, e)))
