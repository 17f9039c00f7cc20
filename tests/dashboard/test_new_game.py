"""The New game page (``/new``): a fixture's setup entered as laid at the table opens a table
whose record has the fixture's setup and players (so its actions replay on it); a tile used
twice (W-2) and a home terrain taken twice (W-4.5) are refused where they are entered and
open nothing; a random map is the engine's deal for its seed; the page fits a phone."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from playwright.sync_api import Page, expect

from dashboard.boards.wolves_new import dom_id, pos_id, seat_id
from dashboard.boards.wolves_setup import (
    FLAGS,
    Seat,
    map_problems,
    preview,
    read_form,
    record_of,
    seat_problems,
)
from domain.games import ruleset
from domain.replays import replay
from domain.wolves.records import setup_to_json
from domain.wolves.setup import Options, generate_setup
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES

Shot = Callable[[Page, str], Path]
LAID = sorted(
    path
    for path in FIXTURES.glob("*p-0[0-9]-*.json")
    if ".expected" not in path.name and "tiles" in json.loads(path.read_bytes())["setup"]
)
"""Every fixture whose map is tiles (not a generated custom map): what a table can lay."""
GAME = FIXTURES / "3p-00-heuristic.json"


def _regions(setup: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in setup["tiles"] if t["tile"] != "start"]


def _stack(tile: dict[str, Any]) -> str:
    return "+".join(tile["scoring"])


def _without_seed(setup: dict[str, Any]) -> dict[str, Any]:
    """A setup as the table lays it: ``seed`` only says how the engine dealt it."""
    return {key: value for key, value in setup.items() if key != "seed"}


def _tables(server: LiveServer) -> list[dict[str, Any]]:
    with urlopen(f"{server.url}/api/tables", timeout=30) as response:
        return json.load(response)["tables"]


def _table(server: LiveServer, table_id: str) -> dict[str, Any]:
    with urlopen(f"{server.url}/api/tables/{table_id}", timeout=30) as response:
        return json.load(response)


@pytest.mark.parametrize("path", LAID, ids=[p.stem for p in LAID])
def test_each_fixture_laid_position_by_position_makes_its_record(path: Path) -> None:
    """The form's record of a fixture's tiles (number, tokens, prey per position; rotation
    from the position, W-3) has the fixture's setup but its seed, and its players."""
    doc = json.loads(path.read_bytes())
    setup, options = doc["setup"], doc["setup"]["options"]
    tiles = _regions(setup)
    padding = [None] * (10 - len(tiles))
    form = read_form(
        [Seat(p["name"], p["color"], p["terrain"]) for p in doc["players"]],
        None, "2026-11-20", "table", None, [f for f in FLAGS if options[f]], 2,
        options["stall_limit_rounds"], [t["tile"] for t in tiles] + padding,
        [_stack(t) for t in tiles] + padding, [t["prey"]["type"] for t in tiles] + padding,
    )  # fmt: skip
    assert seat_problems(form.players) == []
    assert map_problems(form) == []
    record = record_of(form)
    assert record["setup"] == _without_seed(setup)
    assert record["players"] == doc["players"]
    assert record["meta"] == {
        "title": " vs ".join(p["name"] for p in doc["players"]),
        "played_on": "2026-11-20",
        "source": "recorded at the table",
    }


def test_two_players_on_the_big_map_lay_the_three_player_layout() -> None:
    """W-12: the big map is the start tile and six regions; the box deals the two-player
    stacks and a quarter (W-4.2), single prey tokens (W-4.4)."""
    seats = [Seat("Ana", "blue", "forest"), Seat("Bo", "red", "tundra")]
    empty = [None] * 10
    form = read_form(seats, None, "2026-11-20", "table", None, ["big_map"], 2, None, empty,
                     empty, empty)  # fmt: skip
    assert form.layout.start == (8, 9) and len(form.layout.positions) == 6
    assert dict(form.layout.stacks)[("quarter",)] == 1 and form.layout.prey_count == 1
    shown = preview(form)
    assert len(shown["hexes"]) == 112 and all(h[2] in ("", "water") for h in shown["hexes"] if h[3])
    crowded = read_form(seats, None, "2026-11-20", "table", None, ["big_map"], 2, None,
                        [1, 2, 3, None, None, None, *empty[:4]],
                        ["crescent", "crescent", "full", "full", "full", None, *empty[:4]],
                        empty)  # fmt: skip
    assert [(p.position, p.field) for p in map_problems(crowded)] == [
        (2, "scoring"),
        (5, "scoring"),
    ]


