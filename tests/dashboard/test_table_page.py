"""The table page in Chromium, over real HTTP: a complete fixture game of The Wolves entered by
clicking (every record action translated into the clicks a person makes), finished and stored
with the fixture's result; two pages on one table; disabled controls for what the engine would
refuse; the keys (Ctrl+Z undoes, Esc cancels); a narrow window.

The page's own timings (click on a wolf → its destinations drawn; Confirm → the board of the
new version drawn, both to the next painted frame) are printed, not asserted."""

from __future__ import annotations

import json
import statistics
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Browser, Page, expect

from domain.games import ruleset
from domain.replays import replay
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES

TOKEN = "table-page-token"
TOKENS = {"ana": TOKEN}
GAME = FIXTURES / "2p-03-heuristic.json"
"""A complete two-player game: drafts, dens, lairs, howls, dominations, multi-wolf moves,
bonus actions, paid with tiles and bonus terrain tokens."""


def start(
    factory: Callable[..., LiveServer], store_url: str, tokens: dict[str, str] = TOKENS
) -> LiveServer:
    """A live server with API ``tokens`` on ``store_url`` (a PostgreSQL schema of its own)."""
    settings: dict[str, Any] = {"api_tokens": tokens}
    if store_url.startswith("postgresql"):
        settings["database_schema"] = f"t_{uuid.uuid4().hex[:12]}"
    return factory(store_url, **settings)


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer], store_url: str) -> LiveServer:
    """A live server with API tokens, on each backend."""
    return start(live_server_factory, store_url)


@pytest.fixture
def sqlite_server(live_server_factory: Callable[..., LiveServer], sqlite_url: str) -> LiveServer:
    """A live server with API tokens on SQLite."""
    return start(live_server_factory, sqlite_url)


