"""``howl import``, ``howl export`` and ``howl migrate``, run as the installed command
on both backends."""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from pathlib import Path

import pytest

from domain.store import GameLibrary, StoreConfig, game_id_for, record_digest
from domain.wolves.components import RULES_VERSION
from domain.wolves.positions import to_position
from domain.wolves.records import canonical_json, read_record
from domain.wolves.replay import replay
from tests.store.conftest import HOWL, howl, record_bytes
from tests.store.test_old_rules import store_old_game


def test_the_default_store_is_the_users_wherever_a_command_runs(tmp_path: Path) -> None:
    """Without HOWL_DATABASE_URL, every folder imports into the one store in the user's data
    folder ($XDG_DATA_HOME/howl/howl.db), and each command names it on standard error. A
    game's id may be given by its first 8 hex digits."""
    data, here, there = tmp_path / "data", tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOWL_DATABASE")}
    env["XDG_DATA_HOME"] = str(data)
    store = data / "howl" / "howl.db"
    said = f"store: SQLite {store} (HOWL_DATABASE_URL)\n".encode()
    games = (record_bytes(2, seed=411), record_bytes(2, seed=412))
    for folder, game in zip((here, there), games, strict=True):
        run = subprocess.run([HOWL, "import", "-"], input=game, capture_output=True, env=env,
                             cwd=folder, timeout=300, check=False)  # fmt: skip
        assert run.returncode == 0, run.stderr.decode()
        assert run.stderr.startswith(said) and b"imported 1," in run.stdout
        assert list(folder.iterdir()) == []
    game_id = str(game_id_for(record_digest(games[0])))
    exported = subprocess.run([HOWL, "export", game_id[:8]], capture_output=True, env=env,
                              cwd=there, timeout=300, check=False)  # fmt: skip
    assert exported.returncode == 0 and exported.stderr == said  # a unique prefix names it
    assert exported.stdout == games[0]
    other = next(p for p in (f"{n:08x}" for n in range(100)) if not game_id.startswith(p))
    unknown = subprocess.run([HOWL, "export", other], capture_output=True, env=env,
                             timeout=300, check=False)  # fmt: skip
    assert unknown.returncode == 1
    assert f"No stored game's id begins with {other}.".encode() in unknown.stderr
    with GameLibrary.open(StoreConfig(f"sqlite:///{store}")) as library:
        assert len(list(library.game_ids())) == 2


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_import_a_folder_with_good_duplicate_and_bad_files(
    tmp_path: Path, env: dict[str, str], jobs: str
) -> None:
    """In one process, or with records checked by three worker processes."""
    games = [record_bytes(2, seed=401), record_bytes(3, seed=402), record_bytes(2, seed=403)]
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "a.json").write_bytes(games[0])
    (tmp_path / "sub" / "b.json").write_bytes(games[1])
    (tmp_path / "sub" / "deeper" / "c.json").write_bytes(games[2])
    (tmp_path / "sub" / "copy-of-a.json").write_text(json.dumps(json.loads(games[0]), indent=2))
    illegal = json.loads(games[1])
    illegal["actions"][20]["player"] = (illegal["actions"][20]["player"] + 1) % 3
    (tmp_path / "sub" / "illegal.json").write_text(json.dumps(illegal))
    (tmp_path / "broken.json").write_text('{"format": "howl.game", ')
    (tmp_path / "notes.txt").write_text("not a record")

    first = howl(env, "import", "--jobs", jobs, str(tmp_path))

    out = first.stdout.decode()
    assert first.returncode == 1, first.stderr.decode()
    assert out.splitlines()[-1] == "imported 3, duplicates 1, failed 2 (6 files)"
    errors = {
        line.partition(": ")[0]: json.loads(line.partition(": ")[2])
        for line in out.splitlines()[:-1]
    }
    assert errors[str(tmp_path / "broken.json")]["error"] == "invalid_record"
    assert errors[str(tmp_path / "sub" / "illegal.json")]["error"] == "illegal_action"
    assert errors[str(tmp_path / "sub" / "illegal.json")]["index"] == 20

    again = howl(env, "import", "--jobs", jobs, str(tmp_path / "a.json"), str(tmp_path / "sub"))
    assert again.returncode == 1
    assert again.stdout.decode().splitlines()[-1] == "imported 0, duplicates 4, failed 1 (5 files)"

    for data in games:
        exported = howl(env, "export", str(game_id_for(record_digest(data))))
        assert exported.returncode == 0, exported.stderr.decode()
        assert exported.stdout == data


def test_import_from_stdin_and_export_a_position(env: dict[str, str]) -> None:
    data = record_bytes(4, seed=404)
    game_id = str(game_id_for(record_digest(data)))

    imported = howl(env, "import", "-", stdin=data)
    assert imported.returncode == 0, imported.stdout.decode() + imported.stderr.decode()
    assert (
        imported.stdout.decode().splitlines()[-1] == "imported 1, duplicates 0, failed 0 (1 files)"
    )

    position = howl(env, "export", game_id, "--at", "12")
    assert position.returncode == 0, position.stderr.decode()
    expected = to_position(replay(read_record(data), at=12).state)
    assert position.stdout == canonical_json(expected)

    too_far = howl(env, "export", game_id, "--at", "100000")
    assert too_far.returncode == 2
    assert "step" in too_far.stderr.decode()
    unknown = howl(env, "export", str(uuid.UUID(int=5)))
    assert unknown.returncode == 1
    assert "no game" in unknown.stderr.decode()


def test_migrate_lists_old_games_whose_result_would_change(env: dict[str, str]) -> None:
    """A game stored under rules ``wolves-1`` (see ``test_old_rules``) and one of the current
    rules: only the old one is re-checked, and its result would change."""
    config = StoreConfig(env["HOWL_DATABASE_URL"], schema=env["HOWL_DATABASE_SCHEMA"])
    with GameLibrary.open(config) as library:
        game_id = store_old_game(library)
        library.upload(record_bytes(3, 11))
    result = howl(env, "migrate")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert lines == [
        f"{game_id} (wolves-1) result: finished → in progress",
        f"re-checked 1 game under the current rules ({RULES_VERSION}): 0 unchanged, 0 with "
        "other events but the same result, 1 with another result, 0 now illegal",
    ]
