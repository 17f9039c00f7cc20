"""Statistics over the game summaries: win rates with Wilson intervals, VP, actions, length.

Each figure counts finished public games. The database does the scanning (a few GROUP BY
queries over the seats, which repeat the game columns filtered on, unchanged on SQLite and
PostgreSQL); the small grouped results are then combined here.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from domain.wolves import components as box
from projections.db import Database
from projections.filters import Where, game_filters
from projections.summaries import ACTION_TYPES, name_key
from projections.tables import GAMES, SEATS

Z95 = 1.959963984540054
SMALL_SAMPLE = 30
"""Samples smaller than this are marked ``small_sample``."""
LENGTH_BUCKET = 10
"""Width (in turns) of the game-length histogram's buckets."""
TOP_PLAYERS = 20
TREND_WINDOW = 5

BREAKDOWN_COLUMNS = {
    "regions": "regions", "spread": "spread", "speed": "speed", "howl": "howl",
    "lairs": "lairs_vp", "prey": "prey_vp", "pack": "pack_vp",
}  # fmt: skip
"""The parts of a final score and the seat columns holding them."""


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    >>> low, high = wilson(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, n: int) -> dict[str, Any]:
    """A win rate with its sample size, 95 % Wilson interval and small-sample mark."""
    low, high = wilson(wins, n)
    return {
        "n": n,
        "wins": wins,
        "rate": wins / n if n else None,
        "low": low,
        "high": high,
        "small_sample": n < SMALL_SAMPLE,
    }


_PHASE_SUMS = ", ".join(
    f"SUM(CASE WHEN s.firsts_{p} > 0 THEN 1 ELSE 0 END), "
    f"SUM(CASE WHEN s.firsts_{p} > 0 THEN s.won ELSE 0 END)"
    for p in box.PHASES
)
_SUMS = ", ".join(
    f"SUM(s.{c})"
    for c in ("total", *BREAKDOWN_COLUMNS.values(), *(f"n_{kind}" for kind in ACTION_TYPES))
)
_GROUP_FIELDS = (
    "players", "seat", "terrain", "n", "wins", "total", *BREAKDOWN_COLUMNS,
    *(f"n_{kind}" for kind in ACTION_TYPES),
    *(f"{what}_{p}" for p in box.PHASES for what in ("firsts", "firsts_won")),
)  # fmt: skip


Filters = dict[str, Any]
"""``players``, ``option``, ``since``, ``until`` (see ``projections.filters``)."""


def _seats(filters: Filters, player: str | None) -> Where:
    """Finished public games' seats (``player``'s alone, if named), as ``rm_seats s``."""
    where = game_filters(**filters, finished_only=True, alias="s")
    if player:
        where.add("s.name_key = ?", name_key(player))
    return where


def stats(db: Database, filters: Filters, player: str | None = None) -> dict[str, Any]:
    """Every statistic over the finished public games the filters select.

    With ``player``: the games they played, and only their seats.
    """
    seats = _seats(filters, player)
    games = game_filters(**filters, player=player, finished_only=True)
    scan = f"FROM {SEATS} s {seats.sql()}"
    with db.reading() as conn:
        grouped = db.execute(
            conn,
            f"SELECT s.players, s.seat, s.terrain, COUNT(*), SUM(s.won), {_SUMS}, {_PHASE_SUMS} "
            f"{scan} GROUP BY s.players, s.seat, s.terrain",
            seats.params,
        ).fetchall()
        lengths = db.execute(
            conn,
            f"SELECT g.turns, g.actions, COUNT(*) FROM {GAMES} g {games.sql()} "
            "GROUP BY g.turns, g.actions",
            games.params,
        ).fetchall()
        top = db.execute(
            conn,
            f"SELECT s.name_key, MIN(s.name), COUNT(*), SUM(s.won), SUM(s.total) {scan} "
            f"GROUP BY s.name_key ORDER BY COUNT(*) DESC, s.name_key LIMIT {TOP_PLAYERS}",
            seats.params,
        ).fetchall()
        terrains = _terrains(db, conn, seats, [row[0] for row in top])
    groups = [dict(zip(_GROUP_FIELDS, row, strict=True)) for row in grouped]
    return {
        "games": sum(n for _, _, n in lengths),
        "seats": sum(g["n"] for g in groups),
        "small_sample_below": SMALL_SAMPLE,
        "win_rate": {
            "by_terrain": _rates(groups, ("terrain",)),
            "by_seat": _rates(groups, ("seat",)),
            "by_players": _rates(groups, ("players",)),
            "by_players_seat": _rates(groups, ("players", "seat")),
        },
        "vp": {
            "average": _averages(groups),
            "by_seat": [
                {"seat": key[0], **_averages(rows)} for key, rows in _by(groups, ("seat",))
            ],
            "by_players": [
                {"players": key[0], **_averages(rows)} for key, rows in _by(groups, ("players",))
            ],
        },
        "actions": _action_mix(groups),
        "region_winners": [
            {
                "phase": p,
                **rate(
                    sum(g[f"firsts_won_{p}"] or 0 for g in groups),
                    sum(g[f"firsts_{p}"] or 0 for g in groups),
                ),
            }
            for p in box.PHASES
        ],
        "length": {
            "turns": _distribution(_add_up((t, n) for t, _, n in lengths)),
            "actions": _distribution(_add_up((a, n) for _, a, n in lengths)),
        },
        "players": [
            {
                "name": shown, "games": n, "wins": wins or 0, "win_rate": rate(wins or 0, n),
                "average_vp": (vp or 0) / n, "terrain": _favourite(terrains.get(key, {})),
            }
            for key, shown, n, wins, vp in top
        ],
    }  # fmt: skip


