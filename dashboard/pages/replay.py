"""``/replay/<id>?step=N``: one stored game, step by step, for every game.

The page is a frame (step controls, slider, score and margin charts with the milestones
the board view marks, step log, the game's rating changes, the analysis for a game the
review knows) around the
game's board view (:mod:`dashboard.boards`): its board, its panels and its charts. The
whole game is loaded once into ``replay-data`` and its review into ``replay-analysis``;
``assets/replay.js`` switches steps and has the view's script draw each one. Only the
analysis status is asked of the server again, while a review is queued or running. The
game's variations (:mod:`dashboard.explore`) are explored, listed and shown on the same
board and step controls; ``?line=VID`` opens the page on one of them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, TypedDict
from uuid import UUID

from dash import ClientsideFunction, Dash, Input, Output, State, ctx, dcc, html, no_update

from dashboard import analysis, boards, charts, data, explore, game_rating, share
from dashboard.game import Game, load, log_entry, payload, rules_of
from dashboard.inputs import text
from dashboard.table_parts import Labelled
from dashboard.token import refused
from domain.ruleset import DEPTHS
from domain.store import GameLibrary, UnknownGame
from projections.analysis_worker import analysis_status, enqueue
from services.library import game_by_prefix
from services.refusals import Refusal

SPEEDS = {0.5: "½×", 1: "1×", 2: "2×", 4: "4×"}
Speed = TypedDict("Speed", {"data-speed": str, "aria-pressed": str})
NO_REVIEW = "No review for this game yet."
LINE_GONE = "The variation this link names is no longer stored: the game is shown."


def requested_step(search: str | None, last: int) -> int:
    """The ``step`` query parameter, clamped to the game (0 when absent or bad).

    >>> requested_step("?step=12", 10), requested_step("?x=1&step=3", 10), requested_step("", 5)
    (10, 3, 0)
    """
    found = re.search(r"(?:^\?|&)step=(\d+)", search or "")
    return min(int(found.group(1)), last) if found else 0


def slider_marks(marks: charts.Marks, last: int) -> dict[int, str]:
    """Slider marks: the start, the milestones marked, the end."""
    found = {0: "start"}
    for step, label in marks:
        found[step] = label
    found.setdefault(last, "end")
    return found


def chart(id_: str, figure: dict[str, Any]) -> html.Div:
    """A timeline chart with the cursor the browser moves over it, its box as high as the
    chart before plotly draws it (nothing moves when it does)."""
    graph = dcc.Graph(id=id_, figure=figure, config=charts.GRAPH_CONFIG)
    height = figure.get("layout", {}).get("height")
    style = {"minHeight": f"{height}px"} if height else {}
    return html.Div([graph, html.Div(id=f"{id_}-cursor")], className="chart", style=style)


@lru_cache(maxsize=16)
def prepared(library: GameLibrary, game_id: UUID) -> dict[str, Any]:
    """What the page shows of a game, computed once (a stored game never changes): the
    game, its board view, the browser's data, the charts, the slider marks and, for a
    game the review knows, the static win chances."""
    game = load(library, game_id, data.game_timeline(game_id))
    view = boards.view(game.rules.name)
    rows, names, colors = game.rows, game.names, game.colors
    marks = view.marked(game)
    score = view.score
    figures = [
        ("replay-margin", charts.margin_figure(rows, names, colors, score.unit, marks)),
        (score.id, charts.score_figure(rows, names, colors, score, marks)),
        *view.charts(game),
    ]
    reviewable = game.rules.review is not None
    ids = (["replay-win"] if reviewable else []) + [id_ for id_, _ in figures]
    log = [log_entry(row) for row in rows]
    return {
        "game": game,
        "view": view,
        "payload": payload(game, view, log, ids),
        "figures": figures,
        "marks": marks,
        "slider": slider_marks(marks, game.last),
        "log": log,
        "win": analysis.static_win(library, game_id, game.last) if reviewable else None,
    }


def analysis_view(library: GameLibrary, game_id: UUID, status: dict[str, Any]) -> dict[str, Any]:
    """The analysis parts of the page (``analysis.view``) for the game's review ``status``."""
    shown = prepared(library, game_id)
    game: Game = shown["game"]
    review = game.rules.review
    assert review is not None  # the page shows an analysis only for a game with a review
    status = {**status, "game_id": str(game_id)}  # the status line links to practice
    return analysis.view(review, status, shown["win"], game.rows, shown["log"], game.names,
                         game.colors, shown["marks"])  # fmt: skip


