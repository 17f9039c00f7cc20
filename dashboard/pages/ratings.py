"""``/ratings``: one game's leaderboard, of a season (a date range) and a tag: every player of
its finished public games, rated game by game (:mod:`projections.ratings`), with a chart of the
leaders' ratings over their games."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from dash import Dash, Input, Output, dcc, html, no_update

from dashboard import data, query
from dashboard.inputs import choice, day, search_box, text
from dashboard.pages.player import FONT, GAMES, GRAPH_CONFIG
from dashboard.pages.statistics import BOTS, bots_choice, date_filter
from domain.store.game import MAX_TAGS
from projections.ratings import Season

CHARTED = 6
"""How many of the leaders' ratings the chart follows."""
LINES = ("#C2185B", "#1565C0", "#2E7D32", "#EF6C00", "#6A1B9A", "#00838F")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
"""Each leader's line: a colour and a dash, so that lines differ without colour too."""


FILTERS = ("game", "since", "until", "tag", "bots")
"""The ratings page's filters (``ratings-<name>``), as its address's query string names them."""


def season(game: Any, since: Any, until: Any, tag: Any, bots: Any) -> Season:
    """The league the filters ask for (one of the wrong type is left out; no game or an
    unknown one: the most played)."""
    chosen = choice(game, GAMES) or data.fresh().most_played()
    return Season(chosen, day(since), day(until), text(tag, MAX_TAGS),
                  isinstance(bots, list) and BOTS in bots)  # fmt: skip


def address(game: Any, since: Any, until: Any, tag: Any, bots: Any, search: Any) -> Any:
    """The query string of the filters the page applies; left as it is when it names them
    already (the page just opened from it, or the back button went to it)."""
    league = season(game, since, until, tag, bots)
    if league == named(search):
        return no_update
    return query.write({
        "game": league.game, "since": league.since, "until": league.until, "tag": league.tag,
        "bots": BOTS if league.bots else None,
    })  # fmt: skip


def named(search: Any) -> Season:
    """The league an address's query string (``search``) names (one value it cannot use is
    left out; no game: the most played)."""
    asked = query.read(search)
    game, since, until, tag, bots = (asked.get(name) for name in FILTERS)
    return season(game, since, until, tag, [bots])


def values(league: Season) -> tuple[Any, ...]:
    """The filters' values (in :data:`FILTERS`' order) that choose ``league``."""
    since, until = (d.isoformat() if d else None for d in (league.since, league.until))
    return league.game, since, until, league.tag, [BOTS] if league.bots else []


def follow(search: Any, *shown: Any) -> tuple[Any, ...]:
    """The filters the address names once it changed under them (the browser's back and
    forward buttons); those shown already are left as they are."""
    wanted, now = values(named(search)), values(season(*shown))
    return tuple(no_update if w == n else w for w, n in zip(wanted, now, strict=True))


def layout(search: Any = None) -> html.Div:
    """The ratings page with the filters its address's query string names (``search``: one
    it cannot use is left out; no game: the most played) and their leaderboard."""
    league = named(search)
    game = league.game
    return html.Div([
        html.H2("Ratings"),
        html.P("Each game's players rated game by game in the order the games were played "
               "(openskill's Plackett–Luce model; equal places tie). The rating is the "
               "cautious μ − 3σ: it starts at 0 and grows as the results make a player's "
               "strength sure.", className="note"),
        html.Div([
            dcc.Dropdown(id="ratings-game", value=game, clearable=False, className="filter",
                         options=[{"label": t, "value": n} for n, t in GAMES.items()]),
            date_filter("ratings-since", "season from", league.since),
            date_filter("ratings-until", "season until", league.until),
            *search_box("ratings-tag", "games with this tag", "tag", league.tag),
            bots_choice("ratings-bots", league.bots),
        ], className="stats-filters"),
        dcc.Loading(html.Div(leaderboard(league), id="ratings-body"), type="dot"),
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
            "x": [s["number"] for s in steps], "y": [s["rating"] for s in steps],
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
    return leaderboard(season(game, since, until, tag, bots))


def leaderboard(league: Season) -> html.Div | html.P:
    """The leaderboard of a league, with a chart of its leaders' ratings."""
    found = data.fresh().ratings(league)
    if not found["players"]:
        return html.P(f"No ratings yet: no finished {GAMES[league.game]} game with two players "
                      "or more matches these filters.", className="placeholder")  # fmt: skip
    rows = []
    for rank, p in enumerate(found["players"], 1):
        href = f"/player/{quote(p['name'], safe='')}"
        rows.append(html.Tr([
            html.Td(str(rank)), html.Td(dcc.Link(p["name"], href=href)),
            html.Td(f"{p['rating']:.1f}"), html.Td(f"{p['mu']:.1f} ± {p['sigma']:.1f}"),
            html.Td(str(p["games"])), html.Td(str(p["wins"])),
        ]))  # fmt: skip
    chart = html.Div(dcc.Graph(figure=history_figure(found["players"][:CHARTED], league),
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
    """The ratings page's callbacks: the leaderboard of the filters chosen, and the page's
    address that names them."""
    filters = [Input(f"ratings-{name}", "value") for name in FILTERS]
    app.callback(Output("ratings-body", "children"), *filters, prevent_initial_call=True)(board)
    query.keep(app, "ratings", FILTERS, address, follow)
