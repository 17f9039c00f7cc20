"""Game summaries written straight into the read-model tables, for statistics tests and benches.

A :class:`Seat` says only what statistics look at; every other column gets a plain value.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from projections import tables
from projections.readmodels import ReadModels
from projections.summaries import GAME_COLUMNS, SEAT_COLUMNS, SEAT_GAME_COLUMNS, name_key
from projections.tables import timestamp


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


def rows(game: Played) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The game's row and its seats' rows."""
    game_id = str(uuid.uuid4())
    winners = [s.name for s in game.seats if s.place == 1] if game.finished else []
    values: dict[str, Any] = {
        "game_id": game_id, "title": None, "tags": "[]", "visibility": game.visibility,
        "uploaded_at": timestamp(game.uploaded_at), "uploaded_by": None,
        "rules_version": "synthetic", "players": len(game.seats), "opt_random_terrain": 0,
        "opt_big_map": 0, "opt_auto_push": 0, "opt_lone_wolves": 2, "opt_stall_limit": None,
        "turns": game.turns, "actions": game.actions or game.turns * 2, "events": game.turns * 3,
        "finished": int(game.finished), "end_reason": "full_moon" if game.finished else None,
        "top_vp": max(s.total for s in game.seats), "winners": json.dumps(winners), "version": 1,
    }  # fmt: skip
    values.update({f"opt_{k}": v for k, v in game.options.items()})
    seat_rows = []
    for i, s in enumerate(game.seats):
        seat = dict.fromkeys(SEAT_COLUMNS, 0)
        seat.update({c: values[c] for c in SEAT_GAME_COLUMNS})
        seat.update(
            game_id=game_id, seat=i, name=s.name, name_key=name_key(s.name), color="blue",
            terrain=s.terrain, total=s.total, regions=s.total // 2,
            pack_vp=s.total - s.total // 2,
            place=s.place, won=int(game.finished and s.place == 1), prey="[]",
            **{f"firsts_{phase}": n for phase, n in s.firsts.items()},
            **{f"n_{kind}": n for kind, n in s.actions.items()},
        )  # fmt: skip
        seat_rows.append(tuple(seat[c] for c in SEAT_COLUMNS))
    return tuple(values[c] for c in GAME_COLUMNS), seat_rows


def insert(models: ReadModels, games: Iterable[Played]) -> None:
    """Write the games' summaries (no timelines) in one transaction."""
    db = models.db
    models.position()  # tables made
    made = [rows(game) for game in games]
    with db.connect() as conn:
        db.executemany(
            conn,
            f"INSERT INTO {tables.GAMES} ({', '.join(GAME_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})",
            [game for game, _ in made],
        )
        db.executemany(
            conn,
            f"INSERT INTO {tables.SEATS} ({', '.join(SEAT_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(SEAT_COLUMNS))})",
            [seat for _, seats in made for seat in seats],
        )
