"""The replay's comments and sharing in Chromium: a comment made at the step shown appears
under that step in the log and survives a reload, only its author may remove it, "Copy
link" gives the step (and keeps the line), and the downloads are a record that validates
with its comments, the position at the step, and the board as SVG and PNG."""

from __future__ import annotations

import json
import math
import re
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.request import urlopen
from uuid import UUID

import pytest
from playwright.sync_api import Browser, Download, Page, expect

from domain.games import ruleset
from domain.store import GameLibrary
from domain.store import tables as store
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES, SCREENSHOTS

pytestmark = pytest.mark.browser
TOKENS = {"ana": "ana-share-token", "bo": "bo-share-token"}
GAME = FIXTURES / "2p-00-heuristic.json"
MOONLIGHT = FIXTURES.parent / "moonlight" / "00-greedy.json"
HOWL = Path(sys.executable).with_name("howl")
Shot = Callable[[Page, str], Path]


def upload(server: LiveServer, record: Path = GAME) -> str:
    """Store a fixture game; its id."""
    with GameLibrary.open(server.settings.database_url) as library:
        return str(library.upload(record.read_bytes()).game_id)


def get(server: LiveServer, path: str) -> Any:
    with urlopen(f"{server.url}{path}", timeout=30) as response:
        return json.load(response)


def use_token(page: Page, token: str) -> None:
    page.fill("#auth-input", token)
    page.press("#auth-input", "Enter")
    expect(page.locator("#auth-status .auth-name")).to_be_visible()


def open_replay(page: Page, server: LiveServer, game_id: str, query: str = "") -> None:
    page.goto(f"{server.url}/replay/{game_id}{query}")
    expect(page.locator("#replay-log .log-step").first).to_be_visible()
    page.wait_for_load_state("networkidle")  # the page's first callbacks have answered


def comment(page: Page, text: str) -> None:
    page.fill("#share-text", text)
    page.click("#share-add")
    expect(page.locator("#share-status")).to_contain_text("Comment added")
    expect(page.locator("#share-text")).to_have_value("")


def saved(download: Download) -> bytes:
    path = download.path()
    assert path is not None
    return Path(path).read_bytes()


