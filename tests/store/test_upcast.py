"""Event schema versions: an event stored at version 1 is read as version 2 via its upcaster."""

from __future__ import annotations

import json
from typing import Any

import pytest
from eventsourcing.utils import get_topic

from domain.store import Game, GameLibrary
from tests.store.conftest import record_bytes


def stored_state(library: GameLibrary, game_id: object, version: int) -> dict[str, Any]:
    """The raw JSON the store holds for one event of a game."""
    (stored,) = library.recorder.select_events(game_id, gt=version - 1, lte=version)
    return json.loads(stored.state)


def test_every_event_class_has_a_version_and_a_stable_name() -> None:
    events = [Game.Uploaded, Game.Happened, Game.Retitled, Game.Retagged, Game.VisibilityChanged]
    assert all(cls.class_version == 1 for cls in events)
    assert [get_topic(cls) for cls in events] == [
        "howl/game/uploaded", "howl/game/happened", "howl/game/retitled", "howl/game/retagged",
        "howl/game/visibility_changed",
    ]  # fmt: skip


def test_a_version_1_event_is_read_as_version_2(
    library: GameLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = library.upload(record_bytes(2, seed=201)).game_id
    game = library.repository.get(game_id)
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
    assert new.title == "New schema"  # type: ignore[attr-defined]
