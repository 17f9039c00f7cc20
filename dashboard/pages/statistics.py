"""``/statistics``: the statistics read model as charts, with filters, of one game or all.

The frame charts what every game has — win rates by seat, by whether the seat started and
by player count, the final scores' spread, game length — and, for one game, the figures
its ruleset declares over its own columns (``figures`` in the answer, each under its key:
win rates by a seat column's value, a score's parts, a mix of counts, win rates when a
count is above zero, the spread of a game column).

Win rates carry 95 % Wilson intervals as error bars; groups smaller than the read
model's ``small_sample_below`` are drawn hatched and pale, and every bar says its n.
"""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import quote

from dash import Dash, Input, Output, dcc, html, no_update

from dashboard import data, query
from dashboard.charts import count_ticks
from dashboard.inputs import choice, day, integer, search_box, text
from dashboard.palette import TERRAIN_COLORS
from domain.games import ruleset, rulesets
from domain.statistics import Statistics
from projections.filters import player_counts

GRAPH_CONFIG: Any = {"displayModeBar": False, "responsive": True}
GAMES = {rules.name: rules.title for rules in rulesets()}
"""The games the page offers, and their titles."""
PARTS_COLORS = ("#0072B2", "#56B4E9", "#009E73", "#F0E442", "#E69F00", "#D55E00", "#CC79A7")
"""A score's parts, in order (Okabe–Ito)."""
BAR = "#4C7A8C"
SEATS = player_counts()
FONT = {"family": "DejaVu Sans, system-ui, sans-serif", "size": 11}


def _statistics(game: str | None) -> Statistics:
    return ruleset(game).statistics if game else Statistics()


def choices(game: Any) -> list[dict[str, Any]]:
    """The option filters of ``game`` (of every game that has some when none is chosen)."""
    games = [game] if choice(game, GAMES) else list(GAMES)
    return [
        {"label": label if len(games) == 1 else f"{label} ({GAMES[name]})", "value": value}
        for name in games
        for value, label in ruleset(name).statistics.choices
    ]


def counts(game: Any) -> list[dict[str, Any]]:
    """The player counts of ``game`` (of every game when none is chosen)."""
    seats = ruleset(game).seats if choice(game, GAMES) else SEATS
    return [{"label": f"{n} players", "value": n} for n in seats]


FILTERS = ("game", "players", "option", "player", "since", "until", "bots")
"""The statistics page's filters (``stats-<name>``), as its address's query string names them."""
EVERY_GAME = "all"
"""The address's ``game`` when every game is chosen (none, or one this server does not know:
the most played)."""


def chosen(
    game: Any, players: Any, option: Any, player: Any, since: Any, until: Any, bots: Any
) -> tuple[Any, ...]:
    """The filters' values (in :data:`FILTERS`' order) as the page applies them: one of the
    wrong type, out of range or of another game is None (no bots: an empty list)."""
    game = choice(game, GAMES)
    dates = (d.isoformat() if d else None for d in (day(since), day(until)))
    return (
        game, integer(players, range(SEATS.start, SEATS.stop)),
        choice(option, [c["value"] for c in choices(game)]), text(player), *dates,
        [BOTS] if isinstance(bots, list) and BOTS in bots else [],
    )  # fmt: skip


def named(search: Any) -> tuple[Any, ...]:
    """The filters an address's query string (``search``) names, as the page applies them
    (one it cannot use: None; no game or an unknown one: the most played)."""
    asked = query.read(search)
    game = asked.get("game")
    if game != EVERY_GAME and choice(game, GAMES) is None:
        played = data.fresh().played()
        game = max(played, key=lambda name: (played[name], name)) if played else None
    players = query.number(asked.get("players"), SEATS)
    option, player, since, until = (asked.get(name) for name in FILTERS[2:6])
    return chosen(game, players, option, player, since, until, [asked.get("bots")])


def address(*values: Any) -> Any:
    """The query string of the filters the page applies (the last of ``values`` is the
    address's own); left as it is when it names them already (the page just opened from
    it, or the back button went to it)."""
    *shown, search = values
    applied = chosen(*shown)
    if applied == named(search):
        return no_update
    game, players, option, player, since, until, bots = applied
    return query.write({
        "game": game or EVERY_GAME, "players": players, "option": option, "player": player,
        "since": since, "until": until, "bots": BOTS if bots else None,
    })  # fmt: skip