def analysis_panel(
    library: GameLibrary, game_id: UUID, game: Game
) -> tuple[list[Any], html.Div | None]:
    """The analysis of the right column (with its stores and its poll) and the win chart;
    for a game the review does not know, only that it has none."""
    if game.rules.review is None:
        none = html.P(NO_REVIEW, id="analysis-status", className="note")
        return [html.H3("Analysis"), none], None
    depth = data.analysis_depth()
    status = analysis_status(data.analysis_url(), game_id, data.analysis_settings(depth))
    review = analysis_view(library, game_id, status)
    return [
        dcc.Store(id="replay-analysis", data=review["data"]),
        dcc.Store(id="analysis-game", data=str(game_id)),
        dcc.Store(id="analysis-seen"),
        dcc.Interval(id="analysis-poll", interval=analysis.POLL_MS, disabled=review["poll_off"]),
        html.H3("Analysis"),
        html.Div(
            [
                html.Span("Depth", id="analysis-depth-name", className="depth-name"),
                dcc.RadioItems(
                    [{"label": name, "value": name} for name in DEPTHS],
                    depth,
                    id="analysis-depth",
                    inline=True,
                    inputStyle={"marginRight": "0.25em"},
                    labelStyle={"marginLeft": "0.75em"},
                ),
            ],
            role="radiogroup",
            className="depth-choice",
            **Labelled({"aria-label": "Review depth"}),
        ),
        html.Div(
            [
                html.Span(review["status"], id="analysis-status"),
                html.Button(
                    "Analyse",
                    id="analysis-run",
                    n_clicks=0,
                    className="step-button",
                    style=review["button"],
                ),  # fmt: skip
            ],
            className="analysis-status",
        ),
        html.H3("Key moments"),
        html.Ol(review["moments"], id="analysis-moments", className="moments"),
        html.H3("Flagged actions"),
        html.Ol(review["flagged"], id="analysis-flagged", className="moments flagged"),
    ], chart("replay-win", review["figure"])


def _step_button(label: str, id_: str, title: str) -> html.Button:
    """One of the step controls (first, previous, play, next, last); a symbol's accessible
    name is its title without the key ("first step"), a word ("Play") is its own."""
    button = html.Button(label, id=id_, title=title, className="step-button", n_clicks=0)
    if not label.isalpha():
        setattr(button, "aria-label", title.split(" (")[0])
    return button


def speeds() -> html.Div:
    """The playback speeds: toggle buttons (``assets/replay.js`` sets the tick), which leave
    the arrow keys to the steps."""
    return html.Div(
        [
            html.Button(
                label,
                type="button",
                className="speed-button",
                title=f"play at {label} speed",
                **Speed({"data-speed": str(speed), "aria-pressed": str(speed == 1).lower()}),
            )
            for speed, label in SPEEDS.items()
        ],
        id="replay-speed",
        role="group",
        className="speed",
        **Labelled({"aria-label": "playback speed"}),
    )


