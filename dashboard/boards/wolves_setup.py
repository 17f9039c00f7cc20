"""The New game form of The Wolves read, checked and turned into a ``howl.game`` record:
seats (name, colour, home terrain, and who plays it: a person or a bot of
:data:`PLAYERS`), the map (random from a seed, or as laid at the table)
and W-12's options. The form's values come from a callback request, so each is read
through :mod:`dashboard.inputs` first; a problem is told at the field it belongs to.

>>> rows = [read_seat("Ana", "blue", "forest"), read_seat("x" * 99, "red", "forest")]
>>> [(p.seat, p.field, p.message) for p in seat_problems(rows)]  # doctest: +NORMALIZE_WHITESPACE
[(1, 'name', 'longer than 64 characters'),
 (1, 'terrain', 'forest is the home terrain of seat 1 (each terrain once, W-4.5)')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dashboard.inputs import choice, day, integer, text
from dashboard.palette import SEAT_COLORS, TERRAIN_COLORS
from domain.bounds import text_problem
from domain.documents import MAX_META_VALUE, record_document
from domain.wolves import components as box
from domain.wolves import records
from domain.wolves.components import Phase, PreyType, Terrain
from domain.wolves.maps import build_map, tile_hexes
from domain.wolves.setup import Options, Setup, generate_setup
from domain.wolves.tabletop import LaidTile, Problem, TableLayout, laid_setup, problems
from domain.wolves.tabletop import table_layout as box_layout

COLORS = tuple(name for name in SEAT_COLORS if name != "gray")
"""The seat colours the board draws by name (``grey`` once)."""
MODES = ("random", "table")
"""The map: dealt by the engine from a seed, or as laid at the table."""
MAX_SEED = records.MAX_SEED
MAX_TITLE = 200
"""Longest title the form takes (records keep up to 1000 characters of meta)."""
SOURCE = "recorded at the table"
BOT_SOURCE = "played against the bot"
PERSON = "person"
PLAYERS = {
    PERSON: "A person",
    "heuristic": "Bot: heuristic",
    **{f"review:{d}": f"Bot: review, depth {d}" for d in range(1, 5)},
}
"""Who may play a seat: a person, or a bot and its strength (``review:<depth>``, 1 … 4);
a bot moves by itself at the table."""
LONE_WOLVES = (2, 3)
"""Lone wolves per region a random map may have (W-12)."""
FLAGS = ("random_terrain", "big_map", "auto_push")
"""The W-12 options that are on or off."""
PHASE_LETTERS = {"crescent": "C", "quarter": "Q", "full": "F"}


@dataclass(frozen=True)
class Seat:
    """One row of the players' table as entered (None: nothing usable chosen)."""

    name: str | None
    color: str | None
    terrain: Terrain | None
    player: str = PERSON
    """Who plays the seat: a key of :data:`PLAYERS`."""

    def bot_fields(self) -> dict[str, Any]:
        """The seat's ``bot`` and ``bot_depth`` as a record writes them (none for a person)."""
        if self.player == PERSON:
            return {}
        bot, _, depth = self.player.partition(":")
        return {"bot": bot, **({"bot_depth": int(depth)} if depth else {})}


@dataclass(frozen=True)
class SeatProblem:
    """Why seat ``seat``'s ``field`` (``name``, ``color``, ``terrain``) cannot be so."""

    seat: int
    field: str
    message: str


@dataclass(frozen=True)
class Form:
    """The whole form as entered."""

    players: tuple[Seat, ...] = ()
    title: str | None = None
    played_on: str | None = None
    mode: str = "table"
    seed: int | None = None
    flags: frozenset[str] = frozenset()
    lone_wolves: int = 2
    stall_limit: int | None = None
    laid: tuple[LaidTile, ...] = ()
    problems: dict[str, str] = field(default_factory=dict)
    """Fields whose value could not be read (``seed``, ``stall_limit``, ``played_on``,
    ``title``) with why."""

    @property
    def options(self) -> Options:
        """The W-12 options: the map options only on a random map, the big map only for two."""
        random_map = self.mode == "random"
        return Options(
            random_terrain=random_map and "random_terrain" in self.flags,
            lone_wolves_per_region=self.lone_wolves if random_map else 2,
            big_map=len(self.players) == 2 and "big_map" in self.flags,
            stall_limit_rounds=self.stall_limit,
            auto_push="auto_push" in self.flags,
        )

    @property
    def layout(self) -> TableLayout:
        """The tile positions and the box's stacks for this many players."""
        return table_layout(len(self.players), self.options)


def table_layout(players: int, options: Options) -> TableLayout:
    """:func:`domain.wolves.tabletop.table_layout` for a player count the form may show."""
    return box_layout(min(max(players, records.MIN_PLAYERS), records.MAX_PLAYERS), options)


def read_seed(value: Any) -> int | None:
    """A seed typed as digits (as text: a browser's numbers stop being exact past 2^53).

    >>> read_seed("9223372036854775807"), read_seed(" 42 "), read_seed("-1"), read_seed("4e2")
    (9223372036854775807, 42, None, None)
    """
    digits = text(value, 40)
    if digits is None or not digits.isdigit() or not digits.isascii():
        return None
    number = int(digits)
    return number if number <= MAX_SEED else None