def follow(search: Any, *shown: Any) -> tuple[Any, ...]:
    """The filters the address names once it changed under them (the browser's back and
    forward buttons); those shown already are left as they are."""
    wanted, now = named(search), chosen(*shown)
    return tuple(no_update if w == n else w for w, n in zip(wanted, now, strict=True))


def layout(search: Any = None) -> html.Div:
    """The statistics page with the filters its address's query string names (``search``:
    one it cannot use is left out; no game or an unknown one: the most played), then charts
    filled in by a callback."""
    game, players, option, player, since, until, bots = named(search)
    return html.Div(
        [
            html.H2("Statistics"),
            html.Div(
                [
                    dcc.Dropdown(
                        id="stats-game",
                        placeholder="all games",
                        value=game,
                        options=[{"label": t, "value": n} for n, t in GAMES.items()],
                        className="filter",
                    ),
                    dcc.Dropdown(
                        id="stats-players",
                        placeholder="any player count",
                        value=players,
                        options=counts(game),
                        className="filter",
                    ),
                    dcc.Dropdown(
                        id="stats-option",
                        placeholder="any options",
                        value=option,
                        options=choices(game),
                        className="filter",
                    ),
                    *search_box("stats-player", "one player's seats", value=player),
                    date_filter("stats-since", "played from", day(since)),
                    date_filter("stats-until", "played until", day(until)),
                    bots_choice("stats-bots", ticked=bool(bots)),
                ],
                className="stats-filters",
            ),  # fmt: skip
            dcc.Loading(html.Div(id="stats-body"), type="dot"),
        ],
        id="statistics",
    )


def date_filter(id_: str, label: str, value: date | None = None) -> html.Label:
    """A date filter (showing ``value``) with its label above it."""
    box = dcc.Input(id=id_, type="date", className="date", debounce=True,  # type: ignore[arg-type]
                    value=value.isoformat() if value else None)  # fmt: skip
    return html.Label([label, box], className="filter date-filter", htmlFor=id_)


