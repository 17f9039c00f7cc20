"""Statistics over the game summaries: win rates with Wilson intervals, scores, lengths,
the most active players, and each game's own figures.

Each figure counts finished public games: of one game (``game``, or the one game the
filters are about, see :func:`projections.filters.resolve`) or of every game. The
database does the scanning — a few GROUP BY queries over the seats, which repeat the game
columns filtered on: of every game, ``rm_seats``; of one, the game's own table, which holds
its seats' rows with the columns its ruleset declares (:mod:`domain.statistics`), for its
own figures, and the narrower ``rm_seats`` for the scores and the players (unless an option,
a column of its own, filters the seats); the small grouped results are combined here.

:func:`stats` answers, for any selection: ``games``, ``seats``, ``small_sample_below``,
``by_game`` (games counted per game), ``win_rate`` by seat, by player count, by both and
by whether the seat started (``by_start``, for games with a starting seat), ``score``
(the distribution of final totals), ``length`` in turns and in actions, and ``players``
(the most active, with their average score). The seats bots played (``bot``) are left
out unless asked for. For one game it adds ``game``, the game's
figures (``win_rate[key]``, ``length[key]`` or ``[key]`` as each figure says), each
player's most played seat attribute, the average score under the game's own name for it
(``average_vp``) and ``figures``: the figures' declarations, for charting them.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any

from domain.games import rulesets
from domain.players import name_key
from domain.ruleset import Ruleset
from domain.statistics import Breakdown, Figure, Mix, RatesBy, RatesWhen, Spread, Statistics
from projections.aliases import PLAYER_OF
from projections.db import Database
from projections.filters import Where, game_filters, resolve
from projections.tables import ALIASES, GAMES, LIVE, SEATS

Z95 = 1.959963984540054
SMALL_SAMPLE = 30
"""Samples smaller than this are marked ``small_sample``."""
LENGTH_BUCKET = 10
"""Width (in turns or actions) of the game-length histograms' buckets."""
TOP_PLAYERS = 20
TREND_WINDOW = 5
RECENT_GAMES = 200
"""How many of a player's games their trend and rating history show (the last ones): their
other figures count every game, but the work of an answer does not grow with them."""

Filters = dict[str, Any]
"""``game``, ``players``, ``option``, ``since``, ``until`` (see ``projections.filters``)."""
Group = dict[str, Any]


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


def figure_json(figure: Figure) -> dict[str, Any]:
    """A figure's declaration as the answer lists it: its ``kind`` and fields.

    >>> figure_json(RatesBy("by_terrain", "terrain", "Win rate by home terrain"))["kind"]
    'rates_by'
    """
    kinds = {RatesBy: "rates_by", Breakdown: "breakdown", Mix: "mix", RatesWhen: "rates_when",
             Spread: "spread"}  # fmt: skip
    doc: dict[str, Any] = {"kind": kinds[type(figure)]}
    for part in dataclasses.fields(figure):
        value = getattr(figure, part.name)
        doc[part.name] = [name for name, _ in value] if isinstance(value, tuple) else value
    return doc


class _Plan:
    """The grouped seat query of a selection: its group keys and the sums it takes."""

    def __init__(self, stats: Statistics | None) -> None:
        figures = stats.figures if stats else ()
        self.by = list(dict.fromkeys(f.column for f in figures if isinstance(f, RatesBy)))
        summed = [c for f in figures if isinstance(f, Breakdown | Mix) for _, c in f.parts]
        self.sums = list(dict.fromkeys(summed))
        self.when = list(
            dict.fromkeys(c for f in figures if isinstance(f, RatesWhen) for _, c in f.cases)
        )

    def select(self) -> str:
        return ", ".join([
            "s.players", "s.seat", "s.started", *(f"s.{c}" for c in self.by), "COUNT(*)",
            "SUM(s.won)", "SUM(s.total)", *(f"SUM(s.{c})" for c in self.sums),
            *(f"SUM(CASE WHEN s.{c} > 0 THEN 1 ELSE 0 END), "
              f"SUM(CASE WHEN s.{c} > 0 THEN s.won ELSE 0 END)" for c in self.when),
        ])  # fmt: skip

    def keys(self) -> str:
        return ", ".join(["s.players", "s.seat", "s.started", *(f"s.{c}" for c in self.by)])

    def fields(self) -> list[str]:
        return [
            "players", "seat", "started", *self.by, "n", "wins", "total", *self.sums,
            *(f"{what}_{c}" for c in self.when for what in ("when", "when_won")),
        ]  # fmt: skip


