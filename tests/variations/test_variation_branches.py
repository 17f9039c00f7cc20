"""A variation's branch is the branch its actions make: the same id and the same stored
events as a what-if branch of those actions checked by a replay of the whole record."""

from __future__ import annotations

from pathlib import Path

from domain.store import GameLibrary
from domain.store import tables as store
from domain.store.branches import branch_events, save_branch
from tests.tables.conftest import FIXTURES
from tests.variations.conftest import legal_actions

RECORD = (FIXTURES / "the-wolves" / "3p-00-heuristic.json").read_bytes()
STEP = 30


def test_a_variations_branch_equals_the_replayed_branch_of_its_actions(tmp_path: Path) -> None:
    with (
        GameLibrary.open(f"sqlite:///{tmp_path / 'ours.sqlite3'}") as ours,
        GameLibrary.open(f"sqlite:///{tmp_path / 'theirs.sqlite3'}") as theirs,
    ):
        game_id = ours.upload(RECORD).game_id
        assert theirs.upload(RECORD).game_id == game_id
        view = store.open_variation(ours, game_id, STEP, [], "ana", "Three more", 1000)
        for _ in range(3):
            view, _ = store.enter_action(
                ours, view.table_id, legal_actions(view)[-1], view.version, 1000
            )
        assert view.branch_id is not None and len(view.actions) == 3
        rules = view.rules
        replayed = save_branch(theirs, game_id, STEP, [rules.read_action(a) for a in view.actions])
        assert replayed == view.branch_id
        assert [e.to_json() for e in branch_events(ours, view.branch_id)] == [
            e.to_json() for e in branch_events(theirs, replayed)
        ]
        assert branch_events(ours, view.branch_id)  # the actions caused events
