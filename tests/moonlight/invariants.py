"""What holds for every Moonlight state after every event (checked by the property tests
and the fixture corpus)."""

from __future__ import annotations

from domain.moonlight.cards import INDEX, LONE_WOLF, Faces, counts_of
from domain.moonlight.cells import CELLS, FIRST, connected, fits
from domain.moonlight.rules import HAND
from domain.moonlight.state import Phase, State


def check_state(state: State, settled: bool = True) -> None:
    """Cards conserved, the rectangle bound, the stacks of M-3, visible counts, the turn;
    ``settled`` after an action's last event (its hand refilled)."""
    cells = state.cells
    faces = state.table.faces
    assert len(cells) <= CELLS
    if cells:
        assert FIRST in cells, "M-3: the round's first card lies on [0, 0]"
        assert fits(cells) and connected(cells), "M-3: the cards fit 4 × 3 or 3 × 4"
    for cell, stack in cells.items():
        assert stack, cell
        for under, over in zip(stack, stack[1:], strict=False):
            assert over.player != under.player, ("a card covers only the opponent's", cell)
            assert faces.value[over.card] == faces.value[under.card] + 1, ("one higher", cell)
    visible = [state.visible(0), state.visible(1)]
    assert sum(visible) == len(cells), "one visible card per occupied cell"
    for seat, pack in enumerate(state.packs):
        assert all(n >= 0 for n in pack.left), pack
        on_table = counts_of([p.card for s in cells.values() for p in s if p.player == seat])
        held = tuple(a + b for a, b in zip(pack.left, on_table, strict=True))
        with_lone_wolf = held[INDEX[LONE_WOLF]] == 1
        assert held == Faces.full(with_lone_wolf), ("cards conserved", seat, held)
        assert pack.lone_wolf or not with_lone_wolf, "only a holder plays the Lone Wolf"
        if state.phase is Phase.PLAYING:
            assert pack.lone_wolf == with_lone_wolf, "a holder shuffles the Lone Wolf in"
        assert (pack.hand is None) == (pack.deck is None) == (state.table.setup.draws is None)
        if pack.hand is not None and pack.deck is not None:
            assert counts_of([*pack.hand, *pack.deck]) == pack.left, (
                "hand and deck are the cards left"
            )
            if state.phase is Phase.PLAYING:
                assert len(pack.hand) <= HAND
                if settled:
                    assert len(pack.hand) == min(HAND, pack.cards_left), "the hand is refilled"
        assert pack.rounds_won == sum(r.winner == seat for r in state.rounds)
    if state.phase is Phase.BETWEEN:
        assert state.last_turn is None
        due = state.alpha_due
        if settled:
            assert state.player == (state.starter if due is None else due)
    if state.finished:
        assert max(p.rounds_won for p in state.packs) == 2 and state.alpha_due is None