def _table(rules: Ruleset | None) -> str:
    """The seat rows of ``rules``' games (its own table), or of every game."""
    return SEATS if rules is None else LIVE.extras(rules.name)


def _seats(
    rules: Ruleset | None,
    filters: Filters,
    player: str | None,
    bots: bool = False,
    own: bool = True,
) -> Where:
    """Finished public games' seats (``player``'s alone, if named; a bot's only with
    ``bots``), as ``s``: of :func:`_table`, or (not ``own``) of ``rm_seats``."""
    where = game_filters(
        rules=rules, **filters, finished_only=True, alias="s", own=own and rules is not None
    )
    if player:
        where.add(f"s.name_key = {PLAYER_OF}", *[name_key(player)] * 2)
    if not bots:
        where.add("s.bot = ?", 0)
    return where


def stats(
    db: Database, filters: Filters, player: str | None = None, bots: bool = False
) -> dict[str, Any]:
    """Every statistic over the finished public games the filters select (see the module).

    With ``player``: the games they played, and only their seats. The seats bots played
    are left out of the seat figures unless ``bots``.
    """
    filters = dict(filters)
    rules = resolve(filters.pop("game", None), filters.get("option"))
    own = rules.statistics if rules else None
    plan = _Plan(own)
    seats = _seats(rules, filters, player, bots)
    # the figures of every seat's generic columns read the narrower rm_seats, unless an
    # option (the game's own column) filters the seats
    generic = not filters.get("option")
    narrow = _seats(rules, filters, player, bots, own=not generic)
    table = SEATS if generic else _table(rules)
    attribute = None if own is None or own.attribute is None else (
        "attribute" if generic else own.attribute
    )  # fmt: skip
    games = game_filters(rules=rules, **filters, player=player, finished_only=True)
    scan = f"FROM {_table(rules)} s {seats.sql()}"
    spreads = [f for f in (own.figures if own else ()) if isinstance(f, Spread)]
    spread_keys = "".join(f", x.{f.column}" for f in spreads)
    with db.reading() as conn:
        grouped = db.execute(
            conn,
            f"SELECT {plan.select()} {scan} GROUP BY {plan.keys()}",
            seats.params,
        ).fetchall()
        lengths = db.execute(
            conn,
            f"SELECT g.game, g.turns, g.actions{spread_keys}, COUNT(*) FROM {GAMES} g "
            + (f"JOIN {LIVE.extras(rules.name)} x ON x.game_id = g.game_id AND x.seat = 0 "
               if rules and spreads else "")
            + f"{games.sql()} GROUP BY g.game, g.turns, g.actions{spread_keys}",
            games.params,
        ).fetchall()  # fmt: skip
        totals, top = _tallies(db, conn, table, narrow)
        favourites = (
            _favourites(db, conn, f"{table} s", f"s.{attribute}", narrow, [r[0] for r in top])
            if attribute else {}
        )  # fmt: skip
    groups = [dict(zip(plan.fields(), row, strict=True)) for row in grouped]
    played: Counter[str] = Counter()
    for row in lengths:
        played[row[0]] += row[-1]
    buckets = own.score_bucket if own else max(r.statistics.score_bucket for r in rulesets())
    answer: dict[str, Any] = {
        "game": rules.name if rules else None,
        "games": sum(played.values()),
        "seats": sum(g["n"] for g in groups),
        "small_sample_below": SMALL_SAMPLE,
        "by_game": [{"game": name, "games": n} for name, n in sorted(played.items())],
        "win_rate": {
            "by_seat": _rates(groups, ("seat",)),
            "by_players": _rates(groups, ("players",)),
            "by_players_seat": _rates(groups, ("players", "seat")),
            "by_start": [
                {**r, "started": bool(r["started"])}
                for r in _rates([g for g in groups if g["started"] is not None], ("started",))
            ],
        },
        "score": _distribution(_add_up((t, n) for t, n in totals), buckets, "seats"),
        "length": {
            "turns": _distribution(_add_up((row[1], row[-1]) for row in lengths)),
            "actions": _distribution(_add_up((row[2], row[-1]) for row in lengths)),
        },
        "players": [
            {
                "name": shown, "games": n, "wins": wins or 0, "win_rate": rate(wins or 0, n),
                "average_score": (score or 0) / n,
            }
            for _, shown, n, wins, score in top
        ],
    }  # fmt: skip
    if own is not None:
        _extras(answer, own, groups, lengths, spreads, favourites, [row[0] for row in top])
    return answer


