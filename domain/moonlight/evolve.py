"""``evolve(state, event) -> state``: each event's effect, and nothing the rules decide.

The rules (:mod:`domain.moonlight.rules`) decide what happens and say it in events; this
module only applies them, so folding a game's stored events rebuilds every state exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from domain.moonlight import events as ev
from domain.moonlight.cards import INDEX, Card, Faces
from domain.moonlight.cells import Cell
from domain.moonlight.state import Pack, Phase, Placed, RoundResult, Stack, State


def evolve(state: State, event: ev.Event) -> State:
    """The state after ``event``; ``state`` is left unchanged."""
    match event:
        case ev.CardPlaced(player=p, card=card, cell=cell):
            cells = dict(state.cells)
            cells[cell] = (Placed(p, card),)
            return _placed(state, p, card, cells)
        case ev.CardCovered(player=p, card=card, cell=cell):
            cells = dict(state.cells)
            cells[cell] = (*cells[cell], Placed(p, card))
            return _placed(state, p, card, cells)
        case ev.CardDrawn(player=p, card=card):
            pack = state.packs[p]
            assert pack.hand is not None and pack.deck is not None
            return _with_pack(state, p, replace(pack, hand=(*pack.hand, card), deck=pack.deck[1:]))
        case ev.RoundStarted(starter=starter):
            return _started(state, starter)
        case ev.LastCardPlaced(player=p):
            return replace(state, last_turn=1 - p)
        case ev.RoundEnded():
            return replace(state, phase=Phase.BETWEEN, last_turn=None)
        case ev.RoundScored(round=number, seats=seats):
            return replace(state, rounds=(*state.rounds, RoundResult(number, seats, None)))
        case ev.RoundWon(player=p):
            last = replace(state.rounds[-1], winner=p)
            pack = state.packs[p]
            won = _with_pack(state, p, replace(pack, rounds_won=pack.rounds_won + 1))
            return replace(
                won, rounds=(*state.rounds[:-1], last), starter=1 - p, player=1 - p, alpha_due=1 - p
            )
        case ev.RoundReplayed():
            return replace(state, player=state.starter)
        case ev.LoneWolfGained(player=p):
            return _with_pack(state, p, replace(state.packs[p], lone_wolf=True))
        case ev.AlphaPowerChosen(player=p, power=power):
            chose = _with_pack(state, p, replace(state.packs[p], power=power))
            return replace(chose, alpha_due=None, player=state.starter)
        case ev.GameEnded():
            return replace(state, phase=Phase.OVER, alpha_due=None)
    raise TypeError(f"not a Moonlight event: {event!r}")


def fold(state: State, events: Iterable[ev.Event]) -> State:
    """The state after every event in order; ``state`` is left unchanged."""
    for event in events:
        state = evolve(state, event)
    return state


def _with_pack(state: State, seat: int, pack: Pack) -> State:
    packs = (pack, state.packs[1]) if seat == 0 else (state.packs[0], pack)
    return replace(state, packs=packs)


def _placed(state: State, seat: int, card: Card, cells: dict[Cell, Stack]) -> State:
    """A seat's card left its hand for the table; the turn passes to the opponent."""
    pack = state.packs[seat]
    left = list(pack.left)
    left[INDEX[card]] -= 1
    hand = pack.hand
    if hand is not None:
        i = hand.index(card)
        hand = hand[:i] + hand[i + 1 :]
    after = replace(pack, left=tuple(left), hand=hand)
    packs = (after, state.packs[1]) if seat == 0 else (state.packs[0], after)
    return replace(state, packs=packs, cells=cells, player=1 - seat)


def _started(state: State, starter: int) -> State:
    """A round began: the table cleared, each seat's whole deck shuffled into its order."""
    draws = state.table.setup.draws
    packs = []
    for seat, pack in enumerate(state.packs):
        order = None if draws is None else draws[state.played][seat]
        full = Faces.full(pack.lone_wolf)
        packs.append(replace(pack, left=full, hand=None if order is None else (), deck=order))
    return replace(
        state,
        packs=(packs[0], packs[1]),
        cells={},
        phase=Phase.PLAYING,
        starter=starter,
        player=starter,
        last_turn=None,
    )
