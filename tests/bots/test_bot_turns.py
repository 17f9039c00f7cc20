"""Whose turn a bot's is, in the store: a person's action on a bot's turn at a table is
refused and nothing is stored (only the mover enters it); in a variation of a game with bot
seats a person plays every seat, so no bot moves there and every seat's action is taken."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.store import GameLibrary, StoreConfig
from domain.store import tables as store
from services import bots
from tests.store.conftest import stored_count
from tests.tables.conftest import fixture


@pytest.fixture
def library(sqlite_url: str) -> Iterator[GameLibrary]:
    """An empty game library on a SQLite file of its own."""
    with GameLibrary.open(StoreConfig(sqlite_url)) as lib:
        yield lib


def test_a_persons_action_on_a_bots_turn_is_refused_and_the_bots_is_entered(
    library: GameLibrary,
) -> None:
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    rules, seated = bots.read_seated({**record, "bots": {"0": "heuristic"}})
    view = store.open_table(library, rules, seated, "ana")
    assert bots.to_move(view) == 0
    before = stored_count(library)
    with pytest.raises(store.BotsTurn) as refused:
        store.enter_action(library, view.table_id, actions[0], view.version, 100)
    assert refused.value.seat == 0 and stored_count(library) == before
    after, _ = store.enter_action(library, view.table_id, actions[0], view.version, 100,
                                  by_bot=True)  # fmt: skip
    assert after.actions == [actions[0]] and stored_count(library) == before + 1


def test_a_variation_of_a_game_with_bot_seats_is_played_by_a_person_at_every_seat(
    library: GameLibrary,
) -> None:
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    record["players"][1]["bot"] = "heuristic"
    game_id = library.upload({**record, "actions": actions}).game_id
    step = next(i for i, a in enumerate(actions) if a["player"] == 1)  # seat 1 to act
    view = store.open_variation(library, game_id, step, [], "ana", "what if", 5000)
    assert view.rules.players(view.state)[1].bot == "heuristic"
    assert bots.to_move(view) is None and bots.table_bots(view) == {}
    after, _ = store.enter_action(library, view.table_id, actions[step], view.version, 5000)
    assert after.actions == [actions[step]]
