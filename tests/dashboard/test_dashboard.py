"""The dashboard in Chromium: upload, step-through replay, errors, statistics, players."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from domain.wolves.records import InvalidRecord, read_record
from domain.wolves.replay import RecordError, replay
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES

pytestmark = pytest.mark.browser
FIVE = FIXTURES / "5p-00-heuristic.json"
Shot = Callable[[Page, str], Path]


def timeline(server: LiveServer, game_id: str) -> list[dict[str, Any]]:
    """The game's timeline as the API serves it."""
    with urlopen(f"{server.url}/api/games/{game_id}/timeline", timeout=30) as response:
        return json.load(response)["steps"]


def shows_step(page: Page, step: int, rows: list[dict[str, Any]]) -> None:
    """The step number, each seat's VP, the pieces layer and the chart cursors are step's."""
    last = len(rows) - 1
    expect(page.locator("#replay-step")).to_have_text(f"Step {step} / {last}")
    expect(page.locator(f'#replay-board svg[data-step="{step}"]')).to_have_count(1)
    expect(page.locator(f'#replay-vp-cursor[data-step="{step}"]')).to_have_count(1)
    for seat, vp in enumerate(rows[step]["vp"]):
        board = page.locator(f'.player-board[data-seat="{seat}"] .board-vp')
        expect(board).to_have_text(str(vp["total"]))


def click_chart_at(page: Page, chart: str, step: int) -> None:
    """Click a timeline chart where its x axis shows ``step``."""
    page.locator(f"#{chart}").scroll_into_view_if_needed()
    x, y = page.evaluate(
        """([id, step]) => {
            const gd = document.querySelector('#' + id + ' .js-plotly-plot');
            const fl = gd._fullLayout, box = gd.getBoundingClientRect();
            return [box.left + fl.xaxis._offset + fl.xaxis.l2p(step),
                    box.top + fl.yaxis._offset + fl.yaxis._length / 2];
        }""",
        [chart, step],
    )
    page.mouse.move(x, y)
    page.mouse.click(x, y)


def test_upload_then_step_through_the_replay(
    page: Page, live_server: LiveServer, screenshot: Shot
) -> None:
    page.goto(live_server.url + "/")
    expect(page.get_by_text("No games yet.")).to_be_visible()
    page.set_input_files("#library-upload input[type=file]", FIVE)
    expect(page).to_have_url(re.compile(r"/replay/[0-9a-f-]{36}(\?step=0)?$"), timeout=20_000)
    game_id = page.url.rsplit("/", 1)[1].split("?")[0]
    rows = timeline(live_server, game_id)
    shows_step(page, 0, rows)

    page.locator("#replay h2").click()  # focus the page, not a control
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    shows_step(page, 10, rows)
    expect(page).to_have_url(re.compile(r"\?step=10$"))

    middle = (len(rows) - 1) // 2
    click_chart_at(page, "replay-vp", middle)
    shows_step(page, middle, rows)
    expect(page).to_have_url(re.compile(rf"\?step={middle}$"))
    expect(page.locator(f'#replay-log .log-step.current[data-step="{middle}"]')).to_be_visible()

    page.reload()
    shows_step(page, middle, rows)
    page.go_back()  # the click was a jump: back returns to step 10
    shows_step(page, 10, rows)
    page.go_forward()
    shows_step(page, middle, rows)

    page.locator("#replay h2").click()
    page.keyboard.press("ArrowLeft")
    shows_step(page, middle - 1, rows)
    page.keyboard.press("ArrowRight")
    shows_step(page, middle, rows)
    page.locator('#replay-log [data-step="5"]').click()
    shows_step(page, 5, rows)
    page.get_by_role("group", name="playback speed").get_by_role("button", name="4×").click()
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_text("Pause")
    expect(page.locator("#replay-step")).to_have_text(re.compile(r"Step (9|[1-9]\d+) /"))
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_text("Play")
    stopped = page.locator("#replay-step").text_content()
    page.wait_for_timeout(600)
    expect(page.locator("#replay-step")).to_have_text(stopped or "")

    click_chart_at(page, "replay-vp", middle)
    shows_step(page, middle, rows)
    page.mouse.move(0, 0)
    shot = screenshot(page, "replay")
    assert shot.stat().st_size > 50_000


def _broken(doc: dict[str, Any]) -> tuple[dict[str, Any], RecordError]:
    """``doc`` with the first den's hex moved onto a water source: an illegal action."""
    bad = json.loads(json.dumps(doc))
    record = read_record(doc)
    water = next(h for h, t in replay(record).initial.table.map.terrain.items() if t == "water")
    index = next(i for i, a in enumerate(bad["actions"]) if a["type"] == "den")
    bad["actions"][index]["hex"] = list(water)
    with pytest.raises(RecordError) as caught:
        replay(read_record(bad))
    return bad, caught.value


