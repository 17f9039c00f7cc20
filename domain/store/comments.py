"""Comments on the steps of stored games, each game's in one stream beside it.

A game's ``Comments`` stream (its id is uuid5 of the game's) holds ``Started`` (the game),
then one ``Commented`` per comment (its id, the step it is on, its author, its text) and
one ``Removed`` per comment taken away. Each comment also has a ``CommentFiled`` stream of
one event naming its game, saved in the same transaction, so a comment is found by its id
alone. The game's own stream is never written: its record, and so its id, stay as they
were; the record export adds the comments as records.md's ``annotations``. Two writers on
one game do not lose a comment: the store's optimistic concurrency refuses the second
save, which is then made again on the stream as it is now.

Event topics are this module's paths (eventsourcing's default).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError, PersistenceError

from domain.documents import (
    MAX_AUTHOR,
    MAX_NOTE,
    Annotation,
    annotated,
    note_problem,
    read_annotations,
)
from domain.store.library import GameLibrary, WithdrawnGame

COMMENTS_NAMESPACE = uuid.UUID("3d0c8e57-1a6b-5f42-9c1e-7b2f4a6d8e93")
MAX_COMMENTS = 500
"""Comments a game may have at once."""
MAX_WRITTEN = 2000
"""Comments a game's stream may take in all, removed ones included (its length bound)."""
RETRIES = 5
"""Saves tried again when another writer saved on the same game first."""
SNAPSHOT_EVERY = 50
"""Events of a game's comments between two snapshots of them."""

log = logging.getLogger(__name__)


def comments_id(game_id: UUID) -> UUID:
    """The id of the stream of ``game_id``'s comments."""
    return uuid.uuid5(COMMENTS_NAMESPACE, str(game_id))


class UnknownComment(LookupError):
    """No comment with this id is stored (or it was removed)."""

    def __init__(self, comment_id: UUID) -> None:
        super().__init__(f"no comment {comment_id}")
        self.comment_id = comment_id


class BadComment(ValueError):
    """A comment the game cannot take: ``field`` (``step``, ``text``, ``author``) says what."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class TooManyComments(Exception):
    """The game has as many comments as it may take (``limit``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"A game takes at most {limit} comments.")
        self.limit = limit


class NotAuthor(PermissionError):
    """Only a comment's author may remove it."""


@dataclass(frozen=True)
class Comment:
    """A comment on the position after ``step`` actions of game ``game_id``."""

    comment_id: UUID
    game_id: UUID
    step: int
    author: str | None
    text: str
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        """``{"comment_id", "step", "author", "text", "created_at"}``."""
        return {
            "comment_id": str(self.comment_id), "step": self.step, "author": self.author,
            "text": self.text, "created_at": self.created_at.isoformat(),
        }  # fmt: skip

    def annotation(self) -> Annotation:
        """The comment as a record's annotation."""
        return Annotation(self.step, self.author, self.text)


class Comments(Aggregate):
    """A game's comments, live ones by id in the order they were made."""

    class Started(Aggregate.Created):
        """The comments of game ``game_id`` began."""

        class_version = 1
        game_id: UUID

    class Commented(Aggregate.Event):
        """A comment on the position after ``step`` actions."""

        class_version = 1
        comment_id: UUID
        step: int
        author: str | None
        text: str

        def apply(self, aggregate: Any) -> None:
            aggregate.live[str(self.comment_id)] = {
                "step": self.step, "author": self.author, "text": self.text,
                "created_at": self.timestamp,
            }  # fmt: skip
            aggregate.written += 1

    class Removed(Aggregate.Event):
        """Comment ``comment_id`` was taken away."""

        class_version = 1
        comment_id: UUID

        def apply(self, aggregate: Any) -> None:
            aggregate.live.pop(str(self.comment_id), None)

    def __init__(self, game_id: UUID) -> None:
        self.game_id = game_id
        self.live: dict[str, dict[str, Any]] = {}
        """Each live comment's fields by its id (plain data, so snapshots can hold it)."""
        self.written = 0

    @staticmethod
    def create_id(game_id: UUID) -> UUID:
        """A game's comments are named by the game."""
        return comments_id(game_id)

    def comments(self) -> list[Comment]:
        """The live comments, in the order they were made."""
        return [self._comment(cid, fields) for cid, fields in self.live.items()]

    def get(self, comment_id: UUID) -> Comment | None:
        """The live comment ``comment_id``, if any."""
        fields = self.live.get(str(comment_id))
        return None if fields is None else self._comment(str(comment_id), fields)

    def _comment(self, cid: str, fields: dict[str, Any]) -> Comment:
        return Comment(
            UUID(cid), self.game_id, fields["step"], fields["author"], fields["text"],
            fields["created_at"],
        )  # fmt: skip

    def comment(self, comment_id: UUID, step: int, author: str | None, text: str) -> None:
        """Add a comment."""
        self.trigger_event(
            self.Commented, comment_id=comment_id, step=step, author=author, text=text
        )

    def remove(self, comment_id: UUID) -> None:
        """Take a comment away."""
        self.trigger_event(self.Removed, comment_id=comment_id)


