"""The game library on SQLite and PostgreSQL: upload, idempotence, reading back, metadata."""

from __future__ import annotations

import json
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from uuid import UUID

import pytest

from domain.store import (
    Game,
    GameLibrary,
    StoreConfig,
    UnknownGame,
    UploadResult,
    game_id_for,
    record_digest,
)
from domain.store.uploads import EncodedGame, encode, prepare_record
from domain.wolves import codec
from domain.wolves.positions import to_position
from domain.wolves.records import InvalidRecord, read_record, write_record
from domain.wolves.replay import RecordError, replay
from tests.games import random_game
from tests.store.conftest import record_bytes, stored_count


def test_upload_stores_every_event_of_the_game(library: GameLibrary) -> None:
    data = record_bytes(3, seed=101)
    played = replay(read_record(data))

    result = library.upload(data, uploaded_by="alice")

    assert result.created
    assert result.game_id == game_id_for(record_digest(data))
    expected = [(step, e) for step, events in enumerate(played.steps) for e in events]
    stored = library.game_events(result.game_id)
    assert [(e.step, e.event) for e in stored] == expected
    assert [e.seq for e in stored] == list(range(len(expected)))
    assert stored_count(library) == 1 + len(expected)  # Uploaded, then one per domain event
    info = library.info(result.game_id)
    assert (info.actions, info.events, info.finished) == (len(played.steps), len(expected), True)


def test_events_page_through_the_stream(library: GameLibrary) -> None:
    game_id = library.upload(record_bytes(2, seed=102)).game_id
    every = library.game_events(game_id)
    library.retitle(game_id, "metadata events come after the domain events")

    assert library.game_events(game_id, start=10, limit=5) == every[10:15]
    assert library.game_events(game_id, start=len(every) - 2, limit=10) == every[-2:]
    assert library.game_events(game_id, start=len(every)) == []
    assert library.game_events(game_id) == every
    assert every[3].to_json() == {
        "seq": 3,
        "step": every[3].step,
        **codec.event_to_json(every[3].event),
    }
    with pytest.raises(UnknownGame):
        library.game_events(UUID(int=1))


def test_an_illegal_record_stores_nothing(library: GameLibrary) -> None:
    library.upload(record_bytes(3, seed=103))
    before = stored_count(library)
    doc = json.loads(record_bytes(3, seed=104))
    doc["actions"][40]["player"] = (doc["actions"][40]["player"] + 1) % 3  # out of turn

    with pytest.raises(RecordError) as err:
        library.upload(json.dumps(doc).encode())
    assert err.value.to_json()["index"] == 40
    with pytest.raises(InvalidRecord):
        library.upload(b'{"format": "howl.game", "version": 1, "actions": [')

    assert stored_count(library) == before
    assert not library.exists(game_id_for(record_digest(write_record(read_record(doc)))))


def test_uploading_the_same_game_again_stores_nothing(library: GameLibrary) -> None:
    data = record_bytes(4, seed=105)
    first = library.upload(data)
    count = stored_count(library)
    pretty = json.dumps(json.loads(data), indent=2).encode()  # same game, other formatting

    again = library.upload(data, title="another title")
    reformatted = library.upload(pretty)

    assert first.created and not again.created and not reformatted.created
    assert first.game_id == again.game_id == reformatted.game_id
    assert stored_count(library) == count
    assert library.info(first.game_id).title == "random game 105"


