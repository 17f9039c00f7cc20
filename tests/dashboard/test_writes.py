"""The dashboard's writes over its Dash callback endpoint: with ``HOWL_API_TOKENS`` set,
uploading and "Analyse" need a known token (401/403 meanings), store under the token's name,
and "Analyse" queues nothing for an id that names no game."""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable
from typing import Any
from urllib.request import urlopen

import pytest

from projections.analysis_worker import analysis_status
from services.library import analyses_url
from tests.conftest import LiveServer
from tests.dashboard.callbacks import Answer, call, dependencies, find
from tests.dashboard.conftest import FIXTURES

TOKENS = {"ana": "ana-dashboard-token", "bo": "bo-dashboard-token"}
GAME = FIXTURES / "3p-00-heuristic.json"
CONTENTS = "data:application/json;base64," + base64.b64encode(GAME.read_bytes()).decode()
UPLOAD = "library-upload-result.children"
ANALYSE = "analysis-status.children"


def start(factory: Callable[..., LiveServer], store_url: str, **settings: Any) -> LiveServer:
    """A live server on ``store_url`` (a PostgreSQL schema of its own)."""
    if store_url.startswith("postgresql"):
        settings["database_schema"] = f"t_{uuid.uuid4().hex[:12]}"
    return factory(store_url, **settings)


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer], store_url: str) -> LiveServer:
    """A live server with API tokens, on each backend."""
    return start(live_server_factory, store_url, api_tokens=TOKENS)


def get(server: LiveServer, path: str) -> dict[str, Any]:
    with urlopen(f"{server.url}{path}", timeout=30) as response:
        return json.load(response)


def upload(server: LiveServer, token: Any) -> Answer:
    """Drop the fixture record on the upload area, with ``token`` in the session store."""
    dep = find(dependencies(server.url), UPLOAD)
    values = {"library-upload-checked.data": CONTENTS, "library-upload.filename": "game.json",
              "auth-token.data": token}  # fmt: skip
    return call(server.url, dep, values)


def analyse(server: LiveServer, game_id: str, token: Any) -> Answer:
    """Click "Analyse" on the replay page of ``game_id``."""
    dep = find(dependencies(server.url), ANALYSE)
    values = {"analysis-run.n_clicks": 1, "analysis-game.data": game_id, "auth-token.data": token}
    return call(server.url, dep, values, trigger="analysis-run.n_clicks")


def refusal(answer: Answer, component: str) -> dict[str, Any]:
    """The refusal a callback showed in ``component``: its props."""
    assert answer.status == 200, answer
    props = answer.output(component, "children")["props"]
    assert "refused" in props["className"]
    return props


def stored(server: LiveServer) -> int:
    """How many games the server lists."""
    return get(server, "/api/games")["total"]


def test_an_anonymous_upload_is_refused_and_nothing_is_stored(server: LiveServer) -> None:
    for token in (None, "", "   ", 7, ["ana-dashboard-token"]):
        answer = upload(server, token)
        props = refusal(answer, "library-upload-result")
        assert (props["data-status"], props["data-kind"]) == ("401", "missing_token")
        assert "Uploading needs a token." in answer.text()
        assert "url" not in answer.body["response"]  # the page stays where it is
    assert stored(server) == 0


def test_an_unknown_token_is_refused_and_nothing_is_stored(server: LiveServer) -> None:
    for token in ("not-a-token", "ana", "ana-dashboard-token-", "x" * 5_000):
        answer = upload(server, token)
        props = refusal(answer, "library-upload-result")
        assert (props["data-status"], props["data-kind"]) == ("403", "unknown_token")
        assert "This token is not accepted here." in answer.text()
    assert stored(server) == 0


def test_a_known_token_stores_the_game_under_its_name(server: LiveServer) -> None:
    answer = upload(server, " bo-dashboard-token ")
    assert answer.status == 200
    path = answer.output("url", "pathname")
    game_id = path.removeprefix("/replay/")
    assert path == f"/replay/{uuid.UUID(game_id)}"
    assert get(server, f"/api/games/{game_id}")["uploaded_by"] == "bo"
    assert stored(server) == 1


def test_analyse_needs_a_token_and_a_stored_game(server: LiveServer) -> None:
    game_id = upload(server, TOKENS["ana"]).output("url", "pathname").removeprefix("/replay/")
    url = analyses_url(server.settings)

    answer = analyse(server, game_id, None)
    props = refusal(answer, "analysis-status")
    assert (props["data-status"], props["data-kind"]) == ("401", "missing_token")
    assert "Analysing needs a token." in answer.text()
    props = refusal(analyse(server, game_id, "wrong"), "analysis-status")
    assert props["data-status"] == "403"
    assert analysis_status(url, game_id)["status"] == "none"

    nobody = str(uuid.uuid4())
    answer = analyse(server, nobody, TOKENS["ana"])
    props = refusal(answer, "analysis-status")
    assert (props["data-status"], props["data-kind"]) == ("404", "unknown_game")
    assert "No game with this id is stored." in answer.text()
    assert analysis_status(url, nobody)["status"] == "none"

    answer = analyse(server, game_id, TOKENS["ana"])
    assert "Analysis queued" in answer.text()
    assert analysis_status(url, game_id)["status"] == "queued"


def test_without_tokens_the_dashboard_is_open_and_says_so(
    live_server_factory: Callable[..., LiveServer], store_url: str
) -> None:
    server = start(live_server_factory, store_url)
    with urlopen(f"{server.url}/_dash-layout", timeout=30) as response:
        layout = response.read().decode()
    assert "anyone can upload: no API tokens are configured" in layout
    assert "auth-input" not in layout
    game_id = upload(server, None).output("url", "pathname").removeprefix("/replay/")
    assert get(server, f"/api/games/{game_id}")["uploaded_by"] == "dashboard"
    answer = analyse(server, game_id, None)
    assert "Analysis queued" in answer.text()
