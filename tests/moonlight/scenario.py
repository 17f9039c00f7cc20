"""Scenario builders for Moonlight's rule tests: tables drawn as pictures, states set
directly.

A table is drawn row by row (``y`` = 0, 1, …, or from ``top``), one cell per ``x`` (from
``left``): ``A3`` is seat 0's 3, ``B4`` seat 1's 4, ``AL``/``BL`` a Lone Wolf, ``.`` an
empty cell; a stack is written bottom first with ``/`` (``A2/B3``)::

    table("A1 B3 .",
          "B2 A2/B3 A5")
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from domain.moonlight.actions import Place
from domain.moonlight.cards import (
    INDEX,
    LONE_WOLF,
    VALUES,
    Card,
    DeckEntry,
    Faces,
    LoneWolfCard,
    Setup,
    Value,
    assumed_setup,
    counts_of,
)
from domain.moonlight.cells import Cell
from domain.moonlight.rules import play
from domain.moonlight.state import Pack, Phase, Placed, Stack, State, initial_state
from domain.ruleset import Seat
from tests.plays import played, refused

PLAYERS = (Seat("Ana", "green"), Seat("Bo", "blue"))
SEAT_LETTERS = {"A": 0, "B": 1}


def make_setup(
    moons: dict[int, int] | None = None,
    lone_wolf: tuple[Value, int] = (4, 0),
    draws: tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...] | None = None,
) -> Setup:
    """A setup: the assumed deck with ``moons`` per value replacing its own."""
    base = assumed_setup(seed=1)
    given = moons or {}
    deck = tuple(DeckEntry(e.value, e.count, given.get(e.value, e.moons)) for e in base.deck)
    return Setup(deck, LoneWolfCard(lone_wolf[0], lone_wolf[1]), draws, 1)


def start(setup: Setup | None = None) -> State:
    """The state before round 1."""
    return initial_state(PLAYERS, setup or make_setup())


def _card(text: str) -> Placed:
    seat = SEAT_LETTERS[text[0]]
    card: Card = LONE_WOLF if text[1] == "L" else VALUES[int(text[1]) - 1]
    return Placed(seat, card)


def table(*rows: str, left: int = 0, top: int = 0) -> dict[Cell, Stack]:
    """The cells a picture draws (see the module docstring)."""
    cells: dict[Cell, Stack] = {}
    for dy, row in enumerate(rows):
        for dx, token in enumerate(row.split()):
            if token != ".":
                cells[(left + dx, top + dy)] = tuple(_card(t) for t in token.split("/"))
    return cells


def playing(
    cells: dict[Cell, Stack],
    player: int = 0,
    setup: Setup | None = None,
    starter: int = 0,
    lone_wolf: tuple[bool, bool] = (False, False),
    left: tuple[dict[Card, int] | None, dict[Card, int] | None] = (None, None),
    **changes: Any,
) -> State:
    """A state in a round with ``cells`` on the table and ``player`` to act; each seat's
    cards left are its deck less its cards on the table, unless ``left`` gives them."""
    state = start(setup)
    packs = []
    for seat in (0, 1):
        on_table = counts_of([p.card for s in cells.values() for p in s if p.player == seat])
        counts = list(Faces.full(lone_wolf[seat]))
        given = left[seat]
        if given is None:
            counts = [a - b for a, b in zip(counts, on_table, strict=True)]
        else:
            counts = [0] * len(counts)
            for card, n in given.items():
                counts[INDEX[card]] = n
        packs.append(Pack(tuple(counts), None, None, lone_wolf[seat]))
    return replace(
        state,
        packs=(packs[0], packs[1]),
        cells=cells,
        phase=Phase.PLAYING,
        player=player,
        starter=starter,
        **changes,
    )


illegal = partial(refused, play)
"""``illegal(state, action, rule, *words)``: assert the rules refuse ``action`` under ``rule``."""
run = partial(played, play)
"""``run(state, *actions)``: the state after ``actions`` and every event they caused."""


E = TypeVar("E")


def of_type(events: Iterable[object], kind: type[E]) -> list[E]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


def fill_won_by(winner: int, starter: int = 0) -> list[Place]:
    """Twelve placements from an empty table, ``starter`` first, filling a 4 × 3 table in
    which ``winner`` wins rows 0 and 1 (row 2 ties) and the round on points, 5 to 2."""
    cards: dict[int, list[Card]] = {winner: [5, 4, 4, 3, 3, 3], 1 - winner: [1, 1, 2, 2, 3, 3]}
    actions = []
    for i, cell in enumerate((x, y) for y in range(3) for x in range(4)):
        seat = starter if i % 2 == 0 else 1 - starter
        actions.append(Place(seat, cards[seat].pop(0), cell))
    return actions


def tied_round(last: int) -> tuple[dict[Cell, Stack], Place]:
    """Eleven cards of a 4 × 3 table and the twelfth, ``last``'s, after which every row is
    tied, the moons too, and both seats show 6 cards: the round is replayed (M-5)."""
    a, b = ("A", "B") if last == 1 else ("B", "A")
    rows = (
        f"{a}3 {b}3 {a}4 {b}4",
        f"{b}2 {a}2 {b}3 {a}3",
        f"{a}3 {b}1 {a}1 .",
    )
    return table(*rows), Place(last, 3, (3, 2))
