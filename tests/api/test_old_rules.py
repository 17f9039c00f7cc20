"""A game stored under an older rules version cannot be continued by a what-if branch."""

from __future__ import annotations

import json
from collections.abc import Callable

from domain.store.branches import branch_id_for
from tests.api.conftest import TOKENS, Server
from tests.store.test_old_rules import OLD, store_old_game


def test_a_branch_of_an_old_game_is_refused_through_http(
    fresh_server: Callable[..., Server],
) -> None:
    """The current engine cannot continue another engine's stored events: a what-if branch
    of a ``wolves-1`` game is a 409 problem and nothing is stored."""
    server = fresh_server()
    with server.library() as library:
        game_id = store_old_game(library)
    last = len(json.loads(OLD["record"])["actions"])
    actions = [{"type": "pass", "player": 1}]
    reply = server.as_user(TOKENS["ana"]).request(
        "POST", f"/api/games/{game_id}/branches", json_body={"step": last, "actions": actions}
    )
    assert reply.status == 409
    assert reply.json["type"].endswith("other_rules_version")
    assert reply.json["rules_version"] == "wolves-1"
    with server.library() as library:
        assert not library.exists(branch_id_for(game_id, last, actions))
