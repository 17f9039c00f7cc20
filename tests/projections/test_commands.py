"""``howl projections failures``, ``retry`` and ``rebuild`` with a game that cannot be projected."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from api.commands.projections import projections
from projections import builds
from projections.builds import Build, Projected
from tests.projections.conftest import Store, upload
from tests.projections.poison import store_poison


@pytest.fixture
def howl(store: Store, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """Runs ``howl projections …`` on the test's store."""
    for name, value in store.env.items():
        monkeypatch.setenv(name, value)
    return CliRunner()


def test_failures_are_listed_and_retried(
    store: Store, howl: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    with store.library() as library:
        ids = upload(library, ["2p-06-random", "3p-00-heuristic"])
        poison = store_poison(library, "write")
    assert "no projection failures" in howl.invoke(projections, ["failures"]).output
    project = builds.project
    broken = ids["3p-00-heuristic"]

    def buggy(build: Build) -> Projected:
        if build.game_id == broken:
            raise ZeroDivisionError("a bug in the projection")
        return project(build)

    monkeypatch.setattr(builds, "project", buggy)
    rebuilt = howl.invoke(projections, ["rebuild", "--batch-size", "50"])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "2 game(s) could not be projected" in rebuilt.output
    listed = howl.invoke(projections, ["failures", "--json"])
    assert listed.exit_code == 0
    rows = {row["game_id"]: row for row in json.loads(listed.stdout)}
    assert rows.keys() == {str(poison), str(broken)}
    assert rows[str(broken)]["stage"] == "fold"
    assert rows[str(broken)]["error"] == "ZeroDivisionError: a bug in the projection"
    assert rows[str(poison)]["stage"] == "write" and rows[str(poison)]["position"] > 0
    table = howl.invoke(projections, ["failures"]).output
    assert str(poison) in table and "ZeroDivisionError" in table
    monkeypatch.setattr(builds, "project", project)  # the bug is fixed
    retried = howl.invoke(projections, ["retry"])
    assert retried.exit_code == 1  # the poison still fails
    assert f"projected {broken}" in retried.output
    assert f"still failing {poison} (write)" in retried.output
    assert "1 projected, 1 still failing" in retried.output
    [left] = json.loads(howl.invoke(projections, ["failures", "--json"]).stdout)
    assert left["game_id"] == str(poison)
    with store.models() as models:
        assert models.summary(broken) is not None and models.list_games().total == 2


def test_retry_with_nothing_to_do(store: Store, howl: CliRunner) -> None:
    with store.library() as library:
        upload(library, ["2p-06-random"])
    assert howl.invoke(projections, ["catch-up"]).exit_code == 0
    retried = howl.invoke(projections, ["retry"])
    assert retried.exit_code == 0 and "0 projected, 0 still failing" in retried.output
