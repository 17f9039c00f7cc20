"""Game records (``howl.game``): the open JSON format of records.md, read and written.

Reading checks every value where it stands, in the document's order, with the bounds of
:mod:`domain.bounds`, then what the structure alone cannot say (player count, home
terrains, hexes on the map); the first problem is an :class:`InvalidRecord` naming its
JSON path. Each reader returns the value with its type: the game's words as the
``Literal`` types of :mod:`domain.wolves.components`. Writing gives canonical bytes:
sorted keys, compact separators, UTF-8, so one game always serialises to the same bytes.

>>> from domain.wolves.setup import Player, generate_setup
>>> players = (Player("Ana", "blue", "forest"), Player("Bo", "red", "tundra"))
>>> record = Record(players=players, setup=generate_setup(2, seed=7))
>>> read_record(write_record(record)) == record
True
>>> read_record(b'{"format": "howl.game", "version": 2}')
Traceback (most recent call last):
...
domain.ruleset.InvalidRecord: version: expected 1, got 2
>>> action_from_json({"type": "den", "player": 0, "hex": [9, 8], "track": "teeth"}, "actions[4]")
Traceback (most recent call last):
...
domain.ruleset.InvalidRecord: actions[4].track: unknown track 'teeth' (one of spread, speed, howl)
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeVar

from domain import bounds, documents
from domain.bounds import (
    NOT_NULL,
    REQUIRED,
    boolean,
    choice,
    integer,
    is_int,
    items,
    mapping,
    text,
)
from domain.documents import canonical_json, check_meta, join, parse
from domain.hexes import Hex, fmt
from domain.ruleset import InvalidRecord
from domain.seat_bots import bot_json, read_bot
from domain.wolves import components as box
from domain.wolves.actions import (
    Action,
    BonusAction,
    BuildDen,
    Dominate,
    Draft,
    Howl,
    Move,
    Pass,
    Pay,
    UpgradeLair,
    WolfStep,
)
from domain.wolves.components import (
    Dominable,
    Ground,
    Marker,
    Phase,
    PreyType,
    Side,
    Terrain,
    WolfKind,
)
from domain.wolves.maps import GameMap, build_map, tile_hexes
from domain.wolves.setup import CustomMap, MapHex, MapRegion, Options, Player, RegionTile, Setup

if TYPE_CHECKING:
    from domain.wolves.state import State

FORMAT = "howl.game"
VERSION = 1
GAME = "the-wolves"
SLOTS = 1 + len(box.DEFAULT_TERRAIN_TILES)
MIN_PLAYERS, MAX_PLAYERS = 2, 5

# Bounds of what a record may hold: every number, string and list is checked against one
# of these before the engine sees it, so nothing read can overflow a database column.
MAX_COORD = 1000
"""Largest ``|x|`` or ``|y|`` of a hex (the box's maps stay within 25)."""
MAX_TEXT = 64
"""Longest player name, colour or rules version."""
MAX_SEED = bounds.INT64_MAX
MAX_STALL_LIMIT = 1000
"""Largest ``stall_limit_rounds`` (W-12; the digital edition uses 10)."""
MAX_MAP_HEXES, MAX_REGIONS, MAX_REGION_ID = 1000, 64, 999
"""Most hexes and regions of a custom map, and the largest ``|id|`` of a region."""
MAX_TILES = 1 + len(box.TILE_TERRAINS)
"""The start tile and every region tile, each dealt at most once."""
MAX_WOLF_STEPS = 16
"""Most wolves one Move lists (W-6.1: the spread track reaches 4)."""
MAX_PATH = 32
"""Most hexes a wolf's ``path`` may list (W-6.1: the speed track reaches 5)."""
MAX_BONUS_TOKENS = 2 * len(box.TRACKS) + box.LAIRS + len(box.PREY_TYPES) + 1
"""Most bonus tokens of one kind a seat can hold: every one the tracks, lairs, prey and
the two-player start (W-11) can give."""
MAX_SEAT = MAX_PLAYERS - 1
BOTS = ("random", "heuristic", "review")
"""The computer players a seat may be played by (``players[i].bot``), weakest first."""
SEARCHING_BOTS = ("review",)
"""Those of :data:`BOTS` that search, ``bot_depth`` deep."""

__all__ = [
    "FORMAT", "GAME", "VERSION", "InvalidRecord", "Record", "action_from_json", "action_to_json",
    "canonical_json", "parse", "read_record", "record_to_json", "setup_from_json",
    "setup_to_json", "write_record",
]  # fmt: skip


@dataclass(frozen=True)
class Record:
    """One game as recorded: who played, where it started, and every action in order."""

    meta: dict[str, str] = field(default_factory=dict)
    players: tuple[Player, ...] = ()
    setup: Setup | None = None
    start: State | None = None
    actions: tuple[Action, ...] = ()
    rules_version: str | None = None


# --- fields ---------------------------------------------------------------------------------

T = TypeVar("T")
D = TypeVar("D")
Read = Callable[[Any, str], T]
"""A reader of one JSON value at a JSON path (:mod:`domain.bounds`'s signature)."""


def required(doc: Mapping[str, Any], key: str, path: str, read: Read[T]) -> T:
    """``doc[key]`` read by ``read``: it must be there and not ``null``."""
    value = doc.get(key)
    if value is None:
        raise InvalidRecord(join(path, key), NOT_NULL if key in doc else REQUIRED)
    return read(value, f"{path}.{key}" if path else key)


def optional(doc: Mapping[str, Any], key: str, path: str, read: Read[T], default: D) -> T | D:
    """``doc[key]`` read by ``read``, or ``default`` when it is left out (not ``null``)."""
    value = doc.get(key)
    if value is None:
        if key in doc:
            raise InvalidRecord(join(path, key), NOT_NULL)
        return default
    return read(value, join(path, key))


def nullable(doc: Mapping[str, Any], key: str, path: str, read: Read[T]) -> T | None:
    """``doc[key]`` read by ``read``; None when it is left out or ``null``."""
    value = doc.get(key)
    return None if value is None else read(value, f"{path}.{key}" if path else key)


def each(value: Any, path: str, most: int, read: Read[T]) -> list[T]:
    """A list of at most ``most`` entries, each read by ``read`` (none of them ``null``)."""
    out = []
    for i, entry in enumerate(items(value, path, most)):
        at = f"{path}[{i}]"
        if entry is None:
            raise InvalidRecord(at, NOT_NULL)
        out.append(read(entry, at))
    return out


def read_hex(value: Any, path: str) -> Hex:
    """A hex ``[x, y]`` (W-1), each coordinate within ``MAX_COORD``."""
    if type(value) is list and len(value) == 2:  # the usual case, first
        x, y = value
        if type(x) is int and type(y) is int and abs(x) <= MAX_COORD and abs(y) <= MAX_COORD:
            return (x, y)
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(map(is_int, value)):
        raise InvalidRecord(path, "A hex is [x, y]: a list of two integers.")
    x, y = value
    if abs(x) > MAX_COORD or abs(y) > MAX_COORD:
        raise InvalidRecord(
            path, f"a hex coordinate is an integer from {-MAX_COORD} to {MAX_COORD}"
        )
    return (x, y)


def between(least: int, most: int) -> Read[int]:
    """A reader of integers from ``least`` to ``most``."""

    def read(value: Any, path: str) -> int:
        return integer(value, path, least, most)

    return read


def read_seat(value: Any, path: str) -> int:
    """A seat index (0 to 4; whether it sits at this game is checked later)."""
    return integer(value, path, 0, MAX_SEAT)


def _terrain(value: Any, path: str) -> Terrain:
    return choice(value, path, "terrain", box.TERRAINS)


def _prey_type(value: Any, path: str) -> PreyType:
    return choice(value, path, "prey", box.PREY_TYPES)


def _phase(value: Any, path: str) -> Phase:
    return choice(value, path, "scoring token", box.PHASES)


def _name(value: Any, path: str) -> str:
    return text(value, path, MAX_TEXT)


_PREY_COUNT = between(1, 4)
_SEED = between(0, MAX_SEED)


def _scoring(doc: Mapping[str, Any], path: str) -> tuple[Phase, ...]:
    """A region's ``scoring`` tokens, top first (two for a two-player stack)."""
    return tuple(optional(doc, "scoring", path, lambda v, at: each(v, at, 2, _phase), ()))


def _prey(value: Any, path: str) -> tuple[PreyType, int]:
    """``{"type": "hare", "count": 2}``: a prey stack."""
    doc = mapping(value, path)
    kind = required(doc, "type", path, _prey_type)
    return kind, required(doc, "count", path, _PREY_COUNT)


# --- players and setup ----------------------------------------------------------------------


def read_player(value: Any, path: str) -> Player:
    """``{"name", "color", "terrain"}``: a seat and its home terrain, maybe played by one of
    :data:`BOTS` (``bot``; ``bot_depth`` for those of :data:`SEARCHING_BOTS`)."""
    doc = mapping(value, path)
    name = required(doc, "name", path, _name)
    color = required(doc, "color", path, _name)
    terrain = required(doc, "terrain", path, _terrain)
    return Player(name, color, terrain, *read_bot(doc, path, BOTS, SEARCHING_BOTS))


def _tile(value: Any, path: str) -> RegionTile | Hex:
    """One entry of ``setup.tiles``: a region tile, or the start tile's centre."""
    if not isinstance(value, Mapping):
        raise InvalidRecord(path, "A tile is a JSON object.")
    if value.get("tile") == "start":
        return required(value, "center", path, read_hex)
    number = value.get("tile")
    if not is_int(number):
        raise InvalidRecord(join(path, "tile"), 'A tile is a number 1 to 10 or "start".')
    tile = integer(number, join(path, "tile"), 1, len(box.TILE_TERRAINS))
    center = required(value, "center", path, read_hex)
    rotated = optional(value, "rotated", path, boolean, False)
    scoring = _scoring(value, path)
    return RegionTile(tile, center, rotated, scoring, nullable(value, "prey", path, _prey))


def _check_tiles(entries: list[RegionTile | Hex], path: str) -> tuple[Hex | None, list[RegionTile]]:
    """The start tile and the region tiles; tiles dealt once each and not overlapping."""
    start: Hex | None = None
    tiles: list[RegionTile] = []
    taken: dict[Hex, str] = {}
    numbers: set[int] = set()
    for i, entry in enumerate(entries):
        at = f"{path}[{i}]"
        if isinstance(entry, tuple):
            if start is not None:
                raise InvalidRecord(join(at, "tile"), "A second start tile.")
            start = entry
            name = "the start tile"
            hexes = [(entry[0] + ox, entry[1] + oy) for (ox, oy), _, _ in box.START_TILE]
        else:
            if entry.tile in numbers:
                raise InvalidRecord(join(at, "tile"), f"Tile {entry.tile} twice.")
            numbers.add(entry.tile)
            tiles.append(entry)
            name = f"tile {entry.tile}"
            hexes = [h for h, _, _ in tile_hexes(entry.tile, entry.center, entry.rotated)]
        for h in hexes:
            if h in taken:
                raise InvalidRecord(join(at, "center"), f"{name} overlaps {taken[h]} on {fmt(h)}")
            taken[h] = name
    return start, tiles


def _ground(value: Any, path: str) -> Ground:
    return choice(value, path, "terrain", box.GROUNDS)


def _marker(value: Any, path: str) -> Marker:
    return choice(value, path, "marker", box.MARKERS)


def _side(value: Any, path: str) -> Side:
    return choice(value, path, "side", box.SIDES)


def _map_hex(value: Any, path: str) -> MapHex:
    """One hex of a custom map."""
    doc = mapping(value, path)
    h = required(doc, "hex", path, read_hex)
    terrain = required(doc, "terrain", path, _ground)
    region = nullable(doc, "region", path, _region_id)
    marker = nullable(doc, "marker", path, _marker)
    return MapHex(h, terrain, region, marker, nullable(doc, "side", path, _side))


def _region_id(value: Any, path: str) -> int:
    return integer(value, path, -MAX_REGION_ID, MAX_REGION_ID)


def _map_region(value: Any, path: str) -> MapRegion:
    """One region of a custom map: id, scoring tokens top first, prey stack."""
    doc = mapping(value, path)
    region = required(doc, "id", path, _region_id)
    scoring = _scoring(doc, path)
    return MapRegion(region, scoring, nullable(doc, "prey", path, _prey))


def _custom_map(value: Any, path: str) -> CustomMap:
    """A custom map: ``{"hexes": […], "regions": […]}``."""
    doc = mapping(value, path)
    hexes = required(doc, "hexes", path, lambda v, at: each(v, at, MAX_MAP_HEXES, _map_hex))
    if not hexes:
        raise InvalidRecord(join(path, "hexes"), "Shorter than minimum length 1.")
    regions = optional(
        doc, "regions", path, lambda v, at: each(v, at, MAX_REGIONS, _map_region), []
    )
    ids: set[int] = set()
    for i, region in enumerate(regions):
        if region.id in ids:
            raise InvalidRecord(f"{path}.regions[{i}].id", f"region {region.id} twice")
        ids.add(region.id)
    seen: set[Hex] = set()
    for i, cell in enumerate(hexes):
        at = f"{path}.hexes[{i}]"
        if cell.hex in seen:
            raise InvalidRecord(f"{at}.hex", f"{fmt(cell.hex)} is listed twice")
        if cell.region is not None and cell.region not in ids:
            raise InvalidRecord(f"{at}.region", f"region {cell.region} is not in regions")
        if cell.marker and cell.terrain not in box.TERRAINS:
            raise InvalidRecord(f"{at}.marker", f"a {cell.terrain} hex holds no {cell.marker}")
        seen.add(cell.hex)
    return CustomMap(tuple(hexes), tuple(regions))


OPTION_RANGES: dict[str, tuple[int, int]] = {
    "lone_wolves_per_region": (1, 3),
    "stall_limit_rounds": (1, MAX_STALL_LIMIT),
}
"""The values each integer option (W-12) may take."""


def _option_readers() -> tuple[tuple[str, Read[bool | int], bool], ...]:
    """Each :class:`Options` field with its reader and whether it may be ``null`` (so the
    reader and the dataclass stay in step); every integer option has its range in
    :data:`OPTION_RANGES`."""
    hints = typing.get_type_hints(Options)
    out: list[tuple[str, Read[bool | int], bool]] = []
    for f in dataclasses.fields(Options):
        args = typing.get_args(hints[f.name])
        base = next((a for a in args if a is not type(None)), hints[f.name])
        read = boolean if base is bool else between(*OPTION_RANGES[f.name])
        out.append((f.name, read, type(None) in args))
    return tuple(out)


OPTION_READERS = _option_readers()


def read_options(value: Any, path: str) -> Options:
    """The W-12 options at ``path`` (a record's ``setup.options``); each one left out is at its
    default, each given one is checked (``InvalidRecord`` naming its path)."""
    doc = mapping(value, path)
    given: dict[str, Any] = {}
    for name, read, may_be_null in OPTION_READERS:
        if name in doc:
            if may_be_null:
                given[name] = nullable(doc, name, path, read)
            else:
                given[name] = required(doc, name, path, read)
    return Options(**given)


def _terrain_tile(value: Any, path: str) -> tuple[Terrain, Terrain]:
    pair = each(value, path, 2, _terrain)
    if len(pair) != 2:
        raise InvalidRecord(path, "A terrain tile is [front, back].")
    return pair[0], pair[1]


def _terrain_tiles(value: Any, path: str) -> tuple[tuple[Terrain, Terrain], ...]:
    pairs = each(value, path, SLOTS - 1, _terrain_tile)
    if len(pairs) != SLOTS - 1:
        raise InvalidRecord(path, f"There are {SLOTS - 1} terrain tiles.")
    return tuple(pairs)


def setup_from_json(value: Any, path: str = "setup") -> Setup:
    """The :class:`Setup` a ``setup`` object describes: tiles (or a custom map), options,
    terrain tiles, seed; or :class:`InvalidRecord`."""
    doc = mapping(value, path)
    seed = nullable(doc, "seed", path, _SEED)
    options = optional(doc, "options", path, read_options, Options())
    tiles = optional(doc, "tiles", path, lambda v, at: each(v, at, MAX_TILES, _tile), None)
    custom = optional(doc, "map", path, _custom_map, None)
    pairs = optional(doc, "terrain_tiles", path, _terrain_tiles, box.DEFAULT_TERRAIN_TILES)
    if (tiles is None) == (custom is None):
        raise InvalidRecord(join(path, "tiles"), "A setup has either tiles or a map.")
    start, regions = _check_tiles(tiles, join(path, "tiles")) if tiles is not None else (None, [])
    return Setup(
        seed=seed,
        options=options,
        start=start,
        tiles=tuple(regions),
        custom_map=custom,
        terrain_tiles=pairs,
    )


def player_to_json(player: Player) -> dict[str, Any]:
    """``{"name", "color", "terrain"}`` and the seat's bot, if any."""
    return {
        "name": player.name, "color": player.color, "terrain": player.terrain,
        **bot_json(player.bot, player.bot_depth),
    }  # fmt: skip


def _prey_to_json(prey: tuple[PreyType, int] | None) -> dict[str, Any]:
    return {} if prey is None else {"prey": {"type": prey[0], "count": prey[1]}}


def setup_to_json(setup: Setup) -> dict[str, Any]:
    """The ``setup`` object of a record or position (every option written out)."""
    doc: dict[str, Any] = {
        "options": {f.name: getattr(setup.options, f.name) for f in dataclasses.fields(Options)},
        "terrain_tiles": [list(pair) for pair in setup.terrain_tiles],
    }
    if setup.seed is not None:
        doc["seed"] = setup.seed
    if setup.custom_map is not None:
        hexes = []
        for cell in setup.custom_map.hexes:
            entry: dict[str, Any] = {"hex": list(cell.hex), "terrain": cell.terrain}
            if cell.region is not None:
                entry["region"] = cell.region
            if cell.marker is not None:
                entry["marker"] = cell.marker
            if cell.side is not None:
                entry["side"] = cell.side
            hexes.append(entry)
        regions = [
            {"id": r.id, "scoring": list(r.scoring), **_prey_to_json(r.prey)}
            for r in setup.custom_map.regions
        ]
        doc["map"] = {"hexes": hexes, "regions": regions}
        return doc
    tiles: list[dict[str, Any]] = []
    if setup.start is not None:
        tiles.append({"tile": "start", "center": list(setup.start)})
    for t in setup.tiles:
        tiles.append({
            "tile": t.tile, "center": list(t.center), "rotated": t.rotated,
            "scoring": list(t.scoring), **_prey_to_json(t.prey),
        })  # fmt: skip
    doc["tiles"] = tiles
    return doc


def check_players(players: Sequence[Player], path: str = "players") -> None:
    """2–5 players with distinct home terrains (W-4.5)."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidRecord(path, f"a game has 2 to 5 players, not {len(players)}")
    homes: set[str] = set()
    for seat, player in enumerate(players):
        if player.terrain in homes:
            raise InvalidRecord(
                f"{path}[{seat}].terrain", f"home terrain {player.terrain} is taken by another seat"
            )
        homes.add(player.terrain)


# --- actions ------------------------------------------------------------------------------------


def _slot(value: Any, path: str) -> int:
    return integer(value, path, 0, SLOTS - 1)


def _tokens(value: Any, path: str) -> int:
    return integer(value, path, 0, MAX_BONUS_TOKENS)


def _slots(value: Any, path: str) -> tuple[int, ...]:
    return tuple(each(value, path, SLOTS, _slot))


NO_PAY: Final = Pay()


def _pay(doc: Mapping[str, Any], path: str) -> Pay:
    """An action's optional ``pay``: ``{"tiles": [slot, …], "bonus_terrain": n}``."""
    value = doc.get("pay")
    if value is None:
        return NO_PAY
    at = join(path, "pay")
    pay = mapping(value, at)
    tiles = nullable(pay, "tiles", at, _slots)
    return Pay(tiles, nullable(pay, "bonus_terrain", at, _tokens))


def _wolf(value: Any, path: str) -> WolfKind:
    return choice(value, path, "wolf", box.WOLF_KINDS)


def _hexes(value: Any, path: str) -> tuple[Hex, ...]:
    return tuple(each(value, path, MAX_PATH, read_hex))


def _step(value: Any, path: str) -> WolfStep:
    """``{"from", "to", "wolf"?, "path"?, "push_to"?}``: one wolf of a Move."""
    doc = mapping(value, path)
    src = required(doc, "from", path, read_hex)
    dst = required(doc, "to", path, read_hex)
    wolf = nullable(doc, "wolf", path, _wolf)
    steps = nullable(doc, "path", path, _hexes)
    return WolfStep(src, dst, wolf, steps, nullable(doc, "push_to", path, read_hex))


def _steps(value: Any, path: str) -> tuple[WolfStep, ...]:
    return tuple(each(value, path, MAX_WOLF_STEPS, _step))


def _dominable(value: Any, path: str) -> Dominable:
    return choice(value, path, "piece", box.DOMINABLE)


def _track(value: Any, path: str) -> box.Track:
    return choice(value, path, "track", box.TRACKS)


def _draft(doc: Mapping[str, Any], path: str) -> Draft:
    seat = required(doc, "player", path, read_seat)
    return Draft(seat, required(doc, "hex", path, read_hex))


def _bonus_action(doc: Mapping[str, Any], path: str) -> BonusAction:
    return BonusAction(required(doc, "player", path, read_seat))


def _move(doc: Mapping[str, Any], path: str) -> Move:
    seat = required(doc, "player", path, read_seat)
    pay = _pay(doc, path)
    return Move(seat, required(doc, "moves", path, _steps), pay)


def _den(doc: Mapping[str, Any], path: str) -> BuildDen:
    seat = required(doc, "player", path, read_seat)
    pay = _pay(doc, path)
    h = required(doc, "hex", path, read_hex)
    return BuildDen(seat, h, required(doc, "track", path, _track), pay)


def _lair(doc: Mapping[str, Any], path: str) -> UpgradeLair:
    seat = required(doc, "player", path, read_seat)
    pay = _pay(doc, path)
    h = required(doc, "hex", path, read_hex)
    return UpgradeLair(seat, h, pay, nullable(doc, "push_to", path, read_hex))


def _howl(doc: Mapping[str, Any], path: str) -> Howl:
    seat = required(doc, "player", path, read_seat)
    pay = _pay(doc, path)
    return Howl(seat, required(doc, "hex", path, read_hex), pay)


def _dominate(doc: Mapping[str, Any], path: str) -> Dominate:
    seat = required(doc, "player", path, read_seat)
    pay = _pay(doc, path)
    h = required(doc, "hex", path, read_hex)
    piece = nullable(doc, "piece", path, _dominable)
    return Dominate(seat, h, pay, piece, nullable(doc, "track", path, _track))


def _pass(doc: Mapping[str, Any], path: str) -> Pass:
    return Pass(required(doc, "player", path, read_seat))


ACTION_READERS: Final[Mapping[str, Callable[[Mapping[str, Any], str], Action]]] = {
    "draft": _draft,
    "bonus_action": _bonus_action,
    "move": _move,
    "den": _den,
    "lair": _lair,
    "howl": _howl,
    "dominate": _dominate,
    "pass": _pass,
}
"""The reader of each action ``type`` (records.md "Actions")."""


def action_from_json(value: Any, path: str = "") -> Action:
    """The action a record's action object describes (hexes are not checked against a map)."""
    if value is None:
        raise InvalidRecord(path, NOT_NULL)
    if type(value) is not dict and not isinstance(value, Mapping):
        raise InvalidRecord(path, "An action is a JSON object.")
    if "type" not in value:
        raise InvalidRecord(join(path, "type"), REQUIRED)
    kind = value["type"]
    read = ACTION_READERS.get(kind) if isinstance(kind, str) else None
    if read is None:
        shown = repr(kind[:32] + "…" if len(kind) > 32 else kind) if isinstance(kind, str) else None
        known = ", ".join(ACTION_READERS)
        raise InvalidRecord(
            join(path, "type"), f"unknown action type {shown or bounds.brief(kind)} ({known})"
        )
    return read(value, path)


def _actions(value: Any, path: str) -> list[Action]:
    if not isinstance(value, list):
        raise InvalidRecord(path, "Not a valid list.")
    return [action_from_json(doc, f"{path}[{i}]") for i, doc in enumerate(value)]


def _pay_to_json(pay: Pay) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    if pay.tiles is not None:
        doc["tiles"] = list(pay.tiles)
    if pay.bonus_terrain is not None:
        doc["bonus_terrain"] = pay.bonus_terrain
    return {"pay": doc} if doc else {}


def _step_to_json(step: WolfStep) -> dict[str, Any]:
    doc: dict[str, Any] = {"from": list(step.src), "to": list(step.dst)}
    if step.wolf is not None:
        doc["wolf"] = step.wolf
    if step.path is not None:
        doc["path"] = [list(h) for h in step.path]
    if step.push_to is not None:
        doc["push_to"] = list(step.push_to)
    return doc


def action_to_json(action: Action) -> dict[str, Any]:
    """The record's JSON object for an action; optional fields left out when None.

    >>> action_to_json(BuildDen(0, (9, 8), "speed", Pay((0, 1))))
    {'type': 'den', 'player': 0, 'hex': [9, 8], 'track': 'speed', 'pay': {'tiles': [0, 1]}}
    """
    doc: dict[str, Any] = {"type": action.type, "player": action.player}
    match action:
        case Draft(hex=h) | Howl(hex=h):
            doc["hex"] = list(h)
        case Move(steps=steps):
            doc["moves"] = [_step_to_json(s) for s in steps]
        case BuildDen(hex=h, track=track):
            doc.update(hex=list(h), track=track)
        case UpgradeLair(hex=h, push_to=push_to):
            doc["hex"] = list(h)
            if push_to is not None:
                doc["push_to"] = list(push_to)
        case Dominate(hex=h, piece=piece, track=track):
            doc["hex"] = list(h)
            if piece is not None:
                doc["piece"] = piece
            if track is not None:
                doc["track"] = track
    if isinstance(action, Move | BuildDen | UpgradeLair | Howl | Dominate):
        doc.update(_pay_to_json(action.pay))
    return doc


def action_hexes(action: Action, path: str) -> Iterator[tuple[str, Hex]]:
    """Every hex an action names, with its JSON path."""
    match action:
        case Draft(hex=h) | BuildDen(hex=h) | Howl(hex=h) | Dominate(hex=h):
            yield f"{path}.hex", h
        case UpgradeLair(hex=h, push_to=push_to):
            yield f"{path}.hex", h
            if push_to is not None:
                yield f"{path}.push_to", push_to
        case Move(steps=steps):
            for i, step in enumerate(steps):
                at = f"{path}.moves[{i}]"
                yield f"{at}.from", step.src
                yield f"{at}.to", step.dst
                for j, h in enumerate(step.path or ()):
                    yield f"{at}.path[{j}]", h
                if step.push_to is not None:
                    yield f"{at}.push_to", step.push_to


# --- the record ------------------------------------------------------------------------------


def check_header(doc: Mapping[str, Any], fmt_name: str, path: str = "") -> None:
    """``format``, ``version`` and ``game`` are the ones this reader speaks."""
    documents.check_header(
        doc, ((("format", fmt_name), ("version", VERSION), ("game", GAME))), path
    )


def check_map_hexes(hexes: Iterator[tuple[str, Hex]], gmap: GameMap) -> None:
    """Every named hex is on the map."""
    for path, h in hexes:
        if h not in gmap.terrain:
            raise InvalidRecord(path, f"{fmt(h)} is not on the map")


def _any(value: Any, path: str) -> Any:
    return value


def read_record(data: bytes | str | Mapping[str, Any]) -> Record:
    """A :class:`Record` from its JSON (bytes, text or decoded), or :class:`InvalidRecord`."""
    from domain.wolves.positions import from_position

    doc = parse(data)
    check_header(doc, FORMAT)
    meta_doc: Any = optional(doc, "meta", "", _any, {})
    players = optional(
        doc, "players", "", lambda v, at: each(v, at, MAX_PLAYERS, read_player), None
    )
    setup = optional(doc, "setup", "", setup_from_json, None)
    start_doc = optional(doc, "start", "", _any, None)
    actions = tuple(required(doc, "actions", "", _actions))
    rules = nullable(doc, "rules", "", _name)
    meta = check_meta(meta_doc)
    start: State | None = None
    if start_doc is not None:
        if setup is not None:
            raise InvalidRecord("setup", "a record with a start position has no setup")
        start = from_position(start_doc, path="start")
        seats = start.table.players
        if players is not None and tuple(players) != seats:
            raise InvalidRecord("players", "the players differ from start.players")
        gmap = start.table.map
    else:
        if setup is None:
            raise InvalidRecord("setup", "missing: a record has a setup or a start position")
        if players is None:
            raise InvalidRecord("players", REQUIRED)
        seats = tuple(players)
        check_players(seats)
        gmap = build_map(setup)
    for i, action in enumerate(actions):
        if action.player >= len(seats):
            raise InvalidRecord(
                f"actions[{i}].player",
                f"seat {action.player} does not exist in a {len(seats)}-player game",
            )
        check_map_hexes(action_hexes(action, f"actions[{i}]"), gmap)
    return Record(dict(meta), seats, setup, start, actions, rules)


def record_to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON-able dict (what :func:`write_record` serialises)."""
    from domain.wolves.positions import to_position

    return documents.record_document(
        GAME,
        [player_to_json(p) for p in record.players],
        [action_to_json(a) for a in record.actions],
        record.meta,
        setup=None if record.setup is None else setup_to_json(record.setup),
        start=None if record.start is None else to_position(record.start),
        rules=record.rules_version,
    )


def write_record(record: Record) -> bytes:
    """The record's canonical JSON bytes; ``read_record(write_record(r)) == r``."""
    return canonical_json(record_to_json(record))
