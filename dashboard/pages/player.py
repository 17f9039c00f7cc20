"""``/player/<name>``: one player's finished games (with their opponents), results and score
trend, and their rating in each game's league with the opponents they met most; of one game
or all (the game they played, when they played only one)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from dash import Dash, Input, Output, State, dcc, html

from dashboard import data
from dashboard.charts import count_ticks
from dashboard.inputs import choice, text
from dashboard.pages.statistics import bots_choice
from dashboard.palette import TERRAIN_COLORS
from domain.games import ruleset, rulesets
from domain.statistics import Statistics
from projections.games import MAX_LIMIT
from projections.ratings import Season

GAMES = {rules.name: rules.title for rules in rulesets()}

GRAPH_CONFIG: Any = {"displayModeBar": False, "responsive": True}
FONT = {"family": "DejaVu Sans, system-ui, sans-serif", "size": 11}


def _statistics(game: str | None) -> Statistics:
    return ruleset(game).statistics if game else Statistics()


def trend_figure(
    trend: list[dict[str, Any]], own: Statistics, of: str | None = None
) -> dict[str, Any]:
    """The score in each game (filled: won) and the rolling average, in the order played; for
    one game, coloured by the seat attribute; ``of``: the game's title, when these are a
    player's games of one game among several."""
    xs = [t["number"] for t in trend]
    unit, attribute = own.score_label, own.attribute if of is None else None
    hover = [
        f"game {i}: {t['score']} {unit}, place {t['place']} of {t['players']}"
        + (f", {t[attribute]}" if attribute else f", {GAMES.get(t['game'], t['game'])}")
        for i, t in zip(xs, trend, strict=True)
    ]
    colors = [TERRAIN_COLORS.get(t[attribute], "#888") if attribute else "#888" for t in trend]
    data = [
        {"type": "scatter", "mode": "lines", "x": xs, "y": [t["rolling_score"] for t in trend],
         "name": "rolling average", "line": {"color": "#C2185B", "width": 2},
         "hovertemplate": "rolling average %{y:.1f}<extra></extra>"},
        {"type": "scatter", "mode": "markers", "x": xs, "y": [t["score"] for t in trend],
         "name": unit, "text": hover, "hovertemplate": "%{text}<extra></extra>",
         "marker": {"size": 10, "symbol": ["star" if t["won"] else "circle" for t in trend],
                    "color": colors, "line": {"color": "#222", "width": 1}}},
    ]  # fmt: skip
    colour = next((c.label for c in own.seat_columns if c.name == attribute), None)
    return {"data": data, "layout": {
        "title": {"text": (f"{of} — " if of else "") + f"{unit} per game (star: won"
                  + (f"; colour: {colour})" if colour else ")"), "x": 0.01, "font": {"size": 13}},
        "height": 300, "margin": {"l": 50, "r": 16, "t": 40, "b": 44}, "font": FONT,
        "xaxis": {"title": {"text": "game (as played)"}, "dtick": 1 if len(xs) < 20 else None},
        "yaxis": {"title": {"text": unit}, "rangemode": "tozero",
                  **count_ticks([0, *(t["score"] for t in trend)])},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF",
        "legend": {"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"},
    }}  # fmt: skip


def values_figure(values: list[dict[str, Any]], name: str, label: str) -> dict[str, Any]:
    """Games and wins per value of the game's seat attribute (``name``)."""
    names = [v[name] for v in values]
    colors = [TERRAIN_COLORS.get(n, "#888") for n in names]
    data = [
        {"type": "bar", "name": "games", "x": names, "y": [v["games"] for v in values],
         "marker": {"color": colors, "opacity": 0.45, "line": {"color": "#333", "width": 1}}},
        {"type": "bar", "name": "wins", "x": names, "y": [v["wins"] for v in values],
         "marker": {"color": colors, "line": {"color": "#333", "width": 1}}},
    ]  # fmt: skip
    return {"data": data, "layout": {
        "title": {"text": f"Games (pale) and wins per {label}", "x": 0.01, "font": {"size": 13}},
        "height": 300, "barmode": "overlay", "showlegend": False, "font": FONT,
        "yaxis": {"title": {"text": "games"}, **count_ticks([0, *(v["games"] for v in values)])},
        "margin": {"l": 40, "r": 16, "t": 40, "b": 40},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF",
    }}  # fmt: skip


