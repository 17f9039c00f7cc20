"""The library in Chromium: a tag and a title-or-player text narrow it, and a token shows its
owner's private games among the others (and no one else's)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES
from tests.dashboard.test_token import use_token

TOKENS = {"ana": "ana-library-token", "bo": "bo-library-token"}


def test_tag_text_and_a_tokens_private_games(
    page: Page, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(api_tokens=TOKENS)
    with GameLibrary.open(server.settings.database_url) as library:
        for name, tags, visibility in (
            ("2p-00-heuristic", ["club"], "public"), ("3p-00-heuristic", ["club", "cup"], "public"),
            ("5p-00-heuristic", [], "public"), ("4p-00-heuristic", ["club"], "private"),
        ):  # fmt: skip
            record = (FIXTURES / f"{name}.json").read_bytes()
            library.upload(record, uploaded_by="ana", tags=tags, visibility=visibility)
    rows = page.locator("#library-table tbody tr")
    page.goto(server.url + "/")
    expect(rows).to_have_count(3)
    page.locator("#library-tag").fill("club")
    page.locator("#library-tag").press("Enter")
    expect(rows).to_have_count(2)
    page.locator("#library-q").fill("ELI")  # the 5-player game's last seat
    page.locator("#library-q").press("Enter")
    expect(page.get_by_text("No games match these filters.")).to_be_visible()
    page.locator("#library-tag").fill("")
    page.locator("#library-tag").press("Enter")
    expect(rows).to_have_count(1)
    page.locator("#library-q").fill("")
    page.locator("#library-q").press("Enter")
    expect(rows).to_have_count(3)
    use_token(page, TOKENS["bo"])
    expect(page.locator("#auth-status")).to_contain_text("bo")
    expect(rows).to_have_count(3)  # not bo's private game
    use_token(page, TOKENS["ana"])
    expect(rows).to_have_count(4)
    page.locator("#library-tag").fill("club")
    page.locator("#library-tag").press("Enter")
    expect(rows).to_have_count(3)


def test_the_seat_attribute_filter_is_the_chosen_games(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/?game=moonlight")
    attribute = page.locator("#library-attribute")
    expect(attribute).to_be_hidden()  # Moonlight's seats have no attribute to filter by
    page.goto(live_server.url + "/?game=the-wolves")
    expect(attribute).to_be_visible()
    attribute.click()
    expect(page.get_by_text("tundra", exact=True)).to_be_visible()  # The Wolves' home terrains
