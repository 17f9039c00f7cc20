"""Explore on the replay page in Chromium, over real HTTP: from a step of a stored fixture
game, Explore turns the replay's map into the table board of a new variation; two moves
entered there (W-6.1) extend it; the variation is listed under its step, kept over a reload,
and showing it moves the board and the step controls onto its line; its comparison is the
API's. Also: a keyboard-only explore, a phone-width window, rename and delete by the author
only, and "Show" for a flagged action's suggested line.

The time from the Explore click to a playable board (its first frame painted with the
board's choices) is printed over 20 tries, not asserted."""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect

from domain.store import GameLibrary
from domain.wolves.analysis.review import Settings, review
from domain.wolves.records import read_record
from projections.analysis import Analyses, default_settings
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES
from tests.dashboard.test_table_page import start

pytestmark = pytest.mark.browser
TOKENS = {"ana": "explore-ana-token", "bo": "explore-bo-token"}
GAME = FIXTURES / "2p-03-heuristic.json"
QUICK = Settings(playouts=2, candidates=1)
"""A review quick enough for a test (stored as the app's review)."""
STEP = 24
TIMED = 5
"""Explores timed by the page in the playability test (its figure is printed, not judged)."""
"""A step of the fixture after the drafts, its next action a Move (W-6.1)."""


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer], store_url: str) -> LiveServer:
    """A live server with API tokens, on each backend."""
    return start(live_server_factory, store_url, TOKENS)


@pytest.fixture
def sqlite_server(live_server_factory: Callable[..., LiveServer], sqlite_url: str) -> LiveServer:
    """A live server with API tokens on SQLite."""
    return start(live_server_factory, sqlite_url, TOKENS)


def call(server: LiveServer, method: str, path: str, body: Any = None, who: str = "ana") -> Any:
    """One API call with ``who``'s token (none to a server without tokens): ``(status, JSON
    body or None)``."""
    headers = {"Content-Type": "application/json"}
    if server.settings.api_tokens:
        headers["Authorization"] = f"Bearer {TOKENS[who]}"
    data = None if body is None else json.dumps(body).encode()
    request = Request(f"{server.url}{path}", data=data, headers=headers, method=method)
    try:
        with urlopen(request, timeout=60) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def stored(server: LiveServer, path: Path = GAME) -> str:
    """Upload a fixture game; its id."""
    status, summary = call(server, "POST", "/api/games", json.loads(path.read_text()))
    assert status == 201
    return str(summary["game_id"])


def visit(
    page: Page, server: LiveServer, game_id: str, query: str, who: str = "ana", board: bool = True
) -> None:
    """Open the replay page with ``query``, entering ``who``'s token in the header first
    (``board``: wait for The Wolves' map to be drawn)."""
    page.goto(f"{server.url}/replay/{game_id}{query}")
    page.fill("#auth-input", TOKENS[who])
    page.click("#auth-use")
    expect(page.locator(".auth-name")).to_have_text(who)
    if board:
        expect(page.locator("#replay-board svg")).to_be_attached()
    expect(page.locator("#explore-lines[data-count]")).to_be_attached()


def ready(page: Page, version: int) -> None:
    """Wait until the explore board shows the variation at ``version`` with its legal actions."""
    expect(page.locator(f'#table-status[data-version="{version}"]')).to_be_attached()
    expect(page.locator(f'#table-controls[data-legal="{version}"]')).to_be_attached()
    expect(page.locator(f'#replay-board svg[data-version="{version}"]')).to_be_attached()


def hexel(page: Page, h: list[int]) -> Any:
    return page.locator(f'#replay-board [data-hex="{h[0]},{h[1]}"]')


def a_move(server: LiveServer, vid: str, avoid: Any = None) -> dict[str, Any]:
    """A one-wolf Move the engine offers now (W-6.1) onto an empty hex (no push), other than
    ``avoid``: ``{"from", "wolf", "to"}``."""
    _, doc = call(server, "GET", f"/api/tables/{vid}")
    taken = {tuple(p["hex"]) for p in doc["position"]["pieces"]}
    _, legal = call(server, "GET", f"/api/tables/{vid}/legal")
    for m in legal["moves"]:
        for to in m["to"]:
            step = {"from": m["from"], "wolf": m["wolf"], "to": to}
            if tuple(to) not in taken and step != avoid:
                return step
    raise AssertionError("no Move to an empty hex is offered")


