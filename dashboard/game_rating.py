"""A replay's rating changes: each seat's rating before and after the game and the change,
with the place and the chance to win the ratings predicted before it, as the game's league
rated it (what ``GET /api/games/{id}/ratings`` answers); or why the game is not rated."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from dash import html

from dashboard import data

HEADS = ("Player", "Rating", "Change", "Place (predicted)", "Win chance")


def reason(summary: dict[str, Any] | None) -> str:
    """Why a game its league has not rated (``summary``: the game's; None: not read yet)."""
    if summary is None:
        return "Not rated yet."
    if not summary["finished"]:
        return "Not rated: the game is not finished."
    if summary["visibility"] != "public":
        return "Not rated: private games are not rated."
    return "Not rated."


def row(seat: dict[str, Any]) -> html.Tr:
    """A rated seat: its player, rating before → after, change, place (the one predicted)
    and chance to win."""
    return html.Tr([
        html.Td(seat["name"]), html.Td(f"{seat['before']:.1f} → {seat['rating']:.1f}"),
        html.Td(f"{seat['change']:+.1f}"), html.Td(f"{seat['place']} ({seat['predicted_place']})"),
        html.Td(f"{seat['win_chance']:.0%}"),
    ])  # fmt: skip


def panel(game_id: UUID) -> list[Any]:
    """The replay's rating section: a heading and the seats' changes, or a line saying why
    there are none (bots' seats are left out, as the ratings leave them)."""
    models = data.fresh()
    rated = models.game_rating(game_id)
    if rated is None:
        shown: Any = html.P(reason(models.summary(game_id)), className="note")
    elif not rated["seats"]:
        shown = html.P("Not rated: fewer than two players' seats (bots' seats are left out) "
                       "or one player in two seats.", className="note")  # fmt: skip
    else:
        shown = html.Div(html.Table([
            html.Thead(html.Tr([html.Th(h) for h in HEADS])),
            html.Tbody([row(seat) for seat in rated["seats"]]),
        ], className="games"), className="table-scroll")  # fmt: skip
    return [html.H3("Rating"), html.Div(shown, id="replay-rating")]
