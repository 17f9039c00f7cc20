"""Moonlight's statistics extras: what its summaries keep beyond every game's, and the
figures over them (see :mod:`domain.statistics`).

Per game: the rounds played (replayed ones included). Per seat: the rounds started and
won, the rounds won of those it started and of those the other seat started, the points
of its rounds by part (moons, cards, threes, M-5), the moons it showed at scoring, and the
cards it played by value (the Lone Wolf apart). Every value is read from the game's own
events.

>>> from domain.moonlight.ruleset import MOONLIGHT
>>> record = MOONLIGHT.self_play(2, ["random", "random"], seed=3)
>>> state = start = MOONLIGHT.start(record)
>>> steps = []
>>> for action in record.actions:
...     state, events = MOONLIGHT.play(state, action)
...     steps.append([dict(zip(("type", "data"), MOONLIGHT.encode_event(e))) for e in events])
>>> summary = summarize(start, steps, state, MOONLIGHT.scores(state))
>>> summary.starter, summary.game["rounds"] >= 2, summary.seats[0]["rounds_started"] >= 1
(0, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.moonlight.cards import LONE_WOLF, VALUES
from domain.moonlight.state import State
from domain.ruleset import SeatScore, Stored
from domain.statistics import Breakdown, Column, Mix, RatesWhen, Spread, Statistics, Summary, Value

PLAYED = (*(f"played_{v}" for v in VALUES), "played_lone_wolf")
"""The seat columns counting the cards played, by value."""
POINTS = ("moons", "cards", "threes")
"""The parts of a round's points (M-5), summed over a game's rounds per seat."""
COUNTED = (
    "rounds_started", "rounds_won", "started_won", "other_won", *(f"points_{p}" for p in POINTS),
    "points", "moons_shown", *PLAYED,
)  # fmt: skip
"""Every seat column, counted over a game's events."""


def summarize(
    start: State, steps: Sequence[Sequence[Stored]], end: State, scores: Sequence[SeatScore]
) -> Summary:
    """Moonlight's extras of one game (see :data:`domain.statistics.Summarize`)."""
    count: dict[str, list[int]] = {key: [0, 0] for key in COUNTED}
    rounds = 0
    first: int | None = None
    starter: int | None = None
    for step in steps:
        for stored in step:
            kind, e = stored["type"], stored["data"]
            if kind == "RoundStarted":
                starter = e["starter"]
                first = starter if first is None else first
                rounds += 1
                count["rounds_started"][starter] += 1
            elif kind in ("CardPlaced", "CardCovered"):
                card = e["card"]
                played = "played_lone_wolf" if card == LONE_WOLF else f"played_{card}"
                count[played][e["player"]] += 1
            elif kind == "RoundScored":
                for seat, p in enumerate(e["seats"]):
                    count["points"][seat] += p["points"]
                    count["moons_shown"][seat] += p["moons_shown"]
                    for part in POINTS:
                        count[f"points_{part}"][seat] += p[part]
            elif kind == "RoundWon":
                seat = e["player"]
                count["rounds_won"][seat] += 1
                count["started_won" if seat == starter else "other_won"][seat] += 1
    return Summary(
        turns=None,
        starter=first,
        end_reason="rounds won" if end.finished else None,
        game={"rounds": rounds},
        seats=[{key: counter[seat] for key, counter in count.items()} for seat in range(2)],
    )


def seat_json(row: Mapping[str, Value]) -> dict[str, Any]:
    """A seat's extras as its game summary shows them, from their columns."""
    return {
        "rounds": {
            "started": row["rounds_started"], "won": row["rounds_won"],
            "won_when_started": row["started_won"], "won_when_not_started": row["other_won"],
        },
        "points": {"total": row["points"], **{p: row[f"points_{p}"] for p in POINTS}},
        "moons_shown": row["moons_shown"],
        "played": {
            **{str(v): row[f"played_{v}"] for v in VALUES}, "lone_wolf": row["played_lone_wolf"]
        },
    }  # fmt: skip


def _label(column: str) -> str:
    return column.replace("played_", "cards played: ").replace("_", " ")


CARDS_PLAYED = (*((str(v), f"played_{v}") for v in VALUES), ("lone_wolf", "played_lone_wolf"))
"""Each kind of card and the seat column counting it."""
PARTS = tuple((part, f"points_{part}") for part in POINTS)
"""Each part of the round points and the seat column summing it."""

STATISTICS = Statistics(
    summarize=summarize,
    seat_json=seat_json,
    game_columns=(Column("rounds", "rounds played"),),
    seat_columns=tuple(Column(key, _label(key)) for key in COUNTED),
    figures=(
        Mix(
            "round_winners",
            "Rounds won by the seat that started them",
            "winner",
            (("starter", "started_won"), ("other seat", "other_won")),
        ),
        Mix("card_values", "Cards played by value", "value", CARDS_PLAYED),
        Breakdown("cards_played", "Cards played per game by value", CARDS_PLAYED, "cards"),
        Mix("round_points", "Round points by part (M-5)", "part", PARTS),
        Breakdown("points", "Round points per game by part (M-5)", PARTS, "points"),
        RatesWhen(
            "lone_wolf",
            "Win rate of the seats that played the Lone Wolf",
            "card",
            (("lone_wolf", "played_lone_wolf"),),
        ),
        Spread("rounds", "rounds", "Rounds per game"),
    ),
    score_name="rounds_won",
    score_label="rounds won",
    score_bucket=1,
)
"""Moonlight's statistics extras (``Ruleset.statistics``)."""
