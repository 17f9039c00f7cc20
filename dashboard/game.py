"""A stored game as the replay page shows it, and what the page sends the browser once.

:func:`payload` is the frame's part (the seats, the step labels and log, the charts the
cursor follows) with the board view's own data under ``board``, so changing step needs no
request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

import orjson

from dashboard.palette import player_color
from domain.games import of_document
from domain.ruleset import Ruleset
from domain.store import GameLibrary

if TYPE_CHECKING:
    from dashboard.boards import BoardView


@dataclass(frozen=True)
class Game:
    """A stored game with its ruleset, its state before the first action, its timeline
    rows (``projections.timeline``) and its seats' names and display colours."""

    library: GameLibrary
    game_id: UUID
    rules: Ruleset
    first: Any
    rows: list[dict[str, Any]]
    names: list[str]
    colors: list[str]

    @property
    def last(self) -> int:
        """The last step (the number of actions)."""
        return len(self.rows) - 1


def rules_of(library: GameLibrary, game_id: UUID) -> Ruleset:
    """The ruleset of a stored game: its record's ``"game"``."""
    return of_document(orjson.loads(library.record(game_id)))


def load(library: GameLibrary, game_id: UUID, rows: list[dict[str, Any]]) -> Game:
    """The stored game ``game_id`` whose timeline is ``rows``."""
    rules = rules_of(library, game_id)
    first = library.state_at(game_id, 0)
    seats = rules.players(first)
    colors = [player_color(seat.color, i) for i, seat in enumerate(seats)]
    return Game(library, game_id, rules, first, rows, [s.name for s in seats], colors)


def payload(game: Game, view: BoardView, log: list[list[Any]], charts: list[str]) -> dict[str, Any]:
    """The browser's data of ``game``: ``log`` its step log's entries, ``charts`` the ids of
    the charts whose cursor follows the step."""
    return {
        "id": str(game.game_id),
        "game": game.rules.name,
        "view": view.script,
        "last": game.last,
        "players": [
            {"name": name, "color": color}
            for name, color in zip(game.names, game.colors, strict=True)
        ],
        "labels": [row["label"] for row in game.rows],
        "log": log,
        "charts": charts,
        "board": view.data(game),
    }


GAME_ENDED = "game_ended"
"""The milestone kind of a game's end: the step log shows it last."""


def log_entry(row: dict[str, Any]) -> list[Any]:
    """One step of the log as ``[step, seat, what happened, milestones, game end]``: the
    parts of its label that are the step's milestones go under its line, the game's end
    last.

    >>> log_entry({"step": 3, "player": 1, "label": "Bo passes; crescent scoring of region 2: "
    ...            "Bo 4; the game ends", "milestones": [
    ...            {"kind": "region_scored", "text": "crescent scoring of region 2: Bo 4"},
    ...            {"kind": "game_ended", "text": "the game ends"}]})
    [3, 1, 'Bo passes', ['crescent scoring of region 2: Bo 4'], 'the game ends']
    """
    kinds = {m["text"]: m["kind"] for m in row["milestones"]}
    lines, marked, end = [], [], None
    for part in row["label"].split("; ") if row["label"] else []:
        kind = kinds.get(part)
        if kind == GAME_ENDED:
            end = part
        elif kind is not None:
            marked.append(part)
        else:
            lines.append(part)
    return [row["step"], row["player"], "; ".join(lines), marked, end]
