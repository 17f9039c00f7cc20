"""The Wolves' board view: the hex map, the player boards, the Moonlight track, the region
control chart and the VP breakdown of the score chart (:mod:`dashboard.boards`).

The map needs no plotly: ``drawing`` is what never changes (terrain, terrain letters, region
outlines and labels), which ``assets/boards/wolves.js`` draws as an SVG sized by its
container, a shape per hex whose hover box the browser fills; over it, at the same scale, it
draws each step's pieces and tokens from the compact lists of ``frame``, and writes the
player boards and the Moonlight track. The map's key (``legend``) is HTML under it. Hexes
are pointy-topped: ``(x, y)`` is drawn at ``(sqrt(3) * (x - y / 2), 1.5 * y)`` with y
pointing down (W-1).

>>> centre((2, 2))
(1.732, 3.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from dash import html
from dash.development.base_component import Component

from dashboard.boards import TableBoard
from dashboard.charts import Marks, ScoreChart, base_layout, mark_shapes, milestones
from dashboard.game import Game
from dashboard.palette import (
    AUTOMATON_COLOR,
    EMPTY,
    TERRAIN_COLORS,
    TERRAIN_INK,
    TERRAIN_LETTERS,
    TIED,
    player_color,
    tint,
)
from domain.hexes import Hex, neighbours
from domain.ruleset import IllegalAction, InvalidRecord, StepFacts
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.legal import payment
from domain.wolves.maps import GameMap
from domain.wolves.records import action_from_json
from domain.wolves.rules import play
from domain.wolves.state import State, Table

SQRT3 = math.sqrt(3)
KINDS = ("den", "lair", "pack", "alpha")
"""Player piece kinds in drawing order (index used in frames)."""
SYMBOLS = {"alpha": "star", "pack": "circle", "den": "square", "lair": "pentagon"}
KIND_NAMES = {"alpha": "alpha", "pack": "pack wolf", "den": "den", "lair": "lair"}
PHASE_LETTERS = {"crescent": "C", "quarter": "Q", "full": "F"}
LAND_ORDER = ("forest", "mountain", "grassland", "tundra", "desert", "water", "chasm")
AREAS = ("regions", "spread", "speed", "howl", "lairs", "prey", "pack")
"""The VP sources the score chart's hover lists."""
MARKS = ("phase_scored",)
"""The milestones the charts and the slider mark: each phase scored."""


def centre(h: Hex) -> tuple[float, float]:
    """Where a hex's centre is drawn."""
    return round(SQRT3 * (h[0] - h[1] / 2), 3), round(1.5 * h[1], 3)


