"""The Wolves' set-up view (``/new``): set up a game played at a real table and open it as a
live table.

The players (2–5 rows of name, colour, home terrain and who plays the seat, a person or
a bot and its strength, in seat order: seat 1 drafts first; "New game against the bot"
makes seat 2 a bot on a random map), the map (dealt by the engine from a seed, as ``howl
simulate`` deals it, or copied from the table position by position: tile number, scoring
tokens, prey), W-12's options; everything is checked as it is entered
(:mod:`dashboard.boards.wolves_setup`) and the map preview follows (``assets/setup.js``
draws it). "Start the draft" opens the table through :func:`services.tables.open_table`,
as the token entered in the header writes, and opens ``/table/{id}``; nothing is opened
while a field is refused.

>>> seat_id("row", 0), dom_id(seat_id("name", 0)), moved({"new": "up", "seat": 2})
('new-row-0', '{"new":"name","seat":0}', ('up', 2))
"""

from __future__ import annotations

import json
import secrets
from datetime import date
from typing import Any

from dash import ALL, ClientsideFunction, Dash, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from dashboard import data
from dashboard.boards.wolves_setup import (
    COLORS,
    FLAGS,
    LONE_WOLVES,
    MAX_TITLE,
    PERSON,
    PLAYERS,
    TERRAIN_FILLS,
    Form,
    map_problems,
    preview,
    read_form,
    read_seat,
    record_of,
    seat_problems,
    table_layout,
)
from dashboard.inputs import choice, integer
from dashboard.palette import SEAT_COLORS, TERRAIN_COLORS
from dashboard.token import refused
from domain.documents import canonical_json
from domain.wolves import components as box
from domain.wolves import records
from domain.wolves.setup import Options
from domain.wolves.tabletop import Stack, stack_name
from services import tables
from services.refusals import Refusal

SEATS = range(records.MAX_PLAYERS)
POSITIONS = range(len(box.TILE_TERRAINS))
"""Position cards the page holds (the five-player layout has ten; fewer are shown)."""
DEFAULT_SEATS = 3
BOT = "heuristic"
"""The bot "New game against the bot" seats."""
BOT_STALL_LIMIT = "10"
"""The stall limit (W-12) of a game against the bot, as the digital edition's."""
NEW_SEEDS = 1_000_000
"""A new seed is drawn below this (any seed up to 2^63 − 1 may be typed)."""
FIELDS = ("name", "color", "terrain", "player")
MOVES = ("up", "down", "remove")
PLACES = ("tile", "scoring", "prey")
CONTROLS = (*FIELDS, *MOVES, *PLACES)
"""The controls each seat row or position card has (pattern-matching ids)."""
FLAG_LABELS = {
    "random_terrain": "Random terrain (random map only)",
    "big_map": "Big map (two players: the three-player layout)",
    "auto_push": "Auto push (a pushed wolf goes to the nearest empty hex)",
}
PHASE_SIGNS = {"crescent": "☾", "quarter": "◑", "full": "●"}


def seat_id(kind: str, seat: Any) -> Any:
    """The id of a seat row's ``kind`` of element: a control's is a pattern-matching id
    (``{"new": "name", "seat": 0}``: the callbacks take each kind's controls as one list),
    any other element's a string (``new-row-0``)."""
    return {"new": kind, "seat": seat} if kind in CONTROLS else f"new-{kind}-{seat}"


def pos_id(kind: str, position: Any) -> Any:
    """The id of a position card's ``kind`` of element, as :func:`seat_id` makes them."""
    return {"new": kind, "pos": position} if kind in CONTROLS else f"new-{kind}-{position}"


def dom_id(component_id: Any) -> str:
    """An element's id in the page (a pattern-matching id as Dash writes it), for labels."""
    if isinstance(component_id, str):
        return component_id
    return json.dumps(component_id, sort_keys=True, separators=(",", ":"))


def moved(trigger: Any) -> tuple[str, int] | None:
    """The seat button a callback was triggered by: (``up``/``down``/``remove``, seat)."""
    if not isinstance(trigger, dict):
        return None
    kind, seat = trigger.get("new"), integer(trigger.get("seat"), SEATS)
    return (kind, seat) if kind in MOVES and seat is not None else None