def click_move(page: Page, step: dict[str, Any]) -> None:
    """Enter a one-wolf Move by clicking, with the engine's payment."""
    page.click('[data-act="move"]')
    hexel(page, step["from"]).click()
    options = page.locator("#table-pending [data-choose]")
    if options.count():
        options.filter(has_text="the alpha" if step["wolf"] == "alpha" else "the pack wolf").click()
    expect(page.locator("#replay-board .choice.dest").first).to_be_attached()
    hexel(page, step["to"]).click()
    page.click("#table-confirm")


def explored(page: Page, server: LiveServer) -> tuple[str, int]:
    """The variation the page explores (its id, from the URL) and its version, once its
    board is playable."""
    expect(page.locator("#explore-back")).to_be_visible()
    expect(page).to_have_url(re.compile(r"line="))
    found = page.evaluate("() => new URLSearchParams(window.location.search).get('line')")
    version: int = call(server, "GET", f"/api/tables/{found}")[1]["version"]
    ready(page, version)
    return str(found), version


def pieces(page: Page) -> str:
    """The pieces drawn on the map now."""
    return str(page.locator("#replay-board svg").inner_html())


def test_explore_two_moves_listed_kept_shown_and_compared(server: LiveServer, page: Page) -> None:
    game_id = stored(server)
    visit(page, server, game_id, f"?step={STEP}")
    expect(page.locator("#explore-lines")).to_contain_text("No variation yet")
    main_next = json.loads(GAME.read_text())["actions"][STEP]
    page.click("#explore-start")
    vid, version = explored(page, server)
    expect(page.locator(".replay-controls")).to_be_hidden()
    first = a_move(server, vid, avoid=(main_next.get("moves") or [None])[0])
    click_move(page, first)
    ready(page, version + 1)
    second = a_move(server, vid)
    click_move(page, second)
    ready(page, version + 2)
    _, doc = call(server, "GET", f"/api/tables/{vid}")
    assert [a["type"] for a in doc["actions"]] == ["move", "move"]
    assert doc["variation"]["step"] == STEP and doc["variation"]["author"] == "ana"

    page.click("#explore-back")
    expect(page.locator(".replay-controls")).to_be_visible()
    pick = page.locator(f'#explore-lines [data-line="{vid}"]')
    expect(pick).to_be_visible()
    group = page.locator(f'#explore-lines .line-group[data-step="{STEP}"]')
    expect(group).to_contain_text("2 actions")
    _, listed = call(server, "GET", f"/api/games/{game_id}/branches")
    assert [b["variation_id"] for b in listed["branches"]] == [vid]

    page.reload()
    expect(page.locator(f'#explore-lines [data-line="{vid}"]')).to_be_visible()
    page.goto(f"{server.url}/replay/{game_id}?step={STEP + 2}")
    expect(page.locator(f'#replay-board svg[data-step="{STEP + 2}"]')).to_be_attached()
    main_board = pieces(page)
    page.locator(f'#explore-lines [data-line="{vid}"]').click()
    expect(page.locator("#replay-step")).to_have_text(
        f"Step {STEP + 1} / {STEP + 2} · Variation at step {STEP}"
    )
    expect(page.locator(f'#replay-board svg[data-version="{STEP + 1}"]')).to_be_attached()
    page.locator("#replay-next").click()
    expect(page.locator(f'#replay-board svg[data-version="{STEP + 2}"]')).to_be_attached()
    assert pieces(page) != main_board  # the line's board, not the game's at the same step
    expect(page).to_have_url(re.compile(rf"\?step={STEP + 2}&line={vid}$"))
    page.locator("#replay-first").click()
    expect(page.locator('#replay-board svg[data-step="0"]')).to_be_attached()

    _, shown = call(server, "GET", f"/api/variations/{vid}")
    table = page.locator(f'#explore-compare table[data-variation="{vid}"]')
    expect(table).to_be_visible()
    main, end = shown["main"], shown["end"]
    assert main["win"] is not None  # The Wolves have a static evaluator
    for seat, was in enumerate(main["scores"]):
        row = table.locator(f'tr[data-seat="{seat}"]')
        expect(row.locator(".score-main")).to_have_text(str(was))
        expect(row.locator(".score-end")).to_have_text(str(end["scores"][seat]))
        expect(row.locator(".win-main")).to_have_text(f"{100 * main['win'][seat]:.1f} %")
        expect(row.locator(".win-end")).to_have_text(f"{100 * end['win'][seat]:.1f} %")
    expect(page.locator("#explore-compare svg.explore-dots circle")).to_have_count(4)

    page.locator("#explore-main").click()
    expect(page.locator("#replay-step")).to_have_text("Step 0 / 52")
    expect(page).to_have_url(re.compile(r"\?step=0$"))


