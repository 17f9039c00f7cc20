"""The replay page's answer over real HTTP, as Dash encodes it with the json module's engine
(``dashboard.app.JSON_ENGINE``): the same document plotly's orjson engine writes."""

from __future__ import annotations

import json
from urllib.request import Request, urlopen

import plotly.io.json as plotly_json  # type: ignore[import-untyped]  # no types

from api.app import create_app
from dashboard.app import JSON_ENGINE, render_page
from domain.store import GameLibrary
from tests.conftest import LiveServer
from tests.dashboard.conftest import FIXTURES


def test_the_replay_page_answers_what_the_orjson_engine_writes(live_server: LiveServer) -> None:
    with GameLibrary.open(live_server.settings.database_url) as library:
        game_id = str(library.upload((FIXTURES / "5p-00-heuristic.json").read_bytes()).game_id)
    path, search = f"/replay/{game_id}", "?step=40"
    body = {
        "output": "page.children",
        "outputs": {"id": "page", "property": "children"},
        "inputs": [{"id": "url", "property": "pathname", "value": path}],
        "state": [{"id": "url", "property": "search", "value": search}],
        "changedPropIds": ["url.pathname"],
    }
    request = Request(
        live_server.url + "/_dash-update-component",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urlopen(request, timeout=60) as answer:
        page = json.load(answer)["response"]["page"]["children"]
    assert plotly_json.config.default_engine == JSON_ENGINE
    app = create_app(live_server.settings)  # the page as plotly's default engine writes it
    with app.test_request_context():
        written = plotly_json.to_json_plotly(render_page(path, search), engine="orjson")
    assert page == json.loads(written)
    assert page["props"]["id"] == "replay"
