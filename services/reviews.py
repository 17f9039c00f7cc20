"""Reviews of many stored games at once: which games are due, and one game's review as a
task that any worker can run (it reads nothing but its arguments and writes nothing)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain import games
from domain.ruleset import ReviewSettings
from domain.store import GameLibrary
from projections.analysis import Analyses


@dataclass(frozen=True)
class Due:
    """A stored game to review: its id and the settings to review it with."""

    game_id: UUID
    settings: ReviewSettings


def played_on(meta: Mapping[str, str], uploaded_at: dt.datetime) -> dt.date:
    """The day a game was played: its record's ``meta.played_on`` when that is a date
    (``2026-11-20``), else the day it was uploaded."""
    try:
        return dt.date.fromisoformat(meta.get("played_on", ""))
    except ValueError:
        return uploaded_at.date()


def due(
    library: GameLibrary, analyses: Analyses, values: dict[str, int],
    game: str | None = None, since: dt.date | None = None,
) -> Iterator[Due]:  # fmt: skip
    """Every stored game, in upload order, with a review not yet done at the settings
    ``values`` (its ruleset's defaults for those not given): only games of ``game``
    (a ruleset's name) when given, played on or after ``since`` when given. Games of a
    ruleset with no review are left out."""
    settings: dict[str, ReviewSettings] = {}
    done: dict[str, set[str]] = {}
    for game_id in library.game_ids():
        info = library.info(game_id)
        if game is not None and info.game != game:
            continue
        rules = games.ruleset(info.game)
        if rules.review is None:
            continue
        if rules.name not in settings:
            settings[rules.name] = rules.review.settings(**values)
            done[rules.name] = analyses.done(settings[rules.name].key)
        if str(game_id) in done[rules.name]:
            continue
        if since is not None:
            _, read = games.read_record(library.record(game_id))
            if played_on(read.meta, info.uploaded_at) < since:
                continue
        yield Due(game_id, settings[rules.name])


def review_due(game: Due, record: bytes) -> dict[str, Any]:
    """The review of a due ``game`` whose stored record is ``record``, as stored and served,
    computed in this process (a task: a worker reads and writes nothing else)."""
    rules, read = games.read_record(record)
    if rules.review is None:
        raise ValueError(f"game {game.game_id}: no review for this game yet ({rules.title})")
    return rules.review.review(read, game.settings, None, 1).to_json()
