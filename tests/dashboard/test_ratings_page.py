"""The ratings page in Chromium: a league where one player always wins has them first, the
filters narrow it (a tag, a season), the chart follows the leaders, and a name leads to the
player page with their rating chart and head to head; by keyboard and at a phone's width."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from tests.api.test_ratings import LOSERS, league_record
from tests.conftest import LiveServer


def test_the_leaderboard_and_its_way_to_a_player(page: Page, live_server: LiveServer) -> None:
    with GameLibrary.open(live_server.settings.database_url) as library:
        for i in range(12):
            library.upload(league_record(i), tags=["club"] if i % 2 == 0 else [])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/ratings")
    expect(page).to_have_title("Ratings · Howl")
    rows = page.locator("#ratings-body table.games tbody tr")
    expect(rows).to_have_count(1 + len(LOSERS))
    expect(rows.first.locator("td").nth(1)).to_have_text("zoë")
    expect(page.locator("#ratings-summary")).to_have_text("12 games rated, 4 players.")
    expect(page.locator("#ratings-body .card .js-plotly-plot")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#ratings-tag").fill("club")
    page.locator("#ratings-tag").press("Enter")
    expect(page.locator("#ratings-summary")).to_have_text("6 games rated, 4 players.")
    page.locator("#ratings-until").fill("2000-01-01")
    page.locator("#ratings-until").press("Enter")
    expect(page.locator("#ratings-body")).to_contain_text("No ratings yet")
    page.locator("#ratings-until").fill("")
    page.locator("#ratings-until").press("Enter")
    page.locator("#ratings h2").click()  # the date box left: nothing more to send
    expect(page.locator("#ratings-summary")).to_have_text("6 games rated, 4 players.")

    page.set_viewport_size({"width": 1440, "height": 900})
    leader = rows.first.get_by_role("link", name="zoë")
    leader.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#player h2")).to_have_text("zoë")
    expect(page.locator("#player-body h3").first).to_have_text(
        "Rating: Moonlight: The Land of the Wolves"
    )
    met = page.locator("table:has(caption) tbody tr")
    expect(met).to_have_count(len(LOSERS))
    expect(met.first.locator("td").nth(2)).to_have_text("4")  # won every game against them
    expect(page.locator("#player-body .card .js-plotly-plot").first).to_be_visible()


def test_the_address_keeps_the_filters(page: Page, live_server: LiveServer) -> None:
    with GameLibrary.open(live_server.settings.database_url) as library:
        for i in range(6):
            library.upload(league_record(i), tags=["club"] if i % 2 == 0 else [])
    summary = page.locator("#ratings-summary")
    page.goto(live_server.url + "/ratings")
    expect(summary).to_have_text("6 games rated, 4 players.")
    page.locator("#ratings-tag").fill("club")
    page.locator("#ratings-tag").press("Enter")
    expect(summary).to_have_text("3 games rated, 4 players.")
    page.locator("#ratings-since").fill("2000-01-01")
    page.locator("#ratings-since").press("Enter")
    expect(page).to_have_url(f"{live_server.url}/ratings?game=moonlight&since=2000-01-01&tag=club")
    page.reload()
    expect(page.locator("#ratings-tag")).to_have_value("club")
    expect(page.locator("#ratings-since")).to_have_value("2000-01-01")
    expect(summary).to_have_text("3 games rated, 4 players.")
    page.go_back()
    expect(page.locator("#ratings-since")).to_have_value("")
    page.go_back()
    expect(page.locator("#ratings-tag")).to_have_value("")
    expect(summary).to_have_text("6 games rated, 4 players.")

    page.goto(live_server.url + "/ratings?game=chess&since=yesterday&until=2026-13-01&tag=club")
    expect(summary).to_have_text("3 games rated, 4 players.")
    expect(page.locator("#ratings-since")).to_have_value("")
    page.goto(live_server.url + "/ratings?tag=club&until=2000-01-01")
    expect(page.locator("#ratings-body")).to_contain_text("No ratings yet")
    expect(page.locator("#ratings-until")).to_have_value("2000-01-01")