class CommentFiled(Aggregate):
    """Where a comment is: a one-event stream named by the comment, naming its game."""

    class Filed(Aggregate.Created):
        """Comment ``comment_id`` is on game ``game_id``."""

        class_version = 1
        comment_id: UUID
        game_id: UUID

    def __init__(self, comment_id: UUID, game_id: UUID) -> None:
        self.game_id = game_id

    @staticmethod
    def create_id(comment_id: UUID) -> UUID:
        """The stream is named by the comment."""
        return comment_id


def _load(library: GameLibrary, game_id: UUID) -> Comments | None:
    try:
        found: Any = library.repository.get(comments_id(game_id))
    except AggregateNotFoundError:
        return None
    return found if isinstance(found, Comments) else None


def game_comments(library: GameLibrary, game_id: UUID) -> list[Comment]:
    """The game's comments by step, then in the order they were made (``UnknownGame`` for
    no stored game)."""
    library.steps(game_id)  # raises for no game
    found = _load(library, game_id)
    live = [] if found is None else found.comments()
    return sorted(live, key=lambda c: c.step)


def comments_version(library: GameLibrary, game_id: UUID) -> int:
    """The version of the game's comments stream (0: never commented), read cheaply: what
    an answer holding the comments is tagged with."""
    last = library.recorder.select_events(comments_id(game_id), desc=True, limit=1)
    return last[0].originator_version if last else 0


def check_comment(step: object, author: str | None, text: object, steps: int) -> None:
    """A ``BadComment`` unless ``step`` is 0…``steps``, ``text`` a comment's text and
    ``author`` None or a name."""
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= steps:
        raise BadComment("step", f"must be an integer from 0 to {steps}, the game's steps")
    problem = note_problem(text, MAX_NOTE)
    if problem is not None:
        raise BadComment("text", problem)
    if author is not None and (problem := note_problem(author, MAX_AUTHOR)) is not None:
        raise BadComment("author", problem)


def add_comments(
    library: GameLibrary,
    game_id: UUID,
    notes: Iterable[Annotation],
    skip_known: bool = False,
) -> list[Comment]:
    """Add comments to a stored game, all in one transaction: the comments made.

    Raises ``UnknownGame``, ``BadComment`` for one the game cannot take and
    ``TooManyComments`` past :data:`MAX_COMMENTS` (or :data:`MAX_WRITTEN` in all); nothing
    is stored then. ``skip_known`` leaves out a note some live comment already says (same
    step, author and text), and repeats within ``notes``: uploading a record again adds
    only its new annotations.
    """
    steps = library.steps(game_id)
    notes = list(notes)
    for note in notes:
        check_comment(note.step, note.author, note.text, steps)
    for _ in range(RETRIES):
        comments = _load(library, game_id) or Comments(game_id=game_id)
        todo = _unknown(comments, notes) if skip_known else notes
        if not todo:
            return []
        if len(comments.live) + len(todo) > MAX_COMMENTS:
            raise TooManyComments(MAX_COMMENTS)
        if comments.written + len(todo) > MAX_WRITTEN:
            raise TooManyComments(MAX_WRITTEN)
        ids = [uuid.uuid4() for _ in todo]
        for comment_id, note in zip(ids, todo, strict=True):
            comments.comment(comment_id, note.step, note.author, note.text)
        filed = [CommentFiled(comment_id=i, game_id=game_id) for i in ids]
        try:
            library.save(comments, *filed)
        except IntegrityError:  # another writer saved on this game first: again
            continue
        _snapshot(library, comments, len(ids))
        return [c for c in map(comments.get, ids) if c is not None]
    raise IntegrityError(f"the comments of game {game_id} kept changing while saving")