def fixture(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A fixture's record without its actions, and its actions."""
    record = json.loads(path.read_text())
    return {**record, "actions": []}, record["actions"]


def open_table(server: LiveServer, record: dict[str, Any]) -> str:
    """``POST /api/tables`` with the record; the new table's id (from ``Location``)."""
    request = Request(
        f"{server.url}/api/tables",
        data=json.dumps(record).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"},
        method="POST",
    )
    with urlopen(request, timeout=30) as response:
        assert response.status == 201
        location = response.headers["Location"]
    assert location.startswith("/api/tables/")
    return location.rsplit("/", 1)[1]


def get(server: LiveServer, path: str) -> Any:
    with urlopen(f"{server.url}{path}", timeout=30) as response:
        return json.load(response)


def visit(page: Page, server: LiveServer, table_id: str, token: bool = True) -> int:
    """Open the table page (with ``token``, enter the API token in the header first); the
    table's version it shows."""
    page.goto(f"{server.url}/table/{table_id}")
    if token:
        page.fill("#auth-input", TOKEN)
        page.click("#auth-use")
        expect(page.locator(".auth-name")).to_have_text("ana")
    version: int = get(server, f"/api/tables/{table_id}")["version"]
    ready(page, version)
    expect(page.locator(".table-link.on")).to_be_attached()  # following the table's stream
    return version


def ready(page: Page, version: int) -> None:
    """Wait until the page shows the table at ``version`` with its legal actions."""
    expect(page.locator(f'#table-status[data-version="{version}"]')).to_be_attached()
    expect(page.locator(f'#table-controls[data-legal="{version}"]')).to_be_attached()


def hexel(page: Page, h: list[int]) -> Any:
    return page.locator(f'#table-board [data-hex="{h[0]},{h[1]}"]')


def pending_pay(page: Page) -> dict[str, Any]:
    raw = page.locator("#table-pending").get_attribute("data-pay")
    return json.loads(raw) if raw else {"tiles": [], "bonus_terrain": 0}


def pay_as(page: Page, want: dict[str, Any]) -> None:
    """Click the acting seat's tiles and bonus terrain button until the payment shown on its
    board is ``want`` (records.md ``pay``)."""
    tiles, bonus = list(want.get("tiles", [])), want.get("bonus_terrain", 0)
    board = page.locator("#table-boards .player-board.turn")
    shown = pending_pay(page)
    for slot in [s for s in shown["tiles"] if s not in tiles]:
        board.locator(f'[data-slot="{slot}"]').click()
    for _ in range(6):
        if pending_pay(page)["bonus_terrain"] == bonus:
            break
        board.locator(".pay-bonus").click()
    for slot in [s for s in tiles if s not in shown["tiles"]]:
        board.locator(f'[data-slot="{slot}"]').click()
    got = pending_pay(page)
    assert (sorted(got["tiles"]), got["bonus_terrain"]) == (sorted(tiles), bonus)


def choose(page: Page, label: str) -> None:
    """Pick ``label`` among the choices the pending action offers, when it offers any."""
    options = page.locator("#table-pending [data-choose]")
    if options.count():
        options.filter(has_text=label).first.click()


def enter(page: Page, action: dict[str, Any]) -> None:
    """Enter one record action by clicking, as a person at the table would, and wait until
    the page shows the table it made, with its legal actions."""
    version = int(page.locator("#table-controls").get_attribute("data-legal") or -1)
    build(page, action)
    ready(page, version + 1)


def build(page: Page, action: dict[str, Any]) -> None:
    """Click one record action together."""
    kind = action["type"]
    page.click(f'[data-act="{kind}"]')
    if kind in ("bonus_action", "pass"):
        return
    if kind == "draft":
        hexel(page, action["hex"]).click()
        return
    if kind == "move":
        for step in action["moves"]:
            hexel(page, step["from"]).click()
            choose(page, "the alpha" if step.get("wolf") == "alpha" else "the pack wolf")
            expect(page.locator("#table-board .choice.dest").first).to_be_attached()
            hexel(page, step["to"]).click()
    else:
        hexel(page, action["hex"]).click()
        if kind == "den":
            choose(page, f"Den on the {action['track']} track")
        elif kind == "dominate":
            piece = action.get("piece") or "pack"
            track = action.get("track")
            choose(page, f"Dominate the {piece}" + (f", den on the {track} track" if track else ""))
    expect(page.locator("#table-confirm")).to_be_visible()
    pay_as(page, action.get("pay", {}))
    page.click("#table-confirm")


def turn(page: Page) -> int | None:
    seat = page.locator("#table-status").get_attribute("data-turn")
    return int(seat) if seat else None


def play_through(
    page: Page, actions: list[dict[str, Any]], version: int, shot: Callable[[Page, str], Path]
) -> int:
    """Enter every action by clicking, from the table at ``version`` (a Pass first where a
    record lets the next seat's action end the turn, records.md); the version reached. A
    screenshot is kept of the action that was not drawn."""
    for index, action in enumerate(actions):
        if turn(page) != action["player"]:
            page.click('[data-act="pass"]')
            version += 1
            ready(page, version)
        build(page, action)
        version += 1
        try:
            ready(page, version)
        except AssertionError:
            shot(page, f"table-action-{index}")
            raise
    return version


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def test_a_fixture_game_entered_by_clicking_is_stored_with_its_result(
    sqlite_server: LiveServer, page: Page, screenshot: Callable[[Page, str], Path]
) -> None:
    """On SQLite: ``test_table_recorded`` clicks the same game through on PostgreSQL."""
    server = sqlite_server
    record, actions = fixture(GAME)
    table_id = open_table(server, record)
    version = play_through(page, actions, visit(page, server, table_id), screenshot)
    screenshot(page, "table-finished")
    expect(page.locator("#table-status")).to_contain_text("game over")
    log = page.locator("#table-log")  # what the actions caused, entered by nobody (W-6.7, W-8)
    expect(log.locator(".log-step")).to_have_count(version - 1)
    expect(log).to_contain_text(" hunts a ")
    expect(log.locator(".log-scoring").first).to_contain_text("crescent scoring of region")
    expect(log.locator(".log-end")).to_have_text("the game ends")
    times = page.evaluate("window.howlTableTimes")
    print(
        f"\ntable page timings (ms): click on a wolf → destinations drawn: p95 "
        f"{p95(times['select']):.1f} of {len(times['select'])}; Confirm → board updated: "
        f"p95 {p95(times['submit']):.1f} of {len(times['submit'])}"
    )
    page.click("#table-finish-button")
    page.wait_for_url(f"{server.url}/replay/*")
    game_id = page.url.rsplit("/", 1)[1].split("?")[0]
    stored = get(server, f"/api/games/{game_id}/record")
    rules = ruleset(stored["game"])
    scores = rules.score_json(replay(rules, rules.read_record(stored)).state)["scores"]
    expected = json.loads(GAME.with_suffix(".expected.json").read_text())
    assert scores == expected["scores"]
    table = get(server, f"/api/tables/{table_id}")
    assert table["closed"] and table["game_id"] == game_id


@pytest.fixture
def second(browser: Browser) -> Iterator[Page]:
    """A second browser context: another person watching the same table."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_a_watcher_sees_an_action_within_a_second(
    sqlite_server: LiveServer, page: Page, second: Page
) -> None:
    record, actions = fixture(GAME)
    table_id = open_table(sqlite_server, record)
    visit(page, sqlite_server, table_id)
    visit(second, sqlite_server, table_id, token=False)
    second.bring_to_front()  # the watcher looks at its page (a page behind draws no frames)
    expect(second.locator('#table-board svg[data-version="1"]')).to_be_attached()
    enter(page, actions[0])
    expect(page.locator('#table-status[data-version="2"]')).to_be_attached()
    shown = time.monotonic()
    watched = second.locator('#table-board svg[data-version="2"]')
    expect(watched).to_be_attached(timeout=1_000)
    print(f"\nthe watcher drew it {1000 * (time.monotonic() - shown):.0f} ms after the writer")
    expect(second.locator("#table-status")).to_contain_text("draft pick 2, Bo to pick")
    assert hexel(second, actions[0]["hex"]).count() == 0  # W-4.1: the hex is taken


def test_what_the_engine_refuses_cannot_be_clicked(sqlite_server: LiveServer, page: Page) -> None:
    record, actions = fixture(GAME)
    table_id = open_table(sqlite_server, record)
    visit(page, sqlite_server, table_id)
    # W-4.1: during the draft only a draft may be made; seat 0 holds no bonus action token
    # (W-11: seat 1 does), and nothing was entered that could be undone.
    for kind in ("bonus_action", "pass", "undo"):
        expect(page.locator(f'[data-act="{kind}"]')).to_be_disabled()
    expect(page.locator('[data-act="move"]')).to_have_count(0)
    page.click('[data-act="draft"]')
    legal = get(sqlite_server, f"/api/tables/{table_id}/legal")
    drafts = {tuple(a["hex"]) for a in legal["actions"] if a["type"] == "draft"}
    shown = {
        tuple(int(v) for v in h.split(","))
        for h in page.locator("#table-board .choice").evaluate_all(
            "els => els.map(e => e.getAttribute('data-hex'))"
        )
    }
    assert shown == drafts  # W-4.1: a region whose top token is a crescent is not offered
    for action in actions[:4]:
        enter(page, action)
    ready(page, 5)
    # W-6.3: no den yet, so no lair; W-6.5: nothing of the other seat's within howl range
    expect(page.locator('[data-act="lair"]')).to_be_disabled()
    expect(page.locator('[data-act="undo"]')).to_be_enabled()


def test_keys_build_cancel_and_undo(sqlite_server: LiveServer, page: Page) -> None:
    record, actions = fixture(GAME)
    table_id = open_table(sqlite_server, record)
    visit(page, sqlite_server, table_id)
    for action in actions[:4]:
        enter(page, action)
    ready(page, 5)
    page.locator("#table-status").click()
    page.keyboard.press("d")
    expect(page.locator('[data-act="den"][aria-pressed="true"]')).to_be_attached()
    expect(page.locator("#table-board svg[data-mode=den]")).to_be_attached()
    page.keyboard.press("Escape")
    expect(page.locator("#table-board svg[data-mode=idle]")).to_be_attached()
    page.keyboard.press("m")
    page.locator('#table-board [data-hex="6,7"]').focus()  # an alpha and a pack wolf
    page.keyboard.press("Enter")
    expect(page.locator("#table-pending [data-choose]").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#table-board .choice.dest").first).to_be_focused()
    page.keyboard.press("p")  # a Pass would drop the Move half built: it is refused, and said
    expect(page.locator("#table-message .refused")).to_have_text(
        "Enter or cancel (Esc) the Move being built first: Pass / End turn would drop it."
    )
    expect(page.locator("#table-board .choice.dest").first).to_be_attached()  # still built
    page.keyboard.press("Escape")
    pieces = page.locator("#table-board .piece").count()
    page.keyboard.press("Control+z")
    ready(page, 6)
    assert get(sqlite_server, f"/api/tables/{table_id}")["actions"] == actions[:3]
    assert page.locator("#table-board .piece").count() == pieces - 2  # W-4.1: alpha and pack


def test_a_push_with_several_nearest_hexes_goes_where_the_player_clicks(
    sqlite_server: LiveServer, page: Page
) -> None:
    path = FIXTURES / "2p-04-heuristic.json"
    record, actions = fixture(path)
    table_id = open_table(sqlite_server, {**record, "actions": actions[:49]})
    version = visit(page, sqlite_server, table_id)
    move = actions[49]  # an alpha ends on a pack wolf of the other seat (W-6.1, W-6.6)
    assert "push_to" not in move["moves"][0]
    build(page, move)  # no write yet: the push is still to choose
    pushes = page.locator("#table-board .choice.push")
    expect(pushes).to_have_count(3)  # W-6.6: three nearest free hexes, the player chooses
    hexel(page, [7, 10]).click()
    ready(page, version + 1)
    table = get(sqlite_server, f"/api/tables/{table_id}")
    assert table["actions"][-1]["moves"][0]["push_to"] == [7, 10]
    there = [(p["kind"], p["player"]) for p in table["position"]["pieces"] if p["hex"] == [7, 10]]
    assert ("pack", 1 - move["player"]) in there and len(there) == 2  # beside its own piece


def test_a_narrow_window_does_not_scroll_sideways(sqlite_server: LiveServer, page: Page) -> None:
    record, _ = fixture(GAME)
    table_id = open_table(sqlite_server, record)
    page.set_viewport_size({"width": 390, "height": 844})
    visit(page, sqlite_server, table_id)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    board = page.locator("#table-board svg").bounding_box()
    assert board is not None and board["width"] <= 390


def test_a_moonlight_table_is_played_by_its_legal_actions(
    sqlite_server: LiveServer, page: Page
) -> None:
    path = FIXTURES.parent / "moonlight" / "00-greedy.json"
    record, actions = fixture(path)
    table_id = open_table(sqlite_server, record)
    version = visit(page, sqlite_server, table_id)
    expect(page.locator("#table-position")).to_contain_text("rounds_won")
    for action in actions[:3]:
        words = ", ".join(
            f"{k} {json.dumps(v, separators=(',', ':'))}"
            for k, v in action.items()
            if k not in ("type", "player")
        )
        page.locator("[data-generic]").filter(has_text=f"{action['type']}: {words}").click()
        version += 1
        ready(page, version)
    assert get(sqlite_server, f"/api/tables/{table_id}")["actions"] == actions[:3]


def test_a_write_without_a_token_is_refused_on_the_page(
    sqlite_server: LiveServer, page: Page
) -> None:
    record, actions = fixture(GAME)
    table_id = open_table(sqlite_server, record)
    visit(page, sqlite_server, table_id, token=False)
    expect(page.locator("#table-readonly")).to_be_visible()  # reading only, and told so
    expect(page.locator('[data-act="draft"]')).to_be_disabled()
    page.fill("#auth-input", "not-a-token")
    page.click("#auth-use")
    expect(page.locator("#table-readonly")).to_be_hidden()
    build(page, actions[0])  # refused: nothing written
    refusal = page.locator("#table-message .refused")
    expect(refusal).to_contain_text("This token is not accepted here.")
    assert refusal.get_attribute("data-status") == "403"
    assert get(sqlite_server, f"/api/tables/{table_id}")["actions"] == []


def test_leaving_the_page_closes_its_stream(sqlite_server: LiveServer, page: Page) -> None:
    record, _ = fixture(GAME)
    table_id = open_table(sqlite_server, record)
    page.add_init_script(
        "const Source = window.EventSource; window.howlStreams = [];"
        "window.EventSource = function (url) {"
        "  const s = new Source(url); window.howlStreams.push(s); return s; };"
    )
    visit(page, sqlite_server, table_id, token=False)
    assert page.evaluate("window.howlStreams.map(s => s.readyState)") == [1]  # open
    page.click("header nav >> text=Library")  # another page of the dashboard, no reload
    expect(page.locator("#table-board")).to_have_count(0)
    for _ in range(50):  # the page checks once a second whether it is still shown
        if page.evaluate("window.howlStreams.map(s => s.readyState)") == [2]:  # closed
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.howlStreams.map(s => s.readyState)") == [2]


def test_clicking_the_map_starts_the_action_it_offers(
    sqlite_server: LiveServer, page: Page
) -> None:
    record, actions = fixture(GAME)
    table_id = open_table(sqlite_server, record)
    version = visit(page, sqlite_server, table_id)
    for action in actions[:4]:
        enter(page, action)
        version += 1
        ready(page, version)
    den = actions[4]  # W-6.2: a den beside the alpha, no button pressed first
    assert den["type"] == "den"
    expect(page.locator("#table-board svg[data-mode=idle]")).to_be_attached()
    hexel(page, den["hex"]).click()
    expect(page.locator('[data-act="den"][aria-pressed="true"]')).to_be_attached()
    choose(page, f"Den on the {den['track']} track")
    pay_as(page, den["pay"])
    page.click("#table-confirm")
    ready(page, version + 1)
    assert get(sqlite_server, f"/api/tables/{table_id}")["actions"][-1] == den
    hexel(page, [6, 7]).click()  # the alpha and the pack wolf drafted there: a Move
    expect(page.locator('[data-act="move"][aria-pressed="true"]')).to_be_attached()
    expect(page.locator("#table-pending [data-choose]")).to_have_count(2)


def test_the_new_game_page_links_the_tables_in_progress(
    sqlite_server: LiveServer, page: Page
) -> None:
    record, _ = fixture(GAME)
    table_id = open_table(sqlite_server, {**record, "meta": {"title": "Tuesday at the club"}})
    page.goto(f"{sqlite_server.url}/new")
    link = page.locator("#new-open a", has_text="Tuesday at the club")
    expect(link).to_have_attribute("href", f"/table/{table_id}")
    link.click()
    expect(page).to_have_url(f"{sqlite_server.url}/table/{table_id}")
    expect(page.locator("#table-status")).to_have_attribute("data-version", "1")