def test_explore_by_keyboard_alone(sqlite_server: LiveServer, page: Page) -> None:
    server = sqlite_server
    game_id = stored(server)
    visit(page, server, game_id, f"?step={STEP}")
    page.locator("#replay-step").click()
    page.keyboard.press("e")
    vid, version = explored(page, server)
    expect(page.locator("#replay-board .choice").first).to_be_focused()
    page.keyboard.press("m")
    expect(page.locator('[data-act="move"][aria-pressed="true"]')).to_be_attached()
    step = a_move(server, vid)
    hexel(page, step["from"]).focus()
    page.keyboard.press("Enter")
    options = page.locator("#table-pending [data-choose]")
    if options.count():
        expect(options.first).to_be_focused()
        want = "the alpha" if step["wolf"] == "alpha" else "the pack wolf"
        options.filter(has_text=want).focus()
        page.keyboard.press("Enter")
    hexel(page, step["to"]).focus()
    page.keyboard.press("Enter")
    page.locator("#table-confirm").focus()
    page.keyboard.press("Enter")
    ready(page, version + 1)
    # the Confirm button pressed is gone: the focus is on the board again, not lost
    on_board = "() => !!document.activeElement.closest('#replay-board, #table-controls')"
    page.wait_for_function(on_board)
    page.keyboard.press("Control+z")  # the board's own key: the variation's action taken back
    ready(page, version + 2)
    _, doc = call(server, "GET", f"/api/tables/{vid}")
    assert doc["actions"] == []
    back = page.locator("#explore-back")
    back.focus()
    outline = back.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline != "none"  # visible focus
    page.keyboard.press("Enter")
    expect(page.locator("#explore-start")).to_be_focused()
    expect(page.locator(f'#replay-board svg[data-step="{STEP}"]')).to_be_attached()


def test_explore_at_phone_width(sqlite_server: LiveServer, page: Page) -> None:
    server = sqlite_server
    game_id = stored(server)
    page.set_viewport_size({"width": 390, "height": 844})
    visit(page, server, game_id, f"?step={STEP}")
    page.click("#explore-start")
    explored(page, server)
    expect(page.locator('[data-act="move"]')).to_be_in_viewport(ratio=0.5)
    choice = page.locator("#replay-board .choice").first
    choice.scroll_into_view_if_needed()
    expect(choice).to_be_in_viewport()
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390


def test_rename_and_delete_by_the_author_only(sqlite_server: LiveServer, page: Page) -> None:
    server = sqlite_server
    game_id = stored(server)
    actions = json.loads(GAME.read_text())["actions"]
    status, doc = call(server, "POST", f"/api/games/{game_id}/variations",
                       {"step": 30, "actions": actions[30:32]})  # fmt: skip
    assert status == 201
    vid = doc["table_id"]
    visit(page, server, game_id, f"?step=31&line={vid}", who="bo")
    expect(page.locator("#replay-step")).to_have_text("Step 31 / 32 · Variation at step 30")
    page.fill("#explore-name", "Bo's idea")
    page.click("#explore-rename")
    expect(page.locator('#explore-message .refused[data-kind="not_author"]')).to_be_visible()
    assert call(server, "GET", f"/api/variations/{vid}")[1]["name"] == "Variation at step 30"

    page.fill("#auth-input", TOKENS["ana"])
    page.click("#auth-use")
    expect(page.locator(".auth-name")).to_have_text("ana")
    page.fill("#explore-name", "x" * 200)  # the input takes 80 and says so
    expect(page.locator("#explore-message .name-limit")).to_contain_text("at most 80 characters")
    assert len(page.input_value("#explore-name")) == 80
    page.fill("#explore-name", "Ana's line")
    expect(page.locator("#explore-message .name-limit")).to_have_count(0)
    page.click("#explore-rename")
    expect(page.locator(f'#explore-lines [data-line="{vid}"]')).to_have_text("Ana's line")
    expect(page.locator("#replay-step")).to_have_text("Step 31 / 32 · Ana's line")
    page.click("#explore-delete")
    expect(page.locator("#explore-delete")).to_have_text("Really delete?")
    page.click("#explore-delete")
    expect(page.locator("#explore-lines")).to_contain_text("No variation yet")
    expect(page.locator("#explore-shown")).to_be_hidden()
    assert call(server, "GET", f"/api/games/{game_id}/branches")[1]["branches"] == []