def read_seat(name: Any, color: Any, terrain: Any, player: Any = PERSON) -> Seat:
    """A players' row from the callback's values (the name as typed, cut just past what a
    record holds, so that a long one is told as too long; who plays it, a person unless a
    bot of :data:`PLAYERS` is chosen)."""
    typed = name[: records.MAX_TEXT + 1] if isinstance(name, str) else None
    plays = choice(player, tuple(PLAYERS)) or PERSON
    return Seat(typed, choice(color, COLORS), choice(terrain, box.TERRAINS), plays)


def stack_of(value: Any, layout: TableLayout) -> tuple[Phase, ...] | None:
    """A scoring stack from its radio value (``crescent+quarter``), if the box has it."""
    stacks = {"+".join(stack): stack for stack, _ in layout.stacks}
    found = choice(value, tuple(stacks))
    return None if found is None else stacks[found]


def read_laid(tile: Any, scoring: Any, prey: Any, layout: TableLayout) -> LaidTile:
    """One position's entries (a tile number outside 1–10 is kept, to be refused)."""
    number = integer(tile, range(-(2**31), 2**31))
    kind: PreyType | None = choice(prey, box.PREY_TYPES)
    return LaidTile(number, stack_of(scoring, layout), kind)


def read_form(
    seats: Sequence[Seat], title: Any, played_on: Any, mode: Any, seed: Any, flags: Any,
    lone_wolves: Any, stall_limit: Any, tiles: Sequence[Any], scorings: Sequence[Any],
    preys: Sequence[Any],
) -> Form:  # fmt: skip
    """The form from the callback's values: ``tiles``, ``scorings`` and ``preys`` list every
    position's entries (those past the layout's positions are ignored)."""
    found: dict[str, str] = {}
    blank = title is None or isinstance(title, str) and not title.strip()
    named = None if blank else text(title, MAX_TITLE)
    if not blank and named is None:
        found["title"] = f"a title of at most {MAX_TITLE} characters, or none"
    if day(played_on) is None:
        found["played_on"] = "a date as YYYY-MM-DD"
    chosen = choice(mode, MODES, "table") or "table"
    number = read_seed(seed)
    if chosen == "random" and number is None:
        found["seed"] = f"a whole number from 0 to {MAX_SEED}"
    limit = None
    if stall_limit not in (None, ""):  # typed as digits: a browser's number field
        typed = stall_limit if type(stall_limit) is int else read_seed(stall_limit)  # sends
        # nothing for a value out of its range
        limit = typed if typed is not None and 1 <= typed <= records.MAX_STALL_LIMIT else None
        if limit is None:
            found["stall_limit"] = (
                f"a number of rounds from 1 to {records.MAX_STALL_LIMIT}, or empty for none"
            )
    on = frozenset(f for f in flags if f in FLAGS) if isinstance(flags, list) else frozenset()
    form = Form(
        players=tuple(seats),
        title=named,
        played_on=text(played_on, 10),
        mode=chosen,
        seed=number,
        flags=on,
        lone_wolves=choice(lone_wolves, LONE_WOLVES, 2) or 2,
        stall_limit=limit,
        problems=found,
    )
    layout = form.layout
    count = len(layout.positions)
    laid = tuple(
        read_laid(t, s, p, layout)
        for t, s, p in zip(tiles[:count], scorings[:count], preys[:count], strict=True)
    )
    return dataclasses.replace(form, laid=laid)


def seat_problems(seats: Sequence[Seat]) -> list[SeatProblem]:
    """What keeps the seats from a record: a name empty, too long or holding what a record
    cannot (records.md), a name, colour or home terrain another seat has (W-4.5)."""
    found: list[SeatProblem] = []
    names: dict[str, int] = {}
    colors: dict[str, int] = {}
    terrains: dict[str, int] = {}
    for seat, row in enumerate(seats):
        name = (row.name or "").strip()
        problem = text_problem(name, records.MAX_TEXT) if name else "a name is needed"
        if problem is None and name in names:
            problem = f"seat {names[name] + 1} has this name"
        if problem is not None:
            found.append(SeatProblem(seat, "name", problem))
        names.setdefault(name, seat)
        if row.color is None:
            found.append(SeatProblem(seat, "color", "choose a colour"))
        elif row.color in colors:
            message = f"{row.color} is the colour of seat {colors[row.color] + 1}"
            found.append(SeatProblem(seat, "color", message))
        else:
            colors[row.color] = seat
        if row.terrain is None:
            found.append(SeatProblem(seat, "terrain", "choose a home terrain"))
        elif row.terrain in terrains:
            message = f"{row.terrain} is the home terrain of seat {terrains[row.terrain] + 1}"
            found.append(SeatProblem(seat, "terrain", f"{message} (each terrain once, W-4.5)"))
        else:
            terrains[row.terrain] = seat
    return found


