"""Game summaries: one row per game and one per seat, from a game's stored events.

Everything here is pure: :func:`summarize` takes the start position, the stored events of
each action and the position they end at, and returns plain dicts keyed by column names
(``GAME_COLUMNS``, ``SEAT_COLUMNS``) ready for the read-model tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import Any

from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.codec import Stored
from domain.wolves.scoring import final_scores
from domain.wolves.state import State

OPTION_COLUMNS = {
    "random_terrain": "opt_random_terrain",
    "big_map": "opt_big_map",
    "auto_push": "opt_auto_push",
    "lone_wolves_per_region": "opt_lone_wolves",
    "stall_limit_rounds": "opt_stall_limit",
}
"""Each W-12 option and the game column holding it."""

ACTION_TYPES = tuple(ev.ACTION_TYPES.values())
"""Every record action type, one count column each."""
ACTION_KINDS = {cls.__name__: f"n_{kind}" for cls, kind in ev.ACTION_TYPES.items()}
"""The count column of each action event, by stored type name."""
COUNTED = (
    "action_tokens_gained", "terrain_tokens_gained", "action_tokens_spent",
    "terrain_tokens_spent", "dominations_made", "dominations_suffered",
    *(f"firsts_{p}" for p in box.PHASES), *(f"n_{kind}" for kind in ACTION_TYPES),
)  # fmt: skip
"""The seat columns counted over a game's events."""

SEAT_GAME_COLUMNS = ("players", "finished", "visibility", "uploaded_at", *OPTION_COLUMNS.values())
"""Game columns copied onto each seat's row, so statistics filter seats without a join."""
META_COLUMNS = ("title", "tags", "visibility", "uploaded_at", "uploaded_by", "rules_version")
GAME_COLUMNS = (
    "game_id", *META_COLUMNS, "players", *OPTION_COLUMNS.values(), "turns", "actions",
    "events", "finished", "end_reason", "top_vp", "winners", "version",
)  # fmt: skip
SEAT_COLUMNS = (
    "game_id", "seat", "name", "name_key", "color", "terrain", "total", "regions", "spread",
    "speed", "howl", "lairs_vp", "prey_vp", "pack_vp", "region_tokens", "wolves_on_map",
    "place", "won", *(f"firsts_{phase}" for phase in box.PHASES), "prey", "lairs",
    *(f"dens_{track}" for track in box.TRACKS), "action_tokens_gained",
    "terrain_tokens_gained", "action_tokens_spent", "terrain_tokens_spent",
    "dominations_made", "dominations_suffered", *(f"n_{kind}" for kind in ACTION_TYPES),
    *SEAT_GAME_COLUMNS,
)  # fmt: skip


def name_key(name: str) -> str:
    """How player names are matched: case and surrounding space ignored.

    >>> name_key("  Ana ") == name_key("ANA")
    True
    """
    return name.strip().casefold()


def summarize(
    start: State, steps: Sequence[Sequence[Stored]], end: State
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The game's columns (without metadata and id) and one dict per seat (without id).

    ``steps`` are the stored events of each action, ``end`` the position after them.
    """
    table = start.table
    players = table.players
    count: dict[str, list[int]] = {key: [0] * len(players) for key in COUNTED}
    end_reason: str | None = None
    events = turns = 0
    open_turn = False
    for step in steps:
        events += len(step)
        for stored in step:
            kind, e = stored["type"], stored["data"]
            action = ACTION_KINDS.get(kind)
            if action is not None:
                count[action][e["player"]] += 1
                paid = e.get("paid")
                if paid is not None and paid["bonus_terrain"]:
                    count["terrain_tokens_spent"][e["player"]] += paid["bonus_terrain"]
            if kind == "TurnEnded":
                turns, open_turn = turns + 1, False
                continue
            if kind not in ("WolvesDrafted", "GameEnded"):
                open_turn = True
            match kind:
                case "BonusActionSpent":
                    count["action_tokens_spent"][e["player"]] += 1
                case "BonusTokenGained":
                    count[f"{e['token']}_tokens_gained"][e["player"]] += 1
                case "PieceDominated":
                    count["dominations_made"][e["player"]] += 1
                    count["dominations_suffered"][e["victim"]] += 1
                case "RegionScored":
                    for s in e["standings"]:
                        if s["seat"] is not None and s["place"] == 1:
                            count[f"firsts_{e['phase']}"][s["seat"]] += 1
                case "GameEnded":
                    end_reason = e["reason"]
    scores = [asdict(score) for score in final_scores(end)]
    finished = end.finished
    winners = [players[s["seat"]].name for s in scores if s["place"] == 1] if finished else []
    # the stall limit in force: the big map implies one (W-12)
    options = replace(table.setup.options, stall_limit_rounds=table.stall_limit)
    game = {
        "players": len(players),
        **{col: option_value(getattr(options, name)) for name, col in OPTION_COLUMNS.items()},
        "turns": turns + open_turn,  # after the draft, counting a turn still under way
        "actions": len(steps),
        "events": events,
        "finished": int(finished),
        "end_reason": end_reason,
        "top_vp": max((s["total"] for s in scores), default=0),
        "winners": winners,
    }  # fmt: skip
    seat_rows = []
    for seat, (player, score, board) in enumerate(zip(players, scores, end.boards, strict=True)):
        seat_rows.append({
            "seat": seat, "name": player.name, "name_key": name_key(player.name),
            "color": player.color, "terrain": player.terrain, "total": score["total"],
            "regions": score["regions"], "spread": score["spread"], "speed": score["speed"],
            "howl": score["howl"], "lairs_vp": score["lairs"], "prey_vp": score["prey"],
            "pack_vp": score["pack"], "region_tokens": score["region_tokens"],
            "wolves_on_map": score["wolves_on_map"], "place": score["place"],
            "won": int(finished and score["place"] == 1), "prey": list(board.prey),
            "lairs": board.lairs,
            **{f"dens_{track}": board.dens[i] for i, track in enumerate(box.TRACKS)},
            **{key: counter[seat] for key, counter in count.items()},
        })  # fmt: skip
    return game, seat_rows


def option_value(value: bool | int | None) -> int | None:
    """An option as its column stores it: booleans as 0 or 1."""
    return int(value) if value is not None else None


def seat_json(row: dict[str, Any]) -> dict[str, Any]:
    """A seat's summary as the API shows it, from its row (the ``SEAT_COLUMNS``)."""
    return {
        "seat": row["seat"],
        "name": row["name"],
        "color": row["color"],
        "terrain": row["terrain"],
        "total": row["total"],
        "breakdown": {
            "regions": row["regions"], "spread": row["spread"], "speed": row["speed"],
            "howl": row["howl"], "lairs": row["lairs_vp"], "prey": row["prey_vp"],
            "pack": row["pack_vp"],
        },
        "region_tokens": row["region_tokens"],
        "wolves_on_map": row["wolves_on_map"],
        "place": row["place"],
        "winner": bool(row["won"]),
        "region_wins": {
            **{phase: row[f"firsts_{phase}"] for phase in box.PHASES},
            "total": sum(row[f"firsts_{phase}"] for phase in box.PHASES),
        },
        "prey": list(row["prey"]),
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
        "actions": {kind: row[f"n_{kind}"] for kind in ACTION_TYPES},
    }  # fmt: skip
