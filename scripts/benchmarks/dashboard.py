"""Dashboard suite: the replay page's load and step changes in Chromium (issue: dashboard).

Fixture games of 2, 3 and 5 players are stored in a throwaway SQLite store served by
``howl serve``; the system Chromium (Playwright) opens each game's replay page cold (a
fresh browser context: empty cache) and warm (the same context, reloaded) and times, from
the navigation's start, the first meaningful paint (the map drawn with the step's pieces),
interactive (→, pressed as soon as the map shows, has moved the step) and the charts drawn
(every chart's cursor placed). Then, on the 5-player game, it presses → and waits until the
board, the VP chart and the control chart all show the new step.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from domain.store import GameLibrary
from scripts.benchmarks.common import percentile, progress, report

FIXTURES = Path(__file__).parents[2] / "tests/fixtures/the-wolves"
GAMES = {2: "2p-00-heuristic.json", 3: "3p-00-heuristic.json", 5: "5p-00-heuristic.json"}
STEP = 40
STEPS = 50
LOADS = 5
VIEWPORT = {"width": 1600, "height": 1000}
TIMES = ("paint", "moved", "charts")
SHOWS = """(step) => {
    const at = id => document.querySelector('#' + id + '[data-step="' + step + '"]');
    return at('replay-board svg') && at('replay-vp-cursor') && at('replay-control-cursor')
        && document.getElementById('replay-step').textContent.startsWith('Step ' + step + ' ');
}"""
"""True once the board's pieces, both charts' cursors and the step number show ``step``."""
WATCH = r"""(step) => {
    const t = window.__howlLoad = {};
    const board = s => document.querySelector('#replay-board svg[data-step="' + s + '"]');
    const charts = () => {
        const all = document.querySelectorAll('.chart > [id$="-cursor"]');
        return all.length > 0 && [...all].every(c => c.hasAttribute('data-step'));
    };
    const moved = () => {  // a later step shown, on the board and in the step number
        const shown = /^Step (\d+) /.exec(document.getElementById('replay-step').textContent);
        return shown && +shown[1] > step && board(+shown[1]);
    };
    const look = () => {
        const now = performance.now();
        if (t.paint === undefined && board(step)) { t.paint = now; }
        if (t.moved === undefined && t.paint !== undefined && moved()) { t.moved = now; }
        if (t.charts === undefined && charts()) { t.charts = now; }
        if (t.moved === undefined || t.charts === undefined) { requestAnimationFrame(look); }
    };
    requestAnimationFrame(look);
}"""
"""Records, in ms from the navigation's start, when the map first shows ``step``'s pieces
(``paint``), when it shows a later step (``moved``) and when every chart's cursor is placed
(``charts``): checked every frame from the page's first script on."""


@contextmanager
def _serve(store: str) -> Iterator[tuple[str, dict[int, str]]]:
    """``howl serve`` on ``store`` holding the fixture games: (base URL, game id by players)."""
    library = GameLibrary.open(store)
    ids = {
        n: str(library.upload((FIXTURES / name).read_bytes(), uploaded_by="bench").game_id)
        for n, name in GAMES.items()
    }
    library.close()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    howl = Path(sys.executable).with_name("howl")
    env = {**os.environ, "HOWL_DATABASE_URL": store, "HOWL_PORT": str(port)}
    server = subprocess.Popen([str(howl), "serve"], env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base, ids
    finally:
        server.terminate()
        server.wait(timeout=30)


def _timed_load(page: Page, load: str) -> dict[str, float]:
    """Open the page (``load``: ``goto(url)`` or ``reload()``), then press → as soon as the map
    shows step :data:`STEP` until the step moves: the page's ``paint``, ``moved`` and
    ``charts`` times (ms from the navigation's start)."""
    if load == "reload":
        page.reload(wait_until="commit")
    else:
        page.goto(load, wait_until="commit")
    page.wait_for_function("() => window.__howlLoad && window.__howlLoad.paint", polling="raf")
    for _ in range(2_000):  # a bound: 10 s of presses
        if page.evaluate("window.__howlLoad.moved"):
            break
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(5)
    else:
        raise RuntimeError("→ did not move the replay's step")
    page.wait_for_function("() => window.__howlLoad.charts", polling="raf")
    times: dict[str, float] = page.evaluate("window.__howlLoad")
    return times


def _page_loads(browser: Browser, url: str, players: int) -> None:
    """Report the cold and warm loads of the replay page at ``url`` (a ``players`` game)."""
    cold, warm = [], []
    for _ in range(LOADS):
        context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
        try:
            context.add_init_script(f"({WATCH})({STEP})")
            page = context.new_page()
            page.set_default_timeout(30_000)
            cold.append(_timed_load(page, url))
            page.goto(url)  # back to the step measured (the first load moved it)
            warm.append(_timed_load(page, "reload"))
        finally:
            context.close()
    for metric, loads, target in (("replay_cold_ms", cold, 1000), ("replay_warm_ms", warm, 400)):
        med = {k: statistics.median(load[k] for load in loads) for k in TIMES}
        report(
            "dashboard", metric, med["moved"], "ms", players=players, median_of=LOADS,
            paint_ms=round(med["paint"], 1), charts_ms=round(med["charts"], 1), target=target,
        )  # fmt: skip


def _load(page: Page, url: str, step: int) -> float:
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(SHOWS, arg=step, polling="raf")
    return (time.perf_counter() - start) * 1000


def _step_times(page: Page, start: int) -> list[float]:
    page.evaluate(
        "() => document.addEventListener('keydown',"
        " () => { window.__pressed = performance.now(); }, {capture: true})"
    )
    times = []
    for step in range(start + 1, start + 1 + STEPS):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"(step) => ({SHOWS})(step) && (window.__shown = performance.now())",
            arg=step, polling="raf",
        )  # fmt: skip
        times.append(page.evaluate("window.__shown - window.__pressed"))
    return times


def run() -> None:
    """Measure and report the dashboard metrics."""
    chromium = shutil.which("chromium")
    if chromium is None:
        progress("dashboard: no chromium on PATH (scripts/test installs it); skipped")
        return
    with (
        tempfile.TemporaryDirectory() as tmp,
        _serve(f"sqlite:///{tmp}/bench.sqlite3") as (base, ids),
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=VIEWPORT)  # type: ignore[arg-type]
            page.set_default_timeout(30_000)
            for game_id in ids.values():  # the server computes each game's page once
                _load(page, f"{base}/replay/{game_id}?step={STEP}", STEP)
            for players, game_id in ids.items():
                progress(f"dashboard: {players}-player replay page loads, cold and warm")
                _page_loads(browser, f"{base}/replay/{game_id}?step={STEP}", players)
            url = f"{base}/replay/{ids[5]}?step={STEP}"
            progress("dashboard: 5-player replay page loads (first, then warm)")
            cold = _load(page, url, STEP)
            warm = [_load(page, url, STEP) for _ in range(LOADS)]
            report(
                "dashboard", "replay_load_ms", statistics.median(warm), "ms",
                median_of=LOADS, cold=round(cold, 1), target=2000,
            )  # fmt: skip
            progress(f"dashboard: {STEPS} steps with the → key")
            times = _step_times(page, STEP)
            report(
                "dashboard", "replay_step_ms", percentile(times, 50), "ms",
                p95=round(percentile(times, 95), 1), steps=STEPS, target_p95=50,
            )  # fmt: skip
        finally:
            browser.close()