def test_explore_is_playable_within_a_few_hundred_ms(sqlite_server: LiveServer, page: Page) -> None:
    server = sqlite_server
    game_id = stored(server)
    visit(page, server, game_id, f"?step={STEP}")
    for n in range(TIMED):
        page.click("#explore-start")
        expect(page.locator("#explore-back")).to_be_visible()
        page.wait_for_function(f"() => window.howlExploreTimes.length === {n + 1}")
        page.click("#explore-back")
        expect(page.locator("#explore-start")).to_be_visible()
        page.wait_for_timeout(400)  # a person's pause before the next Explore
    times = page.evaluate("() => window.howlExploreTimes")
    p50, p95 = statistics.median(times), statistics.quantiles(times, n=20)[-1]
    print(f"\nExplore → playable board: p50 {p50:.0f} ms, p95 {p95:.0f} ms over {len(times)}")
    assert len(times) == TIMED and all(t > 0 for t in times)


def test_a_moonlight_game_is_explored_by_its_legal_actions(
    sqlite_server: LiveServer, page: Page
) -> None:
    server = sqlite_server
    path = FIXTURES.parent / "moonlight" / "00-greedy.json"
    game_id = stored(server, path)
    visit(page, server, game_id, "?step=2", board=False)
    page.click("#explore-start")
    expect(page.locator("#explore-back")).to_be_visible()
    expect(page).to_have_url(re.compile(r"line="))
    vid = page.evaluate("() => new URLSearchParams(window.location.search).get('line')")
    version = call(server, "GET", f"/api/tables/{vid}")[1]["version"]
    expect(page.locator(f'#table-controls[data-legal="{version}"]')).to_be_attached()
    expect(page.locator("#table-position")).to_contain_text("rounds_won")  # M-3: the grid
    expect(page.locator(".ml-board")).to_be_hidden()
    page.locator("#table-controls [data-generic]").first.click()
    expect(page.locator(f'#table-controls[data-legal="{version + 1}"]')).to_be_attached()
    _, doc = call(server, "GET", f"/api/tables/{vid}")
    assert len(doc["actions"]) == 1 and doc["variation"]["step"] == 2


def test_show_plays_the_suggested_line_of_a_flagged_action(
    sqlite_server: LiveServer, page: Page
) -> None:
    server = sqlite_server
    game_id = stored(server)
    result = review(read_record(GAME.read_bytes()), QUICK, workers=1).to_json()
    Analyses(server.settings.database_url).save(game_id, default_settings(), result)
    flagged = next(s for s in result["steps"] if s["classification"] and s["best"])
    step = flagged["step"]  # the review's step: the action's index + 1
    visit(page, server, game_id, f"?step={step}")
    item = page.locator(f'#analysis-flagged [data-step="{step}"]')
    expect(item).to_contain_text(flagged["best"]["label"])
    item.get_by_role("button", name=f"Show the better line at step {step}").click()
    expect(page.locator("#replay-step")).to_contain_text(f"· Suggested at step {step}")
    expect(page.locator(f'#replay-board svg[data-version="{step}"]')).to_be_attached()
    _, listed = call(server, "GET", f"/api/games/{game_id}/branches")
    (line,) = listed["branches"]
    assert line["name"] == f"Suggested at step {step}" and line["step"] == step - 1
    expect(page.locator(f'#explore-lines [data-line="{line["variation_id"]}"]')).to_be_visible()
    _, doc = call(server, "GET", f"/api/tables/{line['variation_id']}")
    assert doc["actions"][0] == flagged["best"]["action"]  # the review's better action first


