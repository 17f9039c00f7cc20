"""The header's API token in Chromium: entered once per tab, sent with uploads and "Analyse",
kept over a reload, refused with a message when wrong; the header at phone and desktop width."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from urllib.request import urlopen

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from services.library import open_library
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES

pytestmark = pytest.mark.browser
TOKENS = {"ana": "ana-browser-token"}
GAME = FIXTURES / "3p-00-heuristic.json"
Shot = Callable[[Page, str], Path]
WIDTHS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1440, "height": 900},
}


def drop(page: Page) -> None:
    """Drop the fixture record on the upload area (the same file each time, as a person who
    was refused would drop it again)."""
    page.set_input_files(
        "#library-upload input[type=file]",
        {"name": "game.json", "mimeType": "application/json", "buffer": GAME.read_bytes()},
    )


def use_token(page: Page, token: str) -> None:
    page.fill("#auth-input", token)
    page.click("#auth-use")


def test_a_token_entered_once_uploads_and_is_kept_for_the_tab(
    page: Page, browser: Browser, live_server_factory: Callable[..., LiveServer], screenshot: Shot
) -> None:
    server = live_server_factory(api_tokens=TOKENS)
    status, result = page.locator("#auth-status"), page.locator("#library-upload-result")
    page.goto(server.url + "/")
    expect(status).to_have_text("No token: reading only.")
    drop(page)
    expect(result).to_contain_text("Uploading needs a token.")

    use_token(page, "not-the-token")
    expect(status).to_have_text("This token is not accepted here.")
    drop(page)
    expect(result).to_contain_text("This token is not accepted here.")
    expect(result.locator(".refused")).to_have_attribute("data-status", "403")
    expect(page.get_by_text("No games yet.")).to_be_visible()
    screenshot(page, "token-refused")

    page.fill("#auth-input", TOKENS["ana"])
    page.press("#auth-input", "Enter")
    expect(status).to_have_text("Writing as ana")
    expect(page.locator("#auth-input")).to_have_value("")
    drop(page)
    expect(page).to_have_url(re.compile(r"/replay/[0-9a-f-]{36}(\?step=0)?$"), timeout=20_000)
    game_id = page.url.rsplit("/", 1)[1].split("?")[0]
    with urlopen(f"{server.url}/api/games/{game_id}", timeout=30) as response:
        assert json.load(response)["uploaded_by"] == "ana"

    page.reload()
    expect(status).to_have_text("Writing as ana")
    page.locator("#analysis-run").click()
    expect(page.locator("#analysis-status")).to_contain_text("Analysis queued")

    other = browser.new_page()  # another tab starts without the token
    try:
        other.goto(f"{server.url}/replay/{game_id}")
        expect(other.locator("#auth-status")).to_have_text("No token: reading only.")
    finally:
        other.close()

    page.click("#auth-clear")
    expect(status).to_have_text("No token: reading only.")
    page.reload()
    expect(status).to_have_text("No token: reading only.")


def fits_in_header(page: Page, width: int, parts: tuple[str, ...]) -> None:
    """Each of ``parts`` lies inside the header and the window's width (measured at the top
    of the page, so that no scrolling moves the header between two measures)."""
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    header = page.locator("header").bounding_box()
    assert header is not None
    for part in parts:
        box = page.locator(part).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, part
        assert (
            header["y"] <= box["y"] and box["y"] + box["height"] <= header["y"] + header["height"]
        )


@pytest.mark.parametrize("width", WIDTHS)
def test_the_header_fits_at_phone_and_desktop_width(
    page: Page, live_server_factory: Callable[..., LiveServer], screenshot: Shot, width: str
) -> None:
    page.set_viewport_size(WIDTHS[width])
    wide = WIDTHS[width]["width"]
    server = live_server_factory(api_tokens=TOKENS)
    with open_library(server.settings) as library:
        game_id = library.upload(GAME.read_bytes(), uploaded_by="ana").game_id
    page.goto(server.url + "/")
    use_token(page, TOKENS["ana"])
    expect(page.locator("#auth-status")).to_have_text("Writing as ana")
    parts = ("#auth-input", "#auth-use", "#auth-clear", "#auth-status", "header nav")
    expect(page.locator("table.games tbody tr")).to_have_count(1)
    screenshot(page, f"token-library-{width}")
    fits_in_header(page, wide, parts)
    assert page.evaluate("document.documentElement.scrollWidth") <= wide
    page.get_by_role("link", name="Statistics").click()
    expect(page.locator("#stats-summary")).to_be_visible()
    screenshot(page, f"token-statistics-{width}")
    fits_in_header(page, wide, parts)
    assert page.evaluate("document.documentElement.scrollWidth") <= wide

    page.click("#auth-clear")
    expect(page.locator("#auth-status")).to_have_text("No token: reading only.")
    page.goto(f"{server.url}/replay/{game_id}")
    page.locator("#analysis-run").click()
    refusal = page.locator("#analysis-status .refused")
    expect(refusal).to_contain_text("Analysing needs a token.")
    fits_in_header(page, wide, parts)
    screenshot(page, f"token-replay-{width}")

    open_server = live_server_factory()
    page.goto(open_server.url + "/")
    expect(page.locator(".auth-open")).to_contain_text(
        "anyone can upload: no API tokens are configured"
    )
    fits_in_header(page, wide, (".auth-open", "header nav"))
    assert page.evaluate("document.documentElement.scrollWidth") <= wide
    screenshot(page, f"token-open-{width}")
