"""Live tables for every face: open one from a record, read it, list the legal actions, enter,
undo and finish, within the upload limits; every refusal is a :class:`Refusal`.

The functions act on the current app's :class:`~services.shared.Services` unless given
``svc`` (the command line opens its own). Who writes (``by``) is decided by each face with
the uploads' rule: the API's bearer token, the dashboard's token entry.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Generator, Mapping
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError

from domain.replays import RecordError
from domain.ruleset import InvalidRecord, Ruleset
from domain.store import tables as store
from domain.store.tables import (
    BotsTurn,
    NothingToUndo,
    StaleVersion,
    TableClosed,
    TableFull,
    TableView,
    UnknownTable,
    VariationDeleted,
)
from services import bots
from services.refusals import Refusal
from services.shared import Services, services
from services.uploads import read_upload

__all__ = [
    "UnknownTable", "VariationDeleted", "enter", "finish", "legal", "legal_in", "list_tables",
    "open_table", "table_doc", "undo", "watch",
]  # fmt: skip

MAX_LEGAL = 5000
"""Legal actions listed at most (``"truncated": true`` beyond)."""
MAX_LISTED = 200
"""Tables listed at most, newest first."""
POLL_SECONDS = 0.1
"""How often a watcher reads the table's stream version."""

log = logging.getLogger(__name__)


def _svc(svc: Services | None) -> Services:
    return svc if svc is not None else services()


def record_refusal(exc: InvalidRecord | RecordError) -> Refusal:
    """The 422 refusal of a malformed or illegal record or action (nothing was stored)."""
    if isinstance(exc, RecordError):
        return Refusal(422, "illegal_action", f"Action {exc.index} (step {exc.index + 1}) "
                       f"breaks {exc.rule}: {exc.message}", index=exc.index, action=exc.action,
                       rule=exc.rule, message=exc.message)  # fmt: skip
    where = exc.path or "the document"
    return Refusal(422, "invalid_record", f"{where}: {exc.message}", path=exc.path,
                   message=exc.message)  # fmt: skip


def table_uuid(table_id: UUID | str) -> UUID:
    """A table id given as a UUID or its text; ``UnknownTable`` for text that is none."""
    if isinstance(table_id, UUID):
        return table_id
    try:
        return UUID(str(table_id))
    except ValueError:
        raise UnknownTable(table_id) from None


def _version(version: object) -> int:
    if isinstance(version, bool) or not isinstance(version, int):
        message = "Must be an integer, the table's version."
        raise Refusal(400, "invalid_parameters", f"Invalid parameters: version: {message}",
                      errors={"json": {"version": [message]}})  # fmt: skip
    return version


def variation(view: TableView) -> dict[str, Any] | None:
    """A variation's origin, name, author and branch (None for an ordinary table)."""
    if view.origin is None:
        return None
    return {
        "variation_id": str(view.table_id), "game_id": str(view.origin),
        "step": view.origin_step, "name": view.name, "author": view.opened_by,
        "branch_id": None if view.branch_id is None else str(view.branch_id),
        "steps": view.origin_step + len(view.actions),
    }  # fmt: skip


def check_author(table_id: UUID, by: str | None, svc: Services) -> None:
    """A 403 ``not_author`` refusal for a write on a variation by another than its author
    (anyone writes when no tokens are configured, as uploads)."""
    opened = store.opening(svc.library, table_id)
    author = opened.opened_by if isinstance(opened, store.Table.Explored) else None
    if svc.settings.api_tokens and author is not None and by != author:
        raise Refusal(403, "not_author", f"Only {author}, who opened this variation, may "
                      "change it.", author=author)  # fmt: skip


def document(view: TableView, record: bool = True) -> dict[str, Any]:
    """The table document (``record``: with the record so far)."""
    rules, state = view.rules, view.state
    doc = {
        "table_id": str(view.table_id),
        "game": rules.name,
        "title": view.title,
        "version": view.version,
        "players": store.stored_players(view),
        "actions": view.actions,
        "turn": rules.turn(state),
        "status": rules.describe(state),
        "finished": rules.finished(state),
        "closed": view.game_id is not None,
        "game_id": None if view.game_id is None else str(view.game_id),
        "position": rules.write_position(state),
        "variation": variation(view),
        "bots": bots.table_bots(view),
    }
    if record:
        doc["record"] = view.record_doc()
    return doc


def summary(view: TableView) -> dict[str, Any]:
    """A table's line in the list."""
    rules, state = view.rules, view.state
    return {
        "table_id": str(view.table_id), "game": rules.name, "title": view.title,
        "players": view.players, "version": view.version, "actions": len(view.actions),
        "turn": rules.turn(state), "finished": rules.finished(state),
        "closed": view.game_id is not None,
        "game_id": None if view.game_id is None else str(view.game_id),
        "updated_at": view.updated_at.isoformat(),
    }  # fmt: skip


