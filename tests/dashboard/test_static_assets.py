"""The dashboard's static answers over real HTTP, and the plotly build its pages load in
Chromium: versioned files cached for a year and gzip-coded, the cartesian build (pinned in
pyproject.toml) instead of plotly's whole bundle."""

from __future__ import annotations

import gzip
import re
import tomllib
from pathlib import Path
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect
from plotly.offline import get_plotlyjs_version  # type: ignore[import-untyped]  # no types

from dashboard.plotly_bundle import CACHED, bundle
from domain.store import GameLibrary
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
    for chart in ("replay-map", "replay-vp", "replay-control"):  # scatter, bar and heatmap
        expect(page.locator(f"#{chart} .js-plotly-plot .main-svg").first).to_be_visible()
    expect(page.locator("#replay-control .heatmaplayer image")).to_have_count(1)
    plotly = [url for url in scripts if re.search(r"plotly[^/]*\.min\.js$", url)]
    assert len(plotly) == 1 and "cartesian" in plotly[0], plotly
