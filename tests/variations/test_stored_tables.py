"""Tables stored before variations existed (``Entered`` and ``TakenBack`` version 1, no
branch) read as they did: the same actions, the same position, no variation."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from pathlib import Path

from domain.games import read_record
from domain.store import GameLibrary
from domain.store import tables as store
from services.tables import document
from tests.tables.conftest import fixture


def as_version_1(state: bytes) -> bytes:
    """An event's stored JSON as version 1 wrote it: no branch, no class version."""
    doc = json.loads(state)
    for key in ("branch_id", "class_version"):
        doc.pop(key, None)
    return json.dumps(doc).encode()


def test_a_table_stored_before_variations_reads_as_it_did(tmp_path: Path) -> None:
    with GameLibrary.open(f"sqlite:///{tmp_path / 'howl.sqlite3'}") as library:
        record, actions, _ = fixture("moonlight", "00-greedy")
        rules, rec = read_record({**record, "actions": actions[:4]})
        table = store.open_table(library, rules, rec, "ana")
        now, _ = store.undo_action(library, table.table_id, table.version)
        old = uuid.uuid4()
        library.recorder.insert_events([
            replace(e, originator_id=old, state=as_version_1(e.state))
            for e in library.recorder.select_events(table.table_id)
        ])  # fmt: skip
        stored = list(library.recorder.select_events(old))
        assert len(stored) == 6 and all(b"branch_id" not in e.state for e in stored)

        store._cache.clear()
        view = store.load_table(library, old)
        assert view.actions == actions[:3] and view.branch_id is None and view.origin is None
        assert rules.write_position(view.state) == rules.write_position(now.state)
        assert document(view)["variation"] is None
        after, _ = store.enter_action(library, old, actions[3], view.version, 1000)
        assert after.actions == actions[:4] and after.version == view.version + 1
