"""Game summaries: one row per game and one per seat, from the ruleset's own outputs.

Everything here is pure. :func:`summarize` takes a game's ruleset, its start state, the
stored events of each action (``{"type", "data"}``) and its end state; it reads the final
scores and places (``Ruleset.scores``), whether the game finished and who sat where from
the ruleset, and the game's extras from ``Ruleset.statistics.summarize`` (see
:mod:`domain.statistics`).
It returns plain dicts keyed by column names: the game's generic row (``GAME_COLUMNS``),
each seat's generic row (``SEAT_COLUMNS``) and each seat's values of the game's own
columns. A game's own table (:func:`own_columns`) holds its seats' generic rows again with
those values (the game's columns repeated on every seat), so the statistics of one game
read one table, as those of every game read the seats.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from domain.players import name_key
from domain.ruleset import Ruleset, Stored
from domain.statistics import Statistics, Summary, Value

META_COLUMNS = (
    "title", "tags", "visibility", "uploaded_at", "played_at", "uploaded_by", "rules_version",
)  # fmt: skip
"""The game columns its stored metadata sets (and metadata events change); ``played_at`` is
the record's ``meta.played_on`` (midnight UTC) when it names a day, else ``uploaded_at``."""
SEAT_GAME_COLUMNS = ("game", "players", "finished", "visibility", "uploaded_at", "played_at")
"""Game columns copied onto each seat's row, so statistics filter seats without a join."""
GAME_COLUMNS = (
    "game_id", "game", *META_COLUMNS, "players", "turns", "actions", "events", "finished",
    "end_reason", "top_score", "winners", "names_key", "winner_key", "extras", "version",
)  # fmt: skip
"""A game's row; ``names_key`` and ``winner_key`` are what the game list sorts by: its seats'
names, and its winners' (none: empty), as :func:`names_key` joins them; ``extras`` holds
the values of the game's own game columns (its options) in the order it declares them, as
a JSON array, so a page of the list reads no game's own table."""
SEAT_COLUMNS = (
    "game_id", "seat", "name", "name_key", "color", "total", "place", "won", "started", "bot",
    "attribute", *SEAT_GAME_COLUMNS,
)  # fmt: skip
"""A seat's row; ``bot`` is 1 for a seat a computer played (``players[i].bot``),
``attribute`` the seat's value of its game's attribute column (``Statistics.attribute``: a
home terrain), if it has one."""

Row = dict[str, Any]


MAX_NAMES_KEY = 200
"""Most characters of :func:`names_key` kept (a page's cursor carries it)."""


def names_key(names: Sequence[str]) -> str:
    """Names as the game list sorts them: each one's :func:`name_key`, in seat order, joined
    by a separator that sorts before any character a name has (so ``ana`` before ``ana b``),
    cut to :data:`MAX_NAMES_KEY` characters.

    >>> names_key(["Zoë", "ana"]) < names_key(["zoe", "Bo"]), names_key([])
    (True, '')
    """
    return "\x1f".join(name_key(name) for name in names)[:MAX_NAMES_KEY]


def own_columns(statistics: Statistics) -> tuple[str, ...]:
    """The columns of a game's own table: a seat's generic columns, then the game's
    (ValueError when the game declares a generic column's name)."""
    declared = [c.name for c in statistics.columns]
    taken = sorted(set(declared) & set(SEAT_COLUMNS))
    if taken:
        raise ValueError(f"a game's columns cannot be named {', '.join(taken)}")
    return (*SEAT_COLUMNS, *declared)


def summarize(
    rules: Ruleset, start: Any, steps: Sequence[Sequence[Stored]], end: Any
) -> tuple[Row, list[Row], list[dict[str, Value]]]:
    """The game's generic columns (without metadata, id and version), one generic dict per
    seat (without id and the copied game columns) and one dict of the game's own columns
    per seat (without its key).

    ``steps`` are the stored events of each action, ``end`` the state after them all.
    """
    scores = rules.scores(end)
    seated = rules.players(start)
    finished = rules.finished(end)
    summary = rules.statistics.summarize(start, steps, end, scores)
    _check(rules, summary, len(seated))
    attribute = rules.statistics.attribute
    game = {
        "game": rules.name,
        "players": len(seated),
        "turns": len(steps) if summary.turns is None else summary.turns,
        "actions": len(steps),
        "events": sum(len(events) for events in steps),
        "finished": int(finished),
        "end_reason": summary.end_reason,
        "top_score": max((s.total for s in scores), default=0),
        "winners": [seated[s.seat].name for s in scores if s.place == 1] if finished else [],
        "extras": json.dumps(
            [summary.game[c.name] for c in rules.statistics.game_columns], separators=(",", ":")
        ),
    }
    seats = [
        {
            "seat": s.seat, "name": seated[s.seat].name, "name_key": name_key(seated[s.seat].name),
            "color": seated[s.seat].color, "total": s.total, "place": s.place,
            "won": int(finished and s.place == 1),
            "started": None if summary.starter is None else int(s.seat == summary.starter),
            "bot": int(seated[s.seat].bot is not None),
            "attribute": summary.seats[s.seat][attribute] if attribute else None,
        }
        for s in scores
    ]  # fmt: skip
    extras = [{**summary.game, **values} for values in summary.seats]
    return game, seats, extras


def _check(rules: Ruleset, summary: Summary, seats: int) -> None:
    """Fail (the game is not projected) on extras that do not fit the declared columns."""
    stats = rules.statistics
    game = {c.name for c in stats.game_columns}
    seat = {c.name for c in stats.seat_columns}
    if set(summary.game) != game or len(summary.seats) != seats:
        raise ValueError(f"{rules.name}: the summary's game columns or seats are not declared")
    if any(set(values) != seat for values in summary.seats):
        raise ValueError(f"{rules.name}: a summary's seat columns are not those declared")


def rows(
    rules: Ruleset,
    start: Any,
    steps: Sequence[Sequence[Stored]],
    end: Any,
    identity: Row,
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]], tuple[str, list[tuple[Any, ...]]]]:
    """A game's rows for the tables: the game's, its seats', and (with its ruleset's name)
    its seats' in the game's own table. ``identity`` holds the game's id, version and
    metadata columns."""
    game, seats, extras = summarize(rules, start, steps, end)
    ordered = sorted(seats, key=itemgetter("seat"))
    game.update(identity, winners=json.dumps(game["winners"]),
                names_key=names_key([s["name"] for s in ordered]),
                winner_key=names_key([s["name"] for s in ordered if s["won"]]))  # fmt: skip
    shared = {column: game[column] for column in ("game_id", *SEAT_GAME_COLUMNS)}
    generic = [{**seat, **shared} for seat in seats]
    own = itemgetter(*own_columns(rules.statistics))
    return (
        _GAME_ROW(game),
        [_SEAT_ROW(seat) for seat in generic],
        (
            rules.name,
            [own({**seat, **values}) for seat, values in zip(generic, extras, strict=True)],
        ),
    )


_GAME_ROW, _SEAT_ROW = itemgetter(*GAME_COLUMNS), itemgetter(*SEAT_COLUMNS)
"""A game's row and a seat's, from their dicts."""