def open_table(record_bytes: bytes, by: str | None, svc: Services | None = None) -> dict[str, Any]:
    """Open a table from a ``howl.game`` record (its setup or start, any actions so far)."""
    svc = _svc(svc)
    limit = svc.settings.max_upload_bytes
    if len(record_bytes) > limit:
        raise Refusal(413, "too_large", f"A record may have at most {limit} bytes.", limit=limit)
    try:
        rules, record = bots.read_seated(read_upload(record_bytes, svc.settings.max_actions))
        with svc.writing():
            view = store.open_table(svc.library, rules, record, by)
    except (InvalidRecord, RecordError) as exc:
        raise record_refusal(exc) from None
    bots.kick(svc, view)
    return document(view)


def table_doc(table_id: UUID | str, svc: Services | None = None) -> dict[str, Any]:
    """The table document now (``UnknownTable`` for an id that names none)."""
    svc = _svc(svc)
    view = store.load_table(svc.library, table_uuid(table_id))
    bots.kick(svc, view)
    return document(view)


def list_tables(svc: Services | None = None) -> list[dict[str, Any]]:
    """The tables' summaries, the last changed first (at most :data:`MAX_LISTED`)."""
    library = _svc(svc).library
    views = [store.load_table(library, i) for i in store.table_ids(library)]
    views.sort(key=lambda v: v.updated_at, reverse=True)
    return [summary(v) for v in views[:MAX_LISTED]]


def parse_hex(text: str) -> tuple[int, int]:
    """``"x,y"`` as a hex; a 400 :class:`Refusal` naming the ``hex`` parameter otherwise.

    >>> parse_hex("7, 12")
    (7, 12)
    """
    x, sep, y = text.partition(",")
    try:
        if not sep:
            raise ValueError(text)
        return int(x), int(y)
    except ValueError:
        message = "Must be two integers x,y (such as 7,12)."
        raise Refusal(400, "invalid_parameters", f"Invalid parameters: hex: {message}",
                      errors={"query": {"hex": [message]}}) from None  # fmt: skip


def _touches(doc: Any, hex: list[int]) -> bool:
    """Whether an action (records.md JSON) starts from or targets ``hex`` (its payment aside)."""
    if isinstance(doc, Mapping):
        return any(_touches(v, hex) for k, v in doc.items() if k != "pay")
    if isinstance(doc, list):
        return doc == hex or any(_touches(v, hex) for v in doc)
    return False


def legal(table_id: UUID | str, hex: str | tuple[int, int] | None = None,
          svc: Services | None = None) -> dict[str, Any]:  # fmt: skip
    """The table's version and its :func:`legal_in` now."""
    view = store.load_table(_svc(svc).library, table_uuid(table_id))
    return {"version": view.version, **legal_in(view.rules, view.state, hex)}


def legal_in(rules: Ruleset, state: Any, hex: str | tuple[int, int] | None = None
             ) -> dict[str, Any]:  # fmt: skip
    """The legal actions in ``state`` (at most :data:`MAX_LEGAL`), and a game's own move
    choices (``move_options`` of its ruleset: The Wolves' wolves, spread and speed); with
    ``hex`` ("x,y") only those that start from or target that hex."""
    at = None if hex is None else list(parse_hex(hex) if isinstance(hex, str) else hex)
    actions: list[dict[str, Any]] = []
    truncated = False
    for action in rules.legal_actions(state):
        doc = rules.write_action(action)
        if at is not None and not _touches(doc, at):
            continue
        if len(actions) == MAX_LEGAL:
            truncated = True
            break
        actions.append(doc)
    answer: dict[str, Any] = {"turn": rules.turn(state), "actions": actions,
                              "truncated": truncated, "moves": []}  # fmt: skip
    options = getattr(rules, "move_options", None)
    if callable(options):
        found = options(state)
        moves = found["moves"]
        if at is not None:
            moves = [m if m["from"] == at else {**m, "to": [at]} for m in moves
                     if m["from"] == at or at in m["to"]]  # fmt: skip
        answer.update(found, moves=moves)
    return answer


def _written(view: TableView, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"version": view.version, "events": events, "table": document(view)}


def write_refusal(exc: Exception) -> Refusal:
    """The 409 refusal of a write the table's state forbids."""
    if isinstance(exc, StaleVersion):
        return Refusal(409, "stale_version", f"The table is at version {exc.version}, not "
                       f"{exc.named}: reload it and try again.", version=exc.version)  # fmt: skip
    if isinstance(exc, TableClosed):
        return Refusal(409, "table_closed", str(exc))
    return Refusal(409, "nothing_to_undo", str(exc))