def _problem(component_id: str) -> html.Div:
    return html.Div(id=component_id, className="field-problem", role="status")


def _field(label: str, control: Any, for_id: str, problem: str | None = None,
           class_name: str = "", of: str = "") -> html.Div:  # fmt: skip
    """A labelled control; ``of`` (``seat 2``) ends its label for assistive technology only,
    where many fields share the label."""
    named: Any = label
    if of:
        named = [html.Span(label, **attributes(aria_hidden="true")),
                 html.Span(f"{label}, {of}", className="sr-only")]  # fmt: skip
    parts = [html.Label(named, htmlFor=for_id), control]
    if problem is not None:
        parts.append(_problem(problem))
    return html.Div(parts, className=f"setup-field {class_name}".strip())


def attributes(**values: str) -> dict[str, Any]:
    """``aria-`` and ``data-`` attributes of an element (``aria_label`` → ``aria-label``)."""
    return {key.replace("_", "-"): value for key, value in values.items()}


def _swatch(color: str) -> html.Span:
    return html.Span(className="dot", style={"background": color})


def _seat_row(seat: int) -> html.Li:
    """One seat's row: name, colour, home terrain, who plays it, and its move and remove
    buttons."""
    name, color, terrain, player = (seat_id(k, seat) for k in FIELDS)
    of = f"seat {seat + 1}"
    colors = [
        {"label": html.Span([_swatch(SEAT_COLORS[c]), c]), "value": c, "search": c} for c in COLORS
    ]
    terrains = [
        {"label": html.Span([_swatch(TERRAIN_COLORS[t]), t]), "value": t, "search": t}
        for t in box.TERRAINS
    ]
    buttons = [
        html.Button(sign, id=seat_id(move, seat), n_clicks=0, className="seat-move",
                    title=f"{what} seat {seat + 1}",
                    **attributes(aria_label=f"{what} seat {seat + 1}", data_seat=str(seat),
                                 data_move=move))
        for sign, move, what in (("↑", "up", "Move up"), ("↓", "down", "Move down"),
                                 ("✕", "remove", "Remove"))
    ]  # fmt: skip
    return html.Li(
        [
            html.Span(f"Seat {seat + 1}", className="seat-no"),
            _field("Name", dcc.Input(id=name, type="text", value=f"Player {seat + 1}",
                                     autoComplete="off", className="seat-name"),
                   dom_id(name), seat_id("name-problem", seat), "seat-name-field", of),
            _field("Colour", dcc.Dropdown(id=color, options=colors, value=COLORS[seat],
                                          clearable=False, className="seat-pick"),
                   dom_id(color), seat_id("color-problem", seat), of=of),
            _field("Home terrain", dcc.Dropdown(id=terrain, options=terrains,
                                                value=box.TERRAINS[seat], clearable=False,
                                                className="seat-pick"),
                   dom_id(terrain), seat_id("terrain-problem", seat), of=of),
            _field("Played by", dcc.Dropdown(id=player, value=PERSON, clearable=False,
                                             options=[{"label": label, "value": key}
                                                      for key, label in PLAYERS.items()],
                                             className="seat-pick"),
                   dom_id(player), seat_id("player-problem", seat), of=of),
            html.Div(buttons, className="seat-buttons"),
        ],
        id=seat_id("row", seat),
        className="seat-row",
        hidden=seat >= DEFAULT_SEATS,
    )  # fmt: skip


def _position_card(position: int) -> html.Li:
    """One tile position: its tile number, scoring token(s) and prey."""
    tile = pos_id("tile", position)
    return html.Li(
        [
            html.Div(id=pos_id("where", position), className="pos-where"),
            _field("Tile number", dcc.Input(id=tile, type="number", step=1, inputMode="numeric",
                                            className="pos-tile"),
                   dom_id(tile), pos_id("tile-problem", position), "field-tile",
                   f"position {position + 1}"),
            html.Fieldset([
                html.Legend("Scoring token(s), top first"),
                dcc.RadioItems(id=pos_id("scoring", position), options=[], inline=True,
                               className="pos-radios"),
                _problem(pos_id("scoring-problem", position)),
            ], className="setup-field"),
            html.Fieldset([
                html.Legend(id=pos_id("prey-legend", position)),
                dcc.RadioItems(id=pos_id("prey", position), inline=True,
                               options=[{"label": p, "value": p} for p in box.PREY_TYPES],
                               className="pos-radios"),
                _problem(pos_id("prey-problem", position)),
            ], className="setup-field"),
        ],
        id=pos_id("pos", position),
        className="pos-card",
        hidden=True,
    )  # fmt: skip


