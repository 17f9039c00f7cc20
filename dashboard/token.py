"""The header's API token: when ``HOWL_API_TOKENS`` is set, the dashboard's writes (upload,
"Analyse") carry a token entered once per browser tab and kept in the tab's session storage
(``auth-token``); without tokens the header says the dashboard is open to anyone."""

from __future__ import annotations

from typing import Any, TypedDict

from dash import Dash, Input, NoUpdate, Output, State, ctx, dcc, html, no_update

from dashboard import data
from dashboard.inputs import text

Status = TypedDict("Status", {"data-status": str})
"""The HTTP status a refused write got, as the element's ``data-status`` attribute."""
Refusal = TypedDict("Refusal", {"data-status": str, "data-kind": str})
"""A refused write's status and problem kind, as ``data-`` attributes."""

OPEN = "Open for local use: anyone can upload: no API tokens are configured."


def control(tokens_required: bool) -> html.Div:
    """The token field, its buttons and what the stored token is (or the open note)."""
    store = dcc.Store(id="auth-token", storage_type="session")
    if not tokens_required:
        return html.Div([store, html.Span(OPEN, className="auth-open")], className="auth")
    return html.Div(
        [
            store,
            html.Label("Token", htmlFor="auth-input", className="auth-label"),
            dcc.Input(
                id="auth-input",
                type="password",
                placeholder="API token",
                autoComplete="off",
                className="auth-input",
            ),
            html.Button("Use", id="auth-use", n_clicks=0, className="auth-button"),
            html.Button("Clear", id="auth-clear", n_clicks=0, className="auth-button"),
            html.Span(id="auth-status", className="auth-status", role="status"),
        ],
        className="auth",
    )


def refused(err: data.WriteRefused, class_name: str) -> html.Div:
    """A refused write where the user is looking, with the API's status and problem kind."""
    return html.Div(
        [html.B("Not done: "), err.message],
        className=f"{class_name} refused",
        **Refusal({"data-status": str(err.status), "data-kind": err.kind}),
    )


def keep(
    _use: Any, _submit: Any, _clear: Any, entered: Any
) -> tuple[str | None | NoUpdate, str | NoUpdate]:
    """Keep the entered token for the tab's session ("Use" or Enter), or forget it
    ("Clear"); the field is emptied either way."""
    if ctx.triggered_id == "auth-clear":
        return None, ""
    token = text(entered, data.MAX_TOKEN)
    return (token, "") if token else (no_update, no_update)


def describe(_stamp: Any, token: Any) -> list[Any]:
    """Who the stored token writes as, or that it is missing or not accepted."""
    if token is None:
        return ["No token: reading only."]
    try:
        name = data.writer(token, "Writing")
    except data.WriteRefused as err:
        return [
            html.Span(err.message, className="auth-bad", **Status({"data-status": str(err.status)}))
        ]
    return ["Writing as ", html.B(name, className="auth-name")]


def register(app: Dash) -> None:
    """The token field's callbacks (they only fire where the field is shown)."""
    app.callback(
        Output("auth-token", "data"),
        Output("auth-input", "value"),
        Input("auth-use", "n_clicks"),
        Input("auth-input", "n_submit"),
        Input("auth-clear", "n_clicks"),
        State("auth-input", "value"),
        prevent_initial_call=True,
    )(keep)
    app.callback(
        Output("auth-status", "children"),
        Input("auth-token", "modified_timestamp"),
        State("auth-token", "data"),
    )(describe)