def test_an_open_dashboard_explores_without_a_token(
    live_server_factory: Callable[..., LiveServer], sqlite_url: str, page: Page
) -> None:
    server = live_server_factory(sqlite_url)  # no API tokens: the dashboard writes for anyone
    with GameLibrary.open(server.settings.database_url) as library:
        game_id = str(library.upload(GAME.read_bytes()).game_id)
    page.goto(f"{server.url}/replay/{game_id}?step={STEP}")
    expect(page.locator(".auth-open")).to_be_visible()
    expect(page.locator("#replay-board svg")).to_be_attached()
    page.click("#explore-start")
    vid, version = explored(page, server)
    click_move(page, a_move(server, vid))  # through the page's write callback
    ready(page, version + 1)
    _, doc = call(server, "GET", f"/api/tables/{vid}")
    assert [a["type"] for a in doc["actions"]] == ["move"]
    assert doc["variation"]["author"] == "dashboard"
    page.click("#explore-back")
    page.locator(f'#explore-lines [data-line="{vid}"]').click()
    expect(page.locator("#replay-step")).to_contain_text(f"· Variation at step {STEP}")
    page.fill("#explore-name", "Open line")  # once the line is shown: it names the input anew
    page.click("#explore-rename")
    expect(page.locator(f'#explore-lines [data-line="{vid}"]')).to_have_text("Open line")


def test_explore_from_a_line_continues_it_at_its_end(sqlite_server: LiveServer, page: Page) -> None:
    server = sqlite_server
    game_id = stored(server)
    actions = json.loads(GAME.read_text())["actions"]
    _, doc = call(server, "POST", f"/api/games/{game_id}/variations",
                  {"step": 30, "actions": actions[30:32]})  # fmt: skip
    vid = doc["table_id"]
    visit(page, server, game_id, f"?step=31&line={vid}")
    page.click("#explore-start")  # inside the line: a new variation with its actions so far
    inner, version = explored(page, server)
    assert inner != vid
    _, shown = call(server, "GET", f"/api/tables/{inner}")
    assert shown["variation"]["step"] == 30 and shown["actions"] == actions[30:31]
    assert shown["variation"]["name"] == "Variation at step 30, branched at step 31"
    page.click("#explore-back")
    expect(page.locator("#replay-step")).to_have_text("Step 31 / 32 · Variation at step 30")
    page.locator("#replay-last").click()
    expect(page.locator('#replay-board svg[data-version="32"]')).to_be_attached()
    expect(page.locator("#explore-continue")).to_be_hidden()  # at its end, Explore continues
    page.click("#explore-start")  # at its end: the same variation, extended
    again, version = explored(page, server)
    assert again == vid
    click_move(page, a_move(server, vid))
    ready(page, version + 1)
    assert len(call(server, "GET", f"/api/tables/{vid}")[1]["actions"]) == 3

    page.click("#explore-back")  # from inside the line, "Continue the line" plays on its end
    expect(page.locator("#replay-step")).to_have_text("Step 32 / 33 · Variation at step 30")
    page.locator("#replay-prev").click()
    expect(page.locator("#replay-step")).to_have_text("Step 31 / 33 · Variation at step 30")
    page.click("#explore-continue")
    again, version = explored(page, server)
    assert again == vid and version == call(server, "GET", f"/api/tables/{vid}")[1]["version"]
    expect(page).to_have_url(re.compile(rf"\?step=33&line={vid}&explore=1$"))