GAME = "the-wolves"
"""The ruleset this view sets up."""


def layout() -> html.Div:
    """The New game page: players, map, options, start."""
    today = date.today().isoformat()
    return html.Div(
        [
            html.H2("New game: The Wolves"),
            html.P("Set up the game as it lies on your table; the draft starts next, on the "
                   "table page, where everyone with the link can follow it.",
                   className="note"),  # fmt: skip
            dcc.Location(id="new-go", refresh="callback-nav"),
            dcc.Store(id="new-count", data=DEFAULT_SEATS),
            dcc.Store(id="new-preview"),
            dcc.Store(id="new-drawn"),
            html.Section([
                html.H3("New game against the bot"),
                html.P("Play on this page against the computer: seat 2 becomes a bot on a "
                       "random map, and the game ends after 10 rounds without the Moonlight "
                       "board advancing (W-12). Choose who plays each seat under Players: a "
                       "person, or a bot and its strength. A bot moves by itself when its "
                       "turn comes.", className="note"),
                html.Button("Set up a game against the bot", id="new-vs-bot", n_clicks=0,
                            className="setup-button"),
            ], className="setup-section"),
            html.Section([
                html.H3("Game"),
                html.Div([
                    _field("Title", dcc.Input(id="new-title", type="text", maxLength=MAX_TITLE,
                                              placeholder="e.g. Club night #12"),
                           "new-title", "new-title-problem", "field-title"),
                    _field("Played on (YYYY-MM-DD)", dcc.Input(id="new-date", type="text",
                                                               value=today, maxLength=10),
                           "new-date", "new-date-problem", "field-date"),
                ], className="setup-row"),
            ], className="setup-section"),
            html.Section([
                html.H3("Players"),
                html.P("Seat order is draft order: seat 1 drafts first (W-4.1). Each home "
                       "terrain once.", className="note"),
                html.Ol([_seat_row(s) for s in SEATS], className="seat-rows"),
                html.Button("Add a player", id="new-add", n_clicks=0, className="setup-button"),
            ], className="setup-section"),
            html.Section([
                html.H3("Map"),
                dcc.RadioItems(
                    id="new-mode", value="table", className="setup-mode",
                    options=[{"label": "As laid at the table", "value": "table"},
                             {"label": "Random, from a seed", "value": "random"}],
                ),
                html.Div([
                    html.Div([
                        html.Div([
                            _field("Seed", dcc.Input(id="new-seed", type="text",
                                                     inputMode="numeric", autoComplete="off",
                                                     value=str(secrets.randbelow(NEW_SEEDS))),
                                   "new-seed", "new-seed-problem", "field-seed"),
                            html.Button("New seed", id="new-reseed", n_clicks=0,
                                        className="setup-button"),
                        ], id="new-random", className="setup-row", hidden=True),
                        html.Div([
                            html.P(id="new-laid-note", className="note"),
                            html.Ol([_position_card(p) for p in POSITIONS], className="pos-cards"),
                        ], id="new-laid"),
                    ], className="map-form"),
                    html.Div(html.Div(id="new-map", className="setup-map", role="img",
                                      **attributes(aria_label="Map preview")),
                             className="map-preview"),
                ], className="map-grid"),
            ], className="setup-section"),
            html.Section([
                html.H3("Options (W-12)"),
                dcc.Checklist(id="new-flags", value=[], className="setup-flags",
                              options=[{"label": FLAG_LABELS[f], "value": f} for f in FLAGS]),
                html.Div([
                    html.Fieldset([
                        html.Legend("Lone wolves per region (random map only)"),
                        dcc.RadioItems(id="new-lone", value=2, inline=True,
                                       options=[{"label": str(n), "value": n}
                                                for n in LONE_WOLVES]),
                    ], className="setup-field"),
                    _field("Stall limit in rounds (empty: none)",
                           dcc.Input(id="new-stall", type="text", inputMode="numeric",
                                     autoComplete="off", placeholder="none"),
                           "new-stall", "new-stall-problem", "field-stall"),
                ], className="setup-row"),
            ], className="setup-section"),
            html.Section([
                html.Button("Start the draft", id="new-start", n_clicks=0,
                            className="setup-start"),
                dcc.Loading(html.Div(id="new-result", role="status"), type="dot"),
            ], className="setup-section"),
        ],
        id="new",
    )  # fmt: skip