def _layout(title: str, height: int = 300, **extra: Any) -> dict[str, Any]:
    """A statistics chart's layout; its x axis's tick labels grow the margins rather than
    run off a narrow chart's edge."""
    xaxis = {"automargin": True, **extra.pop("xaxis", {})}
    return {
        "title": {"text": title, "x": 0.01, "font": {"size": 13}}, "height": height,
        "margin": {"l": 56, "r": 16, "t": 40, "b": 48}, "font": FONT,
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF", "showlegend": False,
        "xaxis": xaxis, **extra,
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


def breakdown_figure(
    groups: list[dict[str, Any]], average: dict[str, Any], title: str, unit: str
) -> dict[str, Any]:
    """Average final score by part, overall and per player count (stacked)."""
    cols = [("all", average), *((f"{g['players']}p", g) for g in groups)]
    names = [f"{name} (n={g['n']}{'*' if g['small_sample'] else ''})" for name, g in cols]
    parts = list(average["breakdown"] or {})
    data = [
        {"type": "bar", "name": words(part), "x": names,
         "y": [(g["breakdown"] or {}).get(part) or 0 for _, g in cols],
         "marker": {"color": PARTS_COLORS[i % len(PARTS_COLORS)],
                    "line": {"color": "#fff", "width": 0.5}},
         "hovertemplate": f"{words(part)}: %{{y:.1f}} {unit}<extra>%{{x}}</extra>"}
        for i, part in enumerate(parts)
    ]  # fmt: skip
    return {"data": data, "layout": _layout(
        title, barmode="stack", showlegend=True,
        legend={"orientation": "h", "y": -0.18, "font": {"size": 10}},
        yaxis={"title": {"text": unit}}, margin={"l": 56, "r": 16, "t": 40, "b": 70},
    )}  # fmt: skip


def words(name: Any) -> str:
    """A figure's category as the charts show it: ``lone_wolf`` as ``lone wolf``."""
    return str(name).replace("_", " ")


def _bar(low: int, high: int) -> str:
    """A histogram bar's label: its one value, or its range.

    >>> _bar(2, 2), _bar(30, 39)
    ('2', '30–39')
    """
    return str(low) if low == high else f"{low}–{high}"


def histogram(
    spread: dict[str, Any], title: str, unit: str, counted: str = "games"
) -> dict[str, Any]:
    """A histogram of a count per game (or per seat: ``counted``)."""
    buckets = spread["buckets"]
    data = [{
        "type": "bar", "x": [_bar(b["from"], b["to"]) for b in buckets],
        "y": [b[counted] for b in buckets], "marker": {"color": BAR},
        "hovertemplate": f"%{{x}} {unit}: %{{y}} {counted}<extra></extra>",
    }]  # fmt: skip
    return {"data": data, "layout": _layout(
        title, xaxis={"title": {"text": unit}, "type": "category"},
        yaxis={"title": {"text": counted}, **count_ticks([0, *data[0]["y"]])},
    )}  # fmt: skip


def length_figure(length: dict[str, Any]) -> dict[str, Any]:
    """Histogram of game length in turns, with the median turns and actions."""
    turns = length["turns"]
    note = ""
    if turns["games"]:
        actions = length["actions"]
        note = (f" — median {turns['median']:g} turns, {actions['median']:g} actions "
                f"(n={turns['games']})")  # fmt: skip
    return histogram(turns, "Game length" + note, "turns")


def mix_figure(mix: list[dict[str, Any]], title: str, field: str) -> dict[str, Any]:
    """Share of each count in their sum (an action mix)."""
    mix = sorted(mix, key=lambda m: m["count"])
    data = [{
        "type": "bar", "orientation": "h", "y": [words(m[field]) for m in mix],
        "x": [m["share"] or 0 for m in mix], "marker": {"color": BAR},
        "text": [str(m["count"]) for m in mix], "textposition": "outside", "cliponaxis": False,
        "hovertemplate": "%{y}: %{x:.1%} (%{text})<extra></extra>",
    }]  # fmt: skip
    return {"data": data, "layout": _layout(
        title, xaxis={"tickformat": ".0%", "title": {"text": "share"}},
        yaxis={"type": "category"},  # card values and "lone wolf": all categories, no numbers
        margin={"l": 96, "r": 48, "t": 40, "b": 48},
    )}  # fmt: skip


def _card(figure: dict[str, Any], id_: str) -> html.Div:
    return html.Div(dcc.Graph(id=id_, figure=figure, config=GRAPH_CONFIG), className="card")


def _players_table(rows: list[dict[str, Any]], own: Statistics) -> html.Table:
    attribute = next((c for c in own.seat_columns if c.name == own.attribute), None)
    head = ["Player", "Games", "Wins", "Win rate (95 %)", f"Average {own.score_label}"]
    if attribute is not None:
        head.append(f"Favourite {attribute.label}")
    body = []
    for p in rows:
        r = p["win_rate"]
        small = " small-sample" if r["small_sample"] else ""
        cells = [
            html.Td(dcc.Link(p["name"], href=f"/player/{quote(p['name'], safe='')}")),
            html.Td(str(p["games"])), html.Td(str(p["wins"])),
            html.Td(f"{r['rate']:.0%} ({r['low']:.0%}–{r['high']:.0%})", className=small),
            html.Td(f"{p['average_score']:.1f}"),
        ]  # fmt: skip
        if attribute is not None:
            cells.append(html.Td(p.get(attribute.name) or "—"))
        body.append(html.Tr(cells))
    return html.Table([html.Thead(html.Tr([html.Th(h) for h in head])), html.Tbody(body)],
                      className="games")  # fmt: skip


def _figures(stats: dict[str, Any]) -> list[html.Div]:
    """The charts of every game's statistics, and of the chosen game's own figures."""
    own = _statistics(stats["game"])
    unit = own.score_label
    rates, figures = stats["win_rate"], stats.get("figures", [])
    kinds: dict[str, list[dict[str, Any]]] = {}
    for figure in figures:
        kinds.setdefault(figure["kind"], []).append(figure)
    cards = [
        _card(rate_figure(rates[f["key"]], f["column"], f["title"], str,
                          lambda v: TERRAIN_COLORS.get(v, BAR)), f"stats-{f['column']}")
        for f in kinds.get("rates_by", [])
    ]  # fmt: skip
    cards.append(_card(rate_figure(rates["by_seat"], "seat", "Win rate by seat (turn order)",
                                   lambda s: f"seat {s + 1}"), "stats-seat"))  # fmt: skip
    if rates["by_start"] and stats["game"]:
        cards.append(_card(rate_figure(
            rates["by_start"], "started", "Win rate of the seat that started",
            lambda started: "started" if started else "did not start"), "stats-start"))  # fmt: skip
    cards.append(_card(rate_figure(rates["by_players"], "players", "Win rate by player count",
                                   lambda n: f"{n} players"), "stats-players-rate"))  # fmt: skip
    for f in kinds.get("breakdown", []):
        parts, shown = stats[f["key"]], f.get("unit") or unit
        cards.append(_card(breakdown_figure(parts["by_players"], parts["average"], f["title"],
                                            shown), f"stats-{f['key']}"))  # fmt: skip
    if stats["game"]:
        cards.append(_card(histogram(stats["score"], f"Final {unit}", unit, "seats"),
                           "stats-score"))  # fmt: skip
    cards.append(_card(length_figure(stats["length"]), "stats-length"))
    for f in kinds.get("spread", []):
        cards.append(_card(histogram(stats["length"][f["key"]], f["title"], f["column"]),
                           f"stats-length-{f['key']}"))  # fmt: skip
    for f in kinds.get("mix", []):
        cards.append(_card(mix_figure(stats[f["key"]], f["title"], f["field"]),
                           f"stats-{f['key']}"))  # fmt: skip
    for f in kinds.get("rates_when", []):
        cards.append(_card(rate_figure(stats[f["key"]], f["field"], f["title"], words),
                           f"stats-{f['key']}"))  # fmt: skip
    return cards


BOTS = "include"
"""The value of the bots checkbox ticked."""


def bots_choice(component_id: str, ticked: bool = False) -> dcc.Checklist:
    """The checkbox that counts the seats bots played (left out unless ``ticked``)."""
    return dcc.Checklist(
        id=component_id, value=[BOTS] if ticked else [], className="filter bots-choice",
        options=[{"label": "Count bots' seats", "value": BOTS}],
    )  # fmt: skip


def body(
    game: Any, players: Any, option: Any, player: Any, since: Any, until: Any, bots: Any = None
) -> html.Div | html.P:
    """The charts for the filters (one of the wrong type or out of range is left out); the
    seats bots played only when ``bots`` holds ``include``."""
    applied = chosen(game, players, option, player, since, until, bots)
    game, players, option, player, since, until, bots = applied
    try:
        stats = data.fresh().stats(
            game=game, players=players, option=option, player=player, since=day(since),
            until=day(until), bots=bool(bots),
        )  # fmt: skip
    except ValueError as err:  # options of another game than the one chosen
        return html.P(f"No statistics: {err}.", className="placeholder")
    if not stats["games"]:
        return html.P("No statistics yet: there are no finished games matching these filters.",
                      className="placeholder")  # fmt: skip
    small = stats["small_sample_below"]
    counted = ", ".join(f"{g['games']} {GAMES.get(g['game'], g['game'])}" for g in stats["by_game"])
    return html.Div([
        html.P([
            html.B(f"{stats['games']} finished games, {stats['seats']} seats. "),
            "" if stats["game"] else f"Of every game ({counted}). ",
            f"Win rates show 95 % Wilson intervals; groups under {small} seats are hatched "
            "and marked * (small samples).",
        ], className="note", id="stats-summary"),
        html.Div(_figures(stats), className="stats-grid"),
        html.H3("Players"),
        html.Div(_players_table(stats["players"], _statistics(stats["game"])),
                 className="table-scroll"),
    ])  # fmt: skip


def filters(game: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The player counts and options the chosen game offers."""
    return counts(game), choices(game)


def register(app: Dash) -> None:
    """The statistics page's callbacks: the charts of the filters chosen, the filters the
    chosen game offers, and the page's address that names them."""
    app.callback(
        Output("stats-players", "options"),
        Output("stats-option", "options"),
        Input("stats-game", "value"),
        prevent_initial_call=True,
    )(filters)
    app.callback(
        Output("stats-body", "children"), *(Input(f"stats-{name}", "value") for name in FILTERS)
    )(body)
    query.keep(app, "stats", FILTERS, address, follow)
