"""``/new``: set up a game played at a real table and open it as a live table, or go back to
one in progress.

What the page asks is the game's set-up view (:func:`dashboard.boards.setups`); The
Wolves' is :mod:`dashboard.boards.wolves_new`. Above it, the tables still open (not yet
stored as games), the last changed first, each a link to its page.
"""

from __future__ import annotations

from typing import Any

from dash import Dash, dcc, html

from dashboard.boards import setups
from services import tables

SHOWN = 20
"""Open tables listed at most."""


def _open(summary: dict[str, Any]) -> html.Li:
    title = summary["title"] or " vs ".join(summary["players"])
    turn = "game over" if summary["finished"] else f"{summary['actions']} actions entered"
    return html.Li([
        dcc.Link(title, href=f"/table/{summary['table_id']}"),
        html.Span(f" · {turn} · changed {summary['updated_at'][:16].replace('T', ' ')}",
                  className="muted"),
    ])  # fmt: skip


def in_progress() -> html.Div | None:
    """The tables still open, as links (None when there is none)."""
    shown = [s for s in tables.list_tables() if not s["closed"]][:SHOWN]
    if not shown:
        return None
    return html.Div(
        [html.H2("Tables in progress"), html.Ul([_open(s) for s in shown], id="new-open")],
        className="setup-section",
    )


def layout() -> html.Div:
    """The New game page: the tables in progress, then each game's set-up form."""
    return html.Div([in_progress(), *(setup.layout() for setup in setups())])


def register(app: Dash) -> None:
    """Every set-up view's callbacks."""
    for setup in setups():
        setup.register(app)
