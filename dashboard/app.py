"""The dashboard: a Dash app on the API's Flask server with Library, Replay, Statistics
and Player pages. It reads games through ``dashboard.data`` (never the API's routes)."""

from __future__ import annotations

from urllib.parse import unquote

from dash import Dash, Input, Output, State, dcc, html
from flask import Flask, current_app, request

from dashboard.pages import library, player, replay, statistics

PAGES = {"/": "Library", "/statistics": "Statistics"}


def not_found_page(pathname: str) -> html.Div:
    """Shown for a dashboard path that names no page."""
    return html.Div([html.H2("Page not found"), html.P(f"Nothing lives at {pathname}.")])


def render_page(pathname: str | None, search: str | None = None) -> html.Div:
    """The page for a URL path (``search`` is the query string, for the replay's step)."""
    path = (pathname or "/").rstrip("/") or "/"
    if path == "/":
        return library.layout()
    if path == "/statistics":
        return statistics.layout()
    head, _, rest = path.lstrip("/").partition("/")
    if head == "replay" and rest and "/" not in rest:
        return replay.layout(rest, search)
    if head == "player" and rest:
        return player.layout(unquote(rest))
    return not_found_page(path)


CALLBACKS = "/_dash-update-component"
UPLOAD_ROOM = 4
"""Callback requests may be this many times the upload limit: an uploaded file arrives
base64-encoded (4 bytes per 3) inside JSON, so files up to three times the limit reach the
library page, which says they are too big."""


def room_for_uploads() -> None:
    """Let dashboard callbacks carry an upload that is over the limit, so it can be told."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.path == CALLBACKS and limit is not None:
        request.max_content_length = UPLOAD_ROOM * limit + 2**16


def create_dash(server: Flask) -> Dash:
    """Mount the dashboard at ``/`` on ``server``; all its scripts are served locally."""
    app = Dash(
        __name__,
        server=server,
        url_base_pathname="/",
        title="Howl",
        serve_locally=True,
        update_title=None,
        suppress_callback_exceptions=True,
    )
    app.layout = html.Div(
        [
            dcc.Location(id="url", refresh="callback-nav"),
            html.Header(
                [
                    html.H1(dcc.Link("Howl", href="/", className="brand")),
                    html.Nav([dcc.Link(name, href=path) for path, name in PAGES.items()]),
                ]
            ),
            html.Main(id="page"),
        ],
        className="shell",
    )
    app.callback(Output("page", "children"), Input("url", "pathname"), State("url", "search"))(
        render_page
    )
    for page in (library, replay, statistics, player):
        page.register(app)
    server.before_request(room_for_uploads)
    return app
