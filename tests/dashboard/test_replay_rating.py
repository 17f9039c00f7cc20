"""The replay page's rating changes in Chromium: a rated game's seats show what
``GET /api/games/{id}/ratings`` answers (Moonlight, and The Wolves with a bot's seat left out);
a game in progress, a private one and one with a single player left say why they are not
rated; at a phone's width and a desktop's nothing is wider than the window."""

from __future__ import annotations

import json
from typing import Any
from urllib.request import urlopen

import orjson
from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from tests.api.test_ratings import league_record
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES


def with_bot(name: str, seat: int) -> bytes:
    """A fixture game of The Wolves with seat ``seat`` played by a bot."""
    doc = json.loads((FIXTURES / f"{name}.json").read_bytes())
    doc["players"][seat]["bot"] = "heuristic"
    return json.dumps(doc).encode()


def rated(server: LiveServer, game_id: str) -> list[list[str]]:
    """The rows the API's rating of the game makes, as the page writes them."""
    with urlopen(f"{server.url}/api/games/{game_id}/ratings", timeout=30) as reply:
        seats: list[dict[str, Any]] = json.load(reply)["seats"]
    return [
        [s["name"], f"{s['before']:.1f} → {s['rating']:.1f}", f"{s['change']:+.1f}",
         f"{s['place']} ({s['predicted_place']})", f"{s['win_chance']:.0%}"]
        for s in seats
    ]  # fmt: skip


def test_a_replay_shows_the_games_rating_changes_or_why_it_has_none(
    page: Page, live_server: LiveServer
) -> None:
    unfinished = orjson.loads(league_record(9))
    unfinished["actions"] = unfinished["actions"][:6]
    with GameLibrary.open(live_server.settings.database_url) as library:
        moon = [str(library.upload(league_record(i)).game_id) for i in range(3)]
        private = library.upload(league_record(3), visibility="private").game_id
        running = library.upload(orjson.dumps(unfinished)).game_id
        wolves = library.upload(with_bot("3p-00-heuristic", 2)).game_id
        alone = library.upload(with_bot("2p-00-heuristic", 1)).game_id
    cells = page.locator("#replay-rating tbody tr")
    for game_id in (moon[2], wolves):
        page.goto(f"{live_server.url}/replay/{game_id}")
        expect(cells).to_have_count(len(rated(live_server, str(game_id))))
        shown = cells.evaluate_all(
            "rows => rows.map((r) => Array.from(r.cells).map((c) => c.textContent))"
        )
        assert shown == rated(live_server, str(game_id))
        for width, height in ((390, 844), (1440, 900)):
            page.set_viewport_size({"width": width, "height": height})
            expect(page.locator("#replay-rating table")).to_be_visible()
            fits = "(width) => document.documentElement.scrollWidth <= width"
            page.wait_for_function(fits, arg=width)  # once the charts are redrawn narrower
            assert page.locator("#replay-rating table").evaluate("t => t.scrollWidth") <= width
    assert len(rated(live_server, str(wolves))) == 2  # the bot's seat left out
    for game_id, why in (
        (running, "Not rated: the game is not finished."),
        (private, "Not rated: private games are not rated."),
        (alone, "Not rated: fewer than two players' seats"),
    ):
        page.goto(f"{live_server.url}/replay/{game_id}")
        expect(page.locator("#replay-rating")).to_contain_text(why)
