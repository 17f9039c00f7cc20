"""Every page at a phone's width (390×844) and a desktop's (1440×900) in Chromium, over real
HTTP on one server: nothing scrolls sideways, no panel overlaps another or leaves the
window, and on the replay and table pages the map's hexes are big enough to read and every
piece is drawn on its hex (W-1: the pointy-topped grid). Each page is opened on a phone and
widened; the replay and the table are also opened on a desktop and shrunk."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from dashboard.boards import wolves
from domain.store import GameLibrary
from domain.wolves.records import read_record
from domain.wolves.replay import replay
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES
from tests.dashboard.test_table_page import TOKEN, open_table
from tests.practice.conftest import GAME as PRACTISED
from tests.practice.conftest import SERVER, flagged, reviewed, store_review  # noqa: F401

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1440, "height": 900}
REPLAYED = FIXTURES / "5p-00-heuristic.json"
"""The Wolves with five seats: the biggest map and the most player boards."""
REPLAY_STEP = 60
TABLED = FIXTURES / "2p-03-heuristic.json"
TABLE_ACTIONS = 12
"""A live table opened with the first actions of a two-player game (its pieces on the map)."""
MOONLIGHT = FIXTURES.parent / "moonlight" / "00-greedy.json"
MIN_HEX_PX = 24
"""A hex's width across at a phone's width, at least."""

PANELS = (
    "h2", ".replay-controls", "#replay-slider", ".map-frame", ".map-key", ".moonlight",
    ".player-board", ".chart", ".explore-bar", "#analysis-status", ".moments", ".step-log",
    ".ml-board", ".ml-seat", "#ml-scoring", "#library-upload", ".filters", ".stats-filters",
    ".table-scroll", ".card", "#player-summary", ".table-controls", ".setup-section",
    ".practice-nav", "#practice-verdict",
)  # fmt: skip
"""The page parts that must neither overlap nor leave the window (those a page shows)."""
SHOWN = {
    "library": ("#library-upload", ".filters", ".table-scroll"),
    "replay": (".map-frame", ".map-key", ".moonlight", ".player-board", ".chart", ".step-log"),
    "moonlight": (".ml-board", ".ml-seat", ".chart", ".step-log"),
    "table": (".map-frame", ".map-key", ".player-board", ".table-controls", ".step-log"),
    "new": (".setup-section",),
    "practice": (".map-frame", ".practice-nav", ".player-board"),
    "statistics": (".stats-filters", ".card", ".table-scroll"),
    "player": ("#player-summary", ".card", ".table-scroll"),
    "ratings": (".stats-filters", ".table-scroll", ".card"),
}  # fmt: skip
"""What each page must show (so that its checks check something)."""

BOXES = """(selectors) => {
  const out = [];
  selectors.forEach((sel) => document.querySelectorAll(sel).forEach((el) => {
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || cs.visibility === "hidden") { return; }
    const nested = out.some((o) => o.el.contains(el) || el.contains(o.el));
    if (!nested) {
      const x = r.left + scrollX, y = r.top + scrollY;
      out.push({el: el, sel: sel, x: x, y: y, w: r.width, h: r.height});
    }
  }));
  return out.map((o) => ({sel: o.sel, x: o.x, y: o.y, w: o.w, h: o.h}));
}"""
PLOTS = """() => Array.from(document.querySelectorAll(".js-plotly-plot")).map((gd) => {
  const svg = gd.querySelector(".main-svg"), box = gd.parentElement.getBoundingClientRect();
  const edge = svg ? svg.getBoundingClientRect() : box;
  const spill = Array.from(gd.querySelectorAll(".xtick text, .ytick text")).map((t) => {
    const r = t.getBoundingClientRect();
    return Math.max(edge.left - r.left, r.right - edge.right, 0);
  });
  return {id: gd.parentElement.id || gd.closest("[id]").id,
          svg: svg ? svg.getBoundingClientRect().width : 0, box: box.width,
          spill: Math.max(0, ...spill)};
})"""
"""Each chart's width and its box's, and how far its tick labels run past its edges."""
HEXES = """([map, layer]) => {
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  return {
    hexes: Array.from(document.querySelectorAll("#" + map + " svg .hex")).map(centre),
    pieces: Array.from(document.querySelectorAll("#" + layer + " svg .piece")).map(centre),
  };
}"""
"""Where every hex of the map (in :func:`wolves.hexes` order) and every piece are drawn."""


@pytest.fixture
def site(
    live_server_factory: Callable[..., LiveServer],
    reviewed: dict[str, Any],  # noqa: F811
) -> tuple[LiveServer, dict[str, str]]:
    """One server holding a Wolves game, a Moonlight game, a reviewed game to practise and a
    live table; the path of every page."""
    server = live_server_factory(api_tokens={"ana": TOKEN}, **SERVER)
    with GameLibrary.open(server.settings.database_url) as library:
        wolves_id = library.upload(REPLAYED.read_bytes(), uploaded_by="ana").game_id
        moon_id = library.upload(MOONLIGHT.read_bytes(), uploaded_by="ana").game_id
        practised = library.upload((FIXTURES / f"{PRACTISED}.json").read_bytes()).game_id
        for players in (2, 3, 4):  # every player count in the statistics' charts
            library.upload((FIXTURES / f"{players}p-01-heuristic.json").read_bytes())
    store_review(server.settings, str(practised), reviewed)
    seat = flagged(reviewed)[0]["seat"]
    record = json.loads(TABLED.read_text())
    table = open_table(server, {**record, "actions": record["actions"][:TABLE_ACTIONS]})
    return server, {
        "library": "/",
        "replay": f"/replay/{wolves_id}?step={REPLAY_STEP}",
        "moonlight": f"/replay/{moon_id}?step=20",
        "table": f"/table/{table}",
        "new": "/new",
        "practice": f"/practice/{practised}?seat={seat}",
        "statistics": "/statistics",
        "player": "/player/Ana",
        "ratings": "/ratings",
    }


def overlaps(boxes: list[dict[str, Any]]) -> list[str]:
    """Pairs of boxes that share more than a pixel each way."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > 1 and dy > 1:
                found.append(f"{a['sel']} {_at(a)} overlaps {b['sel']} {_at(b)}")
    return found


