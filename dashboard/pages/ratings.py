"""``/ratings``: one game's leaderboard, of a season (a date range) and a tag: every player of
its finished public games, rated game by game (:mod:`projections.ratings`), with a chart of the
leaders' ratings over their games."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from dash import Dash, Input, Output, dcc, html

from dashboard import data
from dashboard.inputs import choice, day, search_box, text
from dashboard.pages.player import FONT, GAMES, GRAPH_CONFIG
from dashboard.pages.statistics import bots_choice, date_filter
from domain.store.game import MAX_TAGS
from projections.ratings import Season

CHARTED = 6
"""How many of the leaders' ratings the chart follows."""
LINES = ("#C2185B", "#1565C0", "#2E7D32", "#EF6C00", "#6A1B9A", "#00838F")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
"""Each leader's line: a colour and a dash, so that lines differ without colour too."""


def layout() -> html.Div:
    """The ratings page: its filters (the most played game chosen) and the leaderboard."""
    game = data.fresh().most_played()
    return html.Div([
        html.H2("Ratings"),
        html.P("Each game's players rated game by game in the order the games were played "
               "(openskill's Plackett–Luce model; equal places tie). The rating is the "
               "cautious μ − 3σ: it starts at 0 and grows as the results make a player's "
               "strength sure.", className="note"),
        html.Div([
            dcc.Dropdown(id="ratings-game", value=game, clearable=False, className="filter",
                         options=[{"label": t, "value": n} for n, t in GAMES.items()]),
            date_filter("ratings-since", "season from"),
            date_filter("ratings-until", "season until"),
            *search_box("ratings-tag", "games with this tag", "tag"),
            bots_choice("ratings-bots"),
        ], className="stats-filters"),
        dcc.Loading(html.Div(board(game), id="ratings-body"), type="dot"),
    ], id="ratings")  # fmt: skip


def history_figure(leaders: list[dict[str, Any]], season: Season) -> dict[str, Any]:
    """Each leader's rating after each of their games of ``season`` (their first is 1)."""
    models = data.fresh()
    lines = []
    for i, leader in enumerate(leaders):
        found = models.player_rating(leader["name"], season)
        steps = found["history"] if found else []
        lines.append({
            "type": "scatter", "mode": "lines+markers", "name": leader["name"],
            "x": list(range(1, len(steps) + 1)), "y": [s["rating"] for s in steps],
            "line": {"color": LINES[i % len(LINES)], "dash": DASHES[i % len(DASHES)], "width": 2},
            "hovertemplate": f"{leader['name']}: game %{{x}}, rating %{{y:.1f}}<extra></extra>",
        })  # fmt: skip
    return {"data": lines, "layout": {
        "title": {"text": "The leaders' ratings, game by game", "x": 0.01, "font": {"size": 13}},
        "height": 320, "margin": {"l": 50, "r": 16, "t": 40, "b": 44}, "font": FONT,
        "xaxis": {"title": {"text": "their game"}, "automargin": True, "rangemode": "tozero"},
        "yaxis": {"title": {"text": "rating (μ − 3σ)"}, "automargin": True},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF",
        "legend": {"orientation": "h", "y": -0.25},
    }}  # fmt: skip


def board(game: Any, since: Any = None, until: Any = None, tag: Any = None,
          bots: Any = None) -> html.Div | html.P:  # fmt: skip
    """The leaderboard of the filters (one of the wrong type is left out)."""
    chosen = choice(game, GAMES) or data.fresh().most_played()
    season = Season(chosen, day(since), day(until), text(tag, MAX_TAGS),
                    isinstance(bots, list) and "include" in bots)  # fmt: skip
    found = data.fresh().ratings(season)
    if not found["players"]:
        return html.P(f"No ratings yet: no finished {GAMES[chosen]} game with two players or "
                      "more matches these filters.", className="placeholder")  # fmt: skip
    rows = []
    for rank, p in enumerate(found["players"], 1):
        href = f"/player/{quote(p['name'], safe='')}"
        rows.append(html.Tr([
            html.Td(str(rank)), html.Td(dcc.Link(p["name"], href=href)),
            html.Td(f"{p['rating']:.1f}"), html.Td(f"{p['mu']:.1f} ± {p['sigma']:.1f}"),
            html.Td(str(p["games"])), html.Td(str(p["wins"])),
        ]))  # fmt: skip
    chart = html.Div(dcc.Graph(figure=history_figure(found["players"][:CHARTED], season),
                               config=GRAPH_CONFIG), className="card")  # fmt: skip
    return html.Div([
        html.P(f"{found['games']} games rated, {len(found['players'])} players.",
               className="note", id="ratings-summary"),
        html.Div(html.Table([
            html.Thead(html.Tr([html.Th(h) for h in
                                ("#", "Player", "Rating", "μ ± σ", "Games", "Wins")])),
            html.Tbody(rows),
        ], className="games"), className="table-scroll"),
        chart,
    ])  # fmt: skip


def register(app: Dash) -> None:
    """The ratings page's callback: the leaderboard of the filters chosen."""
    app.callback(
        Output("ratings-body", "children"),
        Input("ratings-game", "value"),
        Input("ratings-since", "value"),
        Input("ratings-until", "value"),
        Input("ratings-tag", "value"),
        Input("ratings-bots", "value"),
        prevent_initial_call=True,
    )(board)
