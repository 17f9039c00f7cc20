"""Game summaries of The Wolves written straight into the read-model tables, for statistics
tests and benches.

A :class:`Seat` says only what statistics look at; every other column gets a plain value.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.games import ruleset
from projections import tables
from projections.readmodels import ReadModels
from projections.summaries import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    SEAT_GAME_COLUMNS,
    name_key,
    names_key,
    own_columns,
)
from projections.tables import timestamp

WOLVES = ruleset("the-wolves")


@dataclass(frozen=True)
class Seat:
    """One seat's result."""

    name: str
    terrain: str
    total: int
    place: int
    firsts: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=lambda: {"move": 10, "den": 5})


@dataclass(frozen=True)
class Played:
    """One game's result."""

    seats: Sequence[Seat]
    uploaded_at: datetime
    turns: int = 30
    actions: int | None = None  # default: two per turn
    finished: bool = True
    visibility: str = "public"
    options: dict[str, int | None] = field(default_factory=dict)


Rows = tuple[tuple[Any, ...], list[tuple[Any, ...]], tuple[str, list[tuple[Any, ...]]]]


def rows(game: Played) -> Rows:
    """The game's row, its seats' rows and its seats' rows in The Wolves' own table."""
    game_id = str(uuid.uuid4())
    winners = [s.name for s in game.seats if s.place == 1] if game.finished else []
    values: dict[str, Any] = {
        "game_id": game_id, "game": WOLVES.name, "title": None, "tags": "[]",
        "visibility": game.visibility, "uploaded_at": timestamp(game.uploaded_at),
        "played_at": timestamp(game.uploaded_at),
        "uploaded_by": None, "rules_version": "synthetic", "players": len(game.seats),
        "turns": game.turns, "actions": game.actions or game.turns * 2, "events": game.turns * 3,
        "finished": int(game.finished), "end_reason": "full_moon" if game.finished else None,
        "top_score": max(s.total for s in game.seats), "winners": json.dumps(winners),
        "names_key": names_key([s.name for s in game.seats]), "winner_key": names_key(winners),
        "version": 1,
    }  # fmt: skip
    options = {"opt_random_terrain": 0, "opt_big_map": 0, "opt_auto_push": 0,
               "opt_lone_wolves": 2, "opt_stall_limit": None}  # fmt: skip
    options.update({f"opt_{k}": v for k, v in game.options.items()})
    values["extras"] = json.dumps([options[c.name] for c in WOLVES.statistics.game_columns])
    seat_rows, own = [], []
    for i, s in enumerate(game.seats):
        seat = {c: values[c] for c in SEAT_GAME_COLUMNS}
        seat.update(
            game_id=game_id, seat=i, name=s.name, name_key=name_key(s.name), color="blue",
            total=s.total, place=s.place, won=int(game.finished and s.place == 1),
            started=int(i == 0), bot=0, attribute=s.terrain,
        )  # fmt: skip
        seat_rows.append(tuple(seat[c] for c in SEAT_COLUMNS))
        extra: dict[str, Any] = dict.fromkeys(own_columns(WOLVES.statistics), 0)
        extra.update(seat, **options)
        extra.update(
            terrain=s.terrain, regions=s.total // 2,
            pack_vp=s.total - s.total // 2, prey="[]",
            **{f"firsts_{phase}": n for phase, n in s.firsts.items()},
            **{f"n_{kind}": n for kind, n in s.actions.items()},
        )  # fmt: skip
        own.append(tuple(extra.values()))
    return tuple(values[c] for c in GAME_COLUMNS), seat_rows, (WOLVES.name, own)


def insert(models: ReadModels, games: Iterable[Played]) -> None:
    """Write the games' summaries (no timelines) in one transaction."""
    db = models.db
    models.position()  # tables made
    made = [rows(game) for game in games]
    with db.connect() as conn:
        db.insert(conn, tables.GAMES, GAME_COLUMNS, [game for game, _, _ in made])
        db.insert(
            conn, tables.SEATS, SEAT_COLUMNS, [seat for _, seats, _ in made for seat in seats]
        )
        tables.insert_extras(db, conn, tables.LIVE, [own for _, _, own in made])
