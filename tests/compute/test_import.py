"""``howl import --scheduler``: records checked on the test cluster are stored as those
checked by local processes, on both backends, and a bad record is reported the same way."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from domain.store import GameLibrary, game_id_for, record_digest
from tests.analysis.conftest import CORPUS
from tests.compute.conftest import Store, howl, howl_here, new_store

RECORDS = 20


@pytest.fixture
def records(tmp_path: Path) -> Path:
    """A folder of 19 fixture records and, last, one whose action 20 is played out of turn."""
    folder = tmp_path / "records"
    folder.mkdir()
    names = sorted(p.name for p in CORPUS.glob("*.json") if not p.name.endswith(".expected.json"))
    for name in names[: RECORDS - 1]:
        (folder / name).write_bytes((CORPUS / name).read_bytes())
    bad = json.loads((CORPUS / names[RECORDS - 1]).read_bytes())
    seats = len(bad["players"])
    bad["actions"][20]["player"] = (bad["actions"][20]["player"] + 1) % seats
    (folder / "zz-out-of-turn.json").write_text(json.dumps(bad))
    return folder


def contents(store: Store) -> list[tuple[dict[str, Any], bytes]]:
    """Every stored game in upload order: its metadata and counts (but the upload time) and
    its record."""
    with GameLibrary.open(store.config) as library:
        return [
            ({k: v for k, v in asdict(library.info(g)).items() if k != "uploaded_at"},
             library.record(g))
            for g in library.game_ids()
        ]  # fmt: skip


def test_an_import_checked_on_the_cluster_stores_what_local_processes_store(
    scheduler: str, store_url: str, records: Path, tmp_path: Path
) -> None:
    """The cluster's ``howl`` runs as a command, the local one in this process."""
    pg = store_url if store_url.startswith("postgresql") else None
    on_cluster, local = new_store(tmp_path, "cluster", pg), new_store(tmp_path, "local", pg)

    remote = howl(on_cluster.env, "import", "--scheduler", scheduler, str(records))
    here = howl_here(local.env, "import", "--jobs", "2", str(records))

    assert f"running on Dask at {scheduler}" in remote.stderr
    assert "running on 2 local processes" in here.stderr
    assert remote.returncode == here.exit_code == 1, remote.stderr + here.stderr
    assert remote.stdout == here.stdout
    *errors, summary = remote.stdout.splitlines()
    assert summary == f"imported {RECORDS - 1}, duplicates 0, failed 1 ({RECORDS} files)"
    label, _, error = errors[0].partition(": ")
    assert len(errors) == 1 and label == str(records / "zz-out-of-turn.json")
    assert json.loads(error)["error"] == "illegal_action" and json.loads(error)["index"] == 20

    stored = contents(on_cluster)
    assert stored == contents(local)
    good = sorted(p for p in records.glob("*.json") if p.name != "zz-out-of-turn.json")
    assert [info["game_id"] for info, _ in stored] == [
        game_id_for(record_digest(p.read_bytes())) for p in good
    ]
    assert [data for _, data in stored] == [p.read_bytes() for p in good]
    assert all(info["events"] > info["actions"] > 0 for info, _ in stored)
