"""The replay page by keyboard in Chromium: the speed buttons and checkboxes leave the arrows
to the steps, space plays from the step controls, the slider and the log, the log and the
key moments take the focus and step by keys, and "?" lists the page's shortcuts and gives
the focus back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES

pytestmark = pytest.mark.browser
GAME = FIXTURES / "2p-00-heuristic.json"


def opened(page: Page, server: LiveServer, query: str = "?step=4") -> str:
    """A fixture game's replay page, drawn; the game's id."""
    with GameLibrary.open(server.settings.database_url) as library:
        game_id = str(library.upload(GAME.read_bytes()).game_id)
    page.goto(f"{server.url}/replay/{game_id}{query}")
    expect(page.locator("#replay-log .log-step.current")).to_be_attached()
    page.wait_for_load_state("networkidle")
    return game_id


def step_shown(page: Page, step: int) -> None:
    expect(page.locator("#replay-step")).to_contain_text(f"Step {step} /")


def test_speed_buttons_leave_the_arrows_and_space_to_the_steps(
    page: Page, live_server: LiveServer
) -> None:
    opened(page, live_server)
    group = page.get_by_role("group", name="playback speed")
    group.get_by_role("button", name="2×").click()
    expect(group.locator('[aria-pressed="true"]')).to_have_text("2×")
    expect(group.locator('[aria-pressed="false"]')).to_have_count(3)
    page.keyboard.press("ArrowRight")  # the step, not the speed
    step_shown(page, 5)
    expect(group.locator('[aria-pressed="true"]')).to_have_text("2×")

    page.click("#replay-next")  # the mouse on ▶, then space: play, not one more step
    step_shown(page, 6)
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_text("Pause")
    expect(page.locator("#replay-step")).to_have_text(re.compile(r"Step (9|[1-9]\d+) /"))
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_text("Play")

    page.locator("#replay-slider [role=slider]").focus()  # space plays from the slider too
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_text("Pause")
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_text("Play")
    box = page.get_by_role("checkbox", name="Terrain letters")
    box.focus()
    at = int(page.locator("#replay-step").inner_text().split()[1])
    page.keyboard.press("ArrowRight")  # the arrows step from a checkbox; space toggles it
    step_shown(page, at + 1)
    page.keyboard.press(" ")
    expect(box).not_to_be_checked()
    expect(page.locator("#replay-play")).to_have_text("Play")


def test_the_step_log_takes_the_focus_and_steps_by_keys(
    page: Page, live_server: LiveServer
) -> None:
    opened(page, live_server)
    current = page.locator("#replay-log .log-step.current")
    expect(current).to_have_attribute("tabindex", "0")
    expect(page.locator('#replay-log .log-step[tabindex="0"]')).to_have_count(1)  # one tab stop
    current.focus()
    page.keyboard.press("ArrowDown")
    step_shown(page, 5)
    expect(page.locator('#replay-log [data-step="5"]')).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    step_shown(page, 3)
    expect(page.locator('#replay-log [data-step="3"]')).to_be_focused()
    page.locator('#replay-log [data-step="9"]').focus()
    page.keyboard.press("Enter")
    step_shown(page, 9)
    outline = page.locator('#replay-log [data-step="9"]').evaluate(
        "el => getComputedStyle(el).outlineStyle"
    )
    assert outline != "none"  # a visible focus ring
    page.keyboard.press(" ")  # Enter takes a step listed; space plays, as everywhere
    expect(page.locator("#replay-play")).to_have_text("Pause")
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_text("Play")
    thumb = page.locator("#replay-slider [role=slider]")
    expect(thumb).to_have_attribute("aria-label", "step")


def test_the_slider_follows_the_keys_and_a_button_steps_from_the_step_shown(
    page: Page, live_server: LiveServer
) -> None:
    """Steps by key show at once and the slider follows when they pause; a step button
    pressed before it has followed steps from the step shown, not from the slider's."""
    opened(page, live_server)
    page.locator("#replay h2").click()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.locator("#replay-prev").click()
    step_shown(page, 6)
    expect(page.locator("#replay-board svg[data-step='6']")).to_be_attached()
    thumb = page.locator("#replay-slider [role=slider]")
    expect(thumb).to_have_attribute("aria-valuenow", "6")
    page.locator("#replay h2").click()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    last = int(page.locator("#replay-step").inner_text().split()[-1])
    step_shown(page, last - 1)
    expect(thumb).to_have_attribute("aria-valuenow", str(last - 1))
    page.keyboard.press("ArrowRight")
    page.locator("#replay-first").click()
    step_shown(page, 0)
    expect(thumb).to_have_attribute("aria-valuenow", "0")
    expect(page).to_have_url(re.compile(r"\?step=0$"))


def test_question_mark_lists_the_shortcuts_and_gives_the_focus_back(
    page: Page, live_server: LiveServer
) -> None:
    opened(page, live_server)
    page.locator("#replay-next").focus()
    page.keyboard.press("?")
    listed = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(listed).to_be_visible()
    expect(listed).to_contain_text("play / pause")
    expect(listed).to_contain_text("explore from the step shown")
    expect(listed).not_to_contain_text("Table board")  # only what the page holds
    expect(page.locator("#keys-close")).to_be_focused()
    page.keyboard.press("ArrowRight")  # the list is open: the page does not step
    step_shown(page, 4)
    page.keyboard.press("Escape")
    expect(listed).to_have_count(0)
    expect(page.locator("#replay-next")).to_be_focused()

    page.fill("#share-text", "what ? means")  # typed in a text box, "?" is a character
    expect(page.locator("#keys-list")).to_have_count(0)
    page.get_by_role("button", name="keyboard shortcuts").click()
    expect(listed).to_contain_text("add the comment")
    page.click("#keys-close")
    expect(listed).to_have_count(0)


@pytest.mark.parametrize("path", ["/", "/replay/{game}", "/statistics"])
def test_every_stop_of_the_tab_key_shows_where_the_focus_is(
    page: Page, live_server: LiveServer, path: str
) -> None:
    game_id = opened(page, live_server)
    page.goto(live_server.url + path.format(game=game_id))
    page.wait_for_load_state("networkidle")
    unseen, stops = [], set()
    for _ in range(40):
        page.keyboard.press("Tab")
        where = page.evaluate(
            """() => { const el = document.activeElement, up = el.parentElement;
            if (!el.matches(':focus')) { return ['BROWSER']; }
            const ring = [el, up].map(e => e ? getComputedStyle(e).outlineStyle : 'none');
            return [el.tagName + '#' + el.id + '.' + el.className,
                    ring.find(r => r !== 'none') || 'none',
                    el.getAttribute('aria-label') || el.textContent.trim() || el.title
                    || (el.labels && el.labels[0] && el.labels[0].textContent.trim()) || ''] }"""
        )
        if where[0] == "BROWSER" or where[0].startswith("BODY"):
            continue  # a date field's own picker button (the browser's ring), or past the end
        stops.add(where[0])
        if where[1] == "none" or not where[2]:
            unseen.append(where)
    assert len(stops) > 5  # the tab key went through the page
    # every stop: a visible ring (its own or its box's) and a name
    assert not unseen, "\n".join(map(str, unseen))