def _corner(px: float, py: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return round(px + math.cos(a), 3), round(py + math.sin(a), 3)


def outlines(gmap: GameMap) -> list[list[float]]:
    """Edges between hexes of different regions (the start tile counts as one group), as
    ``[x0, y0, x1, y1]`` in map units."""
    group = {h: gmap.region_of.get(h, 0) for h in gmap.terrain}
    edges = []
    for h, g in group.items():
        px, py = centre(h)
        for n in neighbours(h):
            if group.get(n) == g:
                continue
            nx, ny = centre(n)
            angle = math.degrees(math.atan2(ny - py, nx - px))
            edges.append([*_corner(px, py, angle - 30), *_corner(px, py, angle + 30)])
    return edges


def describe_hex(gmap: GameMap, h: Hex) -> str:
    """The static part of a hex's hover text."""
    parts = [f"({h[0]}, {h[1]}) {gmap.terrain[h]}"]
    region = gmap.region_of.get(h)
    if region is not None:
        parts.append(f"region {region}")
    elif gmap.terrain[h] != box.CHASM:
        parts.append(f"start tile, {gmap.side.get(h, '')} side")
    marker = gmap.markers.get(h)
    if marker:
        parts.append(marker.replace("_", "-") + " space")
    if h in gmap.lair_sites:
        parts.append("lair site")
    return " · ".join(parts)


PIECE_KEYS = (
    ("★", "alpha"), ("●", "pack wolf"), ("⬟", "lair"), ("■", "den"), ("◆", "lone wolf"),
    ("▼", "prey (count)"), ("C/Q/F", "scoring tokens"),
)  # fmt: skip
"""The pieces' symbols as the map's key lists them (``assets/boards/wolves.js`` draws them)."""


LABEL_Y = 0.42
"""How far above its hex's centre a region's label stands (in hex radii)."""
MARGIN_X, MARGIN_Y = 1.3, 1.2
"""The map's room around its outer hexes' centres (in hex radii)."""


def region_labels(gmap: GameMap) -> dict[Hex, int]:
    """The water hex that carries each region's label (``R1``…), and the region."""
    return {w: r for r in gmap.regions if (w := gmap.water_of(r)) is not None}


def letter_spots(gmap: GameMap) -> list[list[float]]:
    """Where each hex's terrain letter stands (in :func:`hexes` order): near its top corner,
    where no piece or token is drawn; on a region's labelled water hex left of the label, so
    the two never run into each other on a phone."""
    labelled = region_labels(gmap)
    return [
        [round(x - 0.62, 3), round(y - LABEL_Y, 3)] if h in labelled else [x, round(y - 0.66, 3)]
        for h in sorted(gmap.terrain, key=_order)
        for x, y in [centre(h)]
    ]


def drawing(gmap: GameMap) -> dict[str, Any]:
    """The static map as ``assets/boards/wolves.js`` draws it, in map units: the ``range``
    shown ``[x0, x1, y0, y1]``, each hex's ``terrain`` and terrain letter's place
    (:func:`letter_spots`, both in :func:`hexes` order), the region ``outlines``
    (:func:`outlines`) and the region ``labels`` ``[x, y, text]``; the letters and their
    ink by terrain (``palette.TERRAIN_LETTERS``, ``TERRAIN_INK``): the terrain told apart
    without colour."""
    xs, ys = zip(*(centre(h) for h in gmap.terrain), strict=True)
    labels = region_labels(gmap)
    return {
        "range": [round(min(xs) - MARGIN_X, 3), round(max(xs) + MARGIN_X, 3),
                  round(min(ys) - MARGIN_Y, 3), round(max(ys) + MARGIN_Y, 3)],
        "terrain": [gmap.terrain[h] for h in sorted(gmap.terrain, key=_order)],
        "letters": letter_spots(gmap),
        "outlines": outlines(gmap),
        "labels": [[round(centre(w)[0] + 0.3, 3), round(centre(w)[1] - LABEL_Y, 3), f"R{r}"]
                   for w, r in labels.items()],
        "letter": dict(TERRAIN_LETTERS),
        "ink": dict(TERRAIN_INK),
    }  # fmt: skip


def legend(state: State) -> Component:
    """The map's key, under it: the terrains it shows, the seats with their colours (and the
    automaton's in a two-player game) and the pieces' symbols."""
    gmap = state.table.map
    shown = set(gmap.terrain.values())
    terrains = [
        html.Span([html.Span(TERRAIN_LETTERS[t], className="swatch", style={
            "background": TERRAIN_COLORS[t], "color": TERRAIN_INK[t]}), t], className="who")
        for t in LAND_ORDER if t in shown
    ]  # fmt: skip
    seats = [
        html.Span(
            [html.Span(className="dot", style={"background": color}), f"{p.name} ({p.terrain})"],
            className="who",
        )
        for p, color in zip(state.table.players, seat_colors(state), strict=False)
    ]
    if state.table.two_player:
        automaton = html.Span(className="dot", style={"background": AUTOMATON_COLOR})
        seats.append(html.Span([automaton, "automaton pack"], className="who"))
    pieces = [html.Span(f"{glyph} {name}", className="who") for glyph, name in PIECE_KEYS]
    rows = (("terrain", terrains), ("players", seats), ("pieces", pieces))
    return html.Div(
        [html.Div([html.Span(head, className="map-key-head"), *keys]) for head, keys in rows],
        className="map-key",
    )


def _map(state: State, map_id: str, layers: Sequence[Component]) -> Component:
    """The map sized by its container at its own width-to-height ratio (CSS ``--ratio``)
    with the layers over it, and its key under it; ``assets/boards/wolves.js`` draws the
    map (:func:`drawing`) into ``map_id``."""
    x0, x1, y0, y1 = drawing(state.table.map)["range"]
    return html.Div(
        [
            html.Div(
                [html.Div(id=map_id, className="map"), *layers],
                className="board map-frame",
                style={"--ratio": f"{(x1 - x0) / (y1 - y0):.3f}"},
            ),
            legend(state),
        ],
        className="wolves-map",
    )


def table_board(state: State) -> Component:
    """The table page's map (:func:`_map`) with the layer the page's script draws pieces
    and choices on."""
    layer = html.Div(id="table-board", className="overlay table-overlay")
    return _map(state, "table-map", [layer])


def hexes(gmap: GameMap) -> list[list[Any]]:
    """Every hex as ``[x, y, static hover text]`` (the browser adds what stands there)."""
    return [[h[0], h[1], describe_hex(gmap, h)] for h in sorted(gmap.terrain, key=_order)]


def _order(h: Hex) -> tuple[int, int]:
    return h[1], h[0]


def frame(state: State, caused: Sequence[ev.Event] = ()) -> dict[str, list[list[Any]]]:
    """One step's map: pieces ``[x, y, kind, seat]`` (seat -1: automaton), lone wolves
    ``[x, y]``, prey ``[x, y, type, count]``, scoring tokens ``[x, y, letters, region]`` and
    the hexes the step's action touched ``[x, y]``."""
    gmap = state.table.map
    pieces = [
        [h[0], h[1], KINDS.index(p.kind), -1 if p.player is None else p.player]
        for h in sorted(state.pieces, key=_order)
        for p in sorted(state.pieces[h], key=lambda p: KINDS.index(p.kind))
    ]
    tokens = []
    for region in gmap.regions:
        stack = state.scoring.get(region) or ()
        water = gmap.water_of(region)
        if stack and water is not None:
            letters = "".join(PHASE_LETTERS.get(t, "?") for t in stack)
            tokens.append([water[0], water[1], letters, region])
    return {
        "p": pieces,
        "l": [[h[0], h[1]] for h in sorted(state.lone_wolves, key=_order)],
        "r": [[h[0], h[1], kind, count] for h, (kind, count) in sorted(state.prey.items())],
        "k": tokens,
        "h": [[h[0], h[1]] for h in touched(caused)],
    }


def touched(caused: Sequence[ev.Event]) -> list[Hex]:
    """Hexes a step's action moved to, from or acted on (for the last-move highlight)."""
    found: dict[Hex, None] = {}
    for e in caused:
        if isinstance(e, ev.WolvesMoved):
            for m in e.moves:
                found.setdefault(m.src)
                found.setdefault(m.dst)
        elif isinstance(e, ev.WolfPushed):
            found.setdefault(e.dst)
        elif isinstance(e, ev.RegionScored | ev.PreyHunted):
            continue
        elif isinstance(hex_ := getattr(e, "hex", None), tuple):
            found.setdefault(hex_)
    return list(found)


def seat_colors(state: State) -> list[str]:
    """Display colour of each seat, then the automaton's."""
    players = state.table.players
    return [player_color(p.color, i) for i, p in enumerate(players)] + [AUTOMATON_COLOR]


def board_row(state: State, seat: int) -> list[Any]:
    """One seat's board: ``[showing, dens…(3), lairs, wolves, prey, bonus terrain,
    bonus action, region points, region tokens]``; ``showing`` is one terrain index per
    tile slot (``components.TERRAINS``), as a string."""
    b = state.boards[seat]
    showing = "".join(str(box.TERRAINS.index(state.showing(seat, s))) for s in range(6))
    return [
        showing, *b.dens, b.lairs, b.wolves, list(b.prey), b.bonus_terrain, b.bonus_action,
        b.region_points, b.region_tokens,
    ]  # fmt: skip


def static_data(table: Table, colors: Sequence[str]) -> dict[str, Any]:
    """What the script draws every step with: the seats, the symbols, terrains and tracks, the
    Moonlight phase dates, the map's hexes (:func:`hexes`) and the map (:func:`drawing`)."""
    return {
        "players": [
            {"name": p.name, "color": colors[i], "terrain": p.terrain}
            for i, p in enumerate(table.players)
        ],
        "automaton": AUTOMATON_COLOR,
        "two_player": table.two_player,
        "terrains": list(box.TERRAINS),
        "terrain_colors": TERRAIN_COLORS,
        "kinds": list(KINDS),
        "kind_names": [KIND_NAMES[k] for k in KINDS],
        "symbols": [SYMBOLS[k] for k in KINDS],
        "tracks": {t: list(v) for t, v in box.TRACK_VALUES.items()},
        "phases": list(box.PHASES),
        "phase_dates": list(table.phase_dates),
        "hexes": hexes(table.map),
        "map": drawing(table.map),
    }


def table_data(state: State) -> dict[str, Any]:
    """What the table page draws a position with (its ``howl.position`` document turned into a
    frame in the browser): :func:`static_data`, the terrain of every land hex (``"x,y"``),
    each region's water source, each seat's tile faces ``[front, back]`` per slot and the
    actions' costs (W-6)."""
    table = state.table
    gmap = table.map
    seats = range(len(table.players))
    return {
        **static_data(table, seat_colors(state)),
        "land": {f"{h[0]},{h[1]}": t for h, t in gmap.land.items()},
        "water": {str(r): list(w) for r in gmap.regions if (w := gmap.water_of(r)) is not None},
        "faces": [
            [
                [table.terrain_showing(seat, slot, side) for side in (False, True)]
                for slot in range(6)
            ]
            for seat in seats
        ],
        "costs": dict(box.COSTS),
    }


def push_choices(state: State, action: dict[str, Any]) -> dict[str, Any] | None:
    """Where the player may send a wolf that ``action`` (records.md JSON) pushes, when it may
    go to more than one nearest hex (W-6.6): ``{"index": the move step or None for a lair,
    "from": the hex it is pushed off, "options": [hexes]}`` for the first such push the
    action does not name a ``push_to`` for; None when there is none (or the action is
    illegal: entering it says why). The engine decides each candidate by playing the action
    with it."""
    steps = action.get("moves") if action.get("type") == "move" else [action]
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        return None

    def plays(doc: dict[str, Any]) -> list[ev.Event] | None:
        try:
            return list(play(state, action_from_json(doc, "action"))[1])
        except (IllegalAction, InvalidRecord):
            return None

    events = plays(action)
    for pushed in (e for e in events or () if isinstance(e, ev.WolfPushed)):
        at = [i for i, s in enumerate(steps) if s.get("to", s.get("hex")) == list(pushed.src)]
        if not at or "push_to" in steps[at[0]]:
            continue
        index = at[0] if action["type"] == "move" else None
        reach = state.table.map.steps_from(pushed.src)
        options = []
        for h in sorted(reach, key=_order):
            if reach[h] != reach[pushed.dst]:
                continue
            tried = [dict(s) for s in steps]
            tried[at[0]]["push_to"] = list(h)
            doc = {**action, "moves": tried} if index is not None else tried[0]
            if h == pushed.dst or plays(doc) is not None:
                options.append(list(h))
        if len(options) > 1:
            return {"index": index, "from": list(pushed.src), "options": options}
    return None


def move_payments(state: State) -> dict[str, dict[str, Any]]:
    """The engine's payment (records.md ``pay``) of a Move by the seat to act ending on each
    terrain it can pay for (W-6, W-6.1), for the table page to show before it is sent."""
    if state.finished or state.drafting:
        return {}
    found = {t: payment(state, state.player, box.COSTS["move"], t) for t in box.TERRAINS}
    return {
        t: {"tiles": list(pay.tiles or ()), "bonus_terrain": pay.bonus_terrain or 0}
        for t, pay in found.items()
        if pay is not None
    }


VP_FIELDS = ("total", "regions", "spread", "speed", "howl", "lairs", "prey", "pack", "place")


def vp_rows(facts: StepFacts) -> list[list[int]]:
    """Every seat's score in a step's facts as the player boards show it (:data:`VP_FIELDS`)."""
    return [[s.total, *(s.parts.get(f, 0) for f in VP_FIELDS[1:-1]), s.place] for s in facts.scores]


def _who(key: str | None, names: Sequence[str]) -> str:
    if key is None:
        return "nobody"
    return "the automaton" if key == "automaton" else names[int(key)]


def control_figure(
    rows: Sequence[dict[str, Any]], names: Sequence[str], colors: Sequence[str]
) -> dict[str, Any]:
    """A heatmap region × step coloured by the leader, darker for a bigger lead, with
    each region's scorings marked; its hover says who leads by how much, and why when the
    control is tied (W-8: more alphas)."""
    keys = [str(s) for s in range(len(names))]
    if any("automaton" in c["control"] for row in rows for c in row["control"]):
        keys.append("automaton")
    bands = len(keys) + 1  # band 0: nobody / tied
    regions = [c["region"] for c in rows[0]["control"]]
    z: list[list[float]] = []
    text: list[list[str]] = []
    for i, _region in enumerate(regions):
        zrow, trow = [], []
        for row in rows:
            cell = row["control"][i]
            held = sorted(cell["control"].items(), key=lambda kv: -kv[1])
            leader = cell["leader"]
            if leader is None:
                zrow.append(0.9 if held else 0.1)
                head = "tied on control and alphas (W-8)" if held else "empty"
            else:
                strength = min(cell["margin"], 4) / 4
                zrow.append(keys.index(leader) + 1 + 0.05 + 0.9 * strength)
                head = f"{_who(leader, names)} leads by {cell['margin']}"
                if not cell["margin"]:
                    head = f"{_who(leader, names)} leads on alphas, tied on control (W-8)"
            standing = ", ".join(f"{_who(k, names)} {v}" for k, v in held) or "no pieces"
            trow.append(f"step {row['step']} · {head}<br>{standing}")
        z.append(zrow)
        text.append(trow)
    scale: list[list[Any]] = [[0, EMPTY], [0.999 / bands, TIED]]
    contender_colors = [*colors[: len(names)], colors[-1]]
    for k, key in enumerate(keys, start=1):
        color = contender_colors[-1] if key == "automaton" else contender_colors[int(key)]
        scale.append([k / bands, tint(color, 0.3 if key != "automaton" else 0.45)])
        scale.append([(k + 0.999) / bands, color])
    scale[-1][0] = 1
    first_tokens = {c["region"]: c["top"] for c in rows[0]["control"]}
    labels = [f"R{r} {first_tokens.get(r) or ''}".strip() for r in regions]
    data: list[dict[str, Any]] = [{
        "type": "heatmap", "z": z, "x": [row["step"] for row in rows], "y": labels,
        "zmin": 0, "zmax": bands, "colorscale": scale, "showscale": False, "text": text,
        "hovertemplate": "%{y}, %{text}<extra></extra>", "xgap": 0, "ygap": 1,
    }]  # fmt: skip
    mx, my, mtext = [], [], []
    for row in rows:
        for scored in row["scoring"]:
            placed = [s for s in scored["standings"] if s["place"] is not None]
            who = ", ".join(
                f"{'the automaton' if s['seat'] is None else names[s['seat']]} {s['points']}"
                for s in placed
            )
            mx.append(row["step"])
            my.append(labels[regions.index(scored["region"])])
            mtext.append(f"{scored['phase']} scoring: {who or 'nobody'}")
    data.append({
        "type": "scatter", "mode": "markers", "x": mx, "y": my, "text": mtext,
        "marker": {"symbol": "star", "size": 11, "color": "#FFFFFF",
                   "line": {"color": "#111", "width": 1.3}},
        "hovertemplate": "%{y} · step %{x}<br>%{text}<extra></extra>", "name": "scored",
    })  # fmt: skip
    shapes, notes = mark_shapes(milestones(rows, MARKS))
    layout = base_layout(rows, 60 + 22 * len(regions), "Region control (colour: leader)")
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "closest",
        "yaxis": {"autorange": "reversed", "fixedrange": True, "tickfont": {"size": 10}},
    })  # fmt: skip
    return {"data": data, "layout": layout}


