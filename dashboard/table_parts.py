"""The parts of a page the table board (``assets/table.js``) draws into, wherever it is
mounted (the table, explore on the replay page, practice), and the attributes with a dash in
their name that these pages give their components."""

from __future__ import annotations

from typing import TypedDict

from dash import html

Labelled = TypedDict("Labelled", {"aria-label": str})
Live = TypedDict("Live", {"aria-live": str})
Tokens = TypedDict("Tokens", {"data-tokens": str})
"""Attributes with a dash in their name, as Dash components take them."""


def controls() -> list[html.Div]:
    """The board's controls: the actions, the action being built and the last refusal."""
    return [
        html.Div(id="table-controls", className="table-controls", role="toolbar",
                 **Labelled({"aria-label": "actions"})),
        html.Div(id="table-pending", className="table-pending", **Live({"aria-live": "polite"})),
        html.Div(id="table-message", className="table-message", role="alert"),
    ]  # fmt: skip


def readonly_note(verb: str) -> html.P:
    """The note the board shows while the tab holds no token where one is needed."""
    return html.P(f"Reading only: enter a token in the header to {verb}.", id="table-readonly",
                  className="table-readonly", hidden=True)  # fmt: skip
