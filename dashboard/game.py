"""Everything the replay page sends to the browser once for a game.

Static parts (map figure, hex texts, players, charts, step labels) and one compact
entry per step (pieces, boards, VP, Moonlight), so changing step needs no request.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from dashboard import board
from dashboard.palette import TERRAIN_COLORS
from domain.store import GameLibrary
from domain.wolves import components as box
from domain.wolves.state import State

VP_FIELDS = ("total", "regions", "spread", "speed", "howl", "lairs", "prey", "pack", "place")


def board_row(state: State, seat: int) -> list[Any]:
    """One seat's board: ``[showing, dens…(3), lairs, wolves, prey, bonus terrain,
    bonus action, region points, region tokens]``; ``showing`` is one terrain index per
    tile slot (``components.TERRAINS``), as a string."""
    b = state.boards[seat]
    showing = "".join(str(box.TERRAINS.index(state.showing(seat, s))) for s in range(6))
    return [
        showing, *b.dens, b.lairs, b.wolves, list(b.prey), b.bonus_terrain, b.bonus_action,
        b.region_points, b.region_tokens,
    ]  # fmt: skip


def payload(library: GameLibrary, game_id: UUID, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The replay data of a stored game, given its timeline ``rows``."""
    last = library.steps(game_id)
    caused: list[list[Any]] = [[] for _ in range(last + 1)]
    for stored in library.game_events(game_id):
        caused[stored.step + 1].append(stored.event)
    first = library.state_at(game_id, 0)
    table = first.table
    colors = board.seat_colors(first)
    names = [p.name for p in table.players]
    steps = []
    for n in range(last + 1):
        state = library.state_at(game_id, n)
        row = rows[n]
        steps.append({
            **board.frame(state, caused[n]),
            "b": [board_row(state, seat) for seat in range(len(names))],
            "v": [[v[f] for f in VP_FIELDS] for v in row["vp"]],
            "m": row["moonlight"],
            "t": row["turn"],
            "a": state.actions_left,
            "f": row["finished"],
        })  # fmt: skip
    return {
        "id": str(game_id),
        "last": last,
        "players": [
            {"name": p.name, "color": colors[i], "terrain": p.terrain}
            for i, p in enumerate(table.players)
        ],
        "automaton": colors[-1],
        "two_player": table.two_player,
        "terrains": list(box.TERRAINS),
        "terrain_colors": TERRAIN_COLORS,
        "kinds": list(board.KINDS),
        "kind_names": [board.KIND_NAMES[k] for k in board.KINDS],
        "symbols": [board.SYMBOLS[k] for k in board.KINDS],
        "tracks": {t: list(v) for t, v in box.TRACK_VALUES.items()},
        "phases": list(box.PHASES),
        "phase_dates": list(table.phase_dates),
        "hexes": board.hexes(table.map),
        "labels": [row["label"] for row in rows],
        "steps": steps,
    }