def _at(box: dict[str, Any]) -> str:
    return f"({box['x']:.0f}, {box['y']:.0f}, {box['w']:.0f}×{box['h']:.0f})"


def layout_problems(page: Page, name: str, width: int) -> list[str]:
    """What is wrong with the page shown's layout at ``width``."""
    problems = []
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        problems.append(f"the page is {scroll} px wide")
    boxes = page.evaluate(BOXES, list(PANELS))
    for wanted in SHOWN[name]:
        if not any(b["sel"] == wanted for b in boxes):
            problems.append(f"{wanted} is not shown")
    problems += overlaps(boxes)
    problems += [
        f"{b['sel']} {_at(b)} leaves the window" for b in boxes if b["x"] + b["w"] > width + 1
    ]
    for plot in page.evaluate(PLOTS):
        if plot["svg"] > plot["box"] + 1:
            problems.append(f"chart {plot['id']} is {plot['svg']:.0f} px in {plot['box']:.0f} px")
        if plot["spill"] > 1:
            problems.append(f"chart {plot['id']}'s tick labels run {plot['spill']:.0f} px out")
    return [f"{name} at {width} px: {p}" for p in problems]


def misplaced(page: Page, state: Any, map_id: str, layer: str, width: int) -> list[str]:
    """Pieces not drawn at their hex's centre, hexes too small to read, at ``width``: each
    piece's centre must lie within its hex's box (beside the other piece of its hex when
    two share one), every hex's centre where the map drew it."""
    gmap = state.table.map
    order = [(x, y) for x, y, _ in wolves.hexes(gmap)]
    drawn = page.evaluate(HEXES, [map_id, layer])
    if len(drawn["hexes"]) != len(order):
        return [f"{map_id}: {len(drawn['hexes'])} hexes drawn of {len(order)}"]
    at = dict(zip(order, drawn["hexes"], strict=True))
    h = next(h for h in order if (h[0] + 1, h[1]) in at)
    across = at[(h[0] + 1, h[1])][0] - at[h][0]
    problems = []
    if width < 500 and across < MIN_HEX_PX:
        problems.append(f"{map_id}: hexes are {across:.1f} px across at {width} px")
    unit = across / math.sqrt(3)  # a hex's circumradius in pixels
    held = [h for h in sorted(state.pieces) for _ in state.pieces[h]]
    if len(drawn["pieces"]) != len(held):
        problems.append(f"{map_id}: {len(drawn['pieces'])} pieces drawn of {len(held)}")
    for px, py in drawn["pieces"]:
        hx, hy = min((at[h] for h in held), key=lambda c: math.dist(c, (px, py)))
        if abs(px - hx) > 0.5 * unit or abs(py - hy) > 0.2 * unit:
            problems.append(
                f"{map_id}: a piece at ({px:.0f}, {py:.0f}) is off its hex at ({hx:.0f}, {hy:.0f})"
            )
    return [f"{p} at {width} px" for p in problems]


