"""The ``Table`` stream on both backends: a write that loses the race to another process
(another library on the same store) is a stale version and stores nothing; a table's state
is the replay of its actions net of undos, read the same by every process."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest

from domain.games import read_record
from domain.replays import replay
from domain.store import GameLibrary, StoreConfig
from domain.store import tables as store
from tests.tables.conftest import fixture


@pytest.fixture
def libraries(store_url: str) -> Iterator[tuple[GameLibrary, GameLibrary]]:
    """Two libraries on one store, as two server processes would have."""
    schema = f"t_{uuid.uuid4().hex[:12]}" if store_url.startswith("postgresql") else "public"
    config = StoreConfig(store_url, schema=schema)
    first, second = GameLibrary.open(config), GameLibrary.open(config)
    yield first, second
    first.close()
    second.close()


def test_the_loser_of_a_race_between_processes_is_stale(
    libraries: tuple[GameLibrary, GameLibrary], monkeypatch: pytest.MonkeyPatch
) -> None:
    ours, theirs = libraries
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    rules, rec = read_record(record)
    table = store.open_table(ours, rules, rec, "ana")
    states = store._states

    def meanwhile(t: store.Table, r: object) -> list[object]:  # the other process wins
        monkeypatch.setattr(store, "_states", states)
        store.enter_action(theirs, table.table_id, actions[0], table.version, 1000)
        return states(t, r)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "_states", meanwhile)
    with pytest.raises(store.StaleVersion):
        store.enter_action(ours, table.table_id, actions[0], table.version, 1000)
    for library in (ours, theirs):
        now = store.load_table(library, table.table_id)
        assert now.version == table.version + 1 and now.actions == actions[:1]


def test_every_process_reads_the_replay_of_the_actions_net_of_undos(
    libraries: tuple[GameLibrary, GameLibrary],
) -> None:
    ours, theirs = libraries
    record, actions, _ = fixture("moonlight", "00-greedy")
    rules, rec = read_record({**record, "actions": actions[:6]})
    table = store.open_table(ours, rules, rec, None)
    after, _ = store.undo_action(theirs, table.table_id, table.version)
    view, _ = store.enter_action(ours, table.table_id, actions[5], after.version, 1000)
    again = store.load_table(theirs, table.table_id)
    assert again.actions == actions[:6] and again.version == 1 + 6 + 2
    played = replay(rules, rec).state
    assert rules.write_position(again.state) == rules.write_position(played)
    assert rules.write_position(view.state) == rules.write_position(played)
    assert json.loads(again.record)["actions"] == []


def test_a_table_takes_no_more_than_its_limit_of_actions(
    libraries: tuple[GameLibrary, GameLibrary],
) -> None:
    ours, _ = libraries
    record, actions, _ = fixture("moonlight", "00-greedy")
    rules, rec = read_record({**record, "actions": actions[:2]})
    table = store.open_table(ours, rules, rec, None)
    with pytest.raises(store.TableFull) as refused:
        store.enter_action(ours, table.table_id, actions[2], table.version, 2)
    assert refused.value.limit == 2
    assert store.load_table(ours, table.table_id).version == table.version
