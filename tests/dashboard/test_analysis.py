"""The replay's analysis in Chromium: win chances, classified actions, key moments, status."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from domain.wolves.analysis.review import Settings, review
from domain.wolves.records import read_record
from projections.analysis import Analyses, default_settings
from projections.analysis_worker import analysis_status
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES

pytestmark = pytest.mark.browser
GAME = FIXTURES / "3p-00-heuristic.json"
QUICK = Settings(playouts=2, candidates=1)
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
Shot = Callable[[Page, str], Path]


def upload(server: LiveServer) -> str:
    """Store the fixture game; returns its id."""
    with GameLibrary.open(server.settings.database_url) as library:
        return str(library.upload(GAME.read_bytes()).game_id)


def store_review(server: LiveServer, game_id: str) -> dict[str, Any]:
    """Review the game with tiny settings and store it as the app's (default) review."""
    result = review(read_record(GAME.read_bytes()), QUICK, workers=1).to_json()
    Analyses(server.settings.database_url).save(game_id, default_settings(), result)
    return result


def test_a_reviewed_game_shows_win_chances_marks_and_key_moments(
    page: Page, live_server: LiveServer, screenshot: Shot
) -> None:
    server = live_server
    game_id = upload(server)
    result = store_review(server, game_id)
    flagged = next(s for s in result["steps"] if s["classification"] and s["best"])
    step = flagged["step"]

    page.goto(f"{server.url}/replay/{game_id}?step={step}")
    expect(page.locator("#analysis-status")).to_contain_text("Reviewed")
    first = result["seats"][0]  # each seat's accuracy, and per stage of the game
    table = page.locator("#analysis-status table.accuracy")
    expect(table.locator("thead th")).to_have_text(["Accuracy", "game", "opening", "middle", "end"])
    shown = [first["accuracy"], *(p["accuracy"] for p in first["stages"])]
    expect(table.locator("tbody tr").first).to_have_text(
        "".join([first["name"], *("–" if a is None else f"{a:.0f}" for a in shown)])
    )
    expect(page.locator("#analysis-run")).to_be_hidden()
    win = page.locator("#replay-win .js-plotly-plot")
    expect(win.locator(".scatterlayer .trace")).not_to_have_count(0)
    lines = page.evaluate(
        "() => document.querySelector('#replay-win .js-plotly-plot').data"
        ".filter(t => t.mode === 'lines').map(t => t.name)"
    )
    assert lines == result["players"]
    spread = page.evaluate(  # each win chance of the review with its standard error
        "() => document.querySelector('#replay-win .js-plotly-plot').data[0].customdata"
    )
    assert spread[0] == "" and all(e.startswith(" ± ") for e in spread[1:])
    expect(page.locator("#replay-win")).to_contain_text("Win probability (review)")
    expect(page.locator(f'#replay-win-cursor[data-step="{step}"]')).to_have_count(1)
    expect(page.locator(f'#replay-margin-cursor[data-step="{step}"]')).to_have_count(1)

    mark = page.locator(f'#replay-log .log-step[data-step="{step}"] .mark')
    expect(mark).to_have_text(MARKS[flagged["classification"]])
    expect(mark).to_have_class(f"mark {flagged['classification']}")
    expect(page.locator("#replay-advice")).to_contain_text(flagged["best"]["label"])
    sure = "low (draft)" if flagged["action"]["type"] == "draft" else r"(clear|likely)"
    expect(page.locator("#replay-advice")).to_contain_text(
        re.compile(rf"\(\+\d+ ± \d+ % win chance, {sure}\)")
    )  # the loss with its standard error and how sure the review is of it
    item = page.locator(f'#analysis-flagged [data-step="{step}"]')
    expect(item.locator(".flag-better")).to_contain_text(re.compile(r"± \d+ % win chance"))
    others = [
        a
        for a in flagged["alternatives"]
        if a["win"] > flagged["win_after"] and a["label"] != flagged["best"]["label"]
    ]
    expect(item.locator(".flag-others li")).to_have_count(min(3, len(others)))
    expect(page.locator(f'#replay-board svg[data-step="{step}"] .better').first).to_be_attached()
    screenshot(page, "analysis-flagged-step")

    moments = page.locator("#analysis-moments .moment")
    expect(moments).to_have_count(len(result["turning_points"]))
    moment = result["turning_points"][-1]["step"]
    moments.last.click()
    expect(page.locator("#replay-step")).to_contain_text(f"Step {moment} /")
    expect(page.locator(f'#replay-win-cursor[data-step="{moment}"]')).to_have_count(1)
    expect(page).to_have_url(f"{server.url}/replay/{game_id}?step={moment}")


def test_analyse_asks_for_a_review_and_the_page_follows_it(
    page: Page, live_server: LiveServer
) -> None:
    server = live_server  # its analysis worker is off: the review stays queued
    game_id = upload(server)
    page.goto(f"{server.url}/replay/{game_id}")
    expect(page.locator("#replay-win")).to_contain_text("Win probability (static estimate)")
    expect(page.locator("#analysis-status")).to_contain_text("Not analysed yet")
    page.locator("#analysis-run").click()
    expect(page.locator("#analysis-status")).to_contain_text("Analysis queued")
    expect(page.locator("#analysis-run")).to_be_hidden()
    assert analysis_status(server.settings.database_url, game_id)["status"] == "queued"

    table, key = Analyses(server.settings.database_url), default_settings().key
    assert table.claim() == (game_id, default_settings(), 1)
    table.progress(game_id, key, 0.5)
    expect(page.locator("#analysis-status")).to_contain_text("Analysing… 50 %")
    partial = review(read_record(GAME.read_bytes()), QUICK, workers=1, indexes=[0, 1, 2])
    table.finish(game_id, key, partial.to_json())
    expect(page.locator("#analysis-status")).to_contain_text("Reviewed")
    expect(page.locator("#replay-win")).to_contain_text("Win probability (review)")


def test_a_review_is_shown_and_asked_for_at_the_depth_chosen(
    page: Page, live_server: LiveServer
) -> None:
    server = live_server  # its analysis worker is off: a review asked for stays queued
    game_id = upload(server)
    result = store_review(server, game_id)  # at the default depth, standard
    page.goto(f"{server.url}/replay/{game_id}")
    status = page.locator("#analysis-status")
    flagged = page.locator("#analysis-flagged [data-step]")
    marked = sum(1 for s in result["steps"] if s["classification"])
    expect(status).to_contain_text("Reviewed")
    expect(page.get_by_label("standard")).to_be_checked()
    expect(flagged).to_have_count(marked)

    page.get_by_label("quick").check()
    expect(status).to_contain_text("Not analysed yet")
    expect(flagged).to_have_count(0)
    expect(page.locator("#replay-win")).to_contain_text("Win probability (static estimate)")
    page.locator("#analysis-run").click()
    expect(status).to_contain_text("Analysis queued")
    url = server.settings.database_url
    assert analysis_status(url, game_id, Settings())["status"] == "queued"  # quick's
    assert analysis_status(url, game_id, default_settings("deep"))["status"] == "none"

    page.get_by_label("standard").focus()  # by keyboard, back to the stored review
    page.keyboard.press("Space")
    expect(status).to_contain_text("Reviewed")
    expect(flagged).to_have_count(marked)