def enter(table_id: UUID | str, action: Any, version: object, by: str | None,
          svc: Services | None = None) -> dict[str, Any]:  # fmt: skip
    """Enter one action (records.md JSON) against ``version``: the new version, the events
    it caused and the table; nothing is stored when it is refused."""
    svc = _svc(svc)
    named = _version(version)
    if not isinstance(action, Mapping):
        raise Refusal(422, "invalid_record", "action: Must be a JSON object.", path="action",
                      message="Must be a JSON object.")  # fmt: skip
    check_author(table_uuid(table_id), by, svc)
    try:
        with svc.writing():
            view, events = store.enter_action(
                svc.library, table_uuid(table_id), dict(action), named, svc.settings.max_actions
            )
    except (InvalidRecord, RecordError) as exc:
        raise record_refusal(exc) from None
    except (StaleVersion, TableClosed) as exc:
        raise write_refusal(exc) from None
    except TableFull as exc:
        raise Refusal(422, "too_many_actions", f"{exc}", limit=exc.limit) from None
    except BotsTurn as exc:
        raise Refusal(409, "bots_turn", f"{exc}", seat=exc.seat) from None
    bots.kick(svc, view)
    return _written(view, events)


def undo(table_id: UUID | str, version: object, by: str | None,
         svc: Services | None = None) -> dict[str, Any]:  # fmt: skip
    """Take back the last action against ``version``; its event is ``taken_back`` with the
    action and its index."""
    svc = _svc(svc)
    named = _version(version)
    check_author(table_uuid(table_id), by, svc)
    try:
        with svc.writing():
            view, action = store.undo_action(svc.library, table_uuid(table_id), named)
    except (StaleVersion, TableClosed, NothingToUndo) as exc:
        raise write_refusal(exc) from None
    taken = [{"type": "taken_back", "data": {"index": len(view.actions), "action": action}}]
    view = bots.take_back_bots(svc, view, taken)
    return _written(view, taken)


def finish(table_id: UUID | str, unfinished: bool | None, by: str | None,
           svc: Services | None = None) -> dict[str, Any]:  # fmt: skip
    """Store the table's record as a game (as an upload does) and close the table: the
    game's id and the table. A game not over needs ``unfinished``."""
    svc = _svc(svc)
    view = store.load_table(svc.library, table_uuid(table_id))
    if view.origin is not None:
        raise Refusal(409, "is_variation", "A variation is not finished into the library: its "
                      "own actions are kept as a branch of its game.")  # fmt: skip
    if view.game_id is not None:
        raise write_refusal(TableClosed(f"Table {table_id} is finished into game "
                                         f"{view.game_id}."))  # fmt: skip
    over = view.rules.finished(view.state)
    if not over and not unfinished:
        raise Refusal(409, "not_finished", "The game is not over: finish it with "
                      '{"unfinished": true} to store it as an unfinished game.')  # fmt: skip
    try:
        result = svc.upload(view.record_doc(), by, title=view.title)
        with svc.writing():
            closed = store.close_table(svc.library, table_uuid(table_id), result.game_id, not over)
    except (InvalidRecord, RecordError) as exc:
        raise record_refusal(exc) from None
    except (StaleVersion, TableClosed) as exc:
        raise write_refusal(TableClosed(str(exc))) from None
    return {"game_id": str(result.game_id), "table": document(closed)}


def watch(
    table_id: UUID | str, keep_alive: float = 15.0, svc: Services | None = None
) -> Generator[dict[str, Any] | None]:
    """The table document (without its record) now and after every change, from any
    process (its stream's version is polled every :data:`POLL_SECONDS`); None every
    ``keep_alive`` seconds without a change. ``UnknownTable`` at once for no table; ends
    when the store stops answering (a watcher reconnects), the variation is deleted or the
    service ends its streams (``Services.end_streams``)."""
    svc = _svc(svc)
    library, table_id, era = svc.library, table_uuid(table_id), svc.streams.era()
    view = store.load_table(library, table_id)
    bots.kick(svc, view)
    yield document(view, record=False)
    seen, quiet_since = view.version, time.monotonic()
    while True:
        time.sleep(POLL_SECONDS)
        with svc.streams.reading(era) as going:
            if not going:  # the service is closing its library
                return
            try:
                version = store.table_version(library, table_id)
                changed = version is not None and version != seen
                view = store.load_table(library, table_id) if changed else view
            except PersistenceError as exc:
                log.warning("stopped watching table %s: %s", table_id, exc)
                return
            except VariationDeleted:
                return
        if changed:
            seen, quiet_since = view.version, time.monotonic()
            bots.kick(svc, view)
            yield document(view, record=False)
        elif time.monotonic() - quiet_since >= keep_alive:
            quiet_since = time.monotonic()
            yield None
