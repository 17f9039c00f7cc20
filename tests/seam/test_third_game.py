"""The seam is real: take-away, a game that exists only in the test suite
(:mod:`tests.takeaway`), is uploaded over HTTP, stored, projected (summary, seats,
timeline, statistics), served and replayed in Chromium through the same frame as every
game, with no code outside ``tests/`` knowing it."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect

from domain.ruleset import Ruleset
from tests.conftest import LiveServer
from tests.takeaway import record_json

pytestmark = pytest.mark.browser
TOKEN = "ana-secret-token"
TAKES = (3, 2, 3, 1, 1)  # ten stones: Ana, Bo, Ana, Bo, Ana takes the last one


def _get(server: LiveServer, path: str) -> Any:
    with urlopen(f"{server.url}{path}", timeout=30) as response:
        return json.load(response)


def _projected(server: LiveServer, game_id: str) -> dict[str, Any]:
    """The game's summary once the read models hold it."""
    deadline = time.monotonic() + 30
    while True:
        summary = _get(server, f"/api/games/{game_id}")
        if "projection" not in summary or time.monotonic() > deadline:
            return summary
        time.sleep(0.2)


def test_a_game_known_only_to_the_tests_is_stored_projected_served_and_replayed(
    page: Page, live_server_factory: Callable[..., LiveServer], takeaway: Ruleset
) -> None:
    live_server = live_server_factory(api_tokens={"ana": TOKEN})
    doc = record_json(stones=10, takes=TAKES, meta={"title": "Ten stones"})
    request = Request(
        f"{live_server.url}/api/games", data=json.dumps(doc).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"},
    )  # fmt: skip
    with urlopen(request, timeout=30) as response:
        assert response.status == 201
        game_id = json.load(response)["game_id"]

    summary = _projected(live_server, game_id)
    assert summary["game"] == "takeaway" and summary["finished"] is True
    assert summary["winners"] == ["Ana"]
    assert [(s["name"], s["place"]) for s in summary["seats"]] == [("Ana", 1), ("Bo", 2)]
    listed = _get(live_server, "/api/games?game=takeaway")
    assert [g["game_id"] for g in listed["items"]] == [game_id]
    assert _get(live_server, "/api/games?game=the-wolves")["items"] == []

    steps = _get(live_server, f"/api/games/{game_id}/timeline")["steps"]
    assert [row["step"] for row in steps] == list(range(len(TAKES) + 1))
    assert [row["player"] for row in steps[1:]] == [0, 1, 0, 1, 0]
    assert steps[-1]["finished"] is True and steps[-1]["turn"] is None
    assert [s["place"] for s in steps[-1]["scores"]] == [1, 2]
    stats = _get(live_server, "/api/stats?game=takeaway")
    assert stats["games"] == 1

    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/replay/{game_id}")
    last = len(TAKES)
    expect(page.locator("#replay-step")).to_have_text(f"Step 0 / {last}")
    expect(page.get_by_text("no review for this game yet")).to_be_visible()
    page.locator("#replay h2").click()
    for step in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-step")).to_have_text(f"Step {step} / {last}")
    expect(page).to_have_url(re.compile(rf"\?step={last}$"))
    expect(page.locator("#replay-log")).to_contain_text(steps[-1]["label"])
    page.goto(f"{live_server.url}/?game=takeaway")
    expect(page.get_by_text("Ten stones")).to_be_visible()
    assert errors == []