class WolvesView:
    """The Wolves' board view (:class:`~dashboard.boards.BoardView`)."""

    game = "the-wolves"
    script = "the-wolves"
    score = ScoreChart("Victory points", "VP", AREAS, "replay-vp")

    def marked(self, game: Game) -> Marks:
        """Each phase scored."""
        return milestones(game.rows, MARKS)

    def data(self, game: Game) -> dict[str, Any]:
        """The map's hexes and the symbols, terrains and tracks the script draws with; per
        step the pieces and tokens (:func:`frame`), the seats' boards and VP, the Moonlight
        date, whose turn it is with how many actions left, whether the game is over."""
        library, game_id, rows = game.library, game.game_id, game.rows
        caused: list[list[Any]] = [[] for _ in rows]
        for stored in library.game_events(game_id):
            caused[stored.step + 1].append(stored.event)
        table = game.first.table
        steps = []
        for n, row in enumerate(rows):
            state = library.state_at(game_id, n)
            steps.append({
                **frame(state, caused[n]),
                "b": [board_row(state, seat) for seat in range(len(game.names))],
                "v": [[v[f] for f in VP_FIELDS] for v in row["vp"]],
                "m": row["moonlight"],
                "t": row["turn"],
                "a": state.actions_left,
                "f": row["finished"],
            })  # fmt: skip
        return {**static_data(table, game.colors), "steps": steps}

    def board(self, game: Game) -> Component:
        """The map (:func:`_map`) with the layer the script draws the pieces on and its
        hover box."""
        layers = [
            html.Div(id="replay-board", className="overlay"),
            html.Div(id="replay-hover", className="hover-box"),
        ]
        return _map(game.first, "replay-map", layers)

    def panels(self, game: Game) -> list[Component]:
        """The Moonlight track and the player boards (the script writes both)."""
        return [
            html.Div(id="replay-moon", className="moonlight"),
            html.Div(id="replay-boards", className="player-boards"),
        ]

    def charts(self, game: Game) -> list[tuple[str, dict[str, Any]]]:
        """The region control heatmap."""
        figure_ = control_figure(game.rows, game.names, seat_colors(game.first))
        return [("replay-control", figure_)]


WOLVES = WolvesView()
"""The Wolves' board view (registered in :mod:`dashboard.boards`)."""
TABLE = TableBoard("the-wolves", table_board, table_data, push_choices, move_payments, vp_rows)
"""The Wolves' clickable board on the table page (registered in :mod:`dashboard.boards`)."""