# --- players ------------------------------------------------------------------------------


def _free(rows: list[list[Any]], count: int, choices: tuple[str, ...], column: int) -> str:
    taken = {row[column] for row in rows[:count]}
    return next((c for c in choices if c not in taken), choices[0])


def seats(
    _add: Any, _vs_bot: Any, _up: Any, _down: Any, _remove: Any, names: Any, colors: Any,
    terrains: Any, players: Any, count: Any,
) -> tuple[Any, ...]:  # fmt: skip
    """Add a seat, move one up or down (swapping with its neighbour) or remove one, or make
    seat 2 a bot against seat 1's person; then which rows show and which buttons may act."""
    n = integer(count, range(records.MIN_PLAYERS, records.MAX_PLAYERS + 1)) or DEFAULT_SEATS
    given = (names, colors, terrains, players)
    if not all(isinstance(v, list) and len(v) == len(SEATS) for v in given):
        raise PreventUpdate  # values no page sends
    rows = [
        [name if isinstance(name, str) else "", choice(color, COLORS),
         choice(ground, box.TERRAINS), choice(player, tuple(PLAYERS), PERSON)]
        for name, color, ground, player in zip(names, colors, terrains, players, strict=True)
    ]  # fmt: skip
    trigger = ctx.triggered_id
    if trigger == "new-add" and n < records.MAX_PLAYERS:
        rows[n] = [f"Player {n + 1}", _free(rows, n, COLORS, 1), _free(rows, n, box.TERRAINS, 2),
                   PERSON]  # fmt: skip
        n += 1
    elif trigger == "new-vs-bot":
        n = max(n, records.MIN_PLAYERS)
        rows[0][3], rows[1][3] = PERSON, BOT
        rows[1][0] = "Bot" if rows[1][0] in ("", "Player 2") else rows[1][0]
    elif (button := moved(trigger)) is not None and button[1] < n:
        move, seat = button
        if move == "up" and seat > 0:
            rows[seat - 1], rows[seat] = rows[seat], rows[seat - 1]
        elif move == "down" and seat < n - 1:
            rows[seat], rows[seat + 1] = rows[seat + 1], rows[seat]
        elif move == "remove" and n > records.MIN_PLAYERS:
            rows.append(rows.pop(seat))
            n -= 1
    return (
        [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows],
        [s >= n for s in SEATS], n, n >= records.MAX_PLAYERS,
        [s == 0 for s in SEATS], [s >= n - 1 for s in SEATS],
        [n <= records.MIN_PLAYERS for _ in SEATS],
    )  # fmt: skip


# --- the map's layout ------------------------------------------------------------------------


def _stack_label(stack: Stack, dealt: int) -> str:
    signs = "".join(PHASE_SIGNS[p] for p in stack)
    return f"{signs} {stack_name(stack)} (×{dealt})"


def shape(count: Any, mode: Any, flags: Any) -> tuple[Any, ...]:
    """What the player count and the map choice lay out: the positions shown with where
    they lie, the scoring stacks and prey the box deals for them, the random map's seed
    row, and the options that apply."""
    n = integer(count, range(records.MIN_PLAYERS, records.MAX_PLAYERS + 1)) or DEFAULT_SEATS
    on = flags if isinstance(flags, list) else []
    big = n == 2 and "big_map" in on
    layout = table_layout(n, Options(big_map=big))
    random_map = mode == "random"
    positions = len(layout.positions)
    wheres: list[Any] = []
    for p in POSITIONS:
        if p >= positions:
            wheres.append("")
            continue
        (x, y), rotated = layout.positions[p]
        turn = "rotated (180°)" if rotated else "not rotated"
        wheres.append([html.B(f"Position {p + 1}"), f" · centre ({x}, {y}), {turn} (W-3)"])
    stacks = [
        {"label": _stack_label(stack, dealt), "value": "+".join(stack)}
        for stack, dealt in layout.stacks
    ]
    count_note = "one token" if layout.prey_count == 1 else f"a stack of {layout.prey_count}"
    start = "the start tile in the middle, then " if layout.start else ""
    note = (
        f"{n} players{' on the big map' if big else ''}: {start}{positions} region tiles. "
        "For each position enter the number printed on the tile lying there; its rotation "
        "follows from the position. Click a position on the map to jump to it."
    )
    flag_options = [
        {"label": FLAG_LABELS[f], "value": f,
         "disabled": (f == "random_terrain" and not random_map) or (f == "big_map" and n != 2)}
        for f in FLAGS
    ]  # fmt: skip
    return (
        [p >= positions or random_map for p in POSITIONS], wheres,
        [stacks for _ in POSITIONS],
        [f"Prey ({count_note} of a type)" for _ in POSITIONS],
        not random_map, random_map, note, flag_options,
        [{"label": str(k), "value": k, "disabled": not random_map} for k in LONE_WOLVES],
    )  # fmt: skip


