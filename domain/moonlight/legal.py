"""Every action the rules allow now, and the cells a card may go to (M-3).

>>> from domain.ruleset import Seat
>>> from domain.moonlight.cards import assumed_setup
>>> from domain.moonlight.state import initial_state
>>> state = initial_state((Seat("Ana", "green"), Seat("Bo", "blue")), assumed_setup())
>>> [a.type for a in legal_actions(state)][:3], len(placements(state))
(['round_start', 'round_start', 'place'], 5)
"""

from __future__ import annotations

from domain.moonlight.actions import Action, AlphaPower, Place, RoundStart
from domain.moonlight.cards import CARDS, Card
from domain.moonlight.cells import FIRST, Cell, bounds, neighbours, span_fits
from domain.moonlight.rules import Turn, begin_round
from domain.moonlight.state import Phase, State
from domain.ruleset import IllegalAction

UNNAMED_POWER = "unnamed Alpha Power"
"""The power :func:`legal_actions` offers a round's loser: the name is free text and the
source names no power, so any other name is as legal (M-6)."""


def legal_actions(state: State) -> list[Action]:
    """Every action the rules allow now: none once the game is over; the Alpha Power
    choice of a round's loser (M-6); between rounds, naming either seat to start and every
    first card of the default starter; in a round, every placement of the seat to act."""
    if state.finished:
        return []
    if state.alpha_due is not None:
        return [AlphaPower(state.alpha_due, UNNAMED_POWER)]
    if state.phase is Phase.PLAYING:
        return list(placements(state))
    return [RoundStart(0), RoundStart(1), *placements(state)]


def placements(state: State) -> list[Place]:
    """Every legal placement of the seat to act (between rounds: the default starter's
    first card of the next round, from the hand it would draw)."""
    if state.phase is Phase.BETWEEN and state.alpha_due is None and not state.finished:
        turn = Turn(state)
        try:
            begin_round(turn, state.starter, named=False)
        except IllegalAction:
            return []
        state = turn.state
    if state.phase is not Phase.PLAYING:
        return []
    seat = state.player
    pack = state.packs[seat]
    cards: list[Card] = (
        list(dict.fromkeys(pack.hand))
        if pack.hand is not None
        else [c for c, n in zip(CARDS, pack.left, strict=True) if n]
    )
    empty, covers = targets(state)
    faces = state.table.faces
    return [
        Place(seat, card, cell)
        for card in cards
        for cell in (*empty, *covers.get(faces.value[card] - 1, ()))
    ]


def targets(state: State) -> tuple[list[Cell], dict[int, list[Cell]]]:
    """Where the seat to act may place a card now: the empty cells it may use (M-3), and
    the opponent's cards it may cover, by the value they show."""
    cells = state.cells
    if not cells:
        return [FIRST], {}
    x0, y0, x1, y1 = bounds(cells)
    empty: list[Cell] = []
    for cell in sorted({n for c in cells for n in neighbours(c) if n not in cells}):
        x, y = cell
        width = max(x1, x) - min(x0, x) + 1
        height = max(y1, y) - min(y0, y) + 1
        if span_fits(width, height):
            empty.append(cell)
    covers: dict[int, list[Cell]] = {}
    other = 1 - state.player
    if state.visible(other) > 1:
        faces = state.table.faces
        for cell in sorted(cells):
            top = cells[cell][-1]
            if top.player == other:
                covers.setdefault(faces.value[top.card], []).append(cell)
    return empty, covers
