"""The review's suggested line as a variation, through real HTTP on SQLite and PostgreSQL:
for an action the stored review found a better one for, the better action and a few plies
of the review's own continuation (its playout policy, seeded); refused without a review
at the current settings, and where the review found nothing better."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.wolves.analysis.review import Settings, review
from domain.wolves.records import read_record
from domain.wolves.ruleset import WOLVES
from projections.analysis import Analyses
from services.library import analyses_url
from tests.api.conftest import Server
from tests.tables.conftest import FIXTURES
from tests.variations.conftest import ANA, explore, upload

StartServer = Callable[..., Server]
GAME = "2p-00-heuristic"
QUICK = Settings(playouts=2, candidates=1)
"""The server's review settings in these tests (tiny, for two slow cores)."""
REVIEWED = range(24)
"""The actions the stored review looks at (enough to hold better alternatives)."""


@pytest.fixture(scope="module")
def reviewed() -> dict[str, Any]:
    """The fixture game's review of its first actions, with :data:`QUICK` settings."""
    record = read_record((FIXTURES / "the-wolves" / f"{GAME}.json").read_bytes())
    return review(record, QUICK, workers=1, indexes=REVIEWED).to_json()


def test_a_suggested_line_is_the_better_action_and_the_reviews_continuation(
    fresh_server: StartServer, reviewed: dict[str, Any]
) -> None:
    server = fresh_server(analysis_playouts=QUICK.playouts, analysis_candidates=QUICK.candidates)
    ana = server.as_user(ANA)
    game_id, actions = upload(ana, "the-wolves", GAME)
    flagged = next(s for s in reviewed["steps"] if s["best"] is not None)
    plain = next(s for s in reviewed["steps"] if s["best"] is None)
    index = flagged["index"]

    missing = explore(ana, game_id, step=index, suggested=True)
    assert missing.status == 409 and missing.json["type"].endswith("no_review")
    Analyses(analyses_url(server.live.settings)).save(game_id, QUICK, reviewed)

    reply = explore(ana, game_id, step=index, suggested=True, plies=3)
    assert reply.status == 201, reply.body
    doc = reply.json
    assert doc["variation"]["name"] == f"Suggested at step {index + 1}"
    assert doc["variation"]["step"] == index and doc["variation"]["branch_id"] is not None
    better = flagged["best"]["action"]
    assert doc["actions"][0] == better != actions[index] and len(doc["actions"]) == 4
    state = read_record({**doc["record"], "actions": actions[:index]})
    start = WOLVES.start(state)
    for action in actions[:index]:
        start, _ = WOLVES.play(start, WOLVES.read_action(action))
    after, _ = WOLVES.play(start, WOLVES.read_action(better))
    line = WOLVES.review.continuation(after, 3, QUICK, index + 1)
    assert doc["actions"][1:] == [WOLVES.write_action(a) for a in line]

    again = explore(ana, game_id, step=index, suggested=True, name="Longer")
    assert again.status == 201 and again.json["variation"]["name"] == "Longer"
    assert again.json["actions"][:4] == doc["actions"] and len(again.json["actions"]) == 5

    listed = server.client.get(f"/api/games/{game_id}/branches").json["branches"]
    assert [b["variation_id"] for b in listed] == [doc["table_id"], again.json["table_id"]]
    var = server.client.get(f"/api/variations/{doc['table_id']}").json
    assert var["comparison"] is not None and var["steps"] == index + 4

    for step in (plain["index"], len(actions)):
        refused = explore(ana, game_id, step=step, suggested=True)
        assert refused.status == 409 and refused.json["type"].endswith("not_flagged"), step
    both = explore(ana, game_id, step=index, suggested=True, actions=[better])
    assert both.status == 400 and "actions" in both.json["detail"]


def test_a_game_without_review_has_no_suggested_line(fresh_server: StartServer) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    game_id, _ = upload(ana, "moonlight", "00-greedy")
    refused = explore(ana, game_id, step=2, suggested=True)
    assert refused.status == 409 and refused.json["type"].endswith("no_review")