def test_a_game_saved_meanwhile_is_reported_as_existing(
    library: GameLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = record_bytes(2, seed=106)
    first = library.upload(data)
    count = stored_count(library)
    monkeypatch.setattr(library, "exists", lambda game_id: False)  # lose the race

    again = library.upload(data)

    assert again == type(first)(first.game_id, created=False)
    assert stored_count(library) == count


def test_concurrent_uploads_of_one_record_store_it_once(library: GameLibrary) -> None:
    data = record_bytes(3, seed=107)
    barrier = threading.Barrier(8)
    results: list[UploadResult | Exception] = []

    def upload() -> None:
        barrier.wait()
        try:
            results.append(library.upload(data))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            results.append(exc)

    threads = [threading.Thread(target=upload) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    game_id = game_id_for(record_digest(data))
    uploaded = [(r.game_id, r.created) for r in results if isinstance(r, UploadResult)]
    assert sorted(uploaded) == sorted([(game_id, True)] + [(game_id, False)] * 7), results
    assert stored_count(library) == 1 + library.info(game_id).events


@pytest.mark.parametrize("players, seed", [(2, 108), (5, 109)])
def test_state_at_every_step_equals_replaying(
    library: GameLibrary, players: int, seed: int
) -> None:
    game = random_game(players, seed)
    data = write_record(game.record)
    record = read_record(data)
    game_id = library.upload(data).game_id
    full = replay(record)

    assert library.steps(game_id) == len(record.actions)
    for step in range(len(record.actions) + 1):
        state = library.state_at(game_id, step)
        assert state == game.states[step] == full.state_at(step), step
    assert library.state_at(game_id) == full.state
    assert library.position_at(game_id, 30) == to_position(replay(record, at=30).state)
    with pytest.raises(ValueError, match="step"):
        library.state_at(game_id, len(record.actions) + 1)


def test_state_at_is_read_from_the_store(store_config: StoreConfig) -> None:
    data = record_bytes(3, seed=110)
    with GameLibrary.open(store_config) as writer:
        game_id = writer.upload(data).game_id
    with GameLibrary.open(store_config) as reader:  # a fresh process's view: nothing cached
        assert reader.state_at(game_id, 25) == replay(read_record(data), at=25).state
        caller_owned = reader.state_at(game_id, 25)
        caller_owned.pieces.clear()
        assert reader.state_at(game_id, 25) == replay(read_record(data), at=25).state


def test_record_export_is_byte_identical(library: GameLibrary) -> None:
    data = record_bytes(5, seed=111)
    game_id = library.upload(data).game_id
    pretty = json.dumps(json.loads(record_bytes(2, seed=112)), indent=1).encode()
    other = library.upload(pretty).game_id

    assert library.record(game_id) == data
    assert library.record(other) == write_record(read_record(pretty)) == record_bytes(2, 112)
    with pytest.raises(UnknownGame):
        library.record(UUID(int=2))


def test_metadata_is_stored_as_events(store_config: StoreConfig) -> None:
    data = record_bytes(2, seed=113)
    with GameLibrary.open(store_config) as library:
        game_id = library.upload(
            data, uploaded_by="alice", title="Club night", tags=["club", " final ", "club"],
            visibility="private",
        ).game_id  # fmt: skip
        info = library.info(game_id)
        assert (info.uploaded_by, info.title, info.tags, info.visibility) == (
            "alice", "Club night", ("club", "final"), "private",
        )  # fmt: skip
        game: Game = library.repository.get(game_id)
        version = game.version

        library.retitle(game_id, "Club night #12")
        library.retag(game_id, ["club"])
        library.set_visibility(game_id, "public")
        library.set_visibility(game_id, "public")  # no change, no event
        with pytest.raises(ValueError, match="visibility"):
            library.set_visibility(game_id, "secret")

    with GameLibrary.open(store_config) as library:
        info = library.info(game_id)
        assert (info.title, info.tags, info.visibility) == ("Club night #12", ("club",), "public")
        assert info.uploaded_at == library.repository.get(game_id, version=1).created_on
        changes = list(library.events.get(game_id, gt=version))
        assert [type(e) for e in changes] == [Game.Retitled, Game.Retagged, Game.VisibilityChanged]
        assert library.record(game_id) == data
        with pytest.raises(UnknownGame):
            library.info(UUID(int=3))


def test_a_title_defaults_to_the_records(library: GameLibrary) -> None:
    doc = json.loads(record_bytes(2, seed=114))
    doc.pop("meta", None)
    untitled = library.upload(json.dumps(doc)).game_id
    titled = library.upload(record_bytes(2, seed=115)).game_id

    assert library.info(untitled).title is None
    assert library.info(titled).title == "random game 115"


def _encoded(data: bytes) -> EncodedGame:
    return encode(prepare_record(data, uploaded_by="alice", title="Encoded elsewhere"))


def test_a_game_encoded_in_another_process_is_stored_as_an_upload_stores_it(
    library: GameLibrary, store_config: StoreConfig, tmp_path: Path
) -> None:
    data = record_bytes(4, seed=109)
    with ProcessPoolExecutor(1, multiprocessing.get_context("spawn")) as other:
        encoded = other.submit(_encoded, data).result()

    assert library.add(encoded) == UploadResult(encoded.game_id, created=True)
    assert library.add(encoded) == UploadResult(encoded.game_id, created=False)
    other_store = (
        replace(store_config, schema=f"{store_config.schema}_b")
        if store_config.url.startswith("postgresql")
        else StoreConfig(f"sqlite:///{tmp_path / 'beside.sqlite3'}")
    )
    with GameLibrary.open(other_store) as beside:
        assert not beside.exists(encoded.game_id)
        uploaded = beside.upload(data, uploaded_by="alice", title="Encoded elsewhere").game_id
        assert uploaded == encoded.game_id
        assert [(e.step, e.event) for e in library.game_events(encoded.game_id)] == [
            (e.step, e.event) for e in beside.game_events(uploaded)
        ]
        mine, theirs = library.info(encoded.game_id), beside.info(uploaded)
        assert replace(mine, uploaded_at=theirs.uploaded_at) == theirs
    assert library.snapshots is not None  # the snapshot is stored, and read
    assert len(list(library.snapshots.get(encoded.game_id))) == 1
    assert library.record(encoded.game_id) == data
