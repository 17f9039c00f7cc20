"""``/player/<name>``: one player's finished games, results and VP trend."""

from __future__ import annotations

from typing import Any

from dash import Dash, dcc, html

from dashboard import data
from dashboard.inputs import text
from dashboard.palette import TERRAIN_COLORS

GRAPH_CONFIG = {"displayModeBar": False, "responsive": True}
FONT = {"family": "DejaVu Sans, system-ui, sans-serif", "size": 11}


def trend_figure(trend: list[dict[str, Any]]) -> dict[str, Any]:
    """VP in each game (filled: won) and the rolling average, in upload order."""
    xs = list(range(1, len(trend) + 1))
    hover = [
        f"game {i}: {t['vp']} VP, place {t['place']} of {t['players']}, {t['terrain']}"
        for i, t in zip(xs, trend, strict=True)
    ]
    data = [
        {"type": "scatter", "mode": "lines", "x": xs, "y": [t["rolling_vp"] for t in trend],
         "name": "rolling average", "line": {"color": "#C2185B", "width": 2},
         "hovertemplate": "rolling average %{y:.1f}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "x": xs, "y": [t["vp"] for t in trend],
         "name": "VP", "text": hover, "hovertemplate": "%{text}<extra></extra>",
         "marker": {"size": 10, "symbol": ["star" if t["won"] else "circle" for t in trend],
                    "color": [TERRAIN_COLORS.get(t["terrain"], "#888") for t in trend],
                    "line": {"color": "#222", "width": 1}}},
    ]  # fmt: skip
    return {"data": data, "layout": {
        "title": {"text": "VP per game (star: won; colour: home terrain)", "x": 0.01,
                  "font": {"size": 13}},
        "height": 300, "margin": {"l": 50, "r": 16, "t": 40, "b": 44}, "font": FONT,
        "xaxis": {"title": {"text": "game (upload order)"}, "dtick": 1 if len(xs) < 20 else None},
        "yaxis": {"title": {"text": "VP"}, "rangemode": "tozero"},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF",
        "legend": {"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"},
    }}  # fmt: skip


def terrain_figure(terrains: list[dict[str, Any]]) -> dict[str, Any]:
    """Games and wins per home terrain."""
    names = [t["terrain"] for t in terrains]
    colors = [TERRAIN_COLORS.get(n, "#888") for n in names]
    data = [
        {"type": "bar", "name": "games", "x": names, "y": [t["games"] for t in terrains],
         "marker": {"color": colors, "opacity": 0.45, "line": {"color": "#333", "width": 1}}},
        {"type": "bar", "name": "wins", "x": names, "y": [t["wins"] for t in terrains],
         "marker": {"color": colors, "line": {"color": "#333", "width": 1}}},
    ]  # fmt: skip
    return {"data": data, "layout": {
        "title": {"text": "Games (pale) and wins per home terrain", "x": 0.01,
                  "font": {"size": 13}},
        "height": 300, "barmode": "overlay", "showlegend": False, "font": FONT,
        "margin": {"l": 40, "r": 16, "t": 40, "b": 40},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF",
    }}  # fmt: skip


def layout(name: str) -> html.Div:
    """A player's page (a name no record could hold has no games)."""
    record = data.fresh().player(name) if text(name) else None
    if record is None:
        return html.Div([html.H2(name), html.P(f"{name} has no finished games yet.",
                                                className="placeholder")], id="player")  # fmt: skip
    rate = record["win_rate"]
    games = []
    for i, t in enumerate(reversed(record["trend"])):
        games.append(html.Tr([
            html.Td(str(len(record["trend"]) - i)),
            html.Td(dcc.Link("replay", href=f"/replay/{t['game_id']}")),
            html.Td(str(t["uploaded_at"])[:10]), html.Td(f"{t['players']} players"),
            html.Td(t["terrain"]), html.Td(str(t["vp"])),
            html.Td("won" if t["won"] else f"place {t['place']}"),
        ]))  # fmt: skip
    small = " (small sample)" if rate["small_sample"] else ""
    return html.Div([
        html.H2(record["name"]),
        html.P([
            html.B(f"{record['games']} games, {record['wins']} wins"),
            f" — win rate {rate['rate']:.0%} (95 % interval {rate['low']:.0%}–{rate['high']:.0%})"
            f"{small}, average {record['average_vp']:.1f} VP, most played terrain "
            f"{record['terrain'] or '—'}.",
        ], className="note", id="player-summary"),
        html.Div([
            html.Div(dcc.Graph(figure=trend_figure(record["trend"]), config=GRAPH_CONFIG),
                     className="card"),
            html.Div(dcc.Graph(figure=terrain_figure(record["terrains"]), config=GRAPH_CONFIG),
                     className="card"),
        ], className="stats-grid"),
        html.H3("Games"),
        html.Table([
            html.Thead(html.Tr([html.Th(h) for h in
                                ("#", "", "Uploaded", "Seats", "Terrain", "VP", "Result")])),
            html.Tbody(games),
        ], className="games"),
    ], id="player")  # fmt: skip


def register(app: Dash) -> None:
    """The player page has no callbacks: it is drawn once per visit."""
