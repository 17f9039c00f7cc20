"""The dashboard works in Chromium under the Content-Security-Policy the server sends: every
page renders, the replay steps, the charts draw, and the browser reports no violation."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.conftest import LiveServer

pytestmark = pytest.mark.browser
FIVE = Path(__file__).parents[1] / "fixtures" / "the-wolves" / "5p-00-heuristic.json"
WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(
    e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sourceFile || '')));
"""


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    """Wait up to 20 s in ``expect``: a fresh browser context loads plotly.js cold, on a
    machine shared with other tests."""
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


def upload(server: LiveServer, record: bytes) -> str:
    """Store ``record`` through the API; returns its game id."""
    request = Request(server.url + "/api/games", data=record, method="POST", headers={
        "Content-Type": "application/json", "Authorization": "Bearer t"})  # fmt: skip
    with urlopen(request, timeout=60) as answer:
        return json.load(answer)["game_id"]


def test_the_dashboard_runs_under_its_policy(
    page: Page, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(api_tokens={"ana": "t"})
    game = upload(server, FIVE.read_bytes())
    name = json.loads(FIVE.read_bytes())["players"][0]["name"]
    refused: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            refused.append(message.text)

    page.on("console", console)
    page.add_init_script(WATCH)
    answer = page.goto(server.url + "/")
    assert answer is not None and "script-src 'self' 'sha256-" in answer.headers[
        "content-security-policy"]  # fmt: skip
    expect(page.locator("#library-table")).to_contain_text(name)

    page.goto(f"{server.url}/replay/{game}")
    expect(page.locator('#replay-board svg[data-step="0"]')).to_have_count(1)
    page.locator("#replay h2").click()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator('#replay-board svg[data-step="3"]')).to_have_count(1)
    expect(page.locator("#replay-vp .js-plotly-plot .main-svg").first).to_be_visible()
    expect(page.locator("#replay-vp .js-plotly-plot .scatterlayer .trace").first).to_be_attached()
    assert page.evaluate("window.__violations") == []

    page.goto(server.url + "/statistics")
    expect(page.locator("#stats-body .js-plotly-plot .main-svg").first).to_be_visible()
    assert page.evaluate("window.__violations") == []

    page.goto(f"{server.url}/player/{name}")
    expect(page.locator("#player .js-plotly-plot .main-svg").first).to_be_visible()
    assert page.evaluate("window.__violations") == []

    page.goto(server.url + "/api/docs")
    expect(page.locator("h1").first).to_be_visible()
    assert page.evaluate("window.__violations") == []
    assert refused == []