def test_exploring_shows_the_line_in_the_log_list_and_charts_and_a_reload_plays_on(
    sqlite_server: LiveServer, page: Page
) -> None:
    server = sqlite_server
    game_id = stored(server)
    visit(page, server, game_id, f"?step={STEP}")
    score = page.locator("#replay-vp .js-plotly-plot")
    traces = score.evaluate("gd => gd.data.length")
    page.click("#explore-start")
    vid, version = explored(page, server)
    for n in (1, 2):
        click_move(page, a_move(server, vid))
        ready(page, version + n)
        # the log: the game's steps up to the origin, then the variation's own, as they come
        expect(page.locator("#replay-log .log-step.own")).to_have_count(n)
        expect(page.locator(f'#explore-lines [data-line="{vid}"]')).to_be_visible()
        expect(page.locator(f'#explore-lines .line-group[data-step="{STEP}"]')).to_contain_text(
            f"{n} action"
        )
        expect(page).to_have_url(re.compile(rf"\?step={STEP + n}&line={vid}&explore=1$"))
    log = page.locator("#replay-log")
    expect(log.locator(".log-line")).to_have_text(f"Variation at step {STEP}, from step {STEP}")
    expect(log.locator(".log-step:not(.own)")).to_have_count(STEP + 1)  # steps 0 to the origin
    own = log.locator(".log-step.own").last
    expect(own).to_have_attribute("data-step", str(STEP + 2))

    page.reload()  # mid-variation: exploring it again, at its end
    again, now = explored(page, server)
    assert (again, now) == (vid, version + 2)
    click_move(page, a_move(server, vid))
    ready(page, version + 3)
    assert len(call(server, "GET", f"/api/tables/{vid}")[1]["actions"]) == 3

    page.click("#explore-back")
    page.locator(f'#explore-lines [data-line="{vid}"]').click()
    expect(page.locator("#replay-step")).to_have_text(
        f"Step {STEP + 1} / {STEP + 3} · Variation at step {STEP}"
    )
    # the score chart draws the line dashed over its own steps, from its origin
    page.wait_for_function(f"() => document.querySelector('#replay-vp .js-plotly-plot')"
                           f".data.length === {traces + 2}")  # fmt: skip
    drawn = score.evaluate("gd => gd.data.slice(-2).map(t => [t.line.dash, t.x[0], t.x.at(-1)])")
    assert drawn == [["dash", STEP, STEP + 3]] * 2
    page.locator("#explore-main").click()
    page.wait_for_function(f"() => document.querySelector('#replay-vp .js-plotly-plot')"
                           f".data.length === {traces}")  # fmt: skip
    expect(log.locator(".log-step.own")).to_have_count(0)


def test_a_finished_game_and_a_deleted_line_say_so(sqlite_server: LiveServer, page: Page) -> None:
    server = sqlite_server
    game_id = stored(server)
    last = len(json.loads(GAME.read_text())["actions"])
    _, doc = call(server, "POST", f"/api/games/{game_id}/variations", {"step": 3})
    assert call(server, "DELETE", f"/api/variations/{doc['table_id']}")[0] == 204
    visit(page, server, game_id, f"?step={last}&line={doc['table_id']}")
    message = page.locator(".replay-head .line-gone")  # said at the top, where one looks
    expect(message).to_contain_text("no longer stored")
    expect(message).to_be_in_viewport()
    expect(page.locator("#replay-step")).to_have_text(f"Step {last} / {last}")
    expect(page.locator("#explore-start")).to_be_disabled()  # the game is over at its end
    page.keyboard.press("e")  # by its key: the same game over, said under the board
    expect(page.locator('#explore-message .refused[data-kind="game_over"]')).to_be_in_viewport()
    expect(page.locator("#explore-back")).to_be_hidden()
    page.locator("#replay-prev").click()
    expect(page.locator("#explore-start")).to_be_enabled()
    assert call(server, "GET", f"/api/games/{game_id}/branches")[1]["branches"] == []


def test_a_lines_own_step_downloads_its_position_and_takes_no_comment(
    sqlite_server: LiveServer, page: Page
) -> None:
    server = sqlite_server
    game_id = stored(server)
    played = json.loads(GAME.read_text())["actions"][STEP]
    _, doc = call(server, "POST", f"/api/games/{game_id}/variations", {"step": STEP})
    vid, version = doc["table_id"], doc["version"]
    _, legal = call(server, "GET", f"/api/tables/{vid}/legal")
    other = next(a for a in legal["actions"] if a != played)  # not the game's own action
    assert call(server, "POST", f"/api/tables/{vid}/actions",
                {"action": other, "version": version})[0] == 201  # fmt: skip
    visit(page, server, game_id, f"?step={STEP + 1}&line={vid}")
    expect(page.locator("#replay-step")).to_contain_text(f"Step {STEP + 1} / {STEP + 1}")
    expect(page.locator("#share-add")).to_be_disabled()  # comments are on the game's steps
    with page.expect_download() as position_file:
        page.click("#share-position")
    downloaded = json.loads(Path(str(position_file.value.path())).read_text())
    assert downloaded == call(server, "GET", f"/api/tables/{vid}")[1]["position"]
    assert downloaded != call(server, "GET", f"/api/games/{game_id}/states/{STEP + 1}")[1]
    page.locator("#replay-first").click()  # the game's own steps: the game's positions
    with page.expect_download() as start_file:
        page.click("#share-position")
    expect(page.locator("#share-add")).to_be_enabled()
    shown = json.loads(Path(str(start_file.value.path())).read_text())
    assert shown == call(server, "GET", f"/api/games/{game_id}/states/0")[1]
