"""The store's notification log read lean: pages of plain rows.

A catch-up reads every row of the log and decodes few of them (most it only joins, see
``projections.runner.happened_joiner``), so it reads them as :class:`Logged` tuples with
one query of the five columns it uses, not as eventsourcing's ``Notification`` objects
made from a dict per row (half the CPU of ``select_notifications`` on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.persistence import InterfaceError, Notification, OperationalError
from eventsourcing.utils import retry


class Logged(NamedTuple):
    """One row of the log: a stored event and its place in the log."""

    id: int
    originator_id: UUID | str
    """A UUID, or its text where the store keeps ids as text."""
    originator_version: int
    topic: str
    state: bytes

    def notification(self) -> Notification:
        """The row as eventsourcing's notification (for its mapper to decode)."""
        return Notification(
            id=self.id, originator_id=self.originator_id,
            originator_version=self.originator_version, topic=self.topic, state=self.state,
        )  # fmt: skip


Pager = Callable[[int, int], list[Logged]]
"""Reads the log's rows from id ``start`` on (inclusive), at most ``limit`` of them."""


def pager(recorder: Any) -> Pager:
    """The page reader of an eventsourcing application recorder (PostgreSQL or SQLite); on
    PostgreSQL it tries again, as eventsourcing's own reader does, when the database is
    briefly unreachable."""
    datastore = recorder.datastore
    if hasattr(datastore, "schema"):  # eventsourcing's PostgreSQL datastore
        from psycopg.rows import args_row
        from psycopg.sql import SQL, Identifier

        statement = SQL(
            "SELECT notification_id, originator_id, originator_version, topic, state "
            "FROM {}.{} WHERE notification_id >= %s ORDER BY notification_id LIMIT %s"
        ).format(Identifier(datastore.schema), Identifier(recorder.events_table_name))
        factory = args_row(Logged)

        @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as eventsourcing's
        def postgres(start: int, limit: int) -> list[Logged]:
            with (
                datastore.get_connection() as conn,
                conn.cursor(row_factory=factory, binary=True) as cur,
            ):
                cur.execute(statement, (start, limit), prepare=True)
                rows: list[Logged] = cur.fetchall()
                return rows

        retried: Pager = postgres
        return retried
    query = (
        "SELECT rowid, originator_id, originator_version, topic, state "
        f"FROM {recorder.events_table_name} WHERE rowid >= ? ORDER BY rowid LIMIT ?"
    )
    text_ids = datastore.originator_id_type != "uuid"

    def sqlite(start: int, limit: int) -> list[Logged]:
        with datastore.transaction(commit=False) as cursor:
            rows = cursor.sqlite_cursor.execute(query, (start, limit)).fetchall()
        return [
            Logged(n, stream if text_ids else UUID(stream), version, topic, state)
            for n, stream, version, topic, state in rows
        ]

    return sqlite