def test_illegal_and_invalid_records_show_the_engine_error(
    page: Page, live_server: LiveServer, screenshot: Shot
) -> None:
    doc = json.loads(FIVE.read_text())
    bad, error = _broken(doc)
    page.goto(live_server.url + "/")
    page.set_input_files(
        "#library-upload input[type=file]",
        {"name": "bad.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()},
    )
    shown = page.locator(".upload-error")
    expect(shown).to_contain_text(
        f"Illegal record (bad.json): action {error.index} (step {error.index + 1}) breaks rule "
        f"{error.rule}"
    )  # the file named, as it can be one of several dropped in turn
    expect(shown).to_have_attribute("data-index", str(error.index))

    invalid = json.loads(FIVE.read_text())
    invalid["actions"][3]["hex"] = "north"
    with pytest.raises(InvalidRecord) as caught:
        read_record(invalid)
    page.set_input_files(
        "#library-upload input[type=file]",
        {"name": "worse.json", "mimeType": "application/json",
         "buffer": json.dumps(invalid).encode()},
    )  # fmt: skip
    expect(shown).to_contain_text(f"Invalid record (worse.json) at {caught.value.path}")
    page.set_input_files(  # not a .json file: the server says why, the browser does not hide it
        "#library-upload input[type=file]",
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"my notes"},
    )
    expect(shown).to_contain_text("Invalid record (notes.txt)")
    expect(shown).to_contain_text("malformed JSON")
    expect(page).to_have_url(live_server.url + "/")
    expect(page.get_by_text("No games yet.")).to_be_visible()


def test_a_record_over_the_upload_limit_is_refused_with_a_message(
    page: Page, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(max_upload_bytes=40_000, max_actions=60)
    doc = json.loads(FIVE.read_text())
    doc["meta"] = {"notes": "a long story " * 4_000}
    big = json.dumps(doc).encode()
    assert 40_000 < len(big) < 3 * 40_000
    page.goto(server.url + "/")
    page.set_input_files(
        "#library-upload input[type=file]",
        {"name": "big.json", "mimeType": "application/json", "buffer": big},
    )
    expect(page.locator("#library-upload-size")).to_contain_text(
        f"big.json is {len(big) / 2**20:.3g} MiB ({len(big)} bytes): too large: the limit is "
        "0.0381 MiB (40000 bytes, HOWL_MAX_UPLOAD_BYTES)"
    )
    shown = page.locator(".upload-error")
    long = FIVE.read_bytes()  # under the size limit, over the action limit
    assert len(long) < 40_000 and len(json.loads(long)["actions"]) > 60
    page.set_input_files(
        "#library-upload input[type=file]",
        {"name": "long.json", "mimeType": "application/json", "buffer": long},
    )
    expect(shown).to_contain_text("A record may have at most 60 actions")
    expect(page.get_by_text("No games yet.")).to_be_visible()


def test_library_statistics_and_player_pages(
    page: Page, live_server: LiveServer, screenshot: Shot
) -> None:
    library = GameLibrary.open(live_server.settings.database_url)
    try:
        for path in sorted(FIXTURES.glob("*p-0[0-5]-heuristic.json")):
            library.upload(path.read_bytes(), uploaded_by="test")
    finally:
        library.close()

    page.goto(live_server.url + "/")
    rows = page.locator("table.games tbody tr")
    expect(rows).to_have_count(20)
    expect(page.locator(".pager .count")).to_have_text("1–20 of 24")
    page.get_by_role("button", name="Next →").click()
    expect(rows).to_have_count(4)
    page.get_by_role("button", name="← Previous").click()
    expect(rows).to_have_count(20)
    page.get_by_placeholder("player", exact=True).fill("eli")  # applied as typed
    expect(rows).to_have_count(6)
    page.get_by_placeholder("player", exact=True).fill("")
    expect(page.locator(".pager .count")).to_have_text("1–20 of 24")  # settled, unfiltered
    page.locator("#library-players").click()
    page.get_by_text("5 players", exact=True).click()
    expect(rows).to_have_count(6)
    page.get_by_role("button", name=re.compile("^Top score")).click()
    expect(page.locator(".sort-head", has_text="Top score ↓")).to_be_visible()
    expect(page.locator("td.game-name").first).to_have_text("The Wolves")
    expect(page.locator("table.games thead th").nth(1)).to_have_text("Game")  # its column
    page.locator("#library-game").click()
    page.get_by_text("The Wolves", exact=True).last.click()
    expect(rows).to_have_count(6)
    page.locator("#library-attribute").click()
    page.get_by_text("tundra", exact=True).click()
    tundra = page.locator("table.games tbody tr", has=page.locator(".chip[title=tundra]"))
    expect(rows.first).to_be_visible()
    expect(tundra).to_have_count(rows.count())
    screenshot(page, "library")

    page.get_by_role("link", name="Statistics").click()
    expect(page.locator("#stats-game")).to_contain_text("The Wolves")  # the most played
    expect(page.locator("#stats-summary")).to_contain_text("24 finished games")
    expect(page.locator("#stats-terrain .js-plotly-plot")).to_be_visible()
    expect(page.locator("#stats-actions .point").first).to_be_visible()
    for chart in ("stats-seat", "stats-start", "stats-vp", "stats-score", "stats-region_winners"):
        expect(page.locator(f"#{chart} .js-plotly-plot")).to_be_visible()
    screenshot(page, "statistics")
    page.locator("#stats-game a.dash-dropdown-clear").click()
    expect(page.locator("#stats-summary")).to_contain_text("Of every game (24 The Wolves)")
    expect(page.locator("#stats-terrain")).to_have_count(0)
    expect(page.locator("#stats-seat .js-plotly-plot")).to_be_visible()
    page.locator("#stats-player").press_sequentially("nobody", delay=20)  # as typed, no Enter
    expect(page.get_by_text("there are no finished games matching these filters")).to_be_visible()
    page.locator("#stats-player").fill("")
    expect(page.locator("#stats-summary")).to_contain_text("Of every game (24 The Wolves)")

    page.get_by_role("link", name="Ana", exact=True).first.click()
    expect(page.locator("#player h2")).to_have_text("Ana")
    expect(page.locator("#player-summary")).to_contain_text("24 games")
    expect(page.locator("#player-summary")).to_contain_text("most played home terrain")
    screenshot(page, "player")
