"""``/replay/<id>?step=N``: the map, boards, Moonlight, step log, charts and analysis of a game.

The whole game is loaded once into ``replay-data`` and its review into ``replay-analysis``;
``assets/replay.js`` switches steps. Only the analysis status is asked of the server again,
while a review is queued or running.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
from uuid import UUID

from dash import ClientsideFunction, Dash, Input, Output, State, ctx, dcc, html, no_update

from dashboard import analysis, board, charts, data, game
from dashboard.inputs import text
from dashboard.token import refused
from domain.store import GameLibrary, UnknownGame
from projections.analysis_worker import analysis_status, enqueue

GRAPH_CONFIG = {"displayModeBar": False, "responsive": True, "scrollZoom": False}
SPEEDS = {0.5: "½×", 1: "1×", 2: "2×", 4: "4×"}
SCORING = re.compile(r"^(crescent|quarter|full) scoring of region (\d+): (.*)$")


def requested_step(search: str | None, last: int) -> int:
    """The ``step`` query parameter, clamped to the game (0 when absent or bad).

    >>> requested_step("?step=12", 10), requested_step("?x=1&step=3", 10), requested_step("", 5)
    (10, 3, 0)
    """
    found = re.search(r"(?:^\?|&)step=(\d+)", search or "")
    return min(int(found.group(1)), last) if found else 0


def log_entry(row: dict[str, Any]) -> list[Any]:
    """One step of the log as ``[step, seat, what happened, scoring results, game end]``.

    >>> log_entry({"step": 3, "player": 1, "label": "Bo passes; crescent scoring of region 2: "
    ...            "Bo 4; the game ends"})
    [3, 1, 'Bo passes', ['crescent · R2: Bo 4'], 'the game ends']
    """
    lines, scored, end = [], [], None
    for part in row["label"].split("; ") if row["label"] else []:
        found = SCORING.match(part)
        if found:
            phase, region, who = found.groups()
            scored.append(f"{phase} · R{region}: {who}")
        elif part.startswith("the game ends"):
            end = part
        else:
            lines.append(part)
    return [row["step"], row["player"], "; ".join(lines), scored, end]


def slider_marks(rows: list[dict[str, Any]], last: int) -> dict[int, str]:
    """Slider marks: the start, each phase scoring, the end."""
    marks = {0: "start"}
    for step, phase in charts.scoring_steps(rows):
        marks[step] = phase
    marks.setdefault(last, "end")
    return marks


def chart(id_: str, figure: dict[str, Any]) -> html.Div:
    """A timeline chart with the cursor the browser moves over it."""
    return html.Div(
        [dcc.Graph(id=id_, figure=figure, config=GRAPH_CONFIG), html.Div(id=f"{id_}-cursor")],
        className="chart",
    )


@lru_cache(maxsize=16)
def prepared(library: GameLibrary, game_id: UUID) -> dict[str, Any]:
    """What the page shows of a game, computed once (a stored game never changes): the
    browser's data, the map and chart figures, the slider marks and the static win chances."""
    rows = data.game_timeline(game_id)
    first = library.state_at(game_id, 0)
    names = [p.name for p in first.table.players]
    colors = board.seat_colors(first)
    payload = game.payload(library, game_id, rows)
    payload["log"] = [log_entry(row) for row in rows]
    return {
        "payload": payload,
        "map": board.figure(first),
        "vp": charts.vp_figure(rows, names, colors),
        "control": charts.control_figure(rows, names, colors),
        "margin": charts.margin_figure(rows, names, colors),
        "marks": slider_marks(rows, payload["last"]),
        "colors": colors,
        "names": names,
        "rows": rows,
        "win": analysis.static_win(library, game_id, payload["last"]),
    }


def analysis_view(library: GameLibrary, game_id: UUID, status: dict[str, Any]) -> dict[str, Any]:
    """The analysis parts of the page (``analysis.view``) for the game's review ``status``."""
    shown = prepared(library, game_id)
    return analysis.view(
        status, shown["win"], shown["rows"], shown["payload"]["log"], shown["names"],
        shown["colors"],
    )  # fmt: skip