def _by(
    groups: list[dict[str, Any]], keys: tuple[str, ...]
) -> list[tuple[tuple[Any, ...], list[dict[str, Any]]]]:
    out: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for g in groups:
        out[tuple(g[k] for k in keys)].append(g)
    return sorted(out.items())


def _rates(groups: list[dict[str, Any]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        {
            **dict(zip(keys, key, strict=True)),
            **rate(sum(g["wins"] or 0 for g in rows), sum(g["n"] for g in rows)),
        }
        for key, rows in _by(groups, keys)
    ]


def _averages(groups: list[dict[str, Any]]) -> dict[str, Any]:
    n = sum(g["n"] for g in groups)
    mean = {k: (sum(g[k] or 0 for g in groups) / n if n else None) for k in BREAKDOWN_COLUMNS}
    total = sum(g["total"] or 0 for g in groups) / n if n else None
    return {"n": n, "total": total, "breakdown": mean, "small_sample": n < SMALL_SAMPLE}


def _action_mix(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts = {kind: sum(g[f"n_{kind}"] or 0 for g in groups) for kind in ACTION_TYPES}
    every = sum(counts.values())
    return [
        {"type": kind, "count": count, "share": count / every if every else None}
        for kind, count in counts.items()
    ]


def _add_up(pairs: Iterable[tuple[int, int]]) -> Counter[int]:
    out: Counter[int] = Counter()
    for value, n in pairs:
        out[value] += n
    return out


def _distribution(counts: Counter[int]) -> dict[str, Any]:
    """Mean, median, range and a histogram of a count per game."""
    n = sum(counts.values())
    if not n:
        return {"games": 0, "mean": None, "median": None, "min": None, "max": None,
                "buckets": []}  # fmt: skip
    values = sorted(counts)
    buckets: Counter[int] = Counter()
    for value, k in counts.items():
        buckets[value // LENGTH_BUCKET * LENGTH_BUCKET] += k
    return {
        "games": n,
        "mean": sum(v * k for v, k in counts.items()) / n,
        "median": _median(counts, n),
        "min": values[0],
        "max": values[-1],
        "buckets": [
            {"from": low, "to": low + LENGTH_BUCKET - 1, "games": buckets[low]}
            for low in sorted(buckets)
        ],
    }


def _median(counts: Counter[int], n: int) -> float:
    low, high = (n - 1) // 2, n // 2  # the middle place(s), from 0
    found: dict[int, int] = {}
    seen = 0
    for value in sorted(counts):
        for place in (low, high):
            if seen <= place < seen + counts[value]:
                found[place] = value
        seen += counts[value]
    return (found[low] + found[high]) / 2


def _terrains(db: Database, conn: Any, seats: Where, keys: list[str]) -> dict[str, dict[str, int]]:
    if not keys:
        return {}
    where = Where(list(seats.clauses), list(seats.params))
    where.add(f"s.name_key IN ({', '.join('?' * len(keys))})", *keys)
    rows = db.execute(
        conn,
        f"SELECT s.name_key, s.terrain, COUNT(*) FROM {SEATS} s {where.sql()} "
        "GROUP BY s.name_key, s.terrain",
        where.params,
    ).fetchall()
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for key, terrain, n in rows:
        out[key][terrain] = n
    return out


def _favourite(counts: dict[str, int]) -> str | None:
    """The most played terrain (ties: the first in box order)."""
    if not counts:
        return None
    return max(box.TERRAINS, key=lambda t: (counts.get(t, 0), -box.TERRAINS.index(t)))


def player(db: Database, name: str) -> dict[str, Any] | None:
    """A named player's record over finished public games, or None if they have none."""
    seats = _seats({}, name)
    rows = db.fetchall(
        f"SELECT s.game_id, s.uploaded_at, s.players, s.name, s.terrain, s.total, s.place, "
        f"s.won FROM {SEATS} s {seats.sql()} ORDER BY s.uploaded_at, s.game_id",
        seats.params,
    )
    if not rows:
        return None
    terrains: dict[str, dict[str, int]] = defaultdict(lambda: {"games": 0, "wins": 0})
    trend, recent = [], []
    for game_id, at, players, _, terrain, total, place, won in rows:
        terrains[terrain]["games"] += 1
        terrains[terrain]["wins"] += won
        recent = [*recent[-(TREND_WINDOW - 1) :], total]
        trend.append({
            "game_id": game_id, "uploaded_at": at, "players": players, "terrain": terrain,
            "vp": total, "place": place, "won": bool(won),
            "rolling_vp": sum(recent) / len(recent),
        })  # fmt: skip
    wins = sum(r[7] for r in rows)
    return {
        "name": rows[-1][3],
        "games": len(rows),
        "wins": wins,
        "win_rate": rate(wins, len(rows)),
        "average_vp": sum(r[5] for r in rows) / len(rows),
        "terrain": _favourite({t: c["games"] for t, c in terrains.items()}),
        "terrains": [{"terrain": t, **terrains[t]} for t in box.TERRAINS if t in terrains],
        "trend": trend,
    }
