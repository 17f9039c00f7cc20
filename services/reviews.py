"""Reviews of many stored games at once: which games are due, and one game's review as a
task that any worker can run (it reads nothing but its arguments and writes nothing)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any
from uuid import UUID

from domain import games
from domain.documents import played_day
from domain.ruleset import ReviewSettings
from domain.store import GameLibrary
from projections.analysis import IDS_PER_QUERY, Analyses


@dataclass(frozen=True)
class Due:
    """A stored game to review: its id and the settings to review it with."""

    game_id: UUID
    settings: ReviewSettings


def played_on(meta: Mapping[str, Any], uploaded_at: dt.datetime) -> dt.date:
    """The day a game was played: its record's ``meta.played_on`` when that names a day
    (:func:`domain.documents.played_day`), else the day it was uploaded (UTC)."""
    return played_day(meta) or uploaded_at.astimezone(dt.UTC).date()


def due(
    library: GameLibrary, analyses: Analyses, values: dict[str, int],
    game: str | None = None, since: dt.date | None = None, page: int = IDS_PER_QUERY,
) -> Iterator[Due]:  # fmt: skip
    """Every stored game, in upload order, with a review not yet done at the settings
    ``values`` (its ruleset's defaults for those not given): only games of ``game``
    (a ruleset's name) when given, played on or after ``since`` when given (:func:`played_on`).
    Games of a ruleset with no review are left out. One read of the store's log and one
    query of the ``analyses`` table per ``page`` games (at most :data:`IDS_PER_QUERY`)."""
    wanted = _wanted(library, values, game, since)
    while asked := list(islice(wanted, page)):
        keys = {d.settings.key for d in asked}
        done = {
            key: analyses.done(key, [str(d.game_id) for d in asked if d.settings.key == key])
            for key in keys
        }
        yield from (d for d in asked if str(d.game_id) not in done[d.settings.key])


def _wanted(
    library: GameLibrary, values: dict[str, int], game: str | None, since: dt.date | None
) -> Iterable[Due]:
    """The stored games of ``game`` played since ``since``, each with its review's settings."""
    settings: dict[str, ReviewSettings | None] = {}
    for upload in library.uploads():
        if game is not None and upload.game != game:
            continue
        if upload.game not in settings:
            review = games.ruleset(upload.game).review
            settings[upload.game] = None if review is None else review.settings(**values)
        chosen = settings[upload.game]
        if chosen is None:
            continue
        if since is not None:
            meta = json.loads(upload.record).get("meta") or {}
            if played_on(meta, upload.timestamp) < since:
                continue
        yield Due(upload.originator_id, chosen)


def review_due(game: Due, record: bytes) -> dict[str, Any]:
    """The review of a due ``game`` whose stored record is ``record``, as stored and served,
    computed in this process (a task: a worker reads and writes nothing else)."""
    rules, read = games.read_record(record)
    if rules.review is None:
        raise ValueError(f"game {game.game_id}: no review for this game yet ({rules.title})")
    return rules.review.review(read, game.settings, None, 1).to_json()