def _extras(
    answer: dict[str, Any],
    own: Statistics,
    groups: list[Group],
    lengths: Sequence[Sequence[Any]],
    spreads: list[Spread],
    favourites: dict[str, dict[Any, int]],
    keys: list[str],
) -> None:
    """Add one game's own figures to ``answer``."""
    answer["figures"] = [figure_json(f) for f in own.figures]
    for figure in own.figures:
        match figure:
            case RatesBy():
                answer["win_rate"][figure.key] = _rates(groups, (figure.column,))
            case Breakdown():
                answer[figure.key] = {
                    "average": _averages(groups, figure.parts),
                    "by_seat": [{"seat": key[0], **_averages(rows, figure.parts)}
                                for key, rows in _by(groups, ("seat",))],
                    "by_players": [{"players": key[0], **_averages(rows, figure.parts)}
                                   for key, rows in _by(groups, ("players",))],
                }  # fmt: skip
            case Mix():
                counts = {name: sum(g[c] or 0 for g in groups) for name, c in figure.parts}
                every = sum(counts.values())
                answer[figure.key] = [
                    {figure.field: name, "count": n, "share": n / every if every else None}
                    for name, n in counts.items()
                ]
            case RatesWhen():
                answer[figure.key] = [
                    {figure.field: case, **rate(sum(g[f"when_won_{c}"] or 0 for g in groups),
                                                sum(g[f"when_{c}"] or 0 for g in groups))}
                    for case, c in figure.cases
                ]  # fmt: skip
    for i, figure in enumerate(spreads):
        column = 3 + i
        answer["length"][figure.key] = _distribution(
            _add_up((row[column], row[-1]) for row in lengths if row[column] is not None),
            figure.width,
        )
    for key, row in zip(keys, answer["players"], strict=True):
        row[f"average_{own.score_name}"] = row["average_score"]
        if own.attribute is not None:
            row[own.attribute] = _favourite(own, favourites.get(key, {}))


def _by(groups: list[Group], keys: tuple[str, ...]) -> list[tuple[tuple[Any, ...], list[Group]]]:
    out: dict[tuple[Any, ...], list[Group]] = defaultdict(list)
    for g in groups:
        out[tuple(g[k] for k in keys)].append(g)
    return sorted(out.items(), key=lambda item: [(v is None, v) for v in item[0]])


def _rates(groups: list[Group], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        {
            **dict(zip(keys, key, strict=True)),
            **rate(sum(g["wins"] or 0 for g in rows), sum(g["n"] for g in rows)),
        }
        for key, rows in _by(groups, keys)
    ]