def validate(record: bytes, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    """``howl validate`` on ``record``, as another tool would run it."""
    path = tmp_path / "downloaded.json"
    path.write_bytes(record)
    command = [str(HOWL)] if HOWL.exists() else [sys.executable, "-m", "api.cli"]
    return subprocess.run([*command, "validate", str(path)], capture_output=True, timeout=60)


def test_a_comment_shows_under_its_step_and_is_kept_on_reload(
    page: Page, browser: Browser, live_server_factory: Callable[..., LiveServer], screenshot: Shot
) -> None:
    server = live_server_factory(api_tokens=TOKENS)
    game_id = upload(server)
    open_replay(page, server, game_id, "?step=5")
    use_token(page, TOKENS["ana"])
    expect(page.locator("#share-label")).to_have_text("Comment on step 5")
    comment(page, "Ana's den here\nsets up the crescent.")
    step5 = page.locator('#replay-log .log-step[data-step="5"]')
    expect(step5.locator(".note-mark")).to_have_text("✎ 1")
    expect(step5.locator(".log-note .note-author")).to_have_text("ana")
    expect(step5.locator(".log-note .note-text")).to_have_text(
        "Ana's den here\nsets up the crescent."
    )
    page.keyboard.press("ArrowRight")  # the form follows the step (the field is not focused)
    expect(page.locator("#share-label")).to_have_text("Comment on step 6")
    page.fill("#share-text", "Bold.")
    page.press("#share-text", "Control+Enter")
    expect(page.locator('#replay-log .log-step[data-step="6"] .note-text')).to_have_text("Bold.")
    listed = get(server, f"/api/games/{game_id}/comments")["comments"]
    assert [(c["step"], c["author"], c["text"]) for c in listed] == [
        (5, "ana", "Ana's den here\nsets up the crescent."), (6, "ana", "Bold."),
    ]  # fmt: skip

    page.wait_for_url(f"**/replay/{game_id}?step=6")  # the URL follows the step shown
    page.reload()
    expect(step5.locator(".note-text")).to_have_text("Ana's den here\nsets up the crescent.")
    expect(page.locator("#replay-log .note-mark")).to_have_count(2)
    screenshot(page, "share-comments")

    other = browser.new_page()  # Bo's tab sees Ana's comments but may not remove them
    open_replay(other, server, game_id, "?step=5")
    use_token(other, TOKENS["bo"])
    expect(other.locator("#replay-log .log-note")).to_have_count(2)
    expect(other.locator("#replay-log .note-remove")).to_have_count(0)
    other.close()

    step5.locator(".note-remove").click()
    expect(page.locator("#share-status")).to_have_text("Comment removed.")
    expect(step5.locator(".log-note")).to_have_count(0)
    expect(page.locator("#replay-step")).to_have_text("Step 6 / 77")  # removing is no step
    assert [c["text"] for c in get(server, f"/api/games/{game_id}/comments")["comments"]] == [
        "Bold."
    ]


def test_without_a_token_nothing_is_stored(
    page: Page, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(api_tokens=TOKENS)
    game_id = upload(server)
    open_replay(page, server, game_id, "?step=3")
    page.fill("#share-text", "Anonymous?")
    page.click("#share-add")
    status = page.locator("#share-status")
    expect(status).to_contain_text("Commenting needs a token.")
    expect(status).to_have_attribute("data-kind", "missing_token")
    assert get(server, f"/api/games/{game_id}/comments") == {"comments": []}


def test_copy_link_gives_the_step_and_keeps_the_line(page: Page, live_server: LiveServer) -> None:
    game_id = upload(live_server)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_replay(page, live_server, game_id, "?step=4")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_contain_text("Step 5 /")  # the page took the key
    page.click("#share-copy")
    expect(page.locator("#share-status")).to_have_text("Link copied.")
    want = f"{live_server.url}/replay/{game_id}?step=5"
    expect(page.locator("#share-link")).to_have_value(want)
    assert page.evaluate("() => navigator.clipboard.readText()") == want
    played = ruleset("the-wolves").read_action(json.loads(GAME.read_text())["actions"][4])
    with GameLibrary.open(live_server.settings.database_url) as library:
        line = store.open_variation(library, UUID(game_id), 4, [played], None, "Again", 5000)
    vid = str(line.table_id)
    open_replay(page, live_server, game_id, f"?step=5&line={vid}")  # the variation shown
    expect(page.locator("#replay-step")).to_contain_text("Again")
    page.click("#share-copy")
    expect(page.locator("#share-status")).to_have_text("Link copied.")
    url = re.escape(f"{live_server.url}/replay/{game_id}?")
    shared = re.compile(rf"^{url}(?=.*step=5)(?=.*line={vid})")  # the copy itself, not any change
    expect(page.locator("#share-link")).to_have_value(shared)


def test_the_downloads_are_a_record_a_position_and_the_board(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    server = live_server  # no tokens: open for local use, a comment has no author
    game_id = upload(server)
    open_replay(page, server, game_id, "?step=9")
    comment(page, "Annotated.")
    expect(page.locator("#replay-log .note-author")).to_have_text("anonymous")

    with page.expect_download() as record_file:
        page.click("#share-record")
    record = saved(record_file.value)
    assert json.loads(record)["annotations"] == [{"step": 9, "author": None, "text": "Annotated."}]
    checked = validate(record, tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith(b"ok: 2 players, 77 actions")

    with page.expect_download() as position_file:
        page.click("#share-position")
    assert position_file.value.suggested_filename == f"howl-{game_id[:8]}-step-9.json"
    position = json.loads(saved(position_file.value))
    assert position == get(server, f"/api/games/{game_id}/states/9")
    assert position["format"] == "howl.position"

    with page.expect_download() as svg_file:
        page.click("#share-svg")
    svg = saved(svg_file.value).decode()
    assert svg_file.value.suggested_filename == f"howl-{game_id[:8]}-step-9.svg"
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert 'data-step="9"' in svg and "piece" in svg  # the pieces' layer at this step
    assert "hex-map" in svg and "terrain-letters" in svg  # and the map under it

    with page.expect_download() as png_file:
        page.click("#share-png")
    png = saved(png_file.value)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "share-board.png").write_bytes(png)  # kept to look at, as screenshots are
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    box = page.locator("#replay .board").bounding_box()
    assert box is not None
    assert (width, height) == (2 * math.ceil(box["width"]), 2 * math.ceil(box["height"]))
    assert len(png) > 10_000  # a drawn map, not an empty canvas


def test_a_moonlight_board_downloads_as_svg_and_png(page: Page, live_server: LiveServer) -> None:
    game_id = upload(live_server, MOONLIGHT)
    open_replay(page, live_server, game_id, "?step=6")
    expect(page.locator("#ml-grid .ml-card").first).to_be_visible()
    with page.expect_download() as svg_file:
        page.click("#share-svg")
    svg = saved(svg_file.value).decode()
    cards = page.locator("#ml-grid .ml-card, #ml-grid .ml-empty").count()
    assert cards >= 3 and svg.count("<rect") == 1 + cards  # the background, then each cell
    assert svg.count("<text") >= 3
    with page.expect_download() as png_file:
        page.click("#share-png")
    assert saved(png_file.value)[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_share_controls_fit_a_phone_and_work_by_keyboard(
    page: Page, live_server: LiveServer
) -> None:
    game_id = upload(live_server)
    page.set_viewport_size({"width": 390, "height": 844})
    open_replay(page, live_server, game_id, "?step=2")
    for part in ("#share-text", "#share-add", "#share-copy", "#share-record", "#share-png"):
        box = page.locator(part).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, part
    page.focus("#share-text")
    page.keyboard.type("Typed only.")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "share-add"
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")
    expect(page.locator('#replay-log .log-step[data-step="2"] .note-text')).to_have_text(
        "Typed only."
    )
