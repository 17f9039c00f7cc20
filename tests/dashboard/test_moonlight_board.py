"""Moonlight's card-grid board view in Chromium: upload, step to a round's scoring, hover a
stack, the notes on the sources, no console errors, no horizontal scroll."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser
FIXTURES = Path(__file__).parents[1] / "fixtures" / "moonlight"
GAME = FIXTURES / "00-greedy.json"


def timeline(server: LiveServer, game_id: str) -> list[dict[str, Any]]:
    with urlopen(f"{server.url}/api/games/{game_id}/timeline", timeout=30) as response:
        return json.load(response)["steps"]


def upload(page: Page, server: LiveServer) -> tuple[str, list[dict[str, Any]]]:
    page.goto(server.url + "/")
    page.set_input_files("#library-upload input[type=file]", GAME)
    expect(page).to_have_url(re.compile(r"/replay/[0-9a-f-]{36}(\?step=0)?$"), timeout=20_000)
    game_id = page.url.rsplit("/", 1)[1].split("?")[0]
    return game_id, timeline(server, game_id)


def test_step_to_a_round_scoring_and_hover_a_stack(page: Page, live_server: LiveServer) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    game_id, rows = upload(page, live_server)
    expect(page.locator("#ml-powers-note")).to_have_text(
        "Lone Wolf and Alpha Powers are recorded but have no effect: the sources do not give them."
    )
    expect(page.locator("#ml-deck-note")).to_have_text("Assumed deck: moons on the 2s and the 5.")
    scored = next(r["step"] for r in rows if any(m["kind"] == "round_won" for m in r["milestones"]))
    page.goto(f"{live_server.url}/replay/{game_id}?step={scored}")
    expect(page.locator(f'#ml-grid[data-step="{scored}"]')).to_have_count(1)
    # M-5: the row winners marked, the ignored cards greyed, the breakdown shown
    expect(page.locator("#ml-scoring h4")).to_contain_text("scored")
    expect(page.locator("#ml-scoring table th", has_text="threes")).to_have_count(1)
    expect(page.locator(".ml-card.row-won").first).to_be_visible()
    rings = page.eval_on_selector_all(
        ".ml-card.row-won",
        "cs => cs.map(c => [getComputedStyle(c).boxShadow, getComputedStyle(c).borderTopColor])",
    )
    assert rings and all(colour in ring for ring, colour in rings)  # each in its winner's colour
    winner = rows[scored]["scores"]
    assert max(s["total"] for s in winner) == 1
    expect(page.locator(".ml-row-result").first).to_be_visible()
    # seats: round, rounds won and cards left
    expect(page.locator("#ml-seats .ml-seat")).to_have_count(2)
    expect(page.locator("#ml-seats")).to_contain_text("rounds won")
    # the step before shows no scoring
    page.locator("#replay h2").click()
    page.keyboard.press("ArrowLeft")
    expect(page.locator(f'#ml-grid[data-step="{scored - 1}"]')).to_have_count(1)
    expect(page.locator("#ml-scoring h4")).to_have_count(0)
    # a covered stack is listed on hover and on focus (M-3)
    stacked = next(
        (r["step"] for r in rows if r["step"] and r["type"] == "place" and "covers" in r["label"]),
        None,
    )
    assert stacked is not None, "the fixture has a cover"
    page.goto(f"{live_server.url}/replay/{game_id}?step={stacked}")
    card = page.locator('.ml-card:not([data-stack="1"])').first
    card.hover()
    expect(page.locator("#ml-hover")).to_be_visible()
    expect(page.locator("#ml-hover .ml-tip-card.covered").first).to_contain_text("under:")
    page.mouse.move(0, 0)
    expect(page.locator("#ml-hover")).to_be_hidden()
    card.focus()
    expect(page.locator("#ml-hover")).to_be_visible()
    # every card names its owner by a letter, not by colour alone
    letters = page.locator(".ml-card .ml-owner").all_text_contents()
    assert letters and all(t.strip() for t in letters)
    expect(page.locator("#ml-points")).to_be_visible()
    expect(page.locator("#analysis-status")).to_contain_text("No review for this game yet")
    assert not errors, errors


@pytest.mark.parametrize("width", [390, 1440])
def test_no_horizontal_scroll(page: Page, live_server: LiveServer, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    game_id, rows = upload(page, live_server)
    page.goto(f"{live_server.url}/replay/{game_id}?step={len(rows) - 1}")
    last = len(rows) - 1
    expect(page.locator(f'#ml-grid[data-step="{last}"]')).to_have_count(1)
    expect(page.locator(f'#ml-points-cursor[data-step="{last}"]')).to_have_count(1)
    page.wait_for_timeout(300)
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0


def test_the_statistics_page_shows_moonlight_figures(page: Page, live_server: LiveServer) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    library = GameLibrary.open(live_server.settings.database_url)
    try:
        for path in sorted(FIXTURES.glob("0[0-5]-*.json")):
            if not path.stem.endswith(".expected"):
                library.upload(path.read_bytes(), uploaded_by="test")
    finally:
        library.close()
    page.goto(live_server.url + "/statistics")
    expect(page.locator("#stats-game")).to_contain_text("Moonlight")  # the only one played
    expect(page.locator("#stats-summary")).to_contain_text("6 finished games")
    for chart in (
        "stats-seat", "stats-start", "stats-round_winners", "stats-card_values",
        "stats-cards_played", "stats-round_points", "stats-points", "stats-score",
        "stats-length-rounds",
    ):  # fmt: skip
        expect(page.locator(f"#{chart} .js-plotly-plot")).to_be_visible()
    expect(page.locator("#stats-lone_wolf .js-plotly-plot")).to_be_visible()
    shown = page.locator("#stats-body").inner_text()
    assert "lone wolf" in shown and "lone_wolf" not in shown  # categories in words
    values = page.locator("#stats-card_values .ytick text").all_text_contents()
    assert sorted(values) == ["1", "2", "3", "4", "5", "lone wolf"]  # a bar for every card
    assert not errors, errors