# --- checks and preview ----------------------------------------------------------------------


def _form(
    names: Any, colors: Any, terrains: Any, players: Any, count: Any, title: Any,
    played_on: Any, mode: Any, seed: Any, flags: Any, lone: Any, stall: Any, tiles: Any,
    scorings: Any, preys: Any,
) -> Form | None:  # fmt: skip
    """The form from the callback's values, or None for values no page sends."""
    n = integer(count, range(records.MIN_PLAYERS, records.MAX_PLAYERS + 1))
    lists = (names, colors, terrains, players, tiles, scorings, preys)
    if n is None or not all(isinstance(v, list) for v in lists):
        return None
    if not (len(names) == len(colors) == len(terrains) == len(players) == len(SEATS)):
        return None
    if not (len(tiles) == len(scorings) == len(preys) == len(POSITIONS)):
        return None
    seated = (names[:n], colors[:n], terrains[:n], players[:n])
    rows = [read_seat(*row) for row in zip(*seated, strict=True)]
    return read_form(rows, title, played_on, mode, seed, flags, lone, stall, tiles, scorings,
                     preys)  # fmt: skip


def check(*values: Any) -> tuple[Any, ...]:
    """Every field's problem as entered, next to it, and the map preview."""
    form = _form(*values)
    if form is None:
        raise PreventUpdate
    by_seat = {(p.seat, p.field): p.message for p in seat_problems(form.players)}
    by_place = {(p.position - 1, p.field): p.message for p in map_problems(form)}
    return (
        *([by_seat.get((s, f), "") for s in SEATS] for f in FIELDS),
        *([by_place.get((p, f), "") for p in POSITIONS] for f in PLACES),
        *(form.problems.get(key, "") for key in ("title", "played_on", "seed", "stall_limit")),
        {**preview(form), "fills": TERRAIN_FILLS, "mode": form.mode},
    )


def reseed(_clicks: Any) -> str:
    """A new random seed for the random map."""
    return str(secrets.randbelow(NEW_SEEDS))


def against_the_bot(_clicks: Any, stall: Any) -> tuple[str, Any]:
    """A game against the bot is on a random map (nothing lies on a table) and ends after
    :data:`BOT_STALL_LIMIT` rounds without the Moonlight board advancing, unless a limit is
    set already (W-12: bots may not find the actions that advance it)."""
    return "random", stall if isinstance(stall, str) and stall.strip() else BOT_STALL_LIMIT


# --- start -----------------------------------------------------------------------------------


def _not_started(message: Any, **marks: str) -> html.Div:
    """Why the table was not opened (``marks``: its ``data-`` attributes, such as the path)."""
    shown = attributes(**{f"data_{k}": v for k, v in marks.items()})
    return html.Div([html.B("Not started: "), message], className="setup-error", **shown)


