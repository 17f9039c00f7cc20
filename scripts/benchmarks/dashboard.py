"""Dashboard suite: replay step changes and page load in Chromium (issue: dashboard).

A 5-player fixture game is stored in a throwaway SQLite store served by ``howl serve``;
the system Chromium (Playwright) presses → and waits until the board, the VP chart and
the control chart all show the new step.
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

from playwright.sync_api import Page, sync_playwright

from domain.store import GameLibrary
from scripts.benchmarks.common import percentile, progress, report

FIXTURE = Path(__file__).parents[2] / "tests/fixtures/the-wolves/5p-00-heuristic.json"
STEPS = 50
LOADS = 5
SHOWS = """(step) => {
    const at = id => document.querySelector('#' + id + '[data-step="' + step + '"]');
    return at('replay-board svg') && at('replay-vp-cursor') && at('replay-control-cursor')
        && document.getElementById('replay-step').textContent.startsWith('Step ' + step + ' ');
}"""
"""True once the board's pieces, both charts' cursors and the step number show ``step``."""


@contextmanager
def _serve(store: str) -> Iterator[tuple[str, str]]:
    """``howl serve`` on ``store`` holding the fixture game: (base URL, game id)."""
    library = GameLibrary.open(store)
    game_id = library.upload(FIXTURE.read_bytes(), uploaded_by="bench").game_id
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
        yield base, str(game_id)
    finally:
        server.terminate()
        server.wait(timeout=30)


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
        _serve(f"sqlite:///{tmp}/bench.sqlite3") as (base, game_id),
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.set_default_timeout(20_000)
            url = f"{base}/replay/{game_id}?step=40"
            progress("dashboard: replay page loads (first, then warm)")
            cold = _load(page, url, 40)
            warm = [_load(page, url, 40) for _ in range(LOADS)]
            report(
                "dashboard", "replay_load_ms", statistics.median(warm), "ms",
                median_of=LOADS, cold=round(cold, 1), target=2000,
            )  # fmt: skip
            progress(f"dashboard: {STEPS} steps with the → key")
            times = _step_times(page, 40)
            report(
                "dashboard", "replay_step_ms", percentile(times, 50), "ms",
                p95=round(percentile(times, 95), 1), steps=STEPS, target_p95=100,
            )  # fmt: skip
        finally:
            browser.close()
