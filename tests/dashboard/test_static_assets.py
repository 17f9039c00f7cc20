"""The dashboard's static answers over real HTTP, and the plotly build its pages load in
Chromium: versioned files cached for a year and gzip-coded, the cartesian build (pinned in
pyproject.toml) instead of plotly's whole bundle, and the replay's map drawn without it."""

from __future__ import annotations

import gzip
import math
import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect
from plotly.offline import get_plotlyjs_version  # type: ignore[import-untyped]  # no types

from dashboard.boards import wolves
from dashboard.palette import TERRAIN_COLORS
from dashboard.plotly_bundle import CACHED, bundle
from domain.store import GameLibrary
from domain.wolves.records import read_record
from domain.wolves.replay import replay
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES

PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"


def fetch(url: str, gzipped: bool) -> tuple[dict[str, str], bytes]:
    headers = {"Accept-Encoding": "gzip"} if gzipped else {}
    with urlopen(Request(url, headers=headers), timeout=30) as answer:
        return dict(answer.headers), answer.read()


def test_the_pinned_build_is_fetched_at_plotlys_own_version() -> None:
    pin = tomllib.loads(PYPROJECT.read_text())["tool"]["howl"]["plotly-bundle"]
    package, version = pin.split("@")
    assert version == get_plotlyjs_version()  # the figures plotly writes are of this version
    found = bundle()
    assert found is not None, "scripts/venv.sh fetches it"
    assert found.name == f"{package}-{version}.min.js"
    assert re.match(rf"/\*\*\n\* plotly\.js .*v{re.escape(version)}\n", found.read_text()[:200])


def test_versioned_static_files_are_cached_and_coded(live_server: LiveServer) -> None:
    _, page = fetch(live_server.url + "/", gzipped=False)
    html = page.decode()
    named = re.search(r'<meta name="howl-plotly" content="([^"]+)">', html)
    assert named is not None
    assets = re.findall(r'src="(/assets/replay\.js\?m=[^"]+)"', html)
    suites = re.findall(r'src="(/_dash-component-suites/dash/dcc/dash_core[^"]+)"', html)
    for path in (named.group(1), assets[0], suites[0]):
        headers, coded = fetch(live_server.url + path, gzipped=True)
        assert headers["Cache-Control"] == CACHED, path
        assert headers["Content-Encoding"] == "gzip", path
        plain_headers, plain = fetch(live_server.url + path, gzipped=False)
        assert "Content-Encoding" not in plain_headers
        assert gzip.decompress(coded) == plain
        assert len(coded) < len(plain) / 2
    headers, _ = fetch(live_server.url + "/assets/replay.js", gzipped=True)  # no version named
    assert headers.get("Cache-Control") != CACHED


@pytest.mark.browser
def test_the_replay_draws_its_charts_with_the_pinned_build(
    page: Page, live_server: LiveServer
) -> None:
    with GameLibrary.open(live_server.settings.database_url) as library:
        game_id = str(library.upload((FIXTURES / "3p-00-heuristic.json").read_bytes()).game_id)
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.goto(f"{live_server.url}/replay/{game_id}?step=5")
    expect(page.locator("#replay-board svg[data-step='5']")).to_be_attached()
    for chart in ("replay-margin", "replay-vp", "replay-control"):  # scatter, bar and heatmap
        expect(page.locator(f"#{chart} .js-plotly-plot .main-svg").first).to_be_visible()
    expect(page.locator("#replay-control .heatmaplayer image")).to_have_count(1)
    plotly = [url for url in scripts if re.search(r"plotly[^/]*\.min\.js$", url)]
    assert len(plotly) == 1 and "cartesian" in plotly[0], plotly


DRAWN = """() => ({
  hexes: Array.from(document.querySelectorAll("#replay-map svg.hex-map .hex"), (h) => {
    const r = h.getBoundingClientRect();
    return [+h.dataset.i, r.left + r.width / 2, r.top + r.height / 2, h.getAttribute("fill")];
  }),
  pieces: Array.from(document.querySelectorAll("#replay-board svg .piece"), (p) => {
    const r = p.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2, p.classList[1], p.getAttribute("fill")];
  }),
  charts: document.querySelectorAll(".js-plotly-plot .main-svg").length,
})"""
"""The map's hexes (index, centre, fill) and the pieces (centre, kind, fill) as drawn."""


@pytest.mark.browser
def test_the_replays_map_is_drawn_before_plotly_is_loaded(
    page: Page, live_server: LiveServer
) -> None:
    """With plotly.js failing to load (asked for again, in vain), the map shows every hex in
    its terrain's colour and every piece of the step on its hex, in its seat's colour and
    kind, → steps, and the page is mounted once (not anew on each failure)."""
    record = (FIXTURES / "3p-00-heuristic.json").read_bytes()
    with GameLibrary.open(live_server.settings.database_url) as library:
        game_id = str(library.upload(record).game_id)
    held: list[str] = []

    def hold(route: Any) -> None:
        held.append(route.request.url)
        route.abort()

    page.route(re.compile(r"plotly(?!-build)[^/]*\.js"), hold)  # plotly.js, not its loader
    page.goto(f"{live_server.url}/replay/{game_id}?step=30")
    expect(page.locator("#replay-board svg[data-step='30'] .piece").first).to_be_attached()
    page.evaluate("() => { window.__mounted = document.getElementById('replay'); }")
    drawn = page.evaluate(DRAWN)
    for _ in range(100):  # the charts ask for plotly, in vain
        if held:
            break
        page.wait_for_timeout(50)
    assert held and not drawn["charts"]
    state = replay(read_record(record)).state_at(30)
    gmap, colors = state.table.map, wolves.seat_colors(state)
    order = [(x, y) for x, y, _ in wolves.hexes(gmap)]
    assert sorted(i for i, *_ in drawn["hexes"]) == list(range(len(order)))
    assert all(fill == TERRAIN_COLORS[gmap.terrain[order[i]]]
               for i, _, _, fill in drawn["hexes"])  # fmt: skip
    centres = {order[i]: (x, y) for i, x, y, _ in drawn["hexes"]}
    shown = sorted(
        (min(centres, key=lambda h: math.dist(centres[h], (x, y))), kind, fill)
        for x, y, kind, fill in drawn["pieces"]
    )
    held_pieces = sorted(
        (h, p.kind, colors[-1 if p.player is None else p.player])
        for h, pieces in state.pieces.items()
        for p in pieces
    )
    assert shown == held_pieces
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-board svg[data-step='31']")).to_be_attached()
    for _ in range(200):  # the loader asks for plotly.js again (2 s after), in vain too
        if len(held) >= 2:
            break
        page.wait_for_timeout(50)
    assert len(held) >= 2
    assert page.evaluate("() => window.__mounted === document.getElementById('replay')")
