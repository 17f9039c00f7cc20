"""Comments on the steps of stored games for every face: list, add, remove, and the record
export with its ``annotations``; refusals are :class:`Refusal` (an upload's annotations are
stored by :meth:`Services.upload <services.shared.Services.upload>`).

The functions act on the current app's :class:`~services.shared.Services` unless given
``svc``. Who writes (``by``) is decided by each face with the uploads' rule: the API's
bearer token, the dashboard's token entry (None when no tokens are configured, and then
anyone may remove a comment).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.documents import Annotation
from domain.store import comments as store
from domain.store.comments import BadComment, NotAuthor, TooManyComments, UnknownComment
from services.refusals import Refusal
from services.shared import Services, services

__all__ = ["add", "delete", "find", "list_comments", "record", "refusal", "version"]


def _svc(svc: Services | None) -> Services:
    return svc if svc is not None else services()


def refusal(exc: Exception) -> Refusal:
    """The refusal a comment the store would not take means."""
    if isinstance(exc, BadComment):
        return Refusal(400, "invalid_parameters", f"Invalid parameters: {exc.field}: "
                       f"{exc.message}.", errors={"json": {exc.field: [exc.message]}})  # fmt: skip
    if isinstance(exc, TooManyComments):
        return Refusal(409, "too_many_comments", str(exc), limit=exc.limit)
    if isinstance(exc, NotAuthor):
        return Refusal(403, "not_author", str(exc))
    assert isinstance(exc, UnknownComment)
    return Refusal(404, "unknown_comment", f"No comment {exc.comment_id} is stored.")


def list_comments(game_id: UUID, svc: Services | None = None) -> list[dict[str, Any]]:
    """The game's comments by step, then in the order they were made (``UnknownGame``)."""
    return [c.to_json() for c in store.game_comments(_svc(svc).library, game_id)]


def find(comment_id: UUID, svc: Services | None = None) -> dict[str, Any]:
    """One comment; 404 ``unknown_comment`` for none (a removed one is gone)."""
    try:
        return store.find_comment(_svc(svc).library, comment_id).to_json()
    except UnknownComment as exc:
        raise refusal(exc) from None


def add(
    game_id: UUID, step: object, text: object, by: str | None, svc: Services | None = None
) -> dict[str, Any]:
    """Comment on the position after ``step`` actions of a stored game, as ``by``: the
    comment. Refused: a step outside the game or a text that is not 1–2000 characters
    without control characters but newline and tab (400), more than 500 comments (409)."""
    svc = _svc(svc)
    if not isinstance(text, str):
        raise refusal(BadComment("text", "Not a valid string."))
    if not isinstance(step, int) or isinstance(step, bool):
        raise refusal(BadComment("step", "Not a valid integer."))
    try:
        with svc.writing():
            made = store.add_comments(svc.library, game_id, [Annotation(step, by, text)])
    except (BadComment, TooManyComments) as exc:
        raise refusal(exc) from None
    return made[0].to_json()


def delete(comment_id: UUID, by: str | None, svc: Services | None = None) -> None:
    """Remove a comment: only its author may, unless no tokens are configured (403
    ``not_author``); 404 ``unknown_comment`` for none."""
    svc = _svc(svc)
    anyone = not svc.settings.api_tokens
    try:
        with svc.writing():
            store.remove_comment(svc.library, comment_id, by, anyone)
    except (NotAuthor, UnknownComment) as exc:
        raise refusal(exc) from None


def version(game_id: UUID, svc: Services | None = None) -> int:
    """The version of the game's comments (0: none ever): what names the record export."""
    return store.comments_version(_svc(svc).library, game_id)


def record(game_id: UUID, svc: Services | None = None) -> bytes:
    """The game's record as stored, with its comments as ``annotations`` when it has any."""
    return store.exported_record(_svc(svc).library, game_id)
