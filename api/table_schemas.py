"""marshmallow schemas of the live tables' requests and answers (``/api/tables``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from api.schemas import Open, Position
from api.variation_schemas import VariationOrigin


class TableSeat(Open):
    """A seat as the record writes it (the game's own fields too), with its number."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    color = fields.String(required=True)


class TableSummary(ma.Schema):
    """A table's line in the list."""

    table_id = fields.UUID(required=True)
    game = fields.String(required=True, metadata={"description": "the game's ruleset's name"})
    title = fields.String(required=True, allow_none=True)
    players = fields.List(fields.String(), required=True, metadata={"description": "names"})
    version = fields.Integer(required=True, metadata={"description": "the stream version"})
    actions = fields.Integer(required=True, metadata={"description": "actions net of undos"})
    turn = fields.Integer(required=True, allow_none=True, metadata={"description": "seat"})
    finished = fields.Boolean(required=True, metadata={"description": "the game is over"})
    closed = fields.Boolean(required=True, metadata={"description": "stored in the library"})
    game_id = fields.UUID(required=True, allow_none=True)
    updated_at = fields.String(required=True, metadata={"format": "date-time"})


class TableList(ma.Schema):
    """Tables, the last changed first."""

    tables = fields.List(fields.Nested(TableSummary), required=True)


class TableDocument(ma.Schema):
    """A table: its seats, version, actions so far, whose turn, and the position now."""

    table_id = fields.UUID(required=True)
    game = fields.String(required=True)
    title = fields.String(required=True, allow_none=True)
    version = fields.Integer(required=True, metadata={"description": "what every write names"})
    players = fields.List(fields.Nested(TableSeat), required=True)
    actions = fields.List(fields.Dict(), required=True, metadata={"description": "records.md "
                          "actions as entered, net of undos"})  # fmt: skip
    turn = fields.Integer(required=True, allow_none=True)
    status = fields.String(required=True, metadata={"description": "where the game stands"})
    finished = fields.Boolean(required=True)
    closed = fields.Boolean(required=True)
    game_id = fields.UUID(required=True, allow_none=True)
    position = fields.Nested(Position, required=True)
    variation = fields.Nested(VariationOrigin, required=True, allow_none=True)
    record = fields.Dict(metadata={"description": "the howl.game record so far"})


class Destinations(ma.Schema):
    """Where one wolf may end a Move (The Wolves, W-6.1)."""

    from_ = fields.List(fields.Integer(), required=True, data_key="from")
    wolf = fields.String(required=True, metadata={"enum": ["alpha", "pack"]})
    to = fields.List(fields.List(fields.Integer()), required=True)


class LegalActions(ma.Schema):
    """The legal actions now, with their settled payments, and a game's move choices."""

    version = fields.Integer(required=True)
    turn = fields.Integer(required=True, allow_none=True)
    actions = fields.List(fields.Dict(), required=True)
    truncated = fields.Boolean(required=True, metadata={"description": "more actions than listed"})
    moves = fields.List(
        fields.Nested(Destinations),
        required=True,
        metadata={
            "description": "The Wolves: each wolf's destinations for a Move now ([] otherwise)"
        },
    )
    spread = fields.Integer(metadata={"description": "The Wolves: wolves one Move may move"})
    speed = fields.Integer(metadata={"description": "The Wolves: hexes a wolf may go"})


class LegalQuery(ma.Schema):
    """Keep the actions and moves that start from or target one hex."""

    hex = fields.String(metadata={"description": "x,y (such as 7,12)"})


class ActionRequest(ma.Schema):
    """One action against the table's version."""

    action = fields.Dict(required=True, metadata={"description": "a records.md action"})
    version = fields.Integer(required=True, strict=True)


class UndoRequest(ma.Schema):
    """Take back the last action, against the table's version."""

    version = fields.Integer(required=True, strict=True)


class FinishRequest(ma.Schema):
    """Finish the table; ``unfinished`` stores a game that is not over."""

    unfinished = fields.Boolean(load_default=False)


class TableEvent(Open):
    """An event a write caused: its type and fields as the store keeps them."""

    type = fields.String(required=True)
    data = fields.Dict(required=True)


class TableWrite(ma.Schema):
    """What a write did: the new version, its events and the table."""

    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(TableEvent), required=True)
    table = fields.Nested(TableDocument, required=True)


class TableFinished(ma.Schema):
    """The stored game's id and the closed table."""

    game_id = fields.UUID(required=True)
    table = fields.Nested(TableDocument, required=True)
