"""marshmallow schemas of the comments' requests and answers (``/api/games/{id}/comments``,
``/api/comments/{id}``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.documents import MAX_NOTE


class CommentRequest(ma.Schema):
    """A comment on the position after `step` actions."""

    step = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                          metadata={"description": "0 (the start) … its actions"})  # fmt: skip
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_NOTE),
                         metadata={"description": "no control characters but newline and "
                                   "tab"})  # fmt: skip


class Comment(ma.Schema):
    """A comment on a step of a game."""

    comment_id = fields.UUID(required=True)
    step = fields.Integer(required=True, metadata={"description": "the position after this "
                          "many actions"})  # fmt: skip
    author = fields.String(required=True, allow_none=True, metadata={"description": "the "
                           "token's name (null: written with no tokens configured)"})  # fmt: skip
    text = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})


class CommentList(ma.Schema):
    """A game's comments by step, then in the order they were made."""

    comments = fields.List(fields.Nested(Comment), required=True)
