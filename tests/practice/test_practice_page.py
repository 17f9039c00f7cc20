"""The practice page in Chromium, over real HTTP, reached from the replay's analysis: the
name asked once, one position solved by clicking the review's better action (accepted),
another failed with the flagged action (rejected), then its solution shown; the progress
kept on reload; keys and visible focus in a narrow window."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from tests.api.conftest import record_of
from tests.conftest import LiveServer
from tests.dashboard.test_table_page import build
from tests.practice.conftest import GAME, SERVER, flagged, store_review

pytestmark = pytest.mark.browser

TOKEN = "practice-page-token"
SEAT = 0


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer], sqlite_url: str) -> LiveServer:
    """A live server with an API token and the review's settings."""
    return live_server_factory(sqlite_url, api_tokens={"ana": TOKEN}, **SERVER)


def stored(server: LiveServer, result: dict[str, Any]) -> str:
    """Store the game and its review; its id."""
    with GameLibrary.open(server.settings.database_url) as library:
        game_id = str(library.upload(record_of(GAME)).game_id)
    store_review(server.settings, game_id, result)
    return game_id


def visit(page: Page, server: LiveServer, game_id: str, name: str | None) -> None:
    """Open the page from the replay's analysis with the token entered, and the player's
    name when it is asked."""
    page.goto(f"{server.url}/replay/{game_id}")
    link = page.locator("#analysis-status a.practise", has_text="Practise Ana")
    expect(link).to_have_attribute("href", f"/practice/{game_id}?seat={SEAT}")
    link.click()
    page.wait_for_url(f"{server.url}/practice/{game_id}?seat={SEAT}")
    page.fill("#auth-input", TOKEN)
    page.click("#auth-use")
    expect(page.locator(".auth-name")).to_have_text("ana")
    if name is not None:
        page.fill("#practice-name", name)
        page.press("#practice-name", "Enter")
    expect(page.locator("#practice-who")).to_contain_text("Practising as")


def at(page: Page, index: int) -> None:
    """Wait until the board shows the position of flagged action ``index``, playable."""
    expect(page.locator(f'#practice-where[data-index="{index}"]')).to_be_attached()
    expect(page.locator("#table-controls button:not([disabled])").first).to_be_attached()


def test_one_position_solved_and_one_failed_then_shown(
    server: LiveServer, page: Page, reviewed: dict[str, Any],
    screenshot: Callable[[Page, str], Path],
) -> None:  # fmt: skip
    game_id = stored(server, reviewed)
    first, second = flagged(reviewed, SEAT)[:2]
    visit(page, server, game_id, "Ana")
    at(page, first["index"])
    expect(page.locator("#practice-list button")).to_have_count(len(flagged(reviewed, SEAT)))
    expect(page.locator("#practice-verdict")).to_contain_text(first["label"])

    build(page, first["best"]["action"])
    verdict = page.locator('[data-verdict="accepted"]')
    expect(verdict).to_contain_text("Accepted.")
    expect(verdict).to_contain_text(first["best"]["label"])
    expect(page.locator('[data-pos="0"][data-state="solved"]')).to_be_attached()
    screenshot(page, "practice-accepted")

    page.click("#practice-go-next")
    at(page, second["index"])
    build(page, second["action"])
    expect(page.locator('[data-verdict="rejected"]')).to_contain_text("Not good enough.")
    expect(page.locator('[data-verdict="rejected"]')).not_to_contain_text(second["best"]["label"])
    page.click("#practice-reveal")
    solution = page.locator('[data-verdict="revealed"]')
    expect(solution).to_contain_text(second["best"]["label"])
    expect(page.locator('[data-pos="1"][data-state="revealed"]')).to_be_attached()
    screenshot(page, "practice-revealed")

    page.reload()  # the name is kept in the tab, the progress on the server
    expect(page.locator("#practice-who")).to_contain_text("Practising as")
    expect(page.locator("#practice-name")).to_have_value("Ana")
    expect(page.locator('[data-pos="0"][data-state="solved"]')).to_be_attached()
    expect(page.locator('[data-pos="1"][data-state="revealed"]')).to_be_attached()
    at(page, flagged(reviewed, SEAT)[2]["index"])  # the first position not solved yet


def test_the_page_works_by_keyboard_in_a_narrow_window(
    server: LiveServer, page: Page, reviewed: dict[str, Any],
    screenshot: Callable[[Page, str], Path],
) -> None:  # fmt: skip
    game_id = stored(server, reviewed)
    page.set_viewport_size({"width": 390, "height": 844})
    visit(page, server, game_id, f"Kit {uuid.uuid4().hex[:6]}")
    first = flagged(reviewed, SEAT)[0]
    at(page, first["index"])
    # the board's layer is drawn at the map's scale once plotly has sized it to the window
    deadline = time.monotonic() + 10
    while page.evaluate("document.documentElement.scrollWidth") > 390:
        assert time.monotonic() < deadline, "the page scrolls sideways at 390 px"
        page.wait_for_timeout(100)
    board = page.locator("#table-board svg").bounding_box()
    assert board is not None and board["width"] <= 390
    page.focus("#practice-next")
    page.keyboard.press("Enter")
    at(page, flagged(reviewed, SEAT)[1]["index"])
    page.keyboard.press("Shift+Tab")
    focused = page.evaluate("document.activeElement.id")
    assert focused in ("practice-prev", "practice-next"), focused
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    screenshot(page, "practice-narrow")
