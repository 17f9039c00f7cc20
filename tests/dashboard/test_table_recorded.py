"""A game played at a real table, recorded as a person would, on PostgreSQL: its set-up
entered on the New game page *as laid at the table*, every action clicked on the table page,
the table finished; the stored game has the fixture's result. (``test_table_page`` clicks
the same game through on SQLite.)"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from domain.games import ruleset
from domain.replays import replay
from tests.conftest import LiveServer
from tests.dashboard.test_new_game import lay, pick, seat
from tests.dashboard.test_table_page import GAME, TOKEN, get, play_through, ready, start


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer], pg_url: str) -> LiveServer:
    """A live server with API tokens, on PostgreSQL."""
    return start(live_server_factory, pg_url)


def test_a_table_game_set_up_as_laid_and_clicked_through_is_stored_with_its_result(
    server: LiveServer, page: Page, screenshot: Callable[[Page, str], Path]
) -> None:
    doc = json.loads(GAME.read_bytes())
    page.goto(f"{server.url}/new")
    page.fill("#auth-input", TOKEN)
    page.click("#auth-use")
    expect(page.locator(".auth-name")).to_have_text("ana")
    page.locator(seat("remove", 2)).click()  # the form offers three seats: this game had two
    expect(page.locator(seat("name", 2))).to_be_hidden()
    for n, player in enumerate(doc["players"]):
        page.fill(seat("name", n), player["name"])
        pick(page, seat("terrain", n), player["terrain"])
        pick(page, seat("color", n), player["color"])
    for position, tile in enumerate(t for t in doc["setup"]["tiles"] if t["tile"] != "start"):
        lay(page, position, tile)
    expect(page.locator(".field-problem:visible")).to_have_count(0)
    page.get_by_role("button", name="Start the draft").click()
    expect(page).to_have_url(re.compile(r"/table/[0-9a-f-]{36}$"), timeout=20_000)
    table_id = page.url.rsplit("/", 1)[1]

    version = get(server, f"/api/tables/{table_id}")["version"]
    ready(page, version)
    play_through(page, doc["actions"], version, screenshot)
    expect(page.locator("#table-status")).to_contain_text("game over")
    screenshot(page, "table-recorded-finished")
    page.click("#table-finish-button")
    page.wait_for_url(f"{server.url}/replay/*")

    game_id = page.url.rsplit("/", 1)[1].split("?")[0]
    stored = get(server, f"/api/games/{game_id}/record")
    assert stored["players"] == doc["players"]
    assert {k: v for k, v in stored["setup"].items() if k != "seed"} == {
        k: v for k, v in doc["setup"].items() if k != "seed"
    }
    rules = ruleset(stored["game"])
    scores = rules.score_json(replay(rules, rules.read_record(stored)).state)["scores"]
    assert scores == json.loads(GAME.with_suffix(".expected.json").read_bytes())["scores"]
