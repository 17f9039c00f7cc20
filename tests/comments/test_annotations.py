"""A record's ``annotations`` (records.md): exported with a game's comments, uploaded
elsewhere as the same comments, bounded by the reader, ignored by readers that do not
know them, and never part of the game's identity."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from api.cli import main
from domain import games
from domain.documents import Annotation
from domain.ruleset import InvalidRecord
from domain.store import GameLibrary, game_id_for, record_digest
from domain.store.comments import add_comments
from domain.wolves import records as wolves_records
from tests.api.conftest import Server, record_of
from tests.comments.conftest import ANA, BO, GAME, comment, stored

StartServer = Callable[..., Server]
MOONLIGHT = Path(__file__).parents[1] / "fixtures" / "moonlight" / "00-greedy.json"


def with_notes(record: bytes, notes: list[dict[str, object]]) -> bytes:
    """``record`` with these ``annotations``."""
    return json.dumps({**json.loads(record), "annotations": notes}).encode()


def listed(server: Server, game_id: str) -> list[tuple[int, str | None, str]]:
    found = server.client.get(f"/api/games/{game_id}/comments").json["comments"]
    return [(c["step"], c["author"], c["text"]) for c in found]


def test_an_exported_record_uploaded_elsewhere_brings_the_same_comments(
    fresh_server: StartServer, elsewhere: Server
) -> None:
    here, there = fresh_server(), elsewhere
    game_id = stored(here.client)
    comment(here.client, game_id, 30, "The lair that won it.\nW-6.3.")
    comment(here.client, game_id, 0, "Quiet start.", token=BO)
    exported = here.client.get(f"/api/games/{game_id}/record").body
    assert len(json.loads(exported)["annotations"]) == 2

    uploaded = there.client.upload(exported, token=BO)
    assert uploaded.status == 201, uploaded.body
    assert uploaded.json["game_id"] == game_id  # the game is the same with its comments
    assert listed(there, game_id) == listed(here, game_id) == [
        (0, "bo", "Quiet start."), (30, "ana", "The lair that won it.\nW-6.3."),
    ]  # fmt: skip
    assert there.client.get(f"/api/games/{game_id}/record").body == exported

    again = there.client.upload(exported, token=ANA)
    assert again.status == 200 and again.json["game_id"] == game_id
    assert len(listed(there, game_id)) == 2  # nothing twice
    over = {"step": 77, "text": "Over."}
    more = with_notes(exported, [*json.loads(exported)["annotations"], over, over])
    grown = there.client.upload(more, token=ANA)
    assert grown.status == 200 and grown.json["game_id"] == game_id
    assert listed(there, game_id)[-1] == (77, "ana", "Over.")  # the uploader's, once
    assert len(listed(there, game_id)) == 3


@pytest.mark.parametrize(
    ("notes", "path"),
    [
        ({"step": 1, "text": "not a list"}, "annotations"),
        ([{"step": 1, "text": "ok"}, {"step": 78, "text": "past the end"}], "annotations[1].step"),
        ([{"step": -1, "text": "before"}], "annotations[0].step"),
        ([{"text": "no step"}], "annotations[0].step"),
        ([{"step": 1}], "annotations[0].text"),
        ([{"step": 1, "text": ""}], "annotations[0].text"),
        ([{"step": 1, "text": "x" * 2001}], "annotations[0].text"),
        ([{"step": 1, "text": "a bell \u0007"}], "annotations[0].text"),
        ([{"step": 1, "text": "ok", "author": ""}], "annotations[0].author"),
        ([{"step": 1, "text": "ok", "author": "a" * 65}], "annotations[0].author"),
        ([{"step": 1, "text": "ok", "author": 5}], "annotations[0].author"),
        ([{"step": 1, "text": "ok"}] * 501, "annotations"),
        (["a string"], "annotations[0]"),
    ],
)
def test_the_reader_bounds_annotations_naming_the_path(notes: object, path: str) -> None:
    record = json.loads(record_of(GAME))
    with pytest.raises(InvalidRecord) as caught:
        games.read_record({**record, "annotations": notes})
    assert caught.value.path == path


def test_a_record_with_bad_annotations_is_refused_whole(fresh_server: StartServer) -> None:
    server = fresh_server()
    bad = with_notes(record_of(GAME), [{"step": 3, "text": "fine"}, {"step": 3, "text": "\x1b"}])
    reply = server.client.upload(bad, token=ANA)
    assert reply.status == 422 and reply.json["type"].endswith("invalid_record")
    assert reply.json["path"] == "annotations[1].text"
    game_id = str(game_id_for(record_digest(record_of(GAME))))
    assert server.client.get(f"/api/games/{game_id}").status == 404


def test_moonlight_records_carry_annotations_too(fresh_server: StartServer) -> None:
    server = fresh_server()
    record = with_notes(MOONLIGHT.read_bytes(), [{"step": 2, "author": "Cy", "text": "M-3!"}])
    reply = server.client.upload(record, token=ANA)
    assert reply.status == 201, reply.body
    assert listed(server, reply.json["game_id"]) == [(2, "Cy", "M-3!")]


def test_readers_that_do_not_know_annotations_ignore_them(tmp_path: Path) -> None:
    plain = record_of(GAME)
    record = with_notes(plain, [{"step": 3, "author": "Ana", "text": "A note."}])
    old = wolves_records.read_record(record)  # a game's own reader, as before annotations
    assert wolves_records.write_record(old) == wolves_records.write_record(
        wolves_records.read_record(plain)
    )
    path = tmp_path / "annotated.json"
    path.write_bytes(record)
    validated = CliRunner().invoke(main, ["validate", str(path)])
    assert validated.exit_code == 0, validated.output
    assert validated.output.startswith("ok: 2 players, 77 actions, finished")
    path.write_bytes(with_notes(plain, [{"step": 3, "text": "\x00"}]))
    refused = CliRunner().invoke(main, ["validate", str(path)])
    assert refused.exit_code == 1
    assert json.loads(refused.output)["path"] == "annotations[0].text"


def test_howl_export_prints_the_record_with_its_annotations(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOWL_DATABASE_URL", sqlite_url)
    with GameLibrary.open(sqlite_url) as library:
        game_id = library.upload(record_of(GAME)).game_id
        add_comments(library, game_id, [Annotation(4, None, "Four.")])
        stored_record = library.record(game_id)
    exported = CliRunner().invoke(main, ["export", str(game_id)])
    assert exported.exit_code == 0, exported.output
    doc = json.loads(exported.stdout_bytes)
    assert doc.pop("annotations") == [{"step": 4, "author": None, "text": "Four."}]
    assert doc == json.loads(stored_record)
    assert UUID(str(game_id)) == game_id_for(record_digest(stored_record))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_howl_import_stores_a_records_annotations_as_its_comments(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """An exported record imported into another store brings its comments, once."""
    monkeypatch.setenv("HOWL_DATABASE_URL", sqlite_url)
    notes = [{"step": 4, "author": "ana", "text": "Four."}, {"step": 0, "text": "Start."}]
    path = tmp_path / "game.json"
    path.write_bytes(with_notes(record_of(GAME), notes))
    for _ in range(2):  # again: a duplicate game, and no comment twice
        imported = CliRunner().invoke(main, ["import", "--jobs", jobs, str(path)])
        assert imported.exit_code == 0, imported.output
    with GameLibrary.open(sqlite_url) as library:
        (game_id,) = library.game_ids()
        exported = json.loads(CliRunner().invoke(main, ["export", str(game_id)]).stdout_bytes)
    assert exported["annotations"] == [
        {"step": 0, "author": None, "text": "Start."},
        {"step": 4, "author": "ana", "text": "Four."},
    ]
