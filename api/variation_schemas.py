"""marshmallow schemas of the variations' requests and answers (``/api/variations``, a
game's ``variations`` and ``branches``)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.schemas import MAX_OFFSET, Comparison
from services.variations import DEFAULT_PLIES, MAX_NAME, MAX_PLIES, name_problem


def _name(value: str) -> None:
    problem = name_problem(value)
    if problem is not None:
        raise ma.ValidationError(f"Must be 1 to {MAX_NAME} characters without control "
                                 f"characters: {problem}.")  # fmt: skip


def _actions(value: Any) -> None:
    """A JSON array: its entries are read as actions once their count is checked."""
    if not isinstance(value, list):
        raise ma.ValidationError("A list of action objects.")


NAME = {"description": f"1 to {MAX_NAME} characters, no control characters",
        "maxLength": MAX_NAME}  # fmt: skip


class VariationRequest(ma.Schema):
    """A variation from ``step``: its own first ``actions``, or the review's suggested line."""

    step = fields.Integer(
        required=True, strict=True, validate=validate.Range(0, MAX_OFFSET),
        metadata={"description": "the game's actions it starts after"},
    )  # fmt: skip
    name = fields.String(validate=_name, metadata={
        **NAME, "description": f"{NAME['description']}; default `Variation at step n` "
        "(`Suggested at step n+1`)",
    })  # fmt: skip
    actions = fields.Raw(validate=_actions, metadata={
        "type": "array", "items": {"type": "object"},
        "description": "its own first records.md actions (none by default)",
    })  # fmt: skip
    suggested = fields.Boolean(load_default=False, metadata={
        "description": "the review's better alternative to the action at index `step`, then "
        "`plies` actions of the review's continuation (instead of `actions`)",
    })  # fmt: skip
    plies = fields.Integer(load_default=DEFAULT_PLIES, strict=True,
                           validate=validate.Range(1, MAX_PLIES))  # fmt: skip


class VariationOrigin(ma.Schema):
    """Where a variation leaves its game, its name, author and branch."""

    variation_id = fields.UUID(required=True)
    game_id = fields.UUID(required=True)
    step = fields.Integer(required=True, metadata={"description": "the game's actions kept"})
    name = fields.String(required=True)
    author = fields.String(required=True, allow_none=True)
    branch_id = fields.UUID(required=True, allow_none=True, metadata={
        "description": "the branch of its own actions (null while it has none)",
    })  # fmt: skip
    steps = fields.Integer(required=True, metadata={"description": "`step` + its own actions"})


class Standing(ma.Schema):
    """A line's score totals per seat and, for a game with a review, its win chances."""

    scores = fields.List(fields.Integer(), required=True)
    win = fields.List(fields.Float(), required=True, allow_none=True, metadata={
        "description": "the review's static evaluator per seat (null: no review)",
    })  # fmt: skip


class MainStanding(Standing):
    """The game's main line at the variation's last step (or the game's end)."""

    step = fields.Integer(required=True)


class VariationDocument(ma.Schema):
    """A variation, its branch's comparison and both lines' standings."""

    variation_id = fields.UUID(required=True)
    game_id = fields.UUID(required=True)
    game = fields.String(required=True)
    step = fields.Integer(required=True)
    name = fields.String(required=True)
    author = fields.String(required=True, allow_none=True)
    actions = fields.List(fields.Dict(), required=True, metadata={"description": "its own"})
    steps = fields.Integer(required=True)
    branch_id = fields.UUID(required=True, allow_none=True)
    version = fields.Integer(required=True, metadata={"description": "its table's version"})
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    updated_at = fields.String(required=True, metadata={"format": "date-time"})
    comparison = fields.Nested(Comparison, required=True, allow_none=True, metadata={
        "description": "`GET /api/branches/{branch_id}`'s (null without own actions or review)",
    })  # fmt: skip
    main = fields.Nested(MainStanding, required=True)
    end = fields.Nested(Standing, required=True, metadata={"description": "the variation now"})


class RenameRequest(ma.Schema):
    """A variation's new name."""

    name = fields.String(required=True, validate=_name, metadata=NAME)


class BranchLine(ma.Schema):
    """A variation in its game's list."""

    variation_id = fields.UUID(required=True)
    branch_id = fields.UUID(required=True)
    step = fields.Integer(required=True)
    name = fields.String(required=True)
    author = fields.String(required=True, allow_none=True)
    actions = fields.Integer(required=True, metadata={"description": "its own actions"})
    steps = fields.Integer(required=True)
    updated_at = fields.String(required=True, metadata={"format": "date-time"})


class GameBranches(ma.Schema):
    """A game's live variations with own actions, by step then creation."""

    game_id = fields.UUID(required=True)
    branches = fields.List(fields.Nested(BranchLine), required=True)