def _averages(groups: list[Group], parts: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    n = sum(g["n"] for g in groups)
    mean = {name: (sum(g[c] or 0 for g in groups) / n if n else None) for name, c in parts}
    total = sum(g["total"] or 0 for g in groups) / n if n else None
    return {"n": n, "total": total, "breakdown": mean, "small_sample": n < SMALL_SAMPLE}


def _add_up(pairs: Iterable[tuple[int, int]]) -> Counter[int]:
    out: Counter[int] = Counter()
    for value, n in pairs:
        out[value] += n
    return out


def _distribution(counts: Counter[int], width: int = LENGTH_BUCKET, unit: str = "games") -> Group:
    """Mean, median, range and a histogram (bars ``width`` wide) of a count per game (or
    per seat: ``unit``)."""
    n = sum(counts.values())
    if not n:
        return {unit: 0, "mean": None, "median": None, "min": None, "max": None, "buckets": []}
    values = sorted(counts)
    buckets: Counter[int] = Counter()
    for value, k in counts.items():
        buckets[value // width * width] += k
    return {
        unit: n,
        "mean": sum(v * k for v, k in counts.items()) / n,
        "median": _median(counts, n),
        "min": values[0],
        "max": values[-1],
        "buckets": [
            {"from": low, "to": low + width - 1, unit: buckets[low]} for low in sorted(buckets)
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


def _tallies(
    db: Database, conn: Any, table: str, seats: Where
) -> tuple[list[tuple[int, int]], list[tuple[Any, ...]]]:
    """The seats' final totals (each total, its seats) and the :data:`TOP_PLAYERS` players
    with the most seats, most first (key, shown name, seats, wins, score): one scan of
    ``table`` on PostgreSQL (grouping sets), two on SQLite."""
    named = "s.name_key, MIN(s.name), COUNT(*), SUM(s.won), SUM(s.total)"
    columns = "kind, total, name_key, name, n, wins, score, r"
    rank = "ROW_NUMBER() OVER ({}ORDER BY COUNT(*) DESC, s.name_key)"
    scan = f"FROM {table} s {seats.sql()}"
    if db.postgres:
        inner = (
            f"SELECT GROUPING(s.total), s.total, {named}, "
            f"{rank.format('PARTITION BY GROUPING(s.total) ')} {scan} "
            "GROUP BY GROUPING SETS ((s.total), (s.name_key))"
        )
        params = seats.params
    else:
        inner = (
            f"SELECT 0, s.total, NULL, NULL, COUNT(*), 0, 0, 0 {scan} GROUP BY s.total "
            f"UNION ALL SELECT 1, NULL, {named}, {rank.format('')} {scan} GROUP BY s.name_key"
        )
        params = seats.params * 2
    rows = db.execute(
        conn,
        f"WITH x ({columns}) AS ({inner}) SELECT x.kind, x.total, x.name_key, "
        f"COALESCE(a.player, x.name), x.n, x.wins, x.score "
        f"FROM x LEFT JOIN {ALIASES} a ON a.name_key = x.name_key "
        f"WHERE x.kind = 0 OR x.r <= {TOP_PLAYERS} ORDER BY x.kind, x.r",
        params,
    ).fetchall()
    return [(r[1], r[4]) for r in rows if r[0] == 0], [r[2:] for r in rows if r[0] == 1]


def _favourites(
    db: Database, conn: Any, table: str, attribute: str, seats: Where, keys: list[str]
) -> dict[str, dict[Any, int]]:
    """How many times each named player (by key) played each value of the game's seat
    attribute (the column ``attribute`` of the ``table`` the ``seats`` select from)."""
    if not keys:
        return {}
    where = Where(list(seats.clauses), list(seats.params))
    where.add(f"s.name_key IN ({', '.join('?' * len(keys))})", *keys)
    rows = db.execute(
        conn,
        f"SELECT s.name_key, {attribute}, COUNT(*) FROM {table} {where.sql()} "
        f"GROUP BY s.name_key, {attribute}",
        where.params,
    ).fetchall()
    out: dict[str, dict[Any, int]] = defaultdict(dict)
    for key, value, n in rows:
        out[key][value] = n
    return out


def _favourite(own: Statistics, counts: dict[Any, int]) -> Any:
    """The most played value of the seat attribute (ties: the first in the order the game
    lists them, else the least)."""
    if not counts:
        return None
    column = next(c for c in own.seat_columns if c.name == own.attribute)
    order = list(column.values) + sorted(v for v in counts if v not in column.values)
    return max(order, key=lambda v: (counts.get(v, 0), -order.index(v)))


def played(db: Database) -> dict[str, int]:
    """How many finished public games each game has."""
    where = game_filters(finished_only=True)
    rows = db.fetchall(
        f"SELECT g.game, COUNT(*) FROM {GAMES} g {where.sql()} GROUP BY g.game", where.params
    )
    return {name: n for name, n in rows}


def player(
    db: Database, name: str, game: str | None = None, bots: bool = False
) -> dict[str, Any] | None:
    """A named player's record over finished public games (of ``game`` only, if named), or
    None if they have none; the seats a bot played of that name count only with ``bots``.
    The trend is their last :data:`RECENT_GAMES` games, each numbered among theirs of that
    game; a point's rolling score is over that game's last ``TREND_WINDOW`` (a game's scores
    are not another's), as is each ``by_game`` entry's average. For one game: their
    most played seat attribute, their record per value of it, and their score under the
    game's own name too."""
    rules = resolve(game)
    own = rules.statistics if rules else None
    attribute = own.attribute if own else None
    seats = _seats(rules, {}, name, bots)
    table = _table(rules)
    with db.reading() as conn:
        counts = sorted(db.execute(
            conn, f"SELECT s.game, COUNT(*), SUM(s.won), SUM(s.total) FROM {table} s "
            f"{seats.sql()} GROUP BY s.game", seats.params,
        ).fetchall())  # fmt: skip
        if not counts:
            return None
        values = (
            db.execute(
                conn,
                f"SELECT s.{attribute}, COUNT(*), SUM(s.won) FROM {table} s "
                f"{seats.sql()} GROUP BY s.{attribute}",
                seats.params,
            ).fetchall()  # fmt: skip
            if attribute is not None
            else []
        )
        latest = _latest(db, conn, table, seats, [g for g, *_ in counts], attribute)
    by_game = {g: {"games": n, "wins": int(w)} for g, n, w, _ in counts}
    games = sum(n for _, n, _, _ in counts)
    wins = sum(c["wins"] for c in by_game.values())
    profile: dict[str, Any] = {
        "name": latest[-1][5],
        "game": rules.name if rules else None,
        "games": games,
        "wins": wins,
        "win_rate": rate(wins, games),
        "average_score": sum(int(t) for *_, t in counts) / games,
        "by_game": [
            {"game": g, **by_game[g], "average_score": int(t) / n} for g, n, _, t in counts
        ],
        "trend": _trend(latest, by_game, own, attribute),
    }
    if own is not None:
        profile[f"average_{own.score_name}"] = profile["average_score"]
    if own is not None and attribute is not None:
        played = {v: {"games": n, "wins": int(w)} for v, n, w in values}
        profile[attribute] = _favourite(own, {v: c["games"] for v, c in played.items()})
        column = next(c for c in own.seat_columns if c.name == attribute)
        order = [*column.values, *sorted(v for v in played if v not in column.values)]
        profile[f"{attribute}s"] = [{attribute: v, **played[v]} for v in order if v in played]
    return profile


def _latest(
    db: Database, conn: Any, table: str, seats: Where, games: list[str], attribute: str | None
) -> list[tuple[Any, ...]]:
    """A player's last seats (``seats`` of ``table``), in order: of each game, the last
    :data:`RECENT_GAMES` and the :data:`TREND_WINDOW` - 1 before them (a trend point's
    rolling score): as many rows however many games they played."""
    rows: list[tuple[Any, ...]] = []
    for game in games:
        where = Where(list(seats.clauses), list(seats.params))
        where.add("s.game = ?", game)
        rows += db.execute(
            conn,
            "SELECT s.game_id, s.game, s.uploaded_at, s.played_at, s.players, s.name, s.total, "
            f"s.place, s.won{f', s.{attribute}' if attribute else ''} FROM {table} s "
            f"{where.sql()} ORDER BY s.played_at DESC, s.uploaded_at DESC, s.game_id DESC, "
            "s.seat DESC LIMIT ?",
            [*where.params, RECENT_GAMES + TREND_WINDOW - 1],
        ).fetchall()  # fmt: skip
    return sorted(rows, key=itemgetter(3, 2, 0))


def _trend(
    latest: list[tuple[Any, ...]],
    by_game: dict[str, dict[str, int]],
    own: Statistics | None,
    attribute: str | None,
) -> list[dict[str, Any]]:
    """The trend points of a player's last :data:`RECENT_GAMES` seats (of ``latest``, their
    last seats in order, :func:`_latest`), each numbered among their games of its game
    (``by_game``: how many they played)."""
    after = Counter(row[1] for row in latest)  # per game: its seats from this one on
    recent: dict[str, list[int]] = defaultdict(list)  # per game: scores of one kind only
    trend: list[dict[str, Any]] = []
    shown_from = len(latest) - RECENT_GAMES
    for i, row in enumerate(latest):
        game_id, played_game, at, played_at, players, _, total, place, won, *extra = row
        number = by_game[played_game]["games"] - after[played_game] + 1
        after[played_game] -= 1
        recent[played_game] = [*recent[played_game][-(TREND_WINDOW - 1) :], total]
        if i < shown_from:
            continue
        point = {
            "game_id": game_id, "game": played_game, "number": number,
            "uploaded_at": at, "played_at": played_at, "players": players,
            "score": total, "place": place, "won": bool(won),
            "rolling_score": sum(recent[played_game]) / len(recent[played_game]),
        }  # fmt: skip
        if own is not None:
            point[own.score_name] = total
            point[f"rolling_{own.score_name}"] = point["rolling_score"]
        if attribute is not None:
            point[attribute] = extra[0]
        trend.append(point)
    return trend
