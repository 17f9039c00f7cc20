"""``/new``: set up a game played at a real table and open it as a live table.

What the page asks is the game's set-up view (:func:`dashboard.boards.setups`); The
Wolves' is :mod:`dashboard.boards.wolves_new`.
"""

from __future__ import annotations

from dash import Dash, html

from dashboard.boards import setups


def layout() -> html.Div:
    """The New game page: the set-up form of each game that has one."""
    return html.Div([setup.layout() for setup in setups()])


def register(app: Dash) -> None:
    """Every set-up view's callbacks."""
    for setup in setups():
        setup.register(app)
