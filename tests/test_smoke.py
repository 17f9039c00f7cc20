"""Smoke tests: the stores answer, the server serves, the command line and browser work."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
from playwright.sync_api import Page, expect

from api.app import create_app
from projections import db
from services.config import Settings
from tests.conftest import LiveServer


def test_sql_round_trip(store_url: str) -> None:
    conn = db.connect(store_url)
    try:
        cur = conn.cursor()
        cur.execute("CREATE TABLE smoke (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        cur.execute("INSERT INTO smoke (id, name) VALUES (1, 'alpha'), (2, 'beta')")
        conn.commit()
        cur.execute("SELECT id, name FROM smoke ORDER BY id")
        assert [tuple(row) for row in cur.fetchall()] == [(1, "alpha"), (2, "beta")]
    finally:
        conn.close()


def test_health_reports_the_backend_in_use(
    store_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(store_url)
    with urlopen(f"{server.url}/api/health", timeout=10) as response:
        assert response.status == 200
        body = json.load(response)
    assert body["status"] == "ok"
    assert body["backend"] == db.backend_of(store_url)
    assert body["version"]


def test_unknown_api_route_is_a_404_problem(live_server: LiveServer) -> None:
    with pytest.raises(HTTPError) as caught:
        urlopen(f"{live_server.url}/api/no/such/thing", timeout=10)
    error = caught.value
    assert error.code == 404
    assert error.headers.get_content_type() == "application/problem+json"
    problem = json.load(error)
    assert problem["status"] == 404
    assert problem["title"] == "Not Found"


def test_wrong_method_is_a_405_problem_and_unknown_path_a_404(sqlite_url: str) -> None:
    client = create_app(Settings(sqlite_url, analysis=False)).test_client()
    wrong_method = client.delete("/api/health")
    assert wrong_method.status_code == 405
    assert wrong_method.mimetype == "application/problem+json"
    assert "GET" in wrong_method.headers["Allow"]
    unknown = client.post("/api/no/such/thing")
    assert (unknown.status_code, unknown.mimetype) == (404, "application/problem+json")


def test_health_is_a_503_problem_when_the_store_does_not_answer() -> None:
    app = create_app(Settings("postgresql://postgres@127.0.0.1:1/nowhere", analysis=False))
    response = app.test_client().get("/api/health")
    assert response.status_code == 503
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body is not None and body["status"] == 503


def test_howl_help_lists_serve() -> None:
    howl = Path(sys.executable).with_name("howl")
    result = subprocess.run(
        [str(howl), "--help"], capture_output=True, text=True, timeout=60, check=True
    )
    assert "serve" in result.stdout.split("Commands:")[1]


@pytest.mark.browser
def test_dashboard_shell_loads_in_chromium(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    foreign: list[str] = []
    page.on(
        "request",
        lambda request: (
            None if request.url.startswith(live_server.url) else foreign.append(request.url)
        ),
    )
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", name="Howl")).to_be_visible()
    expect(page.get_by_text("No games yet.")).to_be_visible()
    expect(page).to_have_title("Library · Howl")

    page.get_by_role("link", name="Statistics").click()
    expect(page.get_by_role("heading", name="Statistics")).to_be_visible()
    page.get_by_role("link", name="Library").click()
    expect(page.get_by_text("No games yet.")).to_be_visible()

    shot = tmp_path / "dashboard.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.is_file() and shot.stat().st_size > 0
    assert foreign == []
