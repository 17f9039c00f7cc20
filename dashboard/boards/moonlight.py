"""Moonlight's board view: the card grid, the seats' standing, each round's scoring, and the
points chart beside the rounds-won score chart (:mod:`dashboard.boards`).

Every step's table is sent once with the page; ``assets/boards/moonlight.js`` draws it as
a grid of cards (value, moons, owner colour and letter) in the smallest rectangle holding
them, each card's covered stack in its hover and focus box. At a step that scored a round
the row winners are marked and the cards step 3 of M-5 ignored are greyed, with the
points' breakdown (moons, cards, threes) beside the grid.

>>> letters(["Ana", "Bo"]), letters(["Ana", "Al"])
(['A', 'B'], ['1', '2'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dash import html
from dash.development.base_component import Component

from dashboard.charts import Marks, ScoreChart, base_layout, count_ticks, mark_shapes
from dashboard.game import Game
from domain.moonlight import events as ev
from domain.moonlight.cards import ASSUMPTION, assumed_setup
from domain.moonlight.state import Phase, State

POWERS_NOTE = (
    "Lone Wolf and Alpha Powers are recorded but have no effect: the sources do not give them."
)
ASSUMED_NOTE = "Assumed deck: moons on the 2s and the 5."


def letters(names: Sequence[str]) -> list[str]:
    """The letter each seat's cards carry beside their colour: the first of its name when
    every seat's differs, else its number from 1."""
    first = [name.strip()[:1].upper() for name in names]
    if all(c.isalnum() for c in first) and len(set(first)) == len(first):
        return first
    return [str(seat + 1) for seat in range(len(names))]


def assumed(state: State) -> bool:
    """Whether a game is played with the deck the engine assumes (:data:`ASSUMPTION`)."""
    setup, base = state.table.setup, assumed_setup()
    return setup.deck == base.deck and setup.lone_wolf == base.lone_wolf


def table(state: State) -> list[list[Any]]:
    """The table: per cell ``[x, y, stack]``, each card of the stack (bottom first) as
    ``[seat, value, moons, lone wolf]``."""
    faces = state.table.faces
    return [
        [x, y, [[p.player, faces.value[p.card], faces.moons[p.card], int(p.card == "lone_wolf")]
                for p in state.cells[(x, y)]]]
        for x, y in sorted(state.cells, key=lambda c: (c[1], c[0]))
    ]  # fmt: skip


def scoring(event: ev.RoundScored, won: int | None) -> dict[str, Any]:
    """A round's scoring as the script shows it: rows ``[y, sums, winner]``, the ignored and
    tripled cells, each seat's points and the round's winner (None: replayed)."""
    return {
        "round": event.round,
        "rows": [[r.y, list(r.sums), r.winner] for r in event.rows],
        "ignored": [list(c) for c in event.ignored],
        "tripled": [list(c) for c in event.tripled],
        "seats": [
            {"points": p.points, "moons": p.moons, "cards": p.cards, "threes": p.threes,
             "moons_shown": p.moons_shown, "visible": p.visible}
            for p in event.seats
        ],
        "winner": won,
    }  # fmt: skip


def step_scoring(events: Sequence[ev.Event]) -> dict[str, Any] | None:
    """The scoring of the round a step ended, if it ended one."""
    scored = next((e for e in events if isinstance(e, ev.RoundScored)), None)
    if scored is None:
        return None
    won = next((e.player for e in events if isinstance(e, ev.RoundWon)), None)
    return scoring(scored, won)


def touched(events: Sequence[ev.Event]) -> list[int] | None:
    """The cell a step placed a card on."""
    for e in events:
        if isinstance(e, ev.CardPlaced | ev.CardCovered):
            return [e.cell[0], e.cell[1]]
    return None


def points_figure(
    rows: Sequence[dict[str, Any]], names: Sequence[str], colors: Sequence[str]
) -> dict[str, Any]:
    """A line per seat of the points the table gives it at each step (after a round: that
    round's), the round ends marked."""
    steps = [row["step"] for row in rows]
    data = [{
        "type": "scatter", "mode": "lines", "name": name, "x": steps,
        "y": [row["scores"][seat]["parts"]["points"] for row in rows],
        "line": {"color": colors[seat], "width": 2.5, "shape": "hv",
                 "dash": "solid" if seat == 0 else "dot"},
        "hovertemplate": f"<b>{name}</b> %{{y}} points<extra></extra>",
    } for seat, name in enumerate(names)]  # fmt: skip
    shapes, notes = mark_shapes(round_marks(rows, names))
    layout = base_layout(rows, 220, "Round points on the table (moons + cards + threes)")
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "x unified",
        "yaxis": {"title": {"text": "points", "standoff": 4}, "fixedrange": True,
                  "rangemode": "tozero", **count_ticks([0, *(y for d in data for y in d["y"])])},
        "hoverlabel": {"font": {"size": 11}},
    })  # fmt: skip
    return {"data": data, "layout": layout}