def start(clicks: Any, token: Any, *values: Any) -> tuple[Any, Any]:
    """Open the table the form describes, as the token's name, and go to its page; or say
    why not (a field refused, no token or an unknown one, the engine's refusal with its
    path, or a store that cannot write). Nothing is opened then."""
    form = _form(*values)
    if form is None or integer(clicks, range(1, 2**31)) is None:
        raise PreventUpdate
    wrong = len(seat_problems(form.players)) + len(map_problems(form)) + len(form.problems)
    if wrong:
        fields = f"{wrong} field{'s' if wrong != 1 else ''}"
        return _not_started(
            f"{fields} above {'need' if wrong != 1 else 'needs'} fixing."
        ), no_update
    try:
        doc = record_of(form)
    except ValueError as err:
        return _not_started(f"{err}."), no_update
    try:
        by = data.writer(token, "Starting a game")
    except data.WriteRefused as err:
        return refused(err, "setup-error"), no_update
    try:  # the engine reads the record as an upload's: a refusal names the JSON path
        table = tables.open_table(canonical_json(doc), by)
    except Refusal as err:
        path = str(err.extra.get("path") or "")
        return _not_started(err.detail, path=path, kind=err.kind), no_update
    return html.Div("Table opened.", className="upload-ok"), f"/table/{table['table_id']}"


def _each(kind: str, prop: str, ids: Any) -> list[Output]:
    """One ``Output`` of ``prop`` per seat or position id of ``kind``."""
    return [Output(ids(kind, n), prop) for n in (SEATS if ids is seat_id else POSITIONS)]


SINGLES = ("new-title", "new-date", "new-mode", "new-seed", "new-flags", "new-lone", "new-stall")
"""The form's fields that are not a seat's or a position's, in :func:`read_form`'s order."""


def _fields(of: type[Any]) -> list[Any]:
    """The whole form as ``Input``s or ``State``s, grouped as :func:`check` takes it."""
    return [
        *(of(seat_id(k, ALL), "value") for k in FIELDS),
        of("new-count", "data"),
        *(of(i, "value") for i in SINGLES),
        *(of(pos_id(k, ALL), "value") for k in PLACES),
    ]


def register(app: Dash) -> None:
    """The New game page's callbacks (grouped: each list of seats or positions reaches the
    function as one list); ``assets/setup.js`` draws the preview."""
    app.callback(
        output=[
            *(_each(k, "value", seat_id) for k in FIELDS),
            _each("row", "hidden", seat_id),
            Output("new-count", "data"),
            Output("new-add", "disabled"),
            *(_each(k, "disabled", seat_id) for k in MOVES),
        ],
        inputs=[
            Input("new-add", "n_clicks"),
            Input("new-vs-bot", "n_clicks"),
            *(Input(seat_id(k, ALL), "n_clicks") for k in MOVES),
        ],
        state=[*(State(seat_id(k, ALL), "value") for k in FIELDS), State("new-count", "data")],
        prevent_initial_call=True,
    )(seats)
    app.callback(
        output=[
            _each("pos", "hidden", pos_id),
            _each("where", "children", pos_id),
            _each("scoring", "options", pos_id),
            _each("prey-legend", "children", pos_id),
            Output("new-random", "hidden"),
            Output("new-laid", "hidden"),
            Output("new-laid-note", "children"),
            Output("new-flags", "options"),
            Output("new-lone", "options"),
        ],
        inputs=[
            Input("new-count", "data"),
            Input("new-mode", "value"),
            Input("new-flags", "value"),
        ],
    )(shape)
    app.callback(
        output=[
            *(_each(f"{k}-problem", "children", seat_id) for k in FIELDS),
            *(_each(f"{k}-problem", "children", pos_id) for k in PLACES),
            *(Output(f"new-{k}-problem", "children") for k in ("title", "date", "seed", "stall")),
            Output("new-preview", "data"),
        ],
        inputs=_fields(Input),
    )(check)
    app.callback(
        Output("new-seed", "value"),
        Input("new-reseed", "n_clicks"),
        prevent_initial_call=True,
    )(reseed)
    app.callback(
        Output("new-mode", "value"),
        Output("new-stall", "value"),
        Input("new-vs-bot", "n_clicks"),
        State("new-stall", "value"),
        prevent_initial_call=True,
    )(against_the_bot)
    app.callback(
        output=[Output("new-result", "children"), Output("new-go", "pathname")],
        inputs=[Input("new-start", "n_clicks")],
        state=[State("auth-token", "data"), *_fields(State)],
        prevent_initial_call=True,
    )(start)
    app.clientside_callback(
        ClientsideFunction("howlSetup", "draw"),
        Output("new-drawn", "data"),
        Input("new-preview", "data"),
    )
