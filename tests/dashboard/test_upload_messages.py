"""The library's upload area in Chromium says what became of every file where the user is
looking: too large (before it is sent), stored whatever its name, already in the library,
illegal at which action and step; and it is reached by keyboard, with a focus ring. The
table marks a game in progress, and its name filters apply as they are typed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES

pytestmark = pytest.mark.browser
LIMIT = 20_000
"""The server's upload limit (HOWL_MAX_UPLOAD_BYTES) in these tests."""
GAME = FIXTURES / "2p-00-heuristic.json"


def test_every_upload_says_what_became_of_it(
    page: Page, live_server_factory: Callable[..., LiveServer], tmp_path: Path
) -> None:
    server = live_server_factory(max_upload_bytes=LIMIT)
    record = GAME.read_bytes()
    big = tmp_path / "big.json"  # over the limit, and over what a callback request may carry
    big.write_bytes(record[:-2] + b" " * 200_000 + record[-2:])
    named_txt = tmp_path / "game.txt"
    named_txt.write_bytes(record)
    doc = json.loads(record)
    doc["actions"][5]["player"] = 1 - doc["actions"][5]["player"]
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(doc))
    sent: list[int] = []
    page.on("response", lambda r: sent.append(r.status) if "_dash-update" in r.url else None)
    page.goto(server.url + "/")
    expect(page.get_by_text("No games yet.")).to_be_visible()
    area, result = page.locator("#library-upload"), page.locator("#library-upload-result")
    upload = "#library-upload input[type=file]"

    page.set_input_files(upload, big)
    size = big.stat().st_size
    expect(page.locator("#library-upload-size")).to_have_text(
        f"big.json is {size / 2**20:.3g} MiB ({size} bytes): too large: the limit is "
        f"0.0191 MiB ({LIMIT} bytes, HOWL_MAX_UPLOAD_BYTES). Nothing was sent."
    )
    assert 413 not in sent

    page.set_input_files(upload, illegal)
    expect(result.locator(".upload-error")).to_contain_text(
        "action 5 (step 6) breaks rule W-6: it is seat "
    )
    expect(page.locator("#library-upload-size")).to_have_text("")

    page.set_input_files(upload, named_txt)  # the content decides, not the name
    expect(page).to_have_url(re.compile(r"/replay/[0-9a-f-]{36}(\?step=0)?$"), timeout=20_000)
    game_id = page.url.rsplit("/", 1)[1].split("?")[0]

    page.goto(server.url + "/")
    for name in (GAME, named_txt):  # the same record again, twice: known, linked, not reopened
        page.set_input_files(upload, name)
        known = result.locator(".upload-known")
        expect(known).to_contain_text(f"{name.name} is already in the library: ")
        expect(known.get_by_role("link")).to_have_attribute("href", f"/replay/{game_id}")
        assert page.url == server.url + "/"

    page.on("filechooser", lambda _: None)  # intercepting choosers from now on, not racing Enter
    choose = area.get_by_role("button", name="choose a file")
    page.locator("#library h2").click()
    for _ in range(30):
        page.keyboard.press("Tab")
        if choose.evaluate("b => b === document.activeElement"):
            break
    expect(choose).to_be_focused()
    ring = page.locator("#library-upload .upload").evaluate(
        "a => getComputedStyle(a).outlineStyle + ' ' + getComputedStyle(a).outlineWidth"
    )
    assert ring == "solid 3px"
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Enter")
    chooser.value.set_files(GAME)
    expect(result.locator(".upload-known")).to_contain_text(f"{GAME.name} is already in")

    opening = tmp_path / "opening.json"  # the first 10 actions: a game in progress
    opening.write_text(
        json.dumps({**json.loads(record), "actions": json.loads(record)["actions"][:10]})
    )
    page.set_input_files(upload, opening)
    expect(page).to_have_url(re.compile(r"/replay/"), timeout=20_000)
    page.goto(server.url + "/")
    rows = page.locator("#library-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.locator(".in-progress")).to_have_count(1)
    expect(rows.filter(has=page.locator(".in-progress"))).to_contain_text("in progress")
    expect(page.locator("#library-count")).to_have_text("1–2 of 2")
    page.locator("#library-player").press_sequentially("nobody", delay=20)  # no Enter
    expect(page.get_by_text("No games match these filters.")).to_be_visible()
    expect(page.locator("#library-count")).to_have_text("0 games")
    page.locator("#library-player").fill("")
    page.locator("#library-winner").press_sequentially("Ana", delay=20)
    expect(rows).to_have_count(1)
    expect(rows.locator(".in-progress")).to_have_count(0)