def round_marks(rows: Sequence[dict[str, Any]], names: Sequence[str]) -> Marks:
    """Each round's end, labelled short enough to stand beside the next on a phone: ``R1 A``
    (round 1 won by the seat of letter A, :func:`letters`), ``R2 tie`` (tied, played again:
    M-6); the milestone's own sentence is in the step log.

    >>> won = {"kind": "round_won", "text": "Bo wins round 1", "seats": [1]}
    >>> tie = {"kind": "round_replayed", "text": "round 2 is tied", "seats": []}
    >>> rows = [{"step": 9, "milestones": [won]}, {"step": 20, "milestones": [tie]}]
    >>> round_marks(rows, ["Ana", "Bo"])
    [(9, 'R1 B'), (20, 'R2 tie')]
    """
    seats, found, number = letters(names), [], 1
    for row in rows:
        for milestone in row["milestones"]:
            if milestone["kind"] == "round_won":
                found.append((row["step"], f"R{number} {seats[milestone['seats'][0]]}"))
                number += 1
            elif milestone["kind"] == "round_replayed":
                found.append((row["step"], f"R{number} tie"))
    return found


class MoonlightView:
    """Moonlight's board view (:class:`~dashboard.boards.BoardView`)."""

    game = "moonlight"
    script = "moonlight"
    score = ScoreChart("Rounds won", "rounds", ("rounds_won", "points"), "replay-score")

    def marked(self, game: Game) -> Marks:
        """Each round's end (:func:`round_marks`)."""
        return round_marks(game.rows, game.names)

    def data(self, game: Game) -> dict[str, Any]:
        """The seats (name, colour, letter); per step the table (:func:`table`), the round,
        per seat its rounds won, cards left, Alpha Power and whether it holds the Lone Wolf,
        whose turn it is, whether the game is over or between rounds, the cell placed on and
        the round scored."""
        library, game_id, rows = game.library, game.game_id, game.rows
        caused: list[list[Any]] = [[] for _ in rows]
        for stored in library.game_events(game_id):
            caused[stored.step + 1].append(stored.event)
        steps = []
        for n, row in enumerate(rows):
            state: State = library.state_at(game_id, n)
            steps.append({
                "c": table(state),
                "r": state.round,
                "w": [p.rounds_won for p in state.packs],
                "l": [p.cards_left for p in state.packs],
                "p": [p.power for p in state.packs],
                "v": [p.lone_wolf for p in state.packs],
                "t": row["turn"],
                "f": row["finished"],
                "b": state.phase is Phase.BETWEEN,
                "h": touched(caused[n]),
                "s": step_scoring(caused[n]),
            })  # fmt: skip
        marks = letters(game.names)
        return {
            "players": [
                {"name": name, "color": color, "letter": mark}
                for name, color, mark in zip(game.names, game.colors, marks, strict=True)
            ],
            "steps": steps,
        }

    def board(self, game: Game) -> Component:
        """The notes on the game's sources and the grid the script draws the cards in."""
        notes = [html.P(POWERS_NOTE, className="note ml-note", id="ml-powers-note")]
        if assumed(game.first):
            notes.append(
                html.P(ASSUMED_NOTE, className="note ml-note", id="ml-deck-note", title=ASSUMPTION)
            )
        return html.Div(
            [
                *notes,
                html.Div(id="ml-grid", className="ml-grid"),
                html.Div(id="ml-hover", className="ml-hover"),
            ],
            className="ml-board",
        )

    def panels(self, game: Game) -> list[Component]:
        """The seats' standing and the round's scoring (the script writes both)."""
        return [
            html.Div(id="ml-seats", className="ml-seats"),
            html.Div(id="ml-scoring", className="ml-scoring"),
        ]

    def charts(self, game: Game) -> list[tuple[str, dict[str, Any]]]:
        """The round points chart."""
        return [("ml-points", points_figure(game.rows, game.names, game.colors))]


MOONLIGHT = MoonlightView()
"""Moonlight's board view (registered in :mod:`dashboard.boards`)."""