def annotate(
    library: GameLibrary, game_id: UUID, doc: Mapping[str, Any], uploader: str | None
) -> list[Comment]:
    """Store the ``annotations`` of a record just uploaded as ``game_id`` (its reading checked
    them) as comments, an annotation without author as the ``uploader``'s: the comments
    made. Those the game has already are left out, so uploading a record again adds only
    its new ones; ``TooManyComments`` past :data:`MAX_COMMENTS` (nothing is added then)."""
    if doc.get("annotations") is None:  # most records: the game is not read
        return []
    notes = read_annotations(doc, library.steps(game_id))
    if not notes:
        return []
    notes = tuple(Annotation(n.step, n.author or uploader, n.text) for n in notes)
    return add_comments(library, game_id, notes, skip_known=True)


def _unknown(comments: Comments, notes: list[Annotation]) -> list[Annotation]:
    """The ``notes`` no live comment says already, each once."""
    known = {c.annotation() for c in comments.comments()}
    todo = []
    for note in notes:
        if note not in known:
            known.add(note)
            todo.append(note)
    return todo


def _filed(library: GameLibrary, comment_id: UUID) -> tuple[Comments, Comment]:
    """The comments holding the live comment ``comment_id``, and it; ``UnknownComment``, or
    ``WithdrawnGame`` when its game was withdrawn."""
    first = list(library.events.get(comment_id, lte=CommentFiled.INITIAL_VERSION))
    if not first or not isinstance(first[0], CommentFiled.Filed):
        raise UnknownComment(comment_id)
    if library.withdrawn(first[0].game_id):
        raise WithdrawnGame(first[0].game_id)
    comments = _load(library, first[0].game_id)
    found = None if comments is None else comments.get(comment_id)
    if comments is None or found is None:
        raise UnknownComment(comment_id)
    return comments, found


def find_comment(library: GameLibrary, comment_id: UUID) -> Comment:
    """A live comment by its id; ``UnknownComment`` for none."""
    return _filed(library, comment_id)[1]


def remove_comment(library: GameLibrary, comment_id: UUID, by: str | None, anyone: bool) -> None:
    """Take a comment away: only its author ``by`` may (``NotAuthor``), or anyone when
    ``anyone``. ``UnknownComment`` for none (a comment removed is gone)."""
    for _ in range(RETRIES):
        comments, comment = _filed(library, comment_id)
        if not anyone and comment.author != by:
            raise NotAuthor(f"Only {comment.author or 'its author'} may remove this comment.")
        comments.remove(comment_id)
        try:
            library.save(comments)
        except IntegrityError:
            continue
        _snapshot(library, comments, 1)
        return
    raise IntegrityError(f"the comments of comment {comment_id}'s game kept changing")


def _snapshot(library: GameLibrary, comments: Comments, saved: int) -> None:
    """Snapshot a game's comments when the ``saved`` events just saved crossed a multiple of
    :data:`SNAPSHOT_EVERY`, so reading them folds at most that many events."""
    if comments.version // SNAPSHOT_EVERY == (comments.version - saved) // SNAPSHOT_EVERY:
        return
    assert library.snapshots is not None  # the library keeps snapshots
    try:
        library.snapshots.put([Comments.Snapshot.take(comments)])
    except PersistenceError as exc:  # the comments are stored; a snapshot only saves time
        log.warning("no snapshot of the comments of game %s: %s", comments.game_id, exc)


def exported_record(library: GameLibrary, game_id: UUID) -> bytes:
    """The game's record as stored, with its comments as ``annotations`` when it has any."""
    record = library.record(game_id)
    return annotated(record, (c.annotation() for c in game_comments(library, game_id)))
