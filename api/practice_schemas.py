"""marshmallow schemas of practice from a game's mistakes (``/api/games/{id}/practice``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.schemas import MAX_OFFSET, Open, Position
from api.table_schemas import LegalActions
from domain.store.practice import MAX_NAME, check_name

CLASSES = ["mistake", "blunder"]


def _name(value: str) -> None:
    why = check_name(value)
    if why is not None:
        raise ma.ValidationError(why)


def _player(required: bool) -> fields.String:
    return fields.String(required=required, validate=_name, metadata={
        "description": f"the player's name (1–{MAX_NAME} characters, no control characters); "
                       "progress is kept per name, case and spaces around it aside",
        "minLength": 1, "maxLength": MAX_NAME,
    })  # fmt: skip


def _index() -> fields.Integer:
    return fields.Integer(
        required=True, strict=True, validate=validate.Range(0, MAX_OFFSET),
        metadata={"description": "the flagged action's 0-based index"},
    )  # fmt: skip


class PracticeQuery(ma.Schema):
    """Whose mistakes, and whose progress."""

    seat = fields.Integer(
        required=True, validate=validate.Range(0, 99),
        metadata={"description": "the seat whose mistakes are practised"},
    )  # fmt: skip
    player = _player(required=False)


class PracticePosition(Open):
    """A flagged action of the seat: the position before it and the player's progress."""

    index = fields.Integer(required=True, metadata={"description": "the action's 0-based index"})
    step = fields.Integer(required=True, metadata={"description": "index + 1, as shown"})
    classification = fields.String(required=True, validate=validate.OneOf(CLASSES))
    position = fields.Nested(Position, required=True, metadata={
        "description": "the position the mover chose the action from"})  # fmt: skip
    played = fields.Dict(required=True, metadata={"description": "the action played"})
    label = fields.String(required=True, metadata={"description": "what the action played did"})
    solved = fields.Boolean(required=True, metadata={"description": "a try was accepted"})
    revealed = fields.Boolean(required=True, metadata={"description": "the solution was shown"})
    tries = fields.Integer(required=True)


class PracticeList(ma.Schema):
    """The seat's mistakes and blunders in the stored review, in game order."""

    game_id = fields.UUID(required=True)
    seat = fields.Integer(required=True)
    player = fields.String(required=True, allow_none=True)
    positions = fields.List(fields.Nested(PracticePosition), required=True)


class PracticeLegalQuery(ma.Schema):
    """The flagged action whose position is asked, and optionally one hex."""

    index = fields.Integer(required=True, validate=validate.Range(0, MAX_OFFSET))
    hex = fields.String(metadata={"description": "x,y (such as 7,12)"})


class PracticeLegal(LegalActions):
    """The legal actions at a practice position, as a table lists them (``version`` 0)."""

    index = fields.Integer(required=True)


class TryRequest(ma.Schema):
    """An action entered at a flagged position, by a player."""

    index = _index()
    action = fields.Dict(required=True, metadata={"description": "a records.md action"})
    player = _player(required=True)


class RevealRequest(ma.Schema):
    """Ask for the solution at a flagged position."""

    index = _index()
    player = _player(required=True)


class Progress(ma.Schema):
    """The player's progress at the position after the request."""

    index = fields.Integer(required=True)
    solved = fields.Boolean(required=True)
    revealed = fields.Boolean(required=True)
    tries = fields.Integer(required=True)


class Verdict(Progress):
    """The entered action judged against the best action the review knows there."""

    accepted = fields.Boolean(required=True, metadata={
        "description": "its win share is within `threshold` of the best known"})  # fmt: skip
    win = fields.Float(required=True, metadata={"description": "the mover's win share after it"})
    loss = fields.Float(required=True, metadata={"description": "the best known's win less its"})
    threshold = fields.Float(required=True, metadata={
        "description": "the inaccuracy threshold (0.1 / players)"})  # fmt: skip
    label = fields.String(required=True, metadata={"description": "what the action did"})
    best = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the best action known, once the position is solved or revealed",
    })  # fmt: skip
    best_label = fields.String(required=True, allow_none=True)


class Solution(Progress):
    """The review's best action at the position."""

    best = fields.Dict(required=True)
    best_label = fields.String(required=True)
    win = fields.Float(required=True, metadata={"description": "the mover's win share after it"})