def layout(game_id: str, search: str | None = None) -> html.Div:
    """The replay page of a stored game."""
    library = data.library()
    gid = data.parse_game_id(game_id)
    try:
        if gid is None:  # a short id, or what the page says is neither
            gid = game_by_prefix(library, game_id)
        shown = prepared(library, gid)
        title = library.info(gid).title or "Untitled game"
    except UnknownGame:
        return html.Div([html.H2("Game not found"), html.P(f"No game {game_id} is stored.")])
    except Refusal as problem:
        return html.Div([html.H2("Game not found"), html.P(problem.detail, className="refused")])
    game: Game = shown["game"]
    view: boards.BoardView = shown["view"]
    vid = explore.requested_line(search)
    line = explore.line_data(gid, vid) if vid is not None else None
    last = line["steps"] if line else game.last
    step = requested_step(search, last)
    review, win = analysis_panel(library, gid, game)
    board = view.board(game)
    payload = {**shown["payload"], "title": title, "line": line, "score_chart": view.score.id,
               "finished": game.rows[-1]["finished"]}  # fmt: skip
    missing = vid is not None and line is None  # a link to a deleted line (or another game's)
    gone = [html.P(LINE_GONE, className="refused line-gone", role="alert")] if missing else []
    return html.Div(
        [
            dcc.Store(id="replay-data", data=payload),
            dcc.Interval(id="replay-tick", interval=800, disabled=True),
            html.Div(
                [
                    html.H2(title),
                    html.Span(
                        [
                            html.Span(
                                [html.Span(className="dot", style={"background": c}), n],
                                className="who",
                            )
                            for n, c in zip(game.names, game.colors, strict=True)
                        ],
                        className="replay-players",
                    ),
                    *gone,
                ],
                className="replay-head",
            ),
            html.Div(
                [
                    _step_button("|◀", "replay-first", "first step (Home)"),
                    _step_button("◀", "replay-prev", "previous step (←)"),
                    _step_button("Play", "replay-play", "play / pause (space)"),
                    _step_button("▶", "replay-next", "next step (→)"),
                    _step_button("▶|", "replay-last", "last step (End)"),
                    speeds(),
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
                marks=explore.slider_marks(shown["slider"], line),
                allow_direct_input=False,
                tooltip={"placement": "bottom", "always_visible": False},
            ),  # fmt: skip
            html.Div(
                [
                    html.Div(
                        [
                            html.Div(id="replay-advice", className="advice"),
                            *(part for part in (board,) if part is not None),
                            explore.panel(game, shown["slider"]),
                            *(part for part in (win,) if part is not None),
                            *(chart(id_, figure) for id_, figure in shown["figures"]),
                        ],
                        className="replay-left",
                    ),
                    html.Div(
                        [
                            *view.panels(game),
                            *game_rating.panel(gid),
                            *review,
                            *explore.lines(),
                            html.H3("Steps"),
                            html.Ol(
                                id="replay-log",
                                className="step-log",
                                **Labelled({"aria-label": "steps"}),
                            ),
                            *share.panel(gid),
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
    """The replay page's clientside callbacks (``assets/replay.js``; a chart clicked jumps
    to its step there too) and its analysis callback."""
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
        State("replay-slider", "value"),
        State("replay-tick", "disabled"),
        State("replay-data", "data"),
        prevent_initial_call=True,
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
        Output("analysis-flagged", "children"),
        Input("analysis-poll", "n_intervals"),
        Input("analysis-run", "n_clicks"),
        Input("analysis-depth", "value"),
        State("analysis-game", "data"),
        State("auth-token", "data"),
        prevent_initial_call=True,
    )(refresh_analysis)
    explore.register(app)
    share.register(app)


def refresh_analysis(
    _ticks: Any, _clicks: Any, depth: Any, game_id: Any, token: Any
) -> tuple[Any, ...]:
    """The analysis status at the chosen ``depth`` (asking for a review first when "Analyse"
    was clicked, which needs a token when tokens are configured); the review's data, win
    figure, key moments and flagged actions once it is done, or as none when another depth
    was chosen. Nothing is queued for an id that names no stored game, nor for a game the
    review does not know."""
    gid = data.parse_game_id(text(game_id, 100) or "")
    if gid is None or not data.has_game(gid):
        unknown = data.WriteRefused(404, "unknown_game", "No game with this id is stored.")
        return refused(unknown, "analysis-refused"), no_update, True, *[no_update] * 4
    if rules_of(data.library(), gid).review is None:
        return NO_REVIEW, {"display": "none"}, True, *[no_update] * 4
    url, settings = data.analysis_url(), data.analysis_settings(text(depth, 20))
    status = analysis_status(url, gid, settings)
    if ctx.triggered_id == "analysis-run" and status["status"] in ("none", "failed"):
        try:
            data.writer(token, "Analysing")
        except data.WriteRefused as err:
            return refused(err, "analysis-refused"), no_update, True, *[no_update] * 4
        status = enqueue(url, gid, settings, force=status["status"] == "failed")
    shown = analysis_view(data.library(), gid, status)
    parts = (shown["status"], shown["button"], shown["poll_off"])
    if status["status"] != "done" and ctx.triggered_id != "analysis-depth":
        return (*parts, no_update, no_update, no_update, no_update)
    return (*parts, shown["data"], shown["figure"], shown["moments"], shown["flagged"])
