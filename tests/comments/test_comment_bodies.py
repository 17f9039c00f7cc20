"""Any comment body: accepted exactly when its step is in the game and its text is 1–2000
characters, not blank, without control characters but newline and tab; refused with a 400
naming the field otherwise, never a 5xx, and what is stored is what was sent."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.conftest import Server, record_of
from tests.comments.conftest import GAME, comment, stored

StartServer = Callable[..., Server]
LAST = len(json.loads(record_of(GAME))["actions"])
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
TEXTS = st.one_of(
    st.text(st.characters(exclude_categories=["Cs"]), max_size=40),
    st.text(st.sampled_from("ab \n\t\x00\x07\x1b\x7f\x85é☾"), max_size=12),
    st.integers(1995, 2005).map(lambda n: "w" * n),
    st.none(), st.integers(), st.lists(st.text(max_size=3), max_size=2),
)  # fmt: skip
STEPS = st.one_of(st.integers(-3, LAST + 3), st.none(), st.booleans(), st.text(max_size=3))


def acceptable(step: Any, text: Any) -> bool:
    good_step = type(step) is int and 0 <= step <= LAST
    good_text = isinstance(text, str) and 0 < len(text) <= 2000 and bool(text.strip())
    return good_step and good_text and not CONTROL.search(text)


def test_comment_bodies_are_accepted_exactly_when_well_formed(fresh_server: StartServer) -> None:
    server = fresh_server()
    game_id = stored(server.client)
    made: list[dict[str, Any]] = []

    @settings(max_examples=60, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
    @given(STEPS, TEXTS)
    def check(step: Any, text: Any) -> None:
        reply = comment(server.client, game_id, step, text)
        if acceptable(step, text):
            assert reply.status == 201, (step, text, reply.body)
            assert (reply.json["step"], reply.json["text"]) == (step, text)
            made.append(reply.json)
        else:
            assert reply.status == 400, (step, text, reply.body)
            assert set(reply.json["errors"]["json"]) <= {"step", "text"}

    check()
    listed = server.client.get(f"/api/games/{game_id}/comments").json["comments"]
    assert sorted(c["comment_id"] for c in listed) == sorted(c["comment_id"] for c in made)
