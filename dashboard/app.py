"""The dashboard shell: a Dash app on the API's Flask server, with Library and Statistics pages."""

from __future__ import annotations

from dash import Dash, Input, Output, dcc, html
from flask import Flask

PAGES = {"/": "Library", "/statistics": "Statistics"}


def library_page() -> html.Div:
    """The game library; empty until games are uploaded."""
    return html.Div(
        [html.H2("Library"), html.P("No games yet.", className="placeholder")],
        id="library",
    )


def statistics_page() -> html.Div:
    """Statistics across games; empty until games are uploaded."""
    return html.Div(
        [html.H2("Statistics"), html.P("No statistics yet: there are no games.")],
        id="statistics",
    )


def not_found_page(pathname: str) -> html.Div:
    """Shown for a dashboard path that names no page."""
    return html.Div([html.H2("Page not found"), html.P(f"Nothing lives at {pathname}.")])


def render_page(pathname: str | None) -> html.Div:
    """The page for a URL path."""
    path = (pathname or "/").rstrip("/") or "/"
    if path == "/":
        return library_page()
    if path == "/statistics":
        return statistics_page()
    return not_found_page(path)


def create_dash(server: Flask) -> Dash:
    """Mount the dashboard at ``/`` on ``server``; all its scripts are served locally."""
    app = Dash(
        __name__,
        server=server,
        url_base_pathname="/",
        title="Howl",
        serve_locally=True,
        update_title=None,
    )
    app.layout = html.Div(
        [
            dcc.Location(id="url"),
            html.Header(
                [
                    html.H1("Howl"),
                    html.Nav([dcc.Link(name, href=path) for path, name in PAGES.items()]),
                ]
            ),
            html.Main(id="page"),
        ],
        className="shell",
    )
    app.callback(Output("page", "children"), Input("url", "pathname"))(render_page)
    return app
