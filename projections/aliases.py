"""The players' aliases in the read models (:mod:`domain.players`): one row per name a
merge took into another player (its key, the player's key and shown name), and one per
player a merge kept (its own key twice, and the name merges show it by).

Seat rows hold their player's key, so a merge rewrites the rows of the player it merged
away, and the seats of games projected later are given their players' keys as they go in.
Readers look a name's player up with :data:`PLAYER_OF` and the name it is shown by with
:func:`shown_names`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.players import Aliases, name_key
from projections.db import Database
from projections.summaries import SEAT_COLUMNS
from projections.tables import ALIASES, Layout

COLUMNS = ("name_key", "player_key", "player")
PLAYER_OF = f"COALESCE((SELECT a.player_key FROM {ALIASES} a WHERE a.name_key = ?), ?)"
"""SQL of a name key's player key: give the name's key twice."""
_KEY = SEAT_COLUMNS.index("name_key")


def load(db: Database, conn: Any, layout: Layout) -> Aliases:
    """The aliases ``layout``'s table holds."""
    rows = db.execute(conn, f"SELECT {', '.join(COLUMNS)} FROM {layout.aliases}").fetchall()
    return Aliases(
        {key: player for key, player, _ in rows if key != player},
        {key: shown for key, player, shown in rows if key == player},
    )


def merge(db: Database, conn: Any, layout: Layout, merges: Sequence[tuple[str, str]]) -> Aliases:
    """Apply ``merges`` (each a name merged away and the name merged into): the table
    rewritten and the seat rows of each player merged away given the kept one's key.
    Returns the aliases after them."""
    aliases = load(db, conn, layout)
    for alias, into in merges:
        merged = aliases.merge(alias, into)
        if merged is None:
            continue
        for table in layout.seat_tables:
            db.execute(conn, f"UPDATE {table} SET name_key = ? WHERE name_key = ?", merged[::-1])
    players = set(aliases.players.values())
    rows = [(key, player, aliases.shown[player]) for key, player in aliases.players.items()]
    rows += [(player, player, aliases.shown[player]) for player in sorted(players)]
    db.execute(conn, f"DELETE FROM {layout.aliases}")
    db.insert(conn, layout.aliases, COLUMNS, rows)
    return aliases


def players_of(rows: list[tuple[Any, ...]], aliases: Aliases) -> list[tuple[Any, ...]]:
    """Seat rows (:data:`~projections.summaries.SEAT_COLUMNS` first) with their players' keys."""
    if not aliases.players:
        return rows
    found = aliases.players.get
    return [
        row if (player := found(row[_KEY])) is None else (*row[:_KEY], player, *row[_KEY + 1 :])
        for row in rows
    ]


def shown_names(db: Database) -> dict[str, str]:
    """The name each player a merge kept is shown by, by player key."""
    rows = db.fetchall(f"SELECT player_key, player FROM {ALIASES} WHERE name_key = player_key")
    return dict(rows)


def marks(db: Database) -> tuple[tuple[str, str], ...]:
    """Every merged name's key and player key, in order: what changes with any merge."""
    rows = db.fetchall(f"SELECT name_key, player_key FROM {ALIASES} ORDER BY name_key")
    return tuple((key, player) for key, player in rows)


def player_key(db: Database, name: str) -> str:
    """The key of the player ``name`` is (through the merges)."""
    key = name_key(name)
    rows = db.fetchall(f"SELECT player_key FROM {ALIASES} WHERE name_key = ?", (key,))
    return str(rows[0][0]) if rows else key
