"""Purging a withdrawn game: its events deleted from the store for good, with every stream
that holds a part of it (its comments, its what-if branches, the variations explored from
it), where the law or a player requires it. Nothing else is ever deleted from the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from domain.store.branches import Branch
from domain.store.comments import Comments, comments_id
from domain.store.library import GameLibrary
from domain.store.tables import Table


class NotWithdrawn(Exception):
    """Only a withdrawn game is purged."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"game {game_id} is not withdrawn: its uploader withdraws it first "
                         f"(DELETE /api/games/{game_id})")  # fmt: skip
        self.game_id = game_id


@dataclass(frozen=True)
class Purged:
    """What a purge deleted: streams and their stored events (snapshots not counted)."""

    streams: int
    events: int


def streams_of(library: GameLibrary, game_id: UUID) -> list[UUID]:
    """The game's stream, then those holding parts of it."""
    found = [game_id, comments_id(game_id)]
    for stored in library.events.get(comments_id(game_id)):
        if isinstance(stored, Comments.Commented):
            found.append(stored.comment_id)  # its CommentFiled stream
    for created, field in ((Branch.Branched, "parent_id"), (Table.Explored, "origin")):
        for n in library.notifications(get_topic(created)):
            if getattr(library.mapper.to_domain_event(n), field) == game_id:
                found.append(UUID(str(n.originator_id)))
    return found


def purge(library: GameLibrary, game_id: UUID) -> Purged:
    """Delete a withdrawn game's streams and snapshots in one transaction
    (:class:`NotWithdrawn` for a game still shown; ``UnknownGame`` for none)."""
    if not library.withdrawn(game_id):
        raise NotWithdrawn(game_id)
    ids = streams_of(library, game_id)
    assert library.snapshots is not None
    events: Any = library.recorder
    snapshots: Any = library.snapshots.recorder
    with _deleting(events) as delete:
        deleted = sum([delete(events.events_table_name, stream) for stream in ids])
        for stream in ids:
            delete(snapshots.events_table_name, stream)
    return Purged(len(ids), deleted)


@contextmanager
def _deleting(recorder: Any) -> Iterator[Callable[[str, UUID], int]]:
    """In one write transaction on the store's database: a function deleting a stream's
    rows from a table of stored events, returning how many it deleted."""
    datastore = recorder.datastore
    postgres = hasattr(datastore, "schema")  # eventsourcing's PostgreSQL datastore
    with datastore.transaction(commit=True) as cursor:

        def delete(table: str, stream: UUID) -> int:
            if postgres:
                from psycopg.sql import SQL, Identifier

                statement = SQL("DELETE FROM {}.{} WHERE originator_id = %s").format(
                    Identifier(datastore.schema), Identifier(table)
                )
                cursor.execute(statement, (stream,))
                return int(cursor.rowcount)
            sqlite = cursor.sqlite_cursor  # eventsourcing's wrapper gives no row count
            sqlite.execute(f"DELETE FROM {table} WHERE originator_id = ?", (stream.hex,))
            return int(sqlite.rowcount)

        yield delete
