"""axe-core (the copy the test extra's ``axe-playwright-python`` ships) on every dashboard
page in Chromium, over real HTTP, at a phone's and a desktop's width: no serious or critical
violation of WCAG 2.x A/AA (contrast 1.4.3, names 4.1.2, labels 1.3.1…). One server holds a
Wolves game with its review, a Moonlight game and a table in progress."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.resources import files
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from services.config import Settings
from tests.api.conftest import contract, record_of, serving  # noqa: F401 (contract: a fixture)
from tests.api.contract import Contract
from tests.conftest import LiveServer
from tests.dashboard.test_moonlight_board import GAME as MOONLIGHT
from tests.dashboard.test_table_page import GAME as TABLE_GAME
from tests.dashboard.test_table_page import TOKENS, fixture, open_table
from tests.practice.conftest import GAME, QUICK, reviewed, store_review  # noqa: F401

pytestmark = pytest.mark.browser

AXE = files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")
RUN = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
"""axe's options: the WCAG 2.1 A and AA rules, violations only."""
SIZES = {"phone": (390, 844), "desktop": (1440, 900)}


@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory,
    contract: Contract,  # noqa: F811 (the fixture imported above)
    reviewed: dict[str, Any],  # noqa: F811
) -> Iterator[dict[str, Any]]:
    """The server and the paths of its pages."""
    url = f"sqlite:///{tmp_path_factory.mktemp('axe') / 'howl.sqlite3'}"
    settings = Settings(
        url, port=0, api_tokens=TOKENS, analysis=False,
        analysis_playouts=QUICK.playouts, analysis_candidates=QUICK.candidates,
    )  # fmt: skip
    with serving(settings, contract) as (server, _):
        live: LiveServer = server.live
        with GameLibrary.open(url) as library:
            wolves = str(library.upload(record_of(GAME), uploaded_by="Ana").game_id)
            moon = str(library.upload(MOONLIGHT.read_bytes(), uploaded_by="Ana").game_id)
        store_review(live.settings, wolves, reviewed)
        table = open_table(live, fixture(TABLE_GAME)[0])
        player = json.loads(record_of(GAME))["players"][0]["name"]
        yield {
            "url": live.url,
            "pages": {
                "library": ("/", "table.games tbody tr"),
                "replay-wolves": (f"/replay/{wolves}", "#replay-board svg"),
                "replay-moonlight": (f"/replay/{moon}", "#ml-grid"),
                "table": (f"/table/{table}", "#table-controls[data-legal]"),
                "new": ("/new", "#page form, #page input"),
                "practice": (f"/practice/{wolves}?seat=0", "#practice-form"),
                "statistics": ("/statistics", "#stats-summary"),
                "player": (f"/player/{player}", "#player-summary"),
                "ratings": ("/ratings", "#ratings-summary"),
            },
        }


def violations(page: Page) -> list[str]:
    """axe's serious and critical violations on the page: one line per rule, with how many
    elements break it, the first few of them and what axe says of the first."""
    page.evaluate(AXE)
    result = page.evaluate("options => axe.run(document, options)", RUN)
    found = []
    for v in result["violations"]:
        nodes = v["nodes"]
        if v["impact"] in ("serious", "critical"):
            found.append(
                f"{v['id']} ({v['impact']}) ×{len(nodes)}: "
                + " | ".join(" ".join(map(str, n["target"])) for n in nodes[:3])
                + " — "
                + nodes[0]["failureSummary"].replace("\n", " ")[:300]
            )
    return found


def visit(page: Page, site: dict[str, Any], name: str, size: str = "desktop") -> None:
    """Open one of the site's pages at a window size and wait until it is drawn."""
    path, ready = site["pages"][name]
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(site["url"] + path)
    expect(page.locator(ready).first).to_be_attached()
    if name.startswith("replay"):
        expect(page.locator("#replay-log .log-step.current")).to_be_attached()
    page.wait_for_load_state("networkidle")


PAGES = (
    "library", "replay-wolves", "replay-moonlight", "table", "new", "practice", "statistics",
    "player", "ratings",
)  # fmt: skip


@pytest.mark.parametrize("name", PAGES)
def test_no_serious_or_critical_violation(site: dict[str, Any], page: Page, name: str) -> None:
    """The page opened at a phone's width, then widened to a desktop's (its layout follows
    the window)."""
    visit(page, site, name, "phone")
    heading = page.locator("#page h2").first.inner_text().strip()
    kind = {"replay": " · replay", "table": " · table", "practice": " · practice",
            "player": " · player"}.get(name.split("-")[0], "")  # fmt: skip
    expect(page).to_have_title(f"{heading}{kind} · Howl")  # WCAG 2.4.2: each page its title
    found = [f"phone: {v}" for v in violations(page)]
    width, height = SIZES["desktop"]
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(f"() => innerWidth === {width}")
    page.wait_for_load_state("networkidle")
    found += [f"desktop: {v}" for v in violations(page)]
    assert not found, "\n".join(found)


def letters(page: Page, map_id: str) -> Any:
    """Whether the map's terrain letters are shown, and where its hexes are drawn."""
    return page.evaluate(
        """map => {
          const svg = document.querySelector(map + " svg.hex-map");
          const shown = getComputedStyle(svg.querySelector(".terrain-letters")).display !== "none";
          return [shown, Array.from(svg.querySelectorAll(".hex"), h => h.getAttribute("points"))];
        }""",
        map_id,
    )


def letters_shown(page: Page, map_id: str, shown: bool) -> None:
    """Wait until the map's terrain letters are drawn and shown (or hidden)."""
    page.wait_for_function(
        """([map, shown]) => {
          const g = document.querySelector(map + " svg.hex-map .terrain-letters");
          return g !== null && g.children.length > 0
            && (getComputedStyle(g).display !== "none") === shown;
        }""",
        arg=[map_id, shown],
    )


def test_terrain_letters_toggle_is_kept_across_pages(site: dict[str, Any], page: Page) -> None:
    visit(page, site, "replay-wolves")
    box = page.get_by_role("checkbox", name="Terrain letters")
    expect(box).to_be_checked()
    letters_shown(page, "#replay-map", True)
    shown, hexes = letters(page, "#replay-map")
    assert shown and hexes
    box.click()
    expect(box).not_to_be_checked()
    letters_shown(page, "#replay-map", False)
    assert letters(page, "#replay-map") == [False, hexes]  # the map itself untouched
    page.reload()
    expect(box).not_to_be_checked()
    letters_shown(page, "#replay-map", False)
    visit(page, site, "table")
    box = page.get_by_role("checkbox", name="Terrain letters")
    expect(box).not_to_be_checked()
    letters_shown(page, "#table-map", False)
    box.focus()
    page.keyboard.press("Space")  # by keyboard
    expect(box).to_be_checked()
    letters_shown(page, "#table-map", True)


def test_the_step_buttons_are_named_by_what_they_do(site: dict[str, Any], page: Page) -> None:
    visit(page, site, "replay-wolves")
    for name in ("first step", "previous step", "Play", "next step", "last step"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="|◀")).to_have_count(0)
