"""The statistics page in Chromium keeps its filters in its address: a link or a reload shows
the same view, the back button goes back through the filters, every game has an address of
its own, and what an address names that the page cannot use is left out."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from tests.conftest import LiveServer

FIXTURES = Path(__file__).parents[1] / "fixtures"


def test_the_address_keeps_the_filters(page: Page, live_server: LiveServer) -> None:
    with GameLibrary.open(live_server.settings.database_url) as library:
        for path in (
            *sorted((FIXTURES / "moonlight").glob("0[0-5]-*.json")),
            *sorted((FIXTURES / "the-wolves").glob("[23]p-0[0-1]-heuristic.json")),
        ):
            if not path.stem.endswith(".expected"):
                library.upload(path.read_bytes(), uploaded_by="test")
    summary, url = page.locator("#stats-summary"), f"{live_server.url}/statistics"
    page.goto(url)
    expect(page.locator("#stats-game")).to_contain_text("Moonlight")  # the most played
    expect(summary).to_contain_text("6 finished games")
    expect(page).to_have_url(url)  # opening the page names nothing
    page.locator("#stats-game").click()
    page.get_by_role("option", name="The Wolves", exact=True).click()
    expect(summary).to_contain_text("4 finished games")
    page.locator("#stats-players").click()
    page.get_by_role("option", name="3 players", exact=True).click()
    expect(summary).to_contain_text("2 finished games")
    page.locator("#stats-since").fill("2000-01-01")
    page.locator("#stats-since").press("Enter")
    expect(page).to_have_url(f"{url}?game=the-wolves&players=3&since=2000-01-01")
    page.reload()
    expect(page.locator("#stats-game")).to_contain_text("The Wolves")
    expect(page.locator("#stats-players")).to_contain_text("3 players")
    expect(page.locator("#stats-since")).to_have_value("2000-01-01")
    expect(summary).to_contain_text("2 finished games")
    page.go_back()
    expect(page.locator("#stats-since")).to_have_value("")
    page.go_back()
    expect(summary).to_contain_text("4 finished games")
    page.go_back()
    expect(page.locator("#stats-game")).to_contain_text("Moonlight")
    expect(summary).to_contain_text("6 finished games")

    page.locator("#stats-game a.dash-dropdown-clear").click()  # every game
    expect(summary).to_contain_text("10 finished games")
    expect(page).to_have_url(f"{url}?game=all")
    page.reload()
    expect(summary).to_contain_text("Of every game")
    page.goto(f"{url}?game=chess&players=9&since=yesterday&bots=include&player=%00")
    expect(page.locator("#stats-game")).to_contain_text("Moonlight")  # unknown: the most played
    expect(summary).to_contain_text("6 finished games")
    expect(page.locator("#stats-since")).to_have_value("")
    expect(page.locator("#stats-bots input")).to_be_checked()