def trend_figures(found: dict[str, Any], game: str | None) -> list[dict[str, Any]]:
    """A player's score trend: of the game chosen, or one chart per game they played among
    their last games (their scores are not of one kind: VP, rounds won)."""
    if game is not None:
        return [trend_figure(found["trend"], _statistics(game))]
    shown = [(g["game"], [t for t in found["trend"] if t["game"] == g["game"]])
             for g in found["by_game"]]  # fmt: skip
    return [trend_figure(trend, _statistics(g), GAMES.get(g, g)) for g, trend in shown if trend]


def averages(found: dict[str, Any], game: str | None) -> str:
    """A player's average score, each game's in its own unit."""
    named = game is None and len(found["by_game"]) > 1
    return ", ".join(
        f"{g['average_score']:.1f} {_statistics(g['game']).score_label}"
        + (f" ({GAMES.get(g['game'], g['game'])})" if named else "")
        for g in found["by_game"]
    )


def titles(
    name: str, game: str | None, wanted: set[str]
) -> dict[str, tuple[str | None, list[str]]]:
    """The title and the other seats' names of the games ``wanted`` (ids) that a seat of that
    name played (of ``game`` only, if named), by game id."""
    models, found, cursor = data.fresh(), {}, None
    players = models.aliases()
    key = players.player(name)
    while True:
        page = models.list_games(game=game, player=name, cursor=cursor, limit=MAX_LIMIT)
        found.update({
            str(item["game_id"]): (item["title"], [
                s["name"] for s in item["seats"] if players.player(s["name"]) != key
            ]) for item in page.items
        })  # fmt: skip
        cursor = page.next_cursor
        if cursor is None or wanted <= found.keys():
            return found


def rating_figure(rated: dict[str, Any]) -> dict[str, Any]:
    """A player's rating after each of their rated games of one game, with the band of
    ``mu ± sigma`` behind it."""
    steps = rated["history"]
    xs = [s["number"] for s in steps]
    band = [s["mu"] + s["sigma"] for s in steps] + [s["mu"] - s["sigma"] for s in reversed(steps)]
    data = [
        {"type": "scatter", "mode": "lines", "x": xs + xs[::-1], "y": band, "fill": "toself",
         "name": "μ ± σ",
         "fillcolor": "rgba(21,101,192,0.15)", "line": {"width": 0}, "hoverinfo": "skip"},
        {"type": "scatter", "mode": "lines+markers", "x": xs, "y": [s["rating"] for s in steps],
         "name": "rating (μ − 3σ)", "line": {"color": "#1565C0", "width": 2},
         "text": [f"place {s['place']} of {s['players']}, {s['change']:+.1f}" for s in steps],
         "hovertemplate": "game %{x}: rating %{y:.1f} (%{text})<extra></extra>"},
    ]  # fmt: skip
    return {"data": data, "layout": {
        "title": {"text": f"{GAMES.get(rated['game'], rated['game'])} — rating, game by game",
                  "x": 0.01, "font": {"size": 13}},
        "height": 300, "margin": {"l": 50, "r": 16, "t": 40, "b": 44}, "font": FONT,
        "xaxis": {"title": {"text": "their rated game"}, "automargin": True,
                  "dtick": 1 if len(xs) < 20 else None},
        "yaxis": {"title": {"text": "rating"}, "automargin": True},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF",
        "legend": {"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"},
    }}  # fmt: skip


def ratings_part(name: str, games: list[str], bots: bool) -> list[Any]:
    """A player's rating in the league of each of ``games``: its chart, and the opponents
    they met most, head to head."""
    models = data.fresh()
    parts: list[Any] = []
    for played in games:
        rated = models.player_rating(name, Season(played, bots=bots))
        if rated is None:
            continue
        rows = [html.Tr([
            html.Td(dcc.Link(o["name"], href=f"/player/{quote(o['name'], safe='')}")),
            html.Td(str(o["games"])), html.Td(str(o["wins"])), html.Td(str(o["losses"])),
        ]) for o in rated["opponents"]]  # fmt: skip
        parts += [
            html.H3(f"Rating: {GAMES.get(played, played)}"),
            html.P(f"{rated['rating']:.1f} (μ {rated['mu']:.1f} ± {rated['sigma']:.1f}) after "
                   f"{rated['games']} rated games.", className="note"),
            html.Div(dcc.Graph(figure=rating_figure(rated), config=GRAPH_CONFIG),
                     className="card"),
            html.Div(html.Table([
                html.Caption("Head to head: the opponents met most"),
                html.Thead(html.Tr([html.Th(h) for h in ("Opponent", "Games", "Won", "Lost")])),
                html.Tbody(rows),
            ], className="games"), className="table-scroll"),
        ]  # fmt: skip
    return parts


