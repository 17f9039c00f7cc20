"""The dashboard: a Dash app on the API's Flask server with Library, Replay, Statistics
and Player pages. It reads games through ``dashboard.data`` (never the API's routes)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import plotly.io.json as plotly_json  # type: ignore[import-untyped]  # no types
from dash import Dash, Input, Output, State, dcc, html
from dash.exceptions import DependencyException
from flask import Flask, current_app, redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest, HTTPException, NotFound

from dashboard import plotly_bundle, static, token
from dashboard.inputs import text
from dashboard.pages import library, new, player, practice, ratings, replay, statistics, table
from dashboard.table_parts import Labelled
from services.library import game_by_prefix, id_prefix
from services.refusals import Refusal
from services.shared import services

PAGES = {"/": "Library", "/new": "New game", "/statistics": "Statistics", "/ratings": "Ratings"}


def not_found_page(pathname: str) -> html.Div:
    """Shown for a dashboard path that names no page."""
    return html.Div([html.H2("Page not found"), html.P(f"Nothing lives at {pathname}.")])


def render_page(pathname: Any, search: Any = None) -> html.Div:
    """The page for a URL path (``search`` is the query string: the replay's step, the
    library's, the statistics' and the ratings' filters)."""
    path = (text(pathname, 2_000) or "/").rstrip("/") or "/"
    search = text(search, 2_000)
    if path == "/":
        return library.layout(search)
    if path == "/statistics":
        return statistics.layout(search)
    if path == "/ratings":
        return ratings.layout(search)
    if path == "/new":
        return new.layout()
    head, _, rest = path.lstrip("/").partition("/")
    if head == "replay" and rest and "/" not in rest:
        return replay.layout(rest, search)
    if head == "table" and rest and "/" not in rest:
        return table.layout(rest)
    if head == "practice" and rest and "/" not in rest:
        return practice.layout(rest, search)
    if head == "player" and rest:
        return player.layout(unquote(rest))
    return not_found_page(path)


CALLBACKS = "/_dash-update-component"
UPLOAD_ROOM = 4
"""Callback requests may be this many times the upload limit: an uploaded file arrives
base64-encoded (4 bytes per 3) inside JSON, so files up to three times the limit reach the
library page, which says they are too big."""


def body_limit(path: str, limit: int) -> int:
    """The most bytes a request body to ``path`` may have, for an upload limit of ``limit``:
    dashboard callbacks get room for an upload over the limit, so that it can be told.

    >>> body_limit("/api/games", 100), body_limit(CALLBACKS, 100)
    (100, 65936)
    """
    return UPLOAD_ROOM * limit + 2**16 if path == CALLBACKS else limit


MAX_PATTERN_IDS = 1_000
"""Most components a pattern-matching input of a callback request may list."""


def _slot(item: Any) -> bool:
    """Whether a callback request's input, state or output entry has an id and a property."""
    return (
        isinstance(item, dict)
        and isinstance(item.get("id"), str | dict)
        and isinstance(item.get("property"), str)
    )


def _slots(given: Any, expected: list[dict[str, Any]], where: str) -> None:
    """Check a callback request's ``inputs`` or ``state`` against the callback's own."""
    if not isinstance(given, list) or len(given) != len(expected):
        raise BadRequest(f"Callback request: `{where}` must list {len(expected)} entries.")
    for item, spec in zip(given, expected, strict=True):
        if spec["id"].startswith("{"):  # a pattern-matching id: a list of components
            if not isinstance(item, list) or len(item) > MAX_PATTERN_IDS:
                raise BadRequest(f"Callback request: `{where}` of {spec['id']} must be a list.")
            if not all(_slot(i) and isinstance(i["id"], dict) for i in item):
                raise BadRequest(f"Callback request: `{where}` of {spec['id']} is malformed.")
        elif not _slot(item) or item["id"] != spec["id"]:
            raise BadRequest(f"Callback request: `{where}` must give {spec['id']} first.")


def check_callback_request(app: Dash) -> None:
    """Answer a callback request that is not shaped like one of the app's callbacks with a
    400 problem (Dash itself would fail on it with a 500)."""
    if request.path != CALLBACKS or request.method != "POST":
        return
    try:
        body = request.get_json(silent=True)
    except RecursionError:
        raise BadRequest("Callback request: the JSON is nested too deeply.") from None
    if not isinstance(body, dict):
        raise BadRequest("Callback request: the body must be a JSON object.")
    output = body.get("output")
    callback = app.callback_map.get(output) if isinstance(output, str) else None
    if callback is None:
        raise BadRequest("Callback request: `output` names no callback of this app.")
    _slots(body.get("inputs"), callback["inputs"], "inputs")
    _slots(body.get("state", []), callback["state"], "state")
    outputs, changed = body.get("outputs"), body.get("changedPropIds", [])
    if not (_slot(outputs) or isinstance(outputs, list) and all(map(_slot, outputs))):
        raise BadRequest("Callback request: `outputs` must name the callback's outputs.")
    if not isinstance(changed, list) or not all(isinstance(c, str) for c in changed):
        raise BadRequest("Callback request: `changedPropIds` must be a list of strings.")


def short_replay_link() -> ResponseReturnValue | None:
    """Send a replay link by a short id (``/replay/`` and an id's first 8 or more hex
    digits) on to the game's own address, its query kept. A prefix that names no game, or
    several, is left to the page, which says so."""
    head, _, rest = request.path.strip("/").partition("/")
    if head != "replay" or id_prefix(rest) is None:
        return None
    try:
        game_id = game_by_prefix(services().library, rest)
    except Refusal:
        return None
    query = request.query_string.decode()
    return redirect(f"/replay/{game_id}" + (f"?{query}" if query else ""))


def unknown_asset(_exc: DependencyException) -> HTTPException | ResponseReturnValue:
    """A 404 for a component-suite path that names no script Dash serves, answered as the
    server answers any HTTP error (a problem document)."""
    return current_app.handle_http_exception(NotFound("No such dashboard asset."))


JSON_ENGINE = "json"
"""The engine plotly encodes Dash's answers with: its ``orjson`` engine (the default where
orjson is installed) first copies every value in Python, and answered a 5-player replay page
(340 kB, most of it the game's data) three times slower than the json module's encoder."""


def create_dash(server: Flask) -> Dash:
    """Mount the dashboard at ``/`` on ``server``; all its scripts are served locally."""
    plotly_json.config.default_engine = JSON_ENGINE
    app = Dash(
        __name__,
        server=server,  # type: ignore[arg-type]  # Dash's stub omits the Flask it accepts
        url_base_pathname="/",
        title="Howl",
        serve_locally=True,
        update_title=None,  # type: ignore[arg-type]  # documented: None keeps the title
        suppress_callback_exceptions=True,
    )
    app.index_string = app.index_string.replace("<html>", '<html lang="en">', 1)
    plotly_bundle.install(app)
    static.install(server)
    app.layout = html.Div(
        [
            dcc.Location(id="url", refresh="callback-nav"),
            html.Header(
                [
                    html.H1(dcc.Link("Howl", href="/", className="brand")),
                    html.Nav([dcc.Link(name, href=path) for path, name in PAGES.items()]),
                    token.control(bool(services(server).settings.api_tokens)),
                    html.Button(
                        "?",
                        id="keys-open",
                        type="button",
                        className="step-button keys-open",
                        title="keyboard shortcuts (?)",
                        **Labelled({"aria-label": "keyboard shortcuts"}),
                    ),
                ]
            ),
            html.Main(id="page"),
        ],
        className="shell",
    )
    app.callback(Output("page", "children"), Input("url", "pathname"), State("url", "search"))(
        render_page
    )
    for page in (token, library, new, replay, statistics, ratings, player, table, practice):
        page.register(app)
    server.before_request(lambda: check_callback_request(app))
    server.before_request(short_replay_link)
    server.register_error_handler(DependencyException, unknown_asset)
    return app