def map_problems(form: Form) -> list[Problem]:
    """What the box forbids in the positions laid so far (:func:`tabletop.problems`)."""
    return problems(form.layout, form.laid) if form.mode == "table" else []


def setup_of(form: Form) -> Setup:
    """The form's setup: the engine's deal for the seed, or the layout as laid;
    ``ValueError`` for a seed missing or a position not fully entered."""
    options = form.options
    if form.mode == "random":
        if form.seed is None:
            raise ValueError("the random map needs a seed")
        return generate_setup(len(form.players), form.seed, options)
    return laid_setup(form.layout, form.laid, options)


def record_of(form: Form) -> dict[str, Any]:
    """The ``howl.game`` document the form describes (no actions: the draft is next).
    ``ValueError`` when the setup is not complete (see :func:`setup_of`)."""
    setup = setup_of(form)
    names = [(row.name or "").strip() for row in form.players]
    bots = any(row.player != PERSON for row in form.players)
    meta = {"title": form.title or " vs ".join(names)[:MAX_META_VALUE],
            "source": BOT_SOURCE if bots else SOURCE}  # fmt: skip
    if form.played_on:
        meta["played_on"] = form.played_on
    players = [
        {"name": name, "color": row.color, "terrain": row.terrain, **row.bot_fields()}
        for name, row in zip(names, form.players, strict=True)
    ]
    return record_document(records.GAME, players, [], meta, setup=records.setup_to_json(setup))


# --- the map preview ------------------------------------------------------------------------


def preview(form: Form) -> dict[str, Any]:
    """What the page's script draws: every hex ``[x, y, ground or "", group]`` (group 0 is
    the start tile, else the position or region), scoring tokens ``[x, y, letters]``, prey
    ``[x, y, type, count]``, lone wolves ``[x, y]`` and labels ``[x, y, text, group]``; for a
    random map whose seed is not usable, no hexes."""
    if form.mode == "table":
        return _laid_preview(form.layout, form.laid)
    try:
        setup = setup_of(form)
    except ValueError:
        return {"hexes": [], "tokens": [], "prey": [], "lone": [], "labels": []}
    if setup.custom_map is None:
        laid = [LaidTile(t.tile, t.scoring, t.prey[0] if t.prey else None) for t in setup.tiles]
        return _laid_preview(form.layout, laid)
    return _map_preview(setup)


def _start_hexes(layout: TableLayout) -> list[list[Any]]:
    if layout.start is None:
        return []
    sx, sy = layout.start
    return [[sx + ox, sy + oy, ground, 0] for (ox, oy), ground, _ in box.START_TILE]


def _laid_preview(layout: TableLayout, laid: Sequence[LaidTile]) -> dict[str, Any]:
    hexes, tokens, prey, lone, labels = _start_hexes(layout), [], [], [], []
    for position, (centre, rotated) in enumerate(layout.positions, start=1):
        entry = laid[position - 1] if position <= len(laid) else LaidTile()
        known = entry.tile in box.TILE_TERRAINS
        cells = tile_hexes(entry.tile if known and entry.tile else 1, centre, rotated)
        for (x, y), ground, marker in cells:
            hexes.append([x, y, ground if known or ground == box.WATER else "", position])
            if marker == box.LONE_WOLF and known:
                lone.append([x, y])
            elif marker == box.PREY and entry.prey is not None:
                prey.append([x, y, entry.prey, layout.prey_count])
        if entry.scoring:
            tokens.append([*centre, "".join(PHASE_LETTERS[p] for p in entry.scoring)])
        label = f"{position}: tile {entry.tile}" if known else f"{position}"
        labels.append([centre[0], centre[1] - 1, label, position])
    return {"hexes": hexes, "tokens": tokens, "prey": prey, "lone": lone, "labels": labels}


def _map_preview(setup: Setup) -> dict[str, Any]:
    gmap = build_map(setup)
    assert setup.custom_map is not None
    regions = {r.id: r for r in setup.custom_map.regions}
    hexes = [[h[0], h[1], g, gmap.region_of.get(h, 0)] for h, g in gmap.terrain.items()]
    tokens, prey, labels = [], [], []
    for region_id in gmap.regions:
        water = gmap.water_of(region_id)
        region = regions[region_id]
        if water is None:
            continue
        if region.scoring:
            tokens.append([*water, "".join(PHASE_LETTERS[p] for p in region.scoring)])
        labels.append([water[0], water[1] - 1, f"R{region_id}", region_id])
        for h in gmap.region_hexes[region_id]:
            if gmap.markers.get(h) == box.PREY and region.prey:
                prey.append([h[0], h[1], region.prey[0], region.prey[1]])
    lone = [[h[0], h[1]] for h, m in gmap.markers.items() if m == box.LONE_WOLF]
    return {"hexes": hexes, "tokens": tokens, "prey": prey, "lone": lone, "labels": labels}


TERRAIN_FILLS = {**TERRAIN_COLORS, "": "#FFFFFF"}
"""The preview's fill per ground ("": a position whose tile is not entered yet)."""
