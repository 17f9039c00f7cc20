"""``howl analyse`` on the test cluster: a batch of stored games (``--all``) and one game's
steps reviewed there as in this process, the games ``--all`` selects, a cluster started on
this machine, and the errors: a review that always fails, a cluster lost mid-batch, no Dask."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from uuid import UUID

import pytest
from distributed import Client, get_task_stream

from domain.store import GameLibrary
from domain.wolves.analysis.review import Settings, review
from domain.wolves.records import read_record
from projections.analysis import Analyses
from services.compute import EXTRA_HINT
from tests.api.serving import free_port
from tests.compute.conftest import (
    Store,
    cluster_of_one,
    howl,
    howl_here,
    kill,
    new_store,
    short_game,
)
from tests.compute.tasks import break_reviews
from tests.games import FIXTURES
from tests.store.conftest import HOWL

GAMES = ("2p-03-heuristic", "2p-04-heuristic", "2p-02-heuristic", "2p-00-heuristic")
"""The four shortest two-player fixture games (52 to 77 actions), reviewed whole."""
CHEAP = ["--playouts", "1", "--candidates", "1"]
SETTINGS = Settings(playouts=1, candidates=1)
CONNECT_SECONDS = 2
"""Dask's connect timeout in the tests of a scheduler that does not answer."""


def stored(store: Store, records: list[bytes]) -> list[UUID]:
    """Upload ``records`` to ``store``; their game ids."""
    with GameLibrary.open(store.config) as library:
        return [library.upload(data).game_id for data in records]


def reviews(store: Store, games: list[UUID]) -> list[dict[str, object] | None]:
    """The stored review of each game at :data:`SETTINGS` (None when there is none)."""
    analyses = Analyses(store.url)
    return [analyses.status(game, SETTINGS.key)["result"] for game in games]


def test_a_batch_on_the_cluster_equals_the_reviews_made_in_this_process(
    scheduler: str, client: Client, tmp_path: Path
) -> None:
    """Same games, same settings and seed: the same reviews; one task per game ran on the
    cluster; a second run finds nothing due."""
    records = [(FIXTURES / f"{name}.json").read_bytes() for name in GAMES]
    store = new_store(tmp_path, "store")
    games = stored(store, records)

    with get_task_stream(client) as stream:
        run = howl(store.env, "analyse", "--all", *CHEAP, "--scheduler", scheduler)
    assert run.returncode == 0, run.stderr
    assert f"running on Dask at {scheduler}: 2 worker threads" in run.stderr
    assert run.stdout.splitlines()[-1] == "reviewed 4 games, failed 0"
    assert sorted(t["key"].partition("-")[0] for t in stream.data) == ["review_due"] * 4

    expected = [json.loads(json.dumps(review(read_record(data), SETTINGS, None, 1).to_json()))
                for data in records]  # fmt: skip
    assert reviews(store, games) == expected
    nothing = "no stored game is due for a review at these settings\n"
    assert analyse(store, "--all", *CHEAP, "--scheduler", scheduler) == nothing


