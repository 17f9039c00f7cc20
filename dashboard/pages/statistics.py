"""``/statistics``: the statistics read model as charts, with filters.

Win rates carry 95 % Wilson intervals as error bars; groups smaller than the read
model's ``small_sample_below`` are drawn hatched and pale, and every bar says its n.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from dash import Dash, Input, Output, dcc, html

from dashboard import data
from dashboard.inputs import choice, day, integer, text
from dashboard.palette import TERRAIN_COLORS

GRAPH_CONFIG = {"displayModeBar": False, "responsive": True}
OPTIONS = {
    "standard": "standard rules", "random_terrain": "random terrain", "big_map": "big map",
    "auto_push": "auto push", "lone_wolves_per_region=3": "3 lone wolves per region",
    "stall_limit_rounds=10": "stall limit 10",
}  # fmt: skip
AREA_COLORS = {  # VP breakdown areas (Okabe–Ito order)
    "regions": "#0072B2", "spread": "#56B4E9", "speed": "#009E73", "howl": "#F0E442",
    "lairs": "#E69F00", "prey": "#D55E00", "pack": "#CC79A7",
}  # fmt: skip
BAR = "#4C7A8C"
SEATS = (2, 3, 4, 5)
FONT = {"family": "DejaVu Sans, system-ui, sans-serif", "size": 11}


def layout() -> html.Div:
    """The statistics page: filters, then charts filled in by a callback."""
    return html.Div(
        [
            html.H2("Statistics"),
            html.Div(
                [
                    dcc.Dropdown(
                        id="stats-players",
                        placeholder="any player count",
                        options=[{"label": f"{n} players", "value": n} for n in SEATS],
                        className="filter",
                    ),
                    dcc.Dropdown(
                        id="stats-option",
                        placeholder="any options",
                        options=[{"label": v, "value": k} for k, v in OPTIONS.items()],
                        className="filter",
                    ),
                    dcc.Input(
                        id="stats-player",
                        type="search",
                        placeholder="one player's seats",
                        debounce=True,
                        className="filter",
                    ),
                    dcc.Input(
                        id="stats-since", type="date", className="filter date", debounce=True
                    ),
                    dcc.Input(
                        id="stats-until", type="date", className="filter date", debounce=True
                    ),
                ],
                className="stats-filters",
            ),  # fmt: skip
            dcc.Loading(html.Div(id="stats-body"), type="dot"),
        ],
        id="statistics",
    )


def _layout(title: str, height: int = 300, **extra: Any) -> dict[str, Any]:
    return {
        "title": {"text": title, "x": 0.01, "font": {"size": 13}}, "height": height,
        "margin": {"l": 56, "r": 16, "t": 40, "b": 48}, "font": FONT,
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF", "showlegend": False,
        **extra,
    }  # fmt: skip


def rate_figure(
    rows: list[dict[str, Any]], key: str, title: str, label: Any, colors: Any = None
) -> dict[str, Any]:
    """Win rate per group with its 95 % interval; small samples hatched and pale."""
    xs = [f"{label(r[key])}<br>n={r['n']}{'*' if r['small_sample'] else ''}" for r in rows]
    rates = [r["rate"] or 0 for r in rows]
    color = [colors(r[key]) if colors else BAR for r in rows]
    data = [{
        "type": "bar", "x": xs, "y": rates,
        "marker": {"color": color, "opacity": [0.7 if r["small_sample"] else 1 for r in rows],
                   "line": {"color": "#333", "width": 1},
                   "pattern": {"shape": ["/" if r["small_sample"] else "" for r in rows],
                               "fgcolor": "#333", "fgopacity": 0.55, "size": 7}},
        "error_y": {"type": "data", "symmetric": False, "color": "#222", "thickness": 1.2,
                    "array": [r["high"] - (r["rate"] or 0) for r in rows],
                    "arrayminus": [(r["rate"] or 0) - r["low"] for r in rows]},
        "customdata": [[r["wins"], r["n"], r["low"], r["high"]] for r in rows],
        "hovertemplate": "%{y:.0%} (%{customdata[0]} of %{customdata[1]} seats won; "
                         "95% interval %{customdata[2]:.0%}–%{customdata[3]:.0%})<extra></extra>",
    }]  # fmt: skip
    axis = {"tickformat": ".0%", "range": [0, 1], "title": {"text": "win rate"}}
    return {
        "data": data,
        "layout": _layout(title, yaxis=axis, margin={"l": 56, "r": 16, "t": 40, "b": 56}),
    }


def breakdown_figure(groups: list[dict[str, Any]], average: dict[str, Any]) -> dict[str, Any]:
    """Average final VP by source, overall and per player count (stacked)."""
    cols = [("all", average), *((f"{g['players']}p", g) for g in groups)]
    names = [f"{name} (n={g['n']}{'*' if g['small_sample'] else ''})" for name, g in cols]
    data = [
        {"type": "bar", "name": area, "x": names,
         "y": [(g["breakdown"] or {}).get(area) or 0 for _, g in cols],
         "marker": {"color": color, "line": {"color": "#fff", "width": 0.5}},
         "hovertemplate": f"{area}: %{{y:.1f}} VP<extra>%{{x}}</extra>"}
        for area, color in AREA_COLORS.items()
    ]  # fmt: skip
    return {"data": data, "layout": _layout(
        "Average final VP by source", barmode="stack", showlegend=True,
        legend={"orientation": "h", "y": -0.18, "font": {"size": 10}},
        yaxis={"title": {"text": "VP"}}, margin={"l": 56, "r": 16, "t": 40, "b": 70},
    )}  # fmt: skip


def length_figure(length: dict[str, Any]) -> dict[str, Any]:
    """Histogram of game length in turns."""
    turns = length["turns"]
    buckets = turns["buckets"]
    data = [{
        "type": "bar", "x": [f"{b['from']}–{b['to']}" for b in buckets],
        "y": [b["games"] for b in buckets], "marker": {"color": BAR},
        "hovertemplate": "%{x} turns: %{y} games<extra></extra>",
    }]  # fmt: skip
    note = ""
    if turns["games"]:
        actions = length["actions"]
        note = (f" — median {turns['median']:g} turns, {actions['median']:g} actions "
                f"(n={turns['games']})")  # fmt: skip
    return {"data": data, "layout": _layout(
        "Game length" + note, xaxis={"title": {"text": "turns"}, "type": "category"},
        yaxis={"title": {"text": "games"}},
    )}  # fmt: skip


def actions_figure(mix: list[dict[str, Any]]) -> dict[str, Any]:
    """Share of each action type over every action taken."""
    mix = sorted(mix, key=lambda m: m["count"])
    data = [{
        "type": "bar", "orientation": "h", "y": [m["type"].replace("_", " ") for m in mix],
        "x": [m["share"] or 0 for m in mix], "marker": {"color": BAR},
        "text": [str(m["count"]) for m in mix], "textposition": "outside", "cliponaxis": False,
        "hovertemplate": "%{y}: %{x:.1%} (%{text} actions)<extra></extra>",
    }]  # fmt: skip
    return {"data": data, "layout": _layout(
        "Action mix", xaxis={"tickformat": ".0%", "title": {"text": "share of actions"}},
        margin={"l": 96, "r": 48, "t": 40, "b": 48},
    )}  # fmt: skip


def _card(figure: dict[str, Any], id_: str) -> html.Div:
    return html.Div(dcc.Graph(id=id_, figure=figure, config=GRAPH_CONFIG), className="card")


def _players_table(rows: list[dict[str, Any]]) -> html.Table:
    head = ["Player", "Games", "Wins", "Win rate (95 %)", "Average VP", "Favourite terrain"]
    body = []
    for p in rows:
        r = p["win_rate"]
        small = " small-sample" if r["small_sample"] else ""
        body.append(html.Tr([
            html.Td(dcc.Link(p["name"], href=f"/player/{quote(p['name'], safe='')}")),
            html.Td(str(p["games"])), html.Td(str(p["wins"])),
            html.Td(f"{r['rate']:.0%} ({r['low']:.0%}–{r['high']:.0%})", className=small),
            html.Td(f"{p['average_vp']:.1f}"), html.Td(p["terrain"] or "—"),
        ]))  # fmt: skip
    return html.Table([html.Thead(html.Tr([html.Th(h) for h in head])), html.Tbody(body)],
                      className="games")  # fmt: skip


def body(players: Any, option: Any, player: Any, since: Any, until: Any) -> html.Div:
    """The charts for the filters (one of the wrong type or out of range is left out)."""
    stats = data.fresh().stats(
        players=integer(players, range(SEATS[0], SEATS[-1] + 1)), option=choice(option, OPTIONS),
        player=text(player), since=day(since), until=day(until),
    )  # fmt: skip
    if not stats["games"]:
        return html.P("No statistics yet: there are no finished games matching these filters.",
                      className="placeholder")  # fmt: skip
    small = stats["small_sample_below"]
    rates = stats["win_rate"]
    return html.Div([
        html.P([
            html.B(f"{stats['games']} finished games, {stats['seats']} seats. "),
            f"Win rates show 95 % Wilson intervals; groups under {small} seats are hatched "
            "and marked * (small samples).",
        ], className="note", id="stats-summary"),
        html.Div([
            _card(rate_figure(rates["by_terrain"], "terrain", "Win rate by home terrain",
                              str, lambda t: TERRAIN_COLORS.get(t, BAR)), "stats-terrain"),
            _card(rate_figure(rates["by_seat"], "seat", "Win rate by seat (turn order)",
                              lambda s: f"seat {s + 1}"), "stats-seat"),
            _card(rate_figure(rates["by_players"], "players", "Win rate by player count",
                              lambda n: f"{n} players"), "stats-players-rate"),
            _card(breakdown_figure(stats["vp"]["by_players"], stats["vp"]["average"]),
                  "stats-vp"),
            _card(length_figure(stats["length"]), "stats-length"),
            _card(actions_figure(stats["actions"]), "stats-actions"),
        ], className="stats-grid"),
        html.H3("Players"),
        html.Div(_players_table(stats["players"]), className="table-scroll"),
    ])  # fmt: skip


def register(app: Dash) -> None:
    """The statistics page's callback."""
    app.callback(
        Output("stats-body", "children"),
        Input("stats-players", "value"),
        Input("stats-option", "value"),
        Input("stats-player", "value"),
        Input("stats-since", "value"),
        Input("stats-until", "value"),
    )(body)
