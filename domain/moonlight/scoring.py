"""Scoring a round (M-5, in its order) and the game's result (M-7).

>>> from domain.ruleset import Seat
>>> from domain.moonlight.cards import assumed_setup
>>> from domain.moonlight.state import Placed, initial_state
>>> from dataclasses import replace
>>> state = initial_state((Seat("Ana", "green"), Seat("Bo", "blue")), assumed_setup())
>>> state = replace(state, cells={(0, 0): (Placed(0, 1),), (1, 0): (Placed(1, 3),)})
>>> scored = score_round(state)
>>> scored.rows
(RowResult(y=0, sums=(3, 3), winner=None),)
>>> [p.points for p in scored.seats], scored.ignored, scored.tripled
([0, 0], ((0, 0), (1, 0)), ((0, 0),))
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.moonlight.cards import Card
from domain.moonlight.cells import Cell, corners
from domain.moonlight.events import Decider, RoundPoints, RoundScored, RowResult
from domain.moonlight.state import WINS, State

MOON_POINTS = 2
"""Points of the moon majority (M-5 step 1)."""
CORNER_ONE = 3
"""What a 1 in a corner counts in its row's sum (M-1, M-5 step 2)."""
NO_POINTS = RoundPoints(0, 0, 0, 0, 0, 0)


def score_round(state: State) -> RoundScored:
    """The scoring of the table as it lies (M-5): moon majority, row majority, then one
    point per visible card not ignored and one more per 3 in a row its owner won."""
    faces = state.table.faces
    tops: dict[Cell, tuple[int, Card]] = {c: stack[-1] for c, stack in state.cells.items()}
    if not tops:
        return RoundScored(state.round, (NO_POINTS, NO_POINTS), (), (), ())
    moons, visible = [0, 0], [0, 0]
    for seat, card in tops.values():
        moons[seat] += faces.moons[card]
        visible[seat] += 1
    moon_points = [0, 0]
    if moons[0] != moons[1]:
        moon_points[0 if moons[0] > moons[1] else 1] = MOON_POINTS
    corner = corners(tops)
    rows: list[RowResult] = []
    ignored: list[Cell] = []
    tripled: list[Cell] = []
    cards, threes = [0, 0], [0, 0]
    for y in sorted({y for _, y in tops}):
        row = sorted(c for c in tops if c[1] == y)
        sums = [0, 0]
        for cell in row:
            seat, card = tops[cell]
            if card == 1 and cell in corner:
                sums[seat] += CORNER_ONE
                tripled.append(cell)
            else:
                sums[seat] += faces.value[card]
        winner = None if sums[0] == sums[1] else (0 if sums[0] > sums[1] else 1)
        rows.append(RowResult(y, (sums[0], sums[1]), winner))
        for cell in row:
            seat, card = tops[cell]
            if seat != winner:
                ignored.append(cell)
                continue
            cards[seat] += 1
            if card == 3:
                threes[seat] += 1
    seats = tuple(
        RoundPoints(
            moon_points[s] + cards[s] + threes[s], moon_points[s], cards[s], threes[s],
            moons[s], visible[s],
        )
        for s in (0, 1)
    )  # fmt: skip
    return RoundScored(
        state.round, (seats[0], seats[1]), tuple(rows), tuple(ignored), tuple(tripled)
    )


def round_winner(seats: tuple[RoundPoints, RoundPoints]) -> tuple[int, Decider] | None:
    """Who wins a scored round and how (M-5): more points, else more visible cards; None
    when both tie too (the round is replayed)."""
    a, b = seats
    if a.points != b.points:
        return (0 if a.points > b.points else 1), "points"
    if a.visible != b.visible:
        return (0 if a.visible > b.visible else 1), "cards"
    return None


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's result (M-7): rounds won as its total, and its place (shared on a tie)."""

    seat: int
    total: int
    place: int


def standings(state: State) -> tuple[Standing, ...]:
    """Both seats' rounds won and places now (final once the game is over)."""
    totals = [pack.rounds_won for pack in state.packs]
    return tuple(
        Standing(seat, total, 1 + sum(other > total for other in totals))
        for seat, total in enumerate(totals)
    )


def winner(state: State) -> int | None:
    """The seat that won two rounds, if any."""
    return next((s for s, pack in enumerate(state.packs) if pack.rounds_won >= WINS), None)


def score_document(state: State) -> dict[str, list[dict[str, object]]]:
    """``howl score --json`` (M-7): per seat the rounds won as ``total``, its ``place``,
    and every round scored so far (``won`` null for a replayed round).

    >>> from domain.ruleset import Seat
    >>> from domain.moonlight.cards import assumed_setup
    >>> from domain.moonlight.state import initial_state
    >>> state = initial_state((Seat("Ana", "g"), Seat("Bo", "b")), assumed_setup())
    >>> score_document(state)["scores"][1]
    {'seat': 1, 'total': 0, 'place': 1, 'rounds': []}
    """
    return {
        "scores": [
            {
                "seat": s.seat,
                "total": s.total,
                "place": s.place,
                "rounds": [
                    {
                        "points": r.seats[s.seat].points,
                        "moons": r.seats[s.seat].moons,
                        "cards": r.seats[s.seat].cards,
                        "threes": r.seats[s.seat].threes,
                        "won": None if r.winner is None else r.winner == s.seat,
                    }
                    for r in state.rounds
                ],
            }
            for s in standings(state)
        ]
    }
