"""The Wolves' statistics extras: what its summaries keep beyond every game's, and the
figures over them (see :mod:`domain.statistics`).

Per game: the W-12 options in force. Per seat: the home terrain, the final score's parts,
the regions won first per phase, the prey hunted, lairs and dens per track on the board,
the bonus tokens gained and spent, the dominations made and suffered, and how many times
each action was taken. Every value is read from the game's own events and end state, and
the score parts from the engine's final scores.

>>> from domain.wolves.ruleset import WOLVES
>>> record = WOLVES.self_play(2, ["random", "random"], seed=3)
>>> start = WOLVES.start(record)
>>> state, events = WOLVES.play(start, record.actions[0])
>>> stored = [dict(zip(("type", "data"), WOLVES.encode_event(e))) for e in events]
>>> summary = summarize(start, [stored], state, WOLVES.scores(state))
>>> summary.starter, summary.seats[0]["n_draft"], summary.game["opt_lone_wolves"]
(0, 1, 2)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from domain.ruleset import SeatScore, Stored
from domain.statistics import (
    Breakdown,
    Column,
    Mix,
    Option,
    RatesBy,
    RatesWhen,
    Statistics,
    Summary,
    Value,
)
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.codec import ACTION_NAMES
from domain.wolves.records import OPTION_RANGES
from domain.wolves.setup import Options
from domain.wolves.state import State

OPTION_COLUMNS = {
    "random_terrain": "opt_random_terrain",
    "big_map": "opt_big_map",
    "auto_push": "opt_auto_push",
    "lone_wolves_per_region": "opt_lone_wolves",
    "stall_limit_rounds": "opt_stall_limit",
}
"""Each W-12 option and the game column holding it."""
PARTS = {
    "regions": "regions", "spread": "spread", "speed": "speed", "howl": "howl",
    "lairs": "lairs_vp", "prey": "prey_vp", "pack": "pack_vp",
    "region_tokens": "region_tokens", "wolves_on_map": "wolves_on_map",
}  # fmt: skip
"""Each part of a final score (records.md ``howl score``) and the seat column holding it."""
VP_SOURCES = ("regions", "spread", "speed", "howl", "lairs", "prey", "pack")
"""The parts that add up to the total (the others break ties, W-9)."""
ACTIONS = tuple(ev.ACTION_TYPES.values())
"""Every record action type, one count column each."""
COUNTED = (
    "action_tokens_gained", "terrain_tokens_gained", "action_tokens_spent",
    "terrain_tokens_spent", "dominations_made", "dominations_suffered",
    *(f"firsts_{p}" for p in box.PHASES), *(f"n_{kind}" for kind in ACTIONS),
)  # fmt: skip
"""The seat columns counted over a game's events."""
OPEN_NO_TURN = frozenset(("WolvesDrafted", "GameEnded"))
"""The events after which no turn is under way (the draft's, the game's end)."""
COUNT_OF = {kind: f"n_{action}" for kind, action in ACTION_NAMES.items()}
"""The column counting each action event (by stored type name)."""
COUNTED_EVENTS = frozenset(
    ("BonusActionSpent", "BonusTokenGained", "PieceDominated", "RegionScored", "GameEnded")
)
"""The events counted beside the actions (or read, for the game's end)."""


def _value(value: bool | int | None) -> int | None:
    """An option as its column stores it: booleans as 0 or 1."""
    return int(value) if value is not None else None


def _option(name: str) -> Option:
    default = getattr(Options(), name)
    if isinstance(default, bool):
        return Option(name, OPTION_COLUMNS[name], int(default), flag=True)
    low, high = OPTION_RANGES[name]
    return Option(name, OPTION_COLUMNS[name], default, low, high)