def test_a_random_map_with_random_terrain_is_previewed_from_the_deal() -> None:
    seats = [
        Seat("Ana", "blue", "forest"),
        Seat("Bo", "red", "tundra"),
        Seat("Cy", "green", "desert"),
    ]
    empty = [None] * 10
    form = read_form(seats, None, "2026-11-20", "random", "77", ["random_terrain"], 3, None,
                     empty, empty, empty)  # fmt: skip
    dealt = generate_setup(3, 77, Options(random_terrain=True, lone_wolves_per_region=3))
    assert record_of(form)["setup"] == setup_to_json(dealt)
    shown = preview(form)
    assert len(shown["hexes"]) == 112 and len(shown["lone"]) == 18 and len(shown["tokens"]) == 6
    assert read_form(
        seats, None, "2026-11-20", "random", "-1", [], 2, None, empty, empty, empty
    ).problems == {"seed": "a whole number from 0 to 9223372036854775807"}
    stall = "a number of rounds from 1 to 1000, or empty for none"
    for typed in ("5000", "0", "2.5", "ten"):  # told, never read as "no limit" (W-12)
        assert read_form(
            seats, None, "2026-11-20", "random", "7", [], 2, typed, empty, empty, empty
        ).problems == {"stall_limit": stall}
    assert (
        read_form(
            seats, None, "2026-11-20", "random", "7", [], 2, " 10 ", empty, empty, empty
        ).stall_limit
        == 10
    )


def seat(kind: str, n: int) -> str:
    """The selector of seat ``n``'s control ``kind`` (``name``, ``color``, ``up`` …)."""
    return f"[id='{dom_id(seat_id(kind, n))}']"


def place(kind: str, n: int) -> str:
    """The selector of position ``n``'s control ``kind`` (``tile``, ``scoring``, ``prey``)."""
    return f"[id='{dom_id(pos_id(kind, n))}']"


def pick(page: Page, dropdown: str, option: str) -> None:
    """Choose ``option`` of a dropdown: open it, click the option."""
    page.locator(dropdown).click()
    page.get_by_role("option", name=option, exact=True).click()
    expect(page.locator(dropdown)).to_contain_text(option)


def lay(page: Page, position: int, tile: dict[str, Any]) -> None:
    """Enter one position's tile number, scoring stack and prey as shown on the table."""
    page.get_by_label("Tile number").nth(position).fill(str(tile["tile"]))
    page.locator(f"{place('scoring', position)} input[value='{_stack(tile)}']").check()
    page.locator(f"{place('prey', position)} input[value='{tile['prey']['type']}']").check()


def test_a_fixture_laid_at_the_table_opens_a_table_its_actions_replay_on(
    page: Page, live_server: LiveServer, screenshot: Shot
) -> None:
    doc = json.loads(GAME.read_bytes())
    players = doc["players"]
    page.goto(live_server.url + "/new")
    # the second seat entered first, then moved down: seat order is draft order (W-4.1)
    for n, player in ((0, players[1]), (1, players[0]), (2, players[2])):
        page.fill(seat("name", n), player["name"])
    page.locator(seat("down", 0)).click()
    expect(page.locator(seat("name", 0))).to_have_value(players[0]["name"])
    expect(page.locator(seat("down", 1))).to_be_focused()  # the focus follows the seat moved
    for n, player in enumerate(players):
        pick(page, seat("terrain", n), player["terrain"])
        pick(page, seat("color", n), player["color"])
    expect(page.locator(".field-problem:visible")).to_have_count(0)

    drawn = page.locator("#new-map")
    expect(drawn).to_have_attribute("data-hexes", "112")  # W-3: 112 hexes for 3 players
    expect(drawn.locator(".hex.unknown")).to_have_count(6 * 15)
    tiles = _regions(doc["setup"])
    drawn.locator(".pos-label", has_text="3").click()  # a position on the map: its tile number
    expect(page.locator(place("tile", 2))).to_be_focused()
    page.keyboard.type(str(tiles[2]["tile"]))
    expect(drawn.locator(".pos-label", has_text="3: tile")).to_have_text(
        f"3: tile {tiles[2]['tile']}"
    )
    for position, tile in enumerate(tiles):
        lay(page, position, tile)
    expect(drawn.locator(".hex.unknown")).to_have_count(0)
    expect(drawn.locator(".token")).to_have_count(6)
    expect(drawn.locator(".prey")).to_have_count(6)
    expect(drawn.locator(".pos-label").first).to_have_text("1: tile 10")
    screenshot(page, "new-game-laid")

    page.get_by_role("button", name="Start the draft").click()
    expect(page).to_have_url(re.compile(r"/table/[0-9a-f-]{36}$"), timeout=20_000)
    table = _table(live_server, page.url.rsplit("/", 1)[1])
    record = table["record"]
    assert record["setup"] == _without_seed(doc["setup"])
    assert record["players"] == players
    assert table["actions"] == [] and table["version"] >= 1
    rules = ruleset("the-wolves")
    played = replay(rules, rules.read_record({**record, "actions": doc["actions"]})).state
    expected = json.loads(GAME.with_suffix(".expected.json").read_bytes())
    assert rules.score_json(played)["scores"] == expected["scores"]


