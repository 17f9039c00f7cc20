"""The library in Chromium: the Players and Winner headings sort every game (not only the page
shown) as ``GET /api/games`` does, by keyboard; the filters and the sort are kept in the page's
address, so a reload shows the same games and the back button the games before, and values
it cannot use are left out; at a
phone's width and a desktop's nothing is wider than the window."""

from __future__ import annotations

import json
from typing import Any
from urllib.request import urlopen

import orjson
from playwright.sync_api import Page, expect

from dashboard.pages.library import PAGE_SIZE
from domain.games import ruleset
from domain.replays import replay
from domain.store import GameLibrary
from tests.conftest import LiveServer

MOONLIGHT = ruleset("moonlight")
GAMES = PAGE_SIZE + 2
"""More games than a page shows: the two uploaded first are on the second page at first."""


def named_record(seed: int, winner: str, loser: str, lost_first: bool = False) -> bytes:
    """A two-player Moonlight game with one winner, its seats named ``winner`` and ``loser``
    (``lost_first``: the loser in the first seat)."""
    while True:
        record = MOONLIGHT.self_play(2, ["greedy", "random"], seed)
        places = [s.place for s in MOONLIGHT.scores(replay(MOONLIGHT, record).state)]
        if places.count(1) == 1 and not (lost_first and places[0] == 1):
            break
        seed += 1_000
    doc = orjson.loads(MOONLIGHT.write_record(record))
    for player, place in zip(doc["players"], places, strict=True):
        player["name"] = winner if place == 1 else loser
    return orjson.dumps(doc)


def api_ids(server: LiveServer, **query: Any) -> list[str]:
    """The ids of the first page of ``GET /api/games`` (a page as long as the library's)."""
    asked = "&".join(f"{k}={v}" for k, v in {**query, "limit": PAGE_SIZE}.items())
    with urlopen(f"{server.url}/api/games?{asked}", timeout=30) as reply:
        return [item["game_id"] for item in json.load(reply)["items"]]


def shown_ids(page: Page) -> list[str]:
    """The ids of the games the library's table shows, in order."""
    links = page.locator("#library-table tbody tr a.game-link")
    return links.evaluate_all("links => links.map((a) => a.getAttribute('href').split('/').pop())")


def sorted_by(page: Page, heading: str, first: str) -> None:
    """Sort by ``heading`` (by keyboard) and wait for the game ``first`` to head the table."""
    page.locator(".sort-head", has_text=heading).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#library-table tbody tr a.game-link").first).to_have_attribute(
        "href", f"/replay/{first}"
    )


def test_players_and_winner_sort_every_game_and_the_address_keeps_the_view(
    page: Page, live_server: LiveServer
) -> None:
    ids = []
    with GameLibrary.open(live_server.settings.database_url) as library:
        for i in range(GAMES):
            winner, loser = {0: ("Mo", "Aaron"), 1: ("Abby", "Zoltan")}.get(i, ("Mo", "Ned"))
            record = named_record(3_000 + i, winner, loser, lost_first=i == 0)
            ids.append(str(library.upload(record, tags=["club"] if i % 2 else []).game_id))
    rows = page.locator("#library-table tbody tr")
    page.goto(live_server.url + "/")
    expect(rows).to_have_count(PAGE_SIZE)
    assert not {ids[0], ids[1]} & set(shown_ids(page))  # the oldest: on the second page

    sorted_by(page, "Players", ids[0])  # "Aaron" the first name of any game
    assert shown_ids(page) == api_ids(live_server, sort="names")
    expect(page.locator("th[aria-sort=ascending]")).to_have_text("Players ↑")
    assert page.evaluate("location.search") == "?sort=names"
    newest = api_ids(live_server, sort="-names")
    sorted_by(page, "Players", newest[0])
    assert shown_ids(page) == newest
    expect(page.locator("th[aria-sort=descending]")).to_have_text("Players ↓")
    sorted_by(page, "Winner", ids[1])  # "Abby" the first winner
    assert shown_ids(page) == api_ids(live_server, sort="winner")
    expect(page.locator("#library-count")).to_have_text(f"1–{PAGE_SIZE} of {GAMES}")

    page.locator("#library-tag").fill("club")
    page.locator("#library-tag").press("Enter")
    expect(page.locator("#library-count")).to_have_text(f"1–{GAMES // 2} of {GAMES // 2}")
    expect(page).to_have_url(f"{live_server.url}/?tag=club&sort=winner")
    chosen = shown_ids(page)
    assert chosen == api_ids(live_server, sort="winner", tag="club")
    page.reload()
    expect(page.locator("#library-tag")).to_have_value("club")
    expect(page.locator("#library-sort")).to_contain_text("Winner ↑")
    expect(page.locator("#library-count")).to_have_text(f"1–{GAMES // 2} of {GAMES // 2}")
    assert shown_ids(page) == chosen
    page.go_back()  # to the sort before the tag
    expect(page.locator("#library-tag")).to_have_value("")
    expect(page.locator("#library-count")).to_have_text(f"1–{PAGE_SIZE} of {GAMES}")
    page.go_forward()
    expect(page.locator("#library-tag")).to_have_value("club")
    expect(page.locator("#library-count")).to_have_text(f"1–{GAMES // 2} of {GAMES // 2}")
    assert shown_ids(page) == chosen

    page.goto(live_server.url + "/?tag=club&players=two&sort=colour&game=chess&q=%00")
    expect(page.locator("#library-count")).to_have_text(f"1–{GAMES // 2} of {GAMES // 2}")
    assert shown_ids(page) == api_ids(live_server, tag="club")  # newest first, as by default
    expect(page.locator("#library-q")).to_have_value("")
    for width, height in ((390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        expect(rows).to_have_count(GAMES // 2)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
