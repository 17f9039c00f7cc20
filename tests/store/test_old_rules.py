"""A game stored under an older rules version replays as it was stored; ``howl migrate``
reports how it would fare under the current rules.

The fixture is a game stored by rules version ``wolves-1`` (its record and the events that
engine derived, saved before W-6 let bonus action tokens be spent after a turn's last
action): its last turn ended at the full moon although the player held a token, so under
the current rules (seed 000 p.6 and p.19; records.md "Actions") that turn, and the game, are
not over yet.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.documents import MAX_META_KEYS
from domain.store import GameLibrary, game_id_for, record_digest
from domain.store.game import Game
from domain.store.migrate import ILLEGAL, RESULT, UNCHANGED, recheck_all
from domain.wolves.components import RULES_VERSION
from domain.wolves.positions import to_position
from domain.wolves.records import canonical_json, read_record
from domain.wolves.replay import replay
from domain.wolves.scoring import final_scores
from tests.store.conftest import record_bytes

STORED = Path(__file__).parents[1] / "fixtures" / "stored" / "wolves-1-2p-05-heuristic.json"
OLD = json.loads(STORED.read_text())


def version_1(state: bytes, *dropped: str) -> bytes:
    """A stored state as version 1 of the store wrote it: without ``dropped`` (the fields
    version 2 added) and without a ``class_version``."""
    doc = json.loads(state)
    for key in (*dropped, "class_version"):
        doc.pop(key)
    return json.dumps(doc, separators=(",", ":")).encode()


def store_old_game(
    library: GameLibrary,
    record: str = OLD["record"],
    snapshot: bool = False,
    events: list[list[Any]] = OLD["events"],
) -> UUID:
    """Save the fixture's stream (with ``record`` as its record, ``events`` as its events) as
    the ``wolves-1`` engine and version 1 of the store kept it: an ``Uploaded`` naming no
    game and leaving ``finished`` to the events, then its ``Happened`` events; with
    ``snapshot``, also the snapshot of the aggregate that version took (naming no game
    either)."""
    digest = record_digest(record.encode())
    game = Game(
        game="the-wolves", digest=digest, record=record, uploaded_by=None, title=None, tags=[],
        visibility="public", rules_version=OLD["rules_version"],
        actions=len(json.loads(record)["actions"]), finished=None,
    )  # fmt: skip
    for step, kind, data in events:
        game.happened(step, kind, data)
    stored = [library.mapper.to_stored_event(e) for e in game.collect_events()]
    uploaded = stored[0]
    stored[0] = dataclasses.replace(uploaded, state=version_1(uploaded.state, "game", "finished"))
    library.recorder.insert_events(stored)
    if snapshot:
        taken = library.mapper.to_stored_event(Game.Snapshot.take(game))
        doc = json.loads(taken.state)
        doc["state"] = json.loads(version_1(json.dumps(doc["state"]).encode(), "game"))
        state = json.dumps(doc, separators=(",", ":")).encode()
        assert library.snapshots is not None
        library.snapshots.recorder.insert_events([dataclasses.replace(taken, state=state)])
    assert game.id == game_id_for(digest)
    return game.id


@pytest.mark.parametrize("snapshot", [False, True], ids=["events", "snapshot"])
def test_old_game_replays_as_stored(library: GameLibrary, snapshot: bool) -> None:
    game_id = store_old_game(library, snapshot=snapshot)
    info = library.info(game_id)
    assert (info.game, info.rules_version, info.finished) == ("the-wolves", "wolves-1", True)
    assert RULES_VERSION != "wolves-1"
    final = library.state_at(game_id)
    assert final.finished == OLD["finished"]
    assert [dataclasses.asdict(s) for s in final_scores(final)] == OLD["scores"]
    stored = OLD["final_position"]
    for board in stored["boards"]:
        board["flipped"][0] = False  # W-5: the faction tile is never shown flipped any more
    assert to_position(final) == stored
    assert len(library.game_events(game_id)) == len(OLD["events"])
    # the current engine would leave the last turn open: the game is not over yet
    assert not replay(read_record(OLD["record"])).state.finished


def test_migrate_reports_the_old_game_whose_result_would_change(library: GameLibrary) -> None:
    game_id = store_old_game(library)
    current = library.upload(record_bytes(3, 11)).game_id
    (found,) = recheck_all(library)
    assert (found.game_id, found.rules_version, found.change) == (game_id, "wolves-1", RESULT)
    assert found.detail == "finished → in progress"
    assert {r.game_id: r.change for r in recheck_all(library, every=True)}[current] == UNCHANGED


def test_migrate_reports_an_old_record_the_reader_now_refuses(library: GameLibrary) -> None:
    doc = json.loads(OLD["record"])
    doc["meta"] = {f"note{i}": "kept" for i in range(MAX_META_KEYS + 1)}  # once allowed
    game_id = store_old_game(library, canonical_json(doc).decode())
    (found,) = recheck_all(library)
    assert (found.game_id, found.change) == (game_id, ILLEGAL)
    assert found.detail == (
        f"the record reader refuses it: meta: at most {MAX_META_KEYS} entries, not "
        f"{MAX_META_KEYS + 1}"
    )