def test_a_tile_twice_and_a_terrain_twice_are_refused_and_open_nothing(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(live_server.url + "/new")
    pick(page, seat("terrain", 1), "forest")
    expect(page.locator("#new-terrain-problem-1")).to_have_text(
        "forest is the home terrain of seat 1 (each terrain once, W-4.5)"
    )
    page.get_by_label("Tile number").nth(0).fill("4")
    page.get_by_label("Tile number").nth(3).fill("4")
    expect(page.locator("#new-tile-problem-3")).to_have_text(
        "tile 4 is already at position 1 (each tile once, W-2)"
    )
    expect(page.locator("#new-tile-problem-0")).to_be_empty()
    page.get_by_role("button", name="Start the draft").click()
    expect(page.locator("#new-result")).to_contain_text("Not started: 2 fields above need fixing.")
    assert _tables(live_server) == []

    pick(page, seat("terrain", 1), "desert")  # fixed: the next refusal is the missing tiles
    page.get_by_label("Tile number").nth(3).fill("5")
    expect(page.locator(".field-problem:visible")).to_have_count(0)
    page.get_by_role("button", name="Start the draft").click()
    expect(page.locator("#new-result")).to_contain_text("position 1 has no scoring and no prey")
    assert _tables(live_server) == []


def test_a_random_map_is_the_engines_deal_for_its_seed(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/new")
    page.get_by_label("Random, from a seed").check()
    expect(page.get_by_label("Tile number").first).to_be_hidden()
    seed = page.get_by_label("Seed", exact=True)
    before = seed.input_value()
    page.get_by_role("button", name="New seed").click()
    expect(seed).not_to_have_value(before)
    seed.fill("4242")
    page.get_by_text("Auto push").click()
    expect(page.locator("#new-map .token")).to_have_count(6)
    page.get_by_role("button", name="Start the draft").click()
    expect(page).to_have_url(re.compile(r"/table/[0-9a-f-]{36}$"), timeout=20_000)
    record = _table(live_server, page.url.rsplit("/", 1)[1])["record"]
    dealt = generate_setup(3, 4242, Options(auto_push=True))  # as `howl simulate` deals
    assert record["setup"] == setup_to_json(dealt)
    assert record["setup"]["options"]["auto_push"] is True


def test_starting_needs_the_token_uploads_need(
    page: Page, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(api_tokens={"ana": "ana-new-game-token"})
    page.goto(server.url + "/new")
    page.get_by_label("Random, from a seed").check()
    page.get_by_role("button", name="Start the draft").click()
    expect(page.locator("#new-result .refused")).to_have_attribute("data-status", "401")
    expect(page.locator("#new-result")).to_contain_text("Starting a game needs a token.")
    page.fill("#auth-input", "not-the-token")
    page.click("#auth-use")
    expect(page.locator("#auth-status .auth-bad")).to_have_attribute("data-status", "403")
    page.get_by_role("button", name="Start the draft").click()
    expect(page.locator("#new-result")).to_contain_text("This token is not accepted here.")
    assert _tables(server) == []


def test_the_page_fits_a_phone_and_a_desktop_and_works_by_keyboard(
    page: Page, live_server: LiveServer, screenshot: Shot
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/new")
    expect(page.locator("#new-map svg")).to_be_visible()
    page.locator("#new-add").click()
    expect(page.locator("#new-row-3")).to_be_visible()
    expect(page.locator(".pos-card:visible")).to_have_count(8)  # W-3: 8 positions for 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "new-game-390")

    expect(page.locator(seat("color", 3))).to_contain_text("green")  # the first colour free
    page.locator(seat("name", 3)).focus()
    page.keyboard.press("Tab")  # to the colour: Enter opens it, ↓ and Enter choose
    expect(page.locator(seat("color", 3))).to_be_focused()
    expect(page.locator(seat("color", 3))).to_have_accessible_name("Colour, seat 4 green")
    expect(page.locator(seat("name", 3))).to_have_accessible_name("Name, seat 4")
    expect(page.get_by_role("spinbutton", name="Tile number, position 8")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator("input[type=radio][value=green]:focus")).to_be_visible()
    page.keyboard.press("ArrowDown")
    expect(page.locator("input[type=radio][value=purple]:focus")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator(seat("color", 3))).to_contain_text("purple")
    outline = page.evaluate(
        "getComputedStyle(document.activeElement.closest('.dash-dropdown-wrapper')"
        " || document.activeElement).outlineStyle"
    )
    assert outline != "none"
    page.locator(seat("remove", 3)).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#new-row-3")).to_be_hidden()
    expect(page.locator("#new-add")).to_be_focused()
    expect(page.locator(".pos-card:visible")).to_have_count(6)

    page.set_viewport_size({"width": 1440, "height": 900})
    expect(page.locator(".map-preview")).to_have_css("position", "sticky")  # beside the cards
    assert page.evaluate("document.documentElement.scrollWidth") <= 1440
    screenshot(page, "new-game-1440")