def summarize(
    start: State, steps: Sequence[Sequence[Stored]], end: State, scores: Sequence[SeatScore]
) -> Summary:
    """The Wolves' extras of one game (see :data:`domain.statistics.Summarize`)."""
    table = start.table
    seats = len(table.players)
    count: dict[str, list[int]] = {key: [0] * seats for key in COUNTED}
    end_reason: str | None = None
    turns = 0
    open_turn = False
    for step in steps:
        for stored in step:
            kind = stored["type"]
            if kind == "TurnEnded":
                turns, open_turn = turns + 1, False
                continue
            e = stored["data"]
            counted = COUNT_OF.get(kind)
            if counted is not None:  # an action
                seat = e["player"]
                count[counted][seat] += 1
                paid = e.get("paid")
                if paid is not None and paid["bonus_terrain"]:
                    count["terrain_tokens_spent"][seat] += paid["bonus_terrain"]
            if kind not in OPEN_NO_TURN:
                open_turn = True
            if kind not in COUNTED_EVENTS:
                continue
            if kind == "BonusActionSpent":
                count["action_tokens_spent"][e["player"]] += 1
            elif kind == "BonusTokenGained":
                count[f"{e['token']}_tokens_gained"][e["player"]] += 1
            elif kind == "PieceDominated":
                count["dominations_made"][e["player"]] += 1
                count["dominations_suffered"][e["victim"]] += 1
            elif kind == "RegionScored":
                for s in e["standings"]:
                    if s["seat"] is not None and s["place"] == 1:
                        count[f"firsts_{e['phase']}"][s["seat"]] += 1
            elif kind == "GameEnded":
                end_reason = e["reason"]
    # the stall limit in force: the big map implies one (W-12)
    options = dataclasses.replace(table.setup.options, stall_limit_rounds=table.stall_limit)
    rows: list[dict[str, Value]] = []
    for seat, (player, score, board) in enumerate(zip(table.players, scores, end.boards,
                                                      strict=True)):  # fmt: skip
        rows.append({
            "terrain": player.terrain,
            **{column: score.parts[part] for part, column in PARTS.items()},
            "prey": json.dumps(list(board.prey)), "lairs": board.lairs,
            **{f"dens_{track}": n for track, n in zip(box.TRACKS, board.dens, strict=True)},
            **{key: counter[seat] for key, counter in count.items()},
        })  # fmt: skip
    return Summary(
        turns=turns + open_turn,  # after the draft, counting a turn still under way
        starter=start.player,
        end_reason=end_reason,
        game={col: _value(getattr(options, name)) for name, col in OPTION_COLUMNS.items()},
        seats=rows,
    )


def seat_json(row: Mapping[str, Any]) -> dict[str, Any]:
    """A seat's extras as its game summary shows them, from their columns."""
    return {
        "terrain": row["terrain"],
        "breakdown": {part: row[PARTS[part]] for part in VP_SOURCES},
        "region_tokens": row["region_tokens"],
        "wolves_on_map": row["wolves_on_map"],
        "region_wins": {
            **{phase: row[f"firsts_{phase}"] for phase in box.PHASES},
            "total": sum(row[f"firsts_{phase}"] for phase in box.PHASES),
        },
        "prey": json.loads(row["prey"]),
        "lairs": row["lairs"],
        "dens": {track: row[f"dens_{track}"] for track in box.TRACKS},
        "bonus_tokens": {
            "gained": {
                "action": row["action_tokens_gained"], "terrain": row["terrain_tokens_gained"]
            },
            "spent": {
                "action": row["action_tokens_spent"], "terrain": row["terrain_tokens_spent"]
            },
        },
        "dominations": {"made": row["dominations_made"], "suffered": row["dominations_suffered"]},
        "actions": {kind: row[f"n_{kind}"] for kind in ACTIONS},
    }  # fmt: skip


def _count(name: str) -> Column:
    return Column(name, name.replace("_", " "))


STATISTICS = Statistics(
    summarize=summarize,
    seat_json=seat_json,
    game_columns=tuple(
        Column(column, name.replace("_", " "), nullable=True)
        for name, column in OPTION_COLUMNS.items()
    ),
    seat_columns=(
        Column("terrain", "home terrain", "text", values=box.TERRAINS),
        *(Column(column, f"{part.replace('_', ' ')} VP") for part, column in PARTS.items()),
        Column("prey", "prey hunted (JSON list)", "text"),
        _count("lairs"),
        *(_count(f"dens_{track}") for track in box.TRACKS),
        *(_count(key) for key in COUNTED),
    ),
    options=tuple(_option(name) for name in OPTION_COLUMNS),
    choices=(
        ("standard", "standard rules"),
        ("random_terrain", "random terrain"),
        ("big_map", "big map"),
        ("auto_push", "auto push"),
        ("lone_wolves_per_region=3", "3 lone wolves per region"),
        ("stall_limit_rounds=10", "stall limit 10"),
    ),
    figures=(
        RatesBy("by_terrain", "terrain", "Win rate by home terrain"),
        Breakdown(
            "vp", "Average final VP by source", tuple((part, PARTS[part]) for part in VP_SOURCES)
        ),
        Mix("actions", "Action mix", "type", tuple((kind, f"n_{kind}") for kind in ACTIONS)),
        RatesWhen(
            "region_winners",
            "Win rate of a phase's region winners",
            "phase",
            tuple((phase, f"firsts_{phase}") for phase in box.PHASES),
        ),
    ),
    attribute="terrain",
    score_name="vp",
    score_label="VP",
    score_bucket=5,
)
"""The Wolves' statistics extras (``Ruleset.statistics``)."""