def ready(page: Page, name: str) -> None:
    """Wait until the page shown has drawn what it shows."""
    if name in ("replay", "moonlight"):
        drawn = "#replay-board svg" if name == "replay" else "#ml-grid .ml-card"
        expect(page.locator(drawn).first).to_be_attached()
        expect(page.locator(".chart .js-plotly-plot").last).to_be_visible()
    elif name in ("table", "practice"):
        kept = "Object.values(sessionStorage).includes('Ana')"
        if name == "practice" and not page.evaluate(kept):  # the name is asked once per tab
            expect(page.locator("#practice-name")).to_be_focused()
            page.fill("#practice-name", "Ana")
            page.press("#practice-name", "Enter")
        if name == "practice":
            expect(page.locator("#practice-who")).to_contain_text("Practising as")
        expect(page.locator("#table-board svg .piece").first).to_be_attached()
    elif name in ("statistics", "player", "ratings"):
        expect(page.locator(".card .js-plotly-plot").first).to_be_visible()
    elif name == "library":
        expect(page.locator("#library-table tbody tr").first).to_be_visible()
    else:
        expect(page.locator(".setup-section").first).to_be_visible()
    page.wait_for_timeout(400)  # plotly's responsive resize


def test_every_page_fits_a_phone_and_a_desktop(
    page: Page, site: tuple[LiveServer, dict[str, str]], screenshot: Shot
) -> None:
    server, paths = site
    states = {
        "replay": replay(read_record(REPLAYED.read_bytes())).state_at(REPLAY_STEP),
        "table": replay(read_record(TABLED.read_bytes())).state_at(TABLE_ACTIONS),
    }
    problems: list[str] = []
    for name, path in paths.items():  # opened on a phone, then the window widened
        page.set_viewport_size(PHONE)
        page.goto(server.url + path)
        ready(page, name)
        for size in (PHONE, DESKTOP):
            if size is DESKTOP:
                page.set_viewport_size(size)
                page.wait_for_timeout(800)  # the charts' and the map's resize
            screenshot(page, f"responsive-{name}-{size['width']}")
            problems += layout_problems(page, name, size["width"])
            if name in states:
                map_id, layer = (f"{name}-map", f"{name}-board")
                problems += misplaced(page, states[name], map_id, layer, size["width"])
    for name, state in states.items():  # opened on a desktop, then shrunk to a phone's width
        page.set_viewport_size(DESKTOP)
        page.goto(server.url + paths[name])
        ready(page, name)
        problems += layout_problems(page, name, DESKTOP["width"])
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(800)
        found = misplaced(page, state, f"{name}-map", f"{name}-board", 390)
        found += layout_problems(page, name, 390)
        problems += [f"resized: {p}" for p in found]
    # exploring: the table board mounted over the replay's map, from a desktop to a phone
    page.set_viewport_size(DESKTOP)
    page.goto(server.url + paths["replay"])
    ready(page, "replay")
    page.fill("#auth-input", TOKEN)
    page.click("#auth-use")
    expect(page.locator(".auth-name")).to_have_text("ana")
    page.click("#explore-start")
    expect(page.locator("#replay-board svg[data-version] .piece").first).to_be_attached()
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(800)
        found = misplaced(page, states["replay"], "replay-map", "replay-board", size["width"])
        problems += [f"exploring: {p}" for p in found]
    screenshot(page, "responsive-explore-390")
    assert not problems, "\n".join(problems)
