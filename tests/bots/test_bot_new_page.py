"""The New game page's bot choice in Chromium, to a table where the bot answers: "Set up a
game against the bot" makes seat 2 a bot on a random map with W-12's stall limit, its
strength is chosen (review, depth 2), the draft opens on the table page, which names the
bot; after the person's draft pick (W-4.1) the bot's picks arrive by the table's stream,
without a reload, the page offering no action meanwhile. By keyboard, and at phone width;
a Moonlight bot answers on its table page too."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer

pytestmark = pytest.mark.browser
Shot = Callable[[Page, str], Path]
TOKEN = "bot-page-token"


def get(server: LiveServer, path: str) -> Any:
    with urlopen(f"{server.url}{path}", timeout=30) as response:
        return json.load(response)


def seat(kind: str, n: int) -> str:
    """The CSS selector of seat ``n``'s ``kind`` of control (a pattern-matching id)."""
    return f'[id=\'{{"new":"{kind}","seat":{n}}}\']'


def test_a_game_against_the_bot_set_up_on_the_new_page_is_answered_by_the_bot(
    page: Page, live_server_factory: Callable[..., LiveServer], screenshot: Shot
) -> None:
    server = live_server_factory(api_tokens={"ana": TOKEN})
    page.goto(server.url + "/new")
    page.fill("#auth-input", TOKEN)
    page.click("#auth-use")
    expect(page.locator(".auth-name")).to_have_text("ana")
    button = page.get_by_role("button", name="Set up a game against the bot")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator(seat("player", 1))).to_contain_text("Bot: heuristic")
    expect(page.locator(seat("player", 0))).to_contain_text("A person")
    expect(page.locator(seat("name", 1))).to_have_value("Bot")
    expect(page.get_by_label("Random, from a seed")).to_be_checked()
    expect(page.locator("#new-stall")).to_have_value("10")
    page.locator(seat("player", 1)).click()
    page.get_by_role("option", name="Bot: review, depth 2", exact=True).click()
    expect(page.locator(seat("player", 1))).to_contain_text("Bot: review, depth 2")
    page.locator(seat("remove", 2)).click()  # two seats: Ana and the bot
    expect(page.locator(".field-problem:visible")).to_have_count(0)
    screenshot(page, "new-against-the-bot")

    page.get_by_role("button", name="Start the draft").click()
    expect(page).to_have_url(re.compile(r"/table/[0-9a-f-]{36}$"), timeout=20_000)
    table_id = page.url.rsplit("/", 1)[1]
    table = get(server, f"/api/tables/{table_id}")
    assert table["bots"] == {"1": {"bot": "review", "depth": 2}} and table["turn"] == 0
    assert table["record"]["players"][1]["bot"] == "review"
    assert table["record"]["setup"]["options"]["stall_limit_rounds"] == 10
    expect(page.locator("#table-bots")).to_contain_text("seat 2 Bot (review, depth 2)")
    version = table["version"]
    expect(page.locator(f'#table-controls[data-legal="{version}"]')).to_be_attached()

    pick = get(server, f"/api/tables/{table_id}/legal")["actions"][0]
    assert pick["type"] == "draft" and pick["player"] == 0
    page.click('[data-act="draft"]')
    page.locator(f'#table-board [data-hex="{pick["hex"][0]},{pick["hex"][1]}"]').click()
    status = page.locator("#table-status")
    expect(status).to_have_attribute("data-turn", "1")  # the bot's turn: the page waits
    expect(page.locator('[data-act="draft"]')).to_be_disabled()
    expect(status).to_have_attribute("data-turn", "0", timeout=30_000)  # the bot answered
    now = get(server, f"/api/tables/{table_id}")
    assert now["version"] > version + 1 and now["actions"][0] == pick
    assert [a["player"] for a in now["actions"][1:]] == [1] * (len(now["actions"]) - 1)
    expect(status).to_have_attribute("data-version", str(now["version"]))
    expect(page.locator("#table-bot-thinking")).to_be_hidden()
    screenshot(page, "table-the-bot-answered")


def test_the_bot_choice_fits_a_phone(page: Page, live_server: LiveServer, screenshot: Shot) -> None:
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(live_server.url + "/new")
    chooser = page.locator(seat("player", 1))
    chooser.scroll_into_view_if_needed()
    expect(chooser).to_be_visible()
    box = chooser.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "new-bot-choice-phone")


def test_a_moonlight_bot_answers_at_the_table_page(
    page: Page, live_server_factory: Callable[..., LiveServer]
) -> None:
    """Moonlight's table page (its legal actions as buttons): after Ana places a card (M-3)
    the bot's card arrives by the stream, and Ana's actions are offered again."""
    server = live_server_factory(api_tokens={"ana": TOKEN})
    fixture = Path(__file__).parents[1] / "fixtures" / "moonlight" / "00-greedy.json"
    record = {**json.loads(fixture.read_text()), "actions": [], "bots": {"1": "greedy"}}
    request = Request(f"{server.url}/api/tables", json.dumps(record).encode(), method="POST",
                      headers={"Content-Type": "application/json",
                               "Authorization": f"Bearer {TOKEN}"})  # fmt: skip
    with urlopen(request, timeout=30) as response:
        table = json.load(response)
    page.goto(f"{server.url}/table/{table['table_id']}")
    page.fill("#auth-input", TOKEN)
    page.click("#auth-use")
    expect(page.locator("#table-bots")).to_contain_text("seat 2 Bo (greedy)")
    status = page.locator("#table-status")
    expect(status).to_have_attribute("data-version", str(table["version"]))
    page.locator("#table-controls [data-generic]", has_text="place").first.click()
    expect(page.locator("#table-log li")).to_have_count(2, timeout=30_000)  # Ana's, the bot's
    expect(status).to_have_attribute("data-turn", "0")
    expect(page.locator("#table-controls [data-generic]").first).to_be_visible()
    now = get(server, f"/api/tables/{table['table_id']}")
    assert [a["player"] for a in now["actions"]] == [0, 1]
