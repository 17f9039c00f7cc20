"""``howl simulate --scheduler``: the games played on the test cluster are written byte for
byte as those played by local processes."""

from __future__ import annotations

from pathlib import Path

from distributed import Client, get_task_stream

from tests.compute.conftest import howl, howl_env, howl_here

GAMES = 3


def written(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_simulate_on_the_cluster_writes_the_files_local_processes_write(
    scheduler: str, client: Client, tmp_path: Path
) -> None:
    """The first game is played by the command itself, the others by workers; the local
    run is made in this process."""
    env = howl_env()
    args = ["simulate", "--games", str(GAMES), "--players", "2..3", "--seed", "7"]
    with get_task_stream(client) as stream:
        remote = howl(env, *args, "--scheduler", scheduler, "--out", str(tmp_path / "cluster"))
    here = howl_here(env, *args, "--workers", "2", "--out", str(tmp_path / "local"))

    assert remote.returncode == here.exit_code == 0, remote.stderr + here.output
    assert f"running on Dask at {scheduler}" in remote.stderr
    assert [t["key"].partition("-")[0] for t in stream.data] == ["simulate_one"] * (GAMES - 1)
    files = written(tmp_path / "cluster")
    assert files == written(tmp_path / "local")
    assert sorted(files) == ["game-7-00001-2p.json", "game-7-00002-3p.json", "game-7-00003-2p.json"]
    assert remote.stdout.splitlines()[1:] == here.stdout.splitlines()[1:]  # but the time taken