def record(name: Any, game: Any, bots: Any = None) -> html.Div | html.P:
    """A player's record over one game's finished games (``game``), or every game's; the
    seats a bot of that name played only when ``bots`` holds ``include``."""
    name, game = text(name), choice(game, GAMES)
    counted = isinstance(bots, list) and "include" in bots
    found = data.fresh().player(name, game, counted) if name else None
    if found is None:
        return html.P(f"{name or 'This player'} has no finished games yet.",
                      className="placeholder")  # fmt: skip
    own = _statistics(game)
    unit, attribute = own.score_label, own.attribute
    column = next((c for c in own.seat_columns if c.name == attribute), None)
    rate = found["win_rate"]
    named = titles(name, game, {str(t["game_id"]) for t in found["trend"]})
    games = []
    for i, t in enumerate(reversed(found["trend"])):
        title, others = named.get(str(t["game_id"]), (None, []))
        title = title or "Untitled game"
        games.append(html.Tr([
            html.Td(str(found["games"] - i)),
            html.Td(dcc.Link(title, href=f"/replay/{t['game_id']}", title=f"replay {title}")),
            html.Td(GAMES.get(t["game"], t["game"])),
            html.Td(str(t["played_at"])[:10]), html.Td(", ".join(others) or "—"),
            *([html.Td(t[attribute])] if column else []), html.Td(str(t["score"])),
            html.Td("won" if t["won"] else f"place {t['place']}"),
        ]))  # fmt: skip
    small = " (small sample)" if rate["small_sample"] else ""
    favourite = f", most played {column.label} {found[column.name] or '—'}" if column else ""
    charts = [html.Div(dcc.Graph(figure=figure, config=GRAPH_CONFIG), className="card")
              for figure in trend_figures(found, game)]  # fmt: skip
    if column is not None:
        charts.append(html.Div(dcc.Graph(
            figure=values_figure(found[f"{column.name}s"], column.name, column.label),
            config=GRAPH_CONFIG), className="card"))  # fmt: skip
    played = "" if game else " (" + ", ".join(
        f"{g['games']} {GAMES.get(g['game'], g['game'])}" for g in found["by_game"]
    ) + ")"  # fmt: skip
    return html.Div([
        html.P([
            html.B(f"{found['games']} games, {found['wins']} wins"),
            f"{played} — win rate {rate['rate']:.0%} (95 % interval {rate['low']:.0%}–"
            f"{rate['high']:.0%}){small}, average {averages(found, game)}{favourite}.",
        ], className="note", id="player-summary"),
        html.Div(charts, className="stats-grid"),
        *ratings_part(name, [game] if game else [g["game"] for g in found["by_game"]], counted),
        html.H3("Games" if len(games) == found["games"] else f"Their last {len(games)} games"),
        html.Div(html.Table([
            html.Thead(html.Tr([html.Th(h) for h in (
                "#", "Title", "Game", "Played", "Opponents",
                *([column.label.capitalize()] if column else []), unit.capitalize(), "Result",
            )])),
            html.Tbody(games),
        ], className="games"), className="table-scroll"),
    ])  # fmt: skip


def layout(name: str) -> html.Div:
    """A player's page: a game chooser (the game they played, when only one) and their
    record (a name no record could hold has no games)."""
    everything = data.fresh().player(name) if text(name) else None
    played = [g["game"] for g in everything["by_game"] if g["game"] in GAMES] if everything else []
    game = played[0] if len(played) == 1 else None
    return html.Div([
        html.H2(everything["name"] if everything else name),
        dcc.Store(id="player-name", data=name),
        html.Div([dcc.Dropdown(
            id="player-game", placeholder="all games", value=game, className="filter",
            options=[{"label": GAMES[g], "value": g} for g in played],
        ), bots_choice("player-bots")], className="filters"),
        html.Div(record(name, game), id="player-body"),
    ], id="player")  # fmt: skip


def register(app: Dash) -> None:
    """The player page's callback: its record for the game chosen, bots' seats counted or
    not."""
    app.callback(
        Output("player-body", "children"),
        Input("player-game", "value"),
        Input("player-bots", "value"),
        State("player-name", "data"),
        prevent_initial_call=True,
    )(chosen)


def chosen(game: Any, bots: Any, name: Any) -> html.Div | html.P:
    """The record of the player named ``name`` for the game chosen."""
    return record(name, game, bots)
