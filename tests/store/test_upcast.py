"""Event schema versions: an event stored at version 1 is read as version 2 via its upcaster;
``Uploaded`` and ``Branched`` are at version 2, naming their game."""

from __future__ import annotations

import dataclasses
import json
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.utils import get_topic

from domain.store import Game, GameLibrary
from domain.store.branches import Branch, branch_info, branch_state_at
from domain.store.players import Players
from domain.store.uploads import stored_events
from tests.store.conftest import record_bytes
from tests.store.test_old_rules import OLD, store_old_game, version_1


def stored_state(library: GameLibrary, game_id: UUID, version: int) -> dict[str, Any]:
    """The raw JSON the store holds for one event of a game."""
    (stored,) = library.recorder.select_events(game_id, gt=version - 1, lte=version)
    return json.loads(stored.state)


def test_every_event_class_has_a_version_and_a_stable_name() -> None:
    events = (Game.Uploaded, Game.Happened, Game.Retitled, Game.Retagged, Game.VisibilityChanged,
              Game.Redated, Game.Withdrawn, Players.Merged)  # fmt: skip
    assert [cls.class_version for cls in events] == [2, 1, 1, 1, 1, 1, 1, 1]
    assert (Game.class_version, Branch.Branched.class_version) == (3, 2)
    assert [get_topic(cls) for cls in events] == [
        "howl/game/uploaded", "howl/game/happened", "howl/game/retitled", "howl/game/retagged",
        "howl/game/visibility_changed", "howl/game/redated", "howl/game/withdrawn",
        "howl/players/merged",
    ]  # fmt: skip


def test_a_version_2_snapshot_is_of_a_game_neither_redated_nor_withdrawn(
    library: GameLibrary,
) -> None:
    """A snapshot the store took before games could be re-dated or withdrawn."""
    game_id = store_old_game(library)
    game: Game = library.repository.get(game_id)
    taken = library.mapper.to_stored_event(Game.Snapshot.take(game))
    doc = json.loads(taken.state)
    for added in ("redated", "played_on", "withdrawn"):
        del doc["state"][added]
    doc["state"]["class_version"] = 2
    assert library.snapshots is not None
    library.snapshots.recorder.insert_events(
        [dataclasses.replace(taken, state=json.dumps(doc).encode())]
    )
    assert library.info(game_id).played_on is None
    library.withdraw(game_id)
    assert library.withdrawn(game_id)


def test_a_version_1_event_is_read_as_version_2(
    library: GameLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = library.upload(record_bytes(2, seed=201)).game_id
    game: Game = library.repository.get(game_id)
    game.trigger_event(Game.Retitled, title="  Old schema ")  # version 1 kept titles as given
    library.save(game)
    v1 = game.version
    assert "class_version" not in stored_state(library, game_id, v1)  # stored as version 1

    # Version 2 of Retitled holds a stripped title, None for a blank one.
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        state["title"] = (state["title"] or "").strip() or None

    monkeypatch.setattr(Game.Retitled, "class_version", 2)
    monkeypatch.setattr(Game.Retitled, "upcast_v1_v2", staticmethod(upcast_v1_v2), raising=False)

    (old,) = library.events.get(game_id, gt=v1 - 1)
    assert isinstance(old, Game.Retitled)
    assert old.title == "Old schema"
    assert library.info(game_id).title == "Old schema"  # the aggregate folds upcast events

    library.retitle(game_id, "New schema")
    assert stored_state(library, game_id, v1 + 1)["class_version"] == 2
    (new,) = library.events.get(game_id, gt=v1)
    assert isinstance(new, Game.Retitled) and new.title == "New schema"


def test_an_uploaded_event_names_its_game_and_whether_it_finished(library: GameLibrary) -> None:
    game_id = library.upload(record_bytes(2, seed=202)).game_id
    stored = stored_state(library, game_id, 1)
    assert (stored["class_version"], stored["game"], stored["finished"]) == (2, "the-wolves", True)
    assert library.info(game_id).game == "the-wolves"


def test_a_version_1_upload_is_a_game_of_the_wolves_finished_by_its_events(
    library: GameLibrary,
) -> None:
    """A stream stored by the old code: its ``Uploaded`` has neither ``game`` nor
    ``finished``; the upcast names The Wolves and its ``GameEnded`` event finishes it."""
    game_id = store_old_game(library)
    stored = stored_state(library, game_id, 1)
    assert not {"game", "finished", "class_version"} & set(stored)
    (uploaded,) = library.events.get(game_id, lte=1)
    assert isinstance(uploaded, Game.Uploaded)
    assert (uploaded.game, uploaded.finished) == ("the-wolves", None)
    info = library.info(game_id)
    assert (info.game, info.finished, info.events) == ("the-wolves", True, len(OLD["events"]))
    assert library.rules(game_id).name == "the-wolves"


def test_a_version_1_upload_of_a_game_that_did_not_end_is_unfinished(
    library: GameLibrary,
) -> None:
    record = json.loads(OLD["record"])
    ended = next(i for i, (_, kind, _) in enumerate(OLD["events"]) if kind == "GameEnded")
    events = OLD["events"][:ended]
    record["actions"] = record["actions"][: events[-1][0] + 1]
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    game_id = store_old_game(library, text, events=events)
    info = library.info(game_id)
    assert (info.game, info.finished, info.events) == ("the-wolves", False, len(events))


def test_a_version_1_branch_leaves_a_game_of_the_wolves(library: GameLibrary) -> None:
    """A branch stored by the old code: its ``Branched`` names no game."""
    parent = library.upload(record_bytes(2, seed=203)).game_id
    rules = library.rules(parent)
    state = library.state_at(parent, 10)
    action = next(iter(rules.legal_actions(state)))
    branch = Branch(
        parent_id=parent, game="the-wolves", step=10, actions=[rules.write_action(action)],
        rules_version=rules.rules_version,
    )  # fmt: skip
    for step, kind, data in stored_events(rules, [rules.play(state, action)[1]], first=10):
        branch.happened(step, kind, data)
    stored = [library.mapper.to_stored_event(e) for e in branch.collect_events()]
    stored[0] = dataclasses.replace(stored[0], state=version_1(stored[0].state, "game"))
    library.recorder.insert_events(stored)
    assert not {"game", "class_version"} & set(stored_state(library, branch.id, 1))

    info = branch_info(library, branch.id)
    assert (info.game, info.parent_id, info.actions) == ("the-wolves", parent, (action,))
    assert branch_state_at(library, branch.id) == rules.play(state, action)[0]