def analyse(store: Store, *args: str) -> str:
    """``howl analyse ARGS…`` in this process on ``store``; its standard output (exit 0)."""
    result = howl_here(store.env, "analyse", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_one_games_steps_are_reviewed_on_the_cluster(
    scheduler: str, client: Client, tmp_path: Path
) -> None:
    store = new_store(tmp_path, "store")
    record = short_game("2p-02-heuristic", 10)
    (game,) = stored(store, [record])
    with get_task_stream(client) as stream:
        analyse(store, str(game), *CHEAP, "--scheduler", scheduler)
    assert [t["key"].partition("-")[0] for t in stream.data] == ["review_step"] * 10
    expected = review(read_record(record), SETTINGS, None, 1).to_json()
    assert reviews(store, [game]) == [json.loads(json.dumps(expected))]


def test_game_and_since_select_the_games_reviewed(scheduler: str, tmp_path: Path) -> None:
    """``--since`` compares a record's ``meta.played_on`` (else the upload day, today);
    ``--game`` keeps one game's records (Moonlight has none to review: refused); what is
    reviewed is not due again."""
    store = new_store(tmp_path, "store")
    january, march, undated = stored(store, [
        short_game("2p-03-heuristic", 6, played_on="2026-01-10"),
        short_game("2p-03-heuristic", 6, played_on="2026-03-01"),
        short_game("2p-03-heuristic", 6),
    ])  # fmt: skip
    with_cluster = [*CHEAP, "--scheduler", scheduler]

    out = analyse(store, "--all", "--since", "2026-02-01", *with_cluster)
    assert out.splitlines()[-1] == "reviewed 2 games, failed 0"
    assert [doc is not None for doc in reviews(store, [january, march, undated])] == [
        False, True, True,
    ]  # fmt: skip
    nothing = "no stored game is due for a review at these settings\n"
    assert analyse(store, "--all", "--since", "2026-02-01", *with_cluster) == nothing
    refused = howl_here(store.env, "analyse", "--all", "--game", "moonlight", *with_cluster)
    assert refused.exit_code == 1 and "no review for this game yet: Moonlight" in refused.output
    out = analyse(store, "--all", "--game", "the-wolves", *with_cluster)
    assert out.splitlines()[-1] == "reviewed 1 game, failed 0"
    assert all(doc is not None for doc in reviews(store, [january]))
    assert analyse(store, "--all", *with_cluster) == nothing


def test_all_with_a_game_and_since_without_all_are_usage_errors(tmp_path: Path) -> None:
    """So is a ``--game`` that no ruleset plays; nothing is reviewed."""
    store = new_store(tmp_path, "store")
    (game,) = stored(store, [short_game("2p-03-heuristic", 4)])
    for args, said in (
        (["--all", str(game)], "--all reviews the stored games"),
        (["--since", "2026-01-01", str(game)], "--game and --since go with --all"),
        (["--game", "the-wolves", str(game)], "--game and --since go with --all"),
        (["--all", "--game", "chess"], "Invalid value for --game"),
    ):
        result = howl_here(store.env, "analyse", *args)
        assert result.exit_code == 2, result.output
        assert said in result.output
    assert reviews(store, [game]) == [None]


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    """A closed port: ``analyse --all`` (``--scheduler``) and ``import``
    (``HOWL_DASK_SCHEDULER``) each exit 1 saying so, within Dask's connect timeout (set
    low here through Dask's own configuration variable)."""
    store = new_store(tmp_path, "store")
    record = short_game("2p-03-heuristic", 4)
    (game,) = stored(store, [record])
    (tmp_path / "game.json").write_bytes(short_game("2p-04-heuristic", 4))
    address = f"tcp://127.0.0.1:{free_port()}"
    env = {**store.env, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": f"{CONNECT_SECONDS}s"}
    start = time.monotonic()
    runs = [
        subprocess.Popen([HOWL, "analyse", "--all", *CHEAP, "--scheduler", address],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
        subprocess.Popen([HOWL, "import", str(tmp_path / "game.json")],
                         env={**env, "HOWL_DASK_SCHEDULER": address},
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
    ]  # fmt: skip
    for run in runs:
        _, err = run.communicate(timeout=60)
        assert run.returncode == 1, err
        assert f"Error: no Dask scheduler answers at {address}" in err
    assert time.monotonic() - start < 15  # Dask's connect timeout, as set, not its 30 s
    assert reviews(store, [game]) == [None]
    with GameLibrary.open(store.config) as library:
        assert list(library.game_ids()) == [game]


def test_a_malformed_scheduler_address_is_a_clear_error(tmp_path: Path) -> None:
    store = new_store(tmp_path, "store")
    (game,) = stored(store, [short_game("2p-03-heuristic", 4)])
    result = howl_here(store.env, "analyse", str(game), *CHEAP, "--scheduler", "nonsense")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "Error: no Dask scheduler answers at nonsense: missing port number" in result.output
    assert reviews(store, [game]) == [None]


def test_a_review_that_fails_on_every_try_is_said_and_the_batch_exits_1(
    scheduler: str, client: Client, tmp_path: Path
) -> None:
    """The workers cannot review one of three games: the other two are saved, the failure is
    named with its error, and that game is still due."""
    store = new_store(tmp_path, "store")
    games = stored(store, [short_game("2p-03-heuristic", n) for n in (4, 5, 6)])
    client.run(break_reviews, frozenset({str(games[1])}))
    try:
        result = howl_here(store.env, "analyse", "--all", *CHEAP, "--scheduler", scheduler)
    finally:
        client.run(break_reviews, frozenset())
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())  # as wrapped on the console
    assert f"game {games[1]}: review failed: ValueError: game {games[1]} cannot be" in said
    assert result.stdout.splitlines()[-1] == "reviewed 2 games, failed 1"
    assert [doc is not None for doc in reviews(store, games)] == [True, False, True]
    again = analyse(store, "--all", *CHEAP, "--scheduler", scheduler)
    assert again.splitlines()[-1] == "reviewed 1 game, failed 0"


def test_a_cluster_lost_mid_batch_keeps_the_reviews_saved_and_the_rest_stay_due(
    tmp_path: Path,
) -> None:
    """The scheduler and its one worker killed once a review is saved: ``analyse --all`` exits
    1 with one error naming the cluster (its process exits once Dask's client gives up
    reconnecting, after the connect timeout, set low here); a run on local processes reviews
    only the rest."""
    store = new_store(tmp_path, "store")
    games = stored(store, [short_game("2p-03-heuristic", n) for n in range(36, 42)])
    port = free_port()
    processes = cluster_of_one(port)
    address = f"tcp://127.0.0.1:{port}"
    env = {**store.env, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": f"{CONNECT_SECONDS}s"}
    try:
        run = subprocess.Popen(
            [HOWL, "analyse", "--all", *CHEAP, "--scheduler", address], env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while not any(reviews(store, games)):
            assert run.poll() is None and time.monotonic() < deadline, "no review was saved"
            time.sleep(0.05)
        kill(processes)
        _, err = run.communicate(timeout=120)
    finally:
        kill(processes)
    saved = sum(doc is not None for doc in reviews(store, games))
    assert run.returncode == 1, err
    assert f"Error: lost the Dask cluster at {address} with " in err
    assert "what came back before is kept" in err and "CancelledError" not in err
    assert 1 <= saved < len(games)
    rest = analyse(store, "--all", *CHEAP, "--workers", "1")
    assert rest.splitlines()[-1] == f"reviewed {len(games) - saved} games, failed 0"
    assert all(doc is not None for doc in reviews(store, games))


def test_scheduler_local_starts_a_cluster_on_this_machine(tmp_path: Path) -> None:
    store = new_store(tmp_path, "store")
    (game,) = stored(store, [short_game("2p-03-heuristic", 6)])
    run = howl(store.env, "analyse", "--all", *CHEAP, "--scheduler", "local", "--workers", "1")
    assert run.returncode == 0, run.stderr
    assert "running on Dask at tcp://127.0.0.1:" in run.stderr
    assert ": 1 worker threads" in run.stderr
    assert run.stdout.splitlines()[-1] == "reviewed 1 game, failed 0"
    expected = review(read_record(short_game("2p-03-heuristic", 6)), SETTINGS, None, 1)
    assert reviews(store, [game]) == [json.loads(json.dumps(expected.to_json()))]


def test_without_dask_a_scheduler_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dask's package hidden: ``--scheduler`` exits 1 with the extra to install, nothing is
    reviewed, and the scale benchmarks say why they measure nothing."""
    from scripts.benchmarks import scale

    store = new_store(tmp_path, "store")
    (game,) = stored(store, [short_game("2p-03-heuristic", 4)])
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = howl_here(store.env, "analyse", "--all", *CHEAP, "--scheduler", "local")
    assert result.exit_code == 1 and f"Error: {EXTRA_HINT}" in result.output
    assert reviews(store, [game]) == [None]
    capsys.readouterr()
    scale.run([])
    said = capsys.readouterr()
    assert said.out == "" and said.err == f"… scale: skipped: {EXTRA_HINT}\n"


def test_a_worker_killed_mid_review_batch_leaves_every_game_reviewed(
    scheduler: str, client: Client, tmp_path: Path
) -> None:
    """``analyse --all`` on the test cluster; once a worker is running a review, its process
    is killed: the batch still ends with every game reviewed, as in this process."""
    records = [short_game("2p-04-heuristic", n) for n in (30, 31, 32, 33)]
    store = new_store(tmp_path, "store")
    games = stored(store, records)
    before = client.run(os.getpid)
    with ThreadPoolExecutor(1) as thread:
        run = thread.submit(howl_here, store.env, "analyse", "--all", *CHEAP, "--scheduler",
                            scheduler)  # fmt: skip
        deadline = time.monotonic() + 60
        while not (busy := [w for w, keys in client.processing().items() if keys]):
            assert time.monotonic() < deadline and not run.done(), "no review started"
            time.sleep(0.01)
        os.kill(before[busy[0]], signal.SIGKILL)
        result = run.result(timeout=300)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "reviewed 4 games, failed 0"
    expected = [json.loads(json.dumps(review(read_record(data), SETTINGS, None, 1).to_json()))
                for data in records]  # fmt: skip
    assert reviews(store, games) == expected
    client.wait_for_workers(2, timeout=60)
    assert before[busy[0]] not in client.run(os.getpid).values()