def layout(game_id: str, search: str | None = None) -> html.Div:
    """The replay page of a stored game."""
    gid = data.parse_game_id(game_id)
    try:
        if gid is None:
            raise UnknownGame(UUID(int=0))
        library = data.library()
        shown = prepared(library, gid)
        title = library.info(gid).title or "Untitled game"
    except UnknownGame:
        return html.Div([html.H2("Game not found"), html.P(f"No game {game_id} is stored.")])
    payload = {**shown["payload"], "title": title}
    last = payload["last"]
    step = requested_step(search, last)
    names = [p["name"] for p in payload["players"]]
    colors = shown["colors"]
    button = {"className": "step-button", "n_clicks": 0}
    status = analysis_status(data.analysis_url(), gid, data.analysis_settings())
    review = analysis_view(library, gid, status)
    return html.Div(
        [
            dcc.Store(id="replay-data", data=payload),
            dcc.Store(id="replay-analysis", data=review["data"]),
            dcc.Store(id="analysis-game", data=str(gid)),
            dcc.Store(id="analysis-seen"),
            dcc.Interval(id="replay-tick", interval=800, disabled=True),
            dcc.Interval(
                id="analysis-poll", interval=analysis.POLL_MS, disabled=review["poll_off"]
            ),
            html.Div(
                [
                    html.H2(payload["title"]),
                    html.Span(
                        [
                            html.Span(
                                [html.Span(className="dot", style={"background": c}), n],
                                className="who",
                            )
                            for n, c in zip(names, colors, strict=False)
                        ],
                        className="replay-players",
                    ),
                ],
                className="replay-head",
            ),
            html.Div(
                [
                    html.Button("|◀", id="replay-first", title="first step (Home)", **button),
                    html.Button("◀", id="replay-prev", title="previous step (←)", **button),
                    html.Button("Play", id="replay-play", title="play / pause (space)", **button),
                    html.Button("▶", id="replay-next", title="next step (→)", **button),
                    html.Button("▶|", id="replay-last", title="last step (End)", **button),
                    dcc.RadioItems(
                        id="replay-speed",
                        options=[{"label": v, "value": k} for k, v in SPEEDS.items()],
                        value=1,
                        inline=True,
                        className="speed",
                    ),
                    html.Span(f"Step {step} / {last}", id="replay-step", className="step-no"),
                    html.Span(id="replay-label", className="step-label"),
                ],
                className="replay-controls",
            ),
            dcc.Slider(
                id="replay-slider",
                min=0,
                max=last,
                step=1,
                value=step,
                updatemode="drag",
                marks=shown["marks"],
                allow_direct_input=False,
                tooltip={"placement": "bottom", "always_visible": False},
            ),  # fmt: skip
            html.Div(
                [
                    html.Div(
                        [
                            html.Div(id="replay-advice", className="advice"),
                            html.Div(
                                [
                                    dcc.Graph(
                                        id="replay-map",
                                        figure=shown["map"],
                                        config=GRAPH_CONFIG,
                                        className="map",
                                    ),
                                    html.Div(id="replay-board", className="overlay"),
                                    html.Div(id="replay-hover", className="hover-box"),
                                ],
                                className="board",
                                style={"height": f"{board.HEIGHT}px"},
                            ),
                            chart("replay-win", review["figure"]),
                            chart("replay-margin", shown["margin"]),
                            chart("replay-vp", shown["vp"]),
                            chart("replay-control", shown["control"]),
                        ],
                        className="replay-left",
                    ),
                    html.Div(
                        [
                            html.Div(id="replay-moon", className="moonlight"),
                            html.Div(id="replay-boards", className="player-boards"),
                            html.H3("Analysis"),
                            html.Div(
                                [
                                    html.Span(review["status"], id="analysis-status"),
                                    html.Button(
                                        "Analyse",
                                        id="analysis-run",
                                        n_clicks=0,
                                        className="step-button",
                                        style=review["button"],
                                    ),
                                ],
                                className="analysis-status",
                            ),
                            html.H3("Key moments"),
                            html.Ol(review["moments"], id="analysis-moments", className="moments"),
                            html.H3("Steps"),
                            html.Ol(id="replay-log", className="step-log"),
                        ],
                        className="replay-right",
                    ),
                ],
                className="replay-main",
            ),
        ],
        id="replay",
    )


def register(app: Dash) -> None:
    """The replay page's clientside callbacks (``assets/replay.js``)."""
    app.clientside_callback(
        ClientsideFunction("howl", "render"),
        Output("replay-step", "children"),
        Output("replay-label", "children"),
        Input("replay-slider", "value"),
        State("replay-data", "data"),
    )
    app.clientside_callback(
        ClientsideFunction("howl", "navigate"),
        Output("replay-slider", "value"),
        Output("replay-tick", "disabled"),
        Output("replay-play", "children"),
        Input("replay-first", "n_clicks"),
        Input("replay-prev", "n_clicks"),
        Input("replay-next", "n_clicks"),
        Input("replay-last", "n_clicks"),
        Input("replay-play", "n_clicks"),
        Input("replay-tick", "n_intervals"),
        Input("replay-vp", "clickData"),
        Input("replay-control", "clickData"),
        Input("replay-win", "clickData"),
        Input("replay-margin", "clickData"),
        State("replay-slider", "value"),
        State("replay-tick", "disabled"),
        State("replay-data", "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction("howl", "speed"),
        Output("replay-tick", "interval"),
        Input("replay-speed", "value"),
    )
    app.clientside_callback(
        ClientsideFunction("howl", "review"),
        Output("analysis-seen", "data"),
        Input("replay-analysis", "data"),
    )
    app.callback(
        Output("analysis-status", "children"),
        Output("analysis-run", "style"),
        Output("analysis-poll", "disabled"),
        Output("replay-analysis", "data"),
        Output("replay-win", "figure"),
        Output("analysis-moments", "children"),
        Input("analysis-poll", "n_intervals"),
        Input("analysis-run", "n_clicks"),
        State("analysis-game", "data"),
        State("auth-token", "data"),
        prevent_initial_call=True,
    )(refresh_analysis)


def refresh_analysis(_ticks: Any, _clicks: Any, game_id: Any, token: Any) -> tuple[Any, ...]:
    """The analysis status (asking for a review first when "Analyse" was clicked, which
    needs a token when tokens are configured); the review's data, win figure and key moments
    only once it is done. Nothing is queued for an id that names no stored game."""
    gid = data.parse_game_id(text(game_id, 100) or "")
    if gid is None or not data.has_game(gid):
        unknown = data.WriteRefused(404, "unknown_game", "No game with this id is stored.")
        return refused(unknown, "analysis-refused"), no_update, True, *[no_update] * 3
    url, settings = data.analysis_url(), data.analysis_settings()
    status = analysis_status(url, gid, settings)
    if ctx.triggered_id == "analysis-run" and status["status"] in ("none", "failed"):
        try:
            data.writer(token, "Analysing")
        except data.WriteRefused as err:
            return refused(err, "analysis-refused"), no_update, True, *[no_update] * 3
        status = enqueue(url, gid, settings, force=status["status"] == "failed")
    shown = analysis_view(data.library(), gid, status)
    parts = (shown["status"], shown["button"], shown["poll_off"])
    if status["status"] != "done":
        return (*parts, no_update, no_update, no_update)
    return (*parts, shown["data"], shown["figure"], shown["moments"])
