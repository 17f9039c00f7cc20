"""Game records (``howl.game``): the open JSON format of records.md, read and written.

Reading validates the structure with marshmallow schemas and then what the structure alone
cannot say (player count, home terrains, hexes on the map); any problem is an
:class:`InvalidRecord` naming its JSON path. Writing gives canonical bytes: sorted keys,
compact separators, UTF-8, so one game always serialises to the same bytes.

>>> from domain.wolves.setup import Player, generate_setup
>>> players = (Player("Ana", "blue", "forest"), Player("Bo", "red", "tundra"))
>>> record = Record(players=players, setup=generate_setup(2, seed=7))
>>> read_record(write_record(record)) == record
True
>>> read_record(b'{"format": "howl.game", "version": 2}')
Traceback (most recent call last):
...
domain.ruleset.InvalidRecord: version: expected 1, got 2
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate

from domain import bounds, documents
from domain.bounds import Int, List, Text
from domain.documents import canonical_json, check_meta, join, parse
from domain.hexes import Hex, fmt
from domain.ruleset import InvalidRecord
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
"""Most ``meta`` entries, longest key and longest value."""
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

__all__ = [
    "FORMAT", "GAME", "VERSION", "InvalidRecord", "Record", "action_from_json", "action_to_json",
    "canonical_json", "read_record", "record_to_json", "setup_from_json", "setup_to_json",
    "write_record",
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


# --- fields --------------------------------------------------------------------------------


class Base(Schema):
    """Schemas of the format: readers ignore fields they do not know."""

    class Meta:
        unknown = EXCLUDE


class Bool(fields.Field):
    """A JSON ``true`` or ``false``, nothing else."""

    default_error_messages = {"invalid": "Not a boolean."}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


def is_int(value: Any) -> bool:
    """True for a JSON integer (a Python int that is not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def on_board(value: int) -> bool:
    """True for a hex coordinate within ``MAX_COORD``."""
    return -MAX_COORD <= value <= MAX_COORD


class HexField(fields.Field):
    """A hex ``[x, y]`` (W-1), loaded as a tuple."""

    default_error_messages = {
        "invalid": "A hex is [x, y]: a list of two integers.",
        "range": f"a hex coordinate is an integer from {-MAX_COORD} to {MAX_COORD}",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Hex:
        if not isinstance(value, list | tuple) or len(value) != 2 or not all(map(is_int, value)):
            raise self.make_error("invalid")
        if not (on_board(value[0]) and on_board(value[1])):
            raise self.make_error("range")
        return (value[0], value[1])


class Choice(validate.OneOf):
    """A choice validator whose message quotes at most the start of a wrong value."""

    def _format_error(self, value: Any) -> str:
        return super()._format_error(value[:32] + "…" if len(value) > 32 else value)


def one_of(what: str, choices: typing.Iterable[str]) -> validate.OneOf:
    """A choice validator with a message that names the field's meaning."""
    return Choice(tuple(choices), error=f"unknown {what} {{input!r}} (one of {{choices}})")


# --- players and setup ----------------------------------------------------------------------


class PlayerSchema(Base):
    """``{"name", "color", "terrain"}``: a seat and its home terrain."""

    name = Text(MAX_TEXT, required=True)
    color = Text(MAX_TEXT, required=True)
    terrain = fields.String(required=True, validate=one_of("terrain", box.TERRAINS))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Player:
        return Player(data["name"], data["color"], data["terrain"])


class PreySchema(Base):
    """``{"type": "hare", "count": 2}``: a prey stack."""

    type = fields.String(required=True, validate=one_of("prey", box.PREY_TYPES))
    count = Int(1, 4, required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> tuple[str, int]:
        return (data["type"], data["count"])


SCORING = List(fields.String(validate=one_of("scoring token", box.PHASES)), 2, load_default=list)


class RegionTileSchema(Base):
    """A region tile as dealt: number, centre, rotation, scoring tokens top first, prey."""

    tile = Int(1, len(box.TILE_TERRAINS), required=True)
    center = HexField(required=True)
    rotated = Bool(load_default=False)
    scoring = SCORING
    prey = fields.Nested(PreySchema, allow_none=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> RegionTile:
        stack = tuple(data["scoring"])
        return RegionTile(data["tile"], data["center"], data["rotated"], stack, data.get("prey"))


class StartTileSchema(Base):
    """``{"tile": "start", "center": [x, y]}``."""

    center = HexField(required=True)


class TileEntry(fields.Field):
    """One entry of ``setup.tiles``: the start tile or a region tile."""

    start_schema = StartTileSchema()
    region_schema = RegionTileSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, Mapping):
            raise ValidationError("A tile is a JSON object.")
        if value.get("tile") == "start":
            return ("start", self.start_schema.load(value)["center"])
        if not is_int(value.get("tile")):
            raise ValidationError({"tile": ['A tile is a number 1 to 10 or "start".']})
        return self.region_schema.load(value)


class MapHexSchema(Base):
    """One hex of a custom map."""

    hex = HexField(required=True)
    terrain = fields.String(
        required=True, validate=one_of("terrain", (*box.TERRAINS, box.WATER, box.CHASM))
    )
    region = Int(-MAX_REGION_ID, MAX_REGION_ID, allow_none=True)
    marker = fields.String(allow_none=True, validate=one_of("marker", (box.LONE_WOLF, box.PREY)))
    side = fields.String(allow_none=True, validate=one_of("side", ("north", "south")))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> MapHex:
        return MapHex(
            data["hex"], data["terrain"], data.get("region"), data.get("marker"), data.get("side")
        )


class MapRegionSchema(Base):
    """One region of a custom map: id, scoring tokens top first, prey stack."""

    id = Int(-MAX_REGION_ID, MAX_REGION_ID, required=True)
    scoring = SCORING
    prey = fields.Nested(PreySchema, allow_none=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> MapRegion:
        return MapRegion(data["id"], tuple(data["scoring"]), data.get("prey"))


class MapSchema(Base):
    """A custom map: ``{"hexes": […], "regions": […]}``."""

    hexes = List(fields.Nested(MapHexSchema), MAX_MAP_HEXES, required=True,
                 validate=validate.Length(min=1))  # fmt: skip
    regions = List(fields.Nested(MapRegionSchema), MAX_REGIONS, load_default=list)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> CustomMap:
        ids: dict[int, int] = {}
        for i, region in enumerate(data["regions"]):
            if region.id in ids:
                raise ValidationError({"regions": {i: {"id": [f"region {region.id} twice"]}}})
            ids[region.id] = i
        seen: set[Hex] = set()
        for i, cell in enumerate(data["hexes"]):
            problem: tuple[str, str] | None = None
            if cell.hex in seen:
                problem = ("hex", f"{fmt(cell.hex)} is listed twice")
            elif cell.region is not None and cell.region not in ids:
                problem = ("region", f"region {cell.region} is not in regions")
            elif cell.marker and cell.terrain not in box.TERRAINS:
                problem = ("marker", f"a {cell.terrain} hex holds no {cell.marker}")
            if problem:
                raise ValidationError({"hexes": {i: {problem[0]: [problem[1]]}}})
            seen.add(cell.hex)
        return CustomMap(tuple(data["hexes"]), tuple(data["regions"]))


OPTION_RANGES: dict[str, tuple[int, int]] = {
    "lone_wolves_per_region": (1, 3),
    "stall_limit_rounds": (1, MAX_STALL_LIMIT),
}
"""The values each integer option (W-12) may take."""


def _options_schema() -> type[Schema]:
    """The W-12 options schema, one field per :class:`Options` field (so both stay in step);
    every integer option has its range in :data:`OPTION_RANGES`."""
    hints = typing.get_type_hints(Options)
    attrs: dict[str, fields.Field] = {}
    for f in dataclasses.fields(Options):
        args = typing.get_args(hints[f.name])
        base = next((a for a in args if a is not type(None)), hints[f.name])
        if base is not bool:
            attrs[f.name] = Int(*OPTION_RANGES[f.name], allow_none=type(None) in args)
        else:
            attrs[f.name] = Bool(allow_none=type(None) in args)
    return Base.from_dict(attrs, name="OptionsSchema")


OptionsSchema = _options_schema()


class SetupSchema(Base):
    """A game's setup: tiles (or a custom map), options, terrain tiles, seed."""

    seed = Int(0, MAX_SEED, allow_none=True)
    options = fields.Nested(OptionsSchema, load_default=dict)
    tiles = List(TileEntry(), MAX_TILES)
    map = fields.Nested(MapSchema)
    terrain_tiles = List(
        List(
            fields.String(validate=one_of("terrain", box.TERRAINS)), 2,
            validate=validate.Length(equal=2, error="A terrain tile is [front, back]."),
        ),
        SLOTS - 1,
        validate=validate.Length(equal=SLOTS - 1, error=f"There are {SLOTS - 1} terrain tiles."),
    )  # fmt: skip

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Setup:
        if ("tiles" in data) == ("map" in data):
            raise ValidationError({"tiles": ["A setup has either tiles or a map."]})
        start: Hex | None = None
        tiles: list[RegionTile] = []
        if "tiles" in data:
            start, tiles = _check_tiles(data["tiles"])
        pairs = data.get("terrain_tiles")
        return Setup(
            seed=data.get("seed"),
            options=Options(**data["options"]),
            start=start,
            tiles=tuple(tiles),
            custom_map=data.get("map"),
            terrain_tiles=tuple((a, b) for a, b in pairs) if pairs else box.DEFAULT_TERRAIN_TILES,
        )


def _check_tiles(entries: list[Any]) -> tuple[Hex | None, list[RegionTile]]:
    """The start tile and the region tiles; tiles dealt once each and not overlapping."""
    start: Hex | None = None
    tiles: list[RegionTile] = []
    taken: dict[Hex, str] = {}
    numbers: set[int] = set()
    for i, entry in enumerate(entries):
        if isinstance(entry, tuple):
            if start is not None:
                raise ValidationError({"tiles": {i: {"tile": ["A second start tile."]}}})
            start = entry[1]
            name, hexes = (
                "the start tile",
                [(entry[1][0] + ox, entry[1][1] + oy) for (ox, oy), _, _ in box.START_TILE],
            )
        else:
            if entry.tile in numbers:
                raise ValidationError({"tiles": {i: {"tile": [f"Tile {entry.tile} twice."]}}})
            numbers.add(entry.tile)
            tiles.append(entry)
            name = f"tile {entry.tile}"
            hexes = [h for h, _, _ in tile_hexes(entry.tile, entry.center, entry.rotated)]
        for h in hexes:
            if h in taken:
                raise ValidationError(
                    {"tiles": {i: {"center": [f"{name} overlaps {taken[h]} on {fmt(h)}"]}}}
                )
            taken[h] = name
    return start, tiles


def setup_from_json(doc: Any, path: str = "setup") -> Setup:
    """The :class:`Setup` a ``setup`` object describes, or :class:`InvalidRecord`."""
    return load(SetupSchema(), doc, path)


def player_to_json(player: Player) -> dict[str, Any]:
    """``{"name", "color", "terrain"}``."""
    return {"name": player.name, "color": player.color, "terrain": player.terrain}


def _prey_to_json(prey: tuple[str, int] | None) -> dict[str, Any]:
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


def _prey_from_json(doc: dict[str, Any] | None) -> tuple[str, int] | None:
    return None if doc is None else (doc["type"], doc["count"])


def setup_from_written(doc: dict[str, Any]) -> Setup:
    """The :class:`Setup` of a ``setup`` object :func:`setup_to_json` wrote, read without
    checking it again (a stored record's, validated when it was uploaded)."""
    start: tuple[int, int] | None = None
    tiles = []
    for t in doc.get("tiles", ()):
        if t["tile"] == "start":
            start = (t["center"][0], t["center"][1])
        else:
            tiles.append(RegionTile(
                t["tile"], tuple(t["center"]), t.get("rotated", False),
                tuple(t.get("scoring", ())), _prey_from_json(t.get("prey")),
            ))  # fmt: skip
    custom = None
    if (cells := doc.get("map")) is not None:
        custom = CustomMap(
            tuple(
                MapHex(
                    tuple(c["hex"]), c["terrain"], c.get("region"), c.get("marker"), c.get("side")
                )
                for c in cells["hexes"]
            ),
            tuple(
                MapRegion(r["id"], tuple(r.get("scoring", ())), _prey_from_json(r.get("prey")))
                for r in cells.get("regions", ())
            ),
        )
    pairs = doc.get("terrain_tiles")
    return Setup(
        seed=doc.get("seed"),
        options=Options(**doc.get("options", {})),
        start=start,
        tiles=tuple(tiles),
        custom_map=custom,
        terrain_tiles=tuple((a, b) for a, b in pairs) if pairs else box.DEFAULT_TERRAIN_TILES,
    )


def check_players(players: list[Player], path: str = "players") -> None:
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


def _opt(kind: type[fields.Field] = HexField, **kwargs: Any) -> fields.Field:
    """An optional field where ``null`` means the same as leaving it out."""
    return kind(allow_none=True, load_default=None, **kwargs)


class PaySchema(Base):
    """``{"tiles": [slot, …], "bonus_terrain": n}``; both optional."""

    tiles = List(Int(0, SLOTS - 1), SLOTS, allow_none=True)
    bonus_terrain = Int(0, MAX_BONUS_TOKENS, allow_none=True, load_default=None)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Pay:
        tiles = data.get("tiles")
        return Pay(None if tiles is None else tuple(tiles), data["bonus_terrain"])


class ActionSchema(Base):
    """Every action has ``type`` and ``player`` (the seat acting)."""

    player = Int(0, MAX_PLAYERS - 1, required=True)


class PaidSchema(ActionSchema):
    """An action paid in terrain: optional ``pay``."""

    pay = fields.Nested(PaySchema, allow_none=True, load_default=None)


class WolfStepSchema(Base):
    """``{"from", "to", "wolf"?, "path"?, "push_to"?}``: one wolf of a Move."""

    src = HexField(data_key="from", required=True)
    dst = HexField(data_key="to", required=True)
    wolf = _opt(fields.String, validate=one_of("wolf", ("alpha", "pack")))
    path = List(HexField(), MAX_PATH, allow_none=True, load_default=None)
    push_to = _opt()

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> WolfStep:
        path = data["path"]
        return WolfStep(
            data["src"], data["dst"], data["wolf"], None if path is None else tuple(path),
            data["push_to"],
        )  # fmt: skip


class DraftSchema(ActionSchema):
    hex = HexField(required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Draft:
        return Draft(data["player"], data["hex"])


class BonusActionSchema(ActionSchema):
    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> BonusAction:
        return BonusAction(data["player"])


class PassSchema(ActionSchema):
    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Pass:
        return Pass(data["player"])


class MoveSchema(PaidSchema):
    moves = List(fields.Nested(WolfStepSchema), MAX_WOLF_STEPS, required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Move:
        return Move(data["player"], tuple(data["moves"]), data["pay"] or Pay())


class DenSchema(PaidSchema):
    hex = HexField(required=True)
    track = fields.String(required=True, validate=one_of("track", box.TRACKS))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> BuildDen:
        return BuildDen(data["player"], data["hex"], data["track"], data["pay"] or Pay())


class LairSchema(PaidSchema):
    hex = HexField(required=True)
    push_to = _opt()

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> UpgradeLair:
        return UpgradeLair(data["player"], data["hex"], data["pay"] or Pay(), data["push_to"])


class HowlSchema(PaidSchema):
    hex = HexField(required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Howl:
        return Howl(data["player"], data["hex"], data["pay"] or Pay())


class DominateSchema(PaidSchema):
    hex = HexField(required=True)
    piece = _opt(fields.String, validate=one_of("piece", ("pack", "den")))
    track = _opt(fields.String, validate=one_of("track", box.TRACKS))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Dominate:
        pay = data["pay"] or Pay()
        return Dominate(data["player"], data["hex"], pay, data["piece"], data["track"])


ACTION_SCHEMAS: dict[str, Schema] = {
    "draft": DraftSchema(),
    "bonus_action": BonusActionSchema(),
    "move": MoveSchema(),
    "den": DenSchema(),
    "lair": LairSchema(),
    "howl": HowlSchema(),
    "dominate": DominateSchema(),
    "pass": PassSchema(),
}


class ActionField(fields.Field):
    """One action, read by the schema its ``type`` names."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Action:
        if not isinstance(value, Mapping):
            raise ValidationError("An action is a JSON object.")
        if "type" not in value:
            raise ValidationError({"type": ["Missing data for required field."]})
        schema = ACTION_SCHEMAS.get(value["type"]) if isinstance(value["type"], str) else None
        if schema is None:
            known = ", ".join(ACTION_SCHEMAS)
            raise ValidationError({"type": [f"unknown action type {value['type']!r} ({known})"]})
        return schema.load(value)


class ActionList(fields.Field):
    """A record's actions: the usual ones read by :func:`quick_action`, the rest by schema."""

    default_error_messages = {"invalid": "Not a valid list."}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Action]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        actions = []
        for i, doc in enumerate(value):
            action = quick_action(doc)
            if action is None:
                try:
                    action = ActionField().deserialize(doc)
                except ValidationError as err:
                    raise ValidationError({i: err.messages}) from None
            actions.append(action)
        return actions


class Unusual(Exception):
    """An action object :func:`quick_action` leaves to the schemas."""


def _hex(value: Any) -> Hex:
    if type(value) is not list or len(value) != 2:
        raise Unusual
    x, y = value
    if type(x) is not int or type(y) is not int or not (on_board(x) and on_board(y)):
        raise Unusual
    return (x, y)


def _maybe_hex(value: Any) -> Hex | None:
    return None if value is None else _hex(value)


def _choice(value: Any, choices: tuple[str, ...], optional: bool = False) -> Any:
    if value in choices and type(value) is str or (optional and value is None):
        return value
    raise Unusual


def _pay(doc: dict[str, Any]) -> Pay:
    value = doc.get("pay")
    if value is None:
        return Pay()
    if type(value) is not dict:
        raise Unusual
    tiles, bonus = value.get("tiles"), value.get("bonus_terrain")
    if tiles is not None:
        if type(tiles) is not list or len(tiles) > SLOTS:
            raise Unusual
        if not all(type(t) is int and 0 <= t < SLOTS for t in tiles):
            raise Unusual
        tiles = tuple(tiles)
    if bonus is not None and (type(bonus) is not int or not 0 <= bonus <= MAX_BONUS_TOKENS):
        raise Unusual
    return Pay(tiles, bonus)


def _step(doc: Any) -> WolfStep:
    if type(doc) is not dict:
        raise Unusual
    path = doc.get("path")
    if path is not None:
        if type(path) is not list or len(path) > MAX_PATH:
            raise Unusual
        path = tuple(map(_hex, path))
    wolf = _choice(doc.get("wolf"), ("alpha", "pack"), optional=True)
    return WolfStep(_hex(doc["from"]), _hex(doc["to"]), wolf, path, _maybe_hex(doc.get("push_to")))


def quick_action(doc: Any) -> Action | None:
    """The action a well-formed action object describes, read without marshmallow (a record
    holds hundreds); None for anything unusual, which the schemas then read or reject with
    their message. It accepts only what the schemas accept and reads it the same way."""
    if type(doc) is not dict:
        return None
    seat = doc.get("player")
    if type(seat) is not int or not 0 <= seat < MAX_PLAYERS:
        return None
    try:
        match doc.get("type"):
            case "draft":
                return Draft(seat, _hex(doc["hex"]))
            case "move":
                moves = doc["moves"]
                if type(moves) is not list or len(moves) > MAX_WOLF_STEPS:
                    return None
                return Move(seat, tuple(map(_step, moves)), _pay(doc))
            case "den":
                track = _choice(doc["track"], box.TRACKS)
                return BuildDen(seat, _hex(doc["hex"]), track, _pay(doc))
            case "lair":
                push_to = _maybe_hex(doc.get("push_to"))
                return UpgradeLair(seat, _hex(doc["hex"]), _pay(doc), push_to)
            case "howl":
                return Howl(seat, _hex(doc["hex"]), _pay(doc))
            case "dominate":
                piece = _choice(doc.get("piece"), ("pack", "den"), optional=True)
                track = _choice(doc.get("track"), box.TRACKS, optional=True)
                return Dominate(seat, _hex(doc["hex"]), _pay(doc), piece, track)
            case "bonus_action":
                return BonusAction(seat)
            case "pass":
                return Pass(seat)
    except (KeyError, Unusual):
        return None
    return None


def action_from_json(doc: Any, path: str = "") -> Action:
    """The action a record's action object describes (hexes are not checked against a map)."""
    try:
        return quick_action(doc) or ActionField().deserialize(doc)
    except ValidationError as err:
        raise first_error(err.messages, path) from None


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
    pay = getattr(action, "pay", None)
    if pay is not None:
        doc.update(_pay_to_json(pay))
    return doc


def action_hexes(action: Action, path: str) -> Iterator[tuple[str, Hex]]:
    """Every hex an action names, with its JSON path."""
    for name in ("hex", "push_to"):
        h = getattr(action, name, None)
        if h is not None:
            yield f"{path}.{name}", h
    for i, step in enumerate(getattr(action, "steps", ())):
        at = f"{path}.moves[{i}]"
        yield f"{at}.from", step.src
        yield f"{at}.to", step.dst
        for j, h in enumerate(step.path or ()):
            yield f"{at}.path[{j}]", h
        if step.push_to is not None:
            yield f"{at}.push_to", step.push_to


# --- the record ------------------------------------------------------------------------------


class RecordSchema(Base):
    """A ``howl.game`` document (after its header is checked)."""

    meta = fields.Raw(load_default=dict)
    players = List(fields.Nested(PlayerSchema), MAX_PLAYERS)
    setup = fields.Nested(SetupSchema)
    start = fields.Raw()
    actions = ActionList(required=True)
    rules = Text(MAX_TEXT, allow_none=True, load_default=None)


RECORD_SCHEMA = RecordSchema()


def first_error(messages: Any, path: str = "") -> InvalidRecord:
    """The first problem of marshmallow's nested error messages, with its JSON path."""
    while True:
        if isinstance(messages, dict) and messages:
            keys = list(messages)
            key = min(keys) if all(isinstance(k, int) for k in keys) else keys[0]
            messages = messages[key]
            if key != "_schema":
                path = join(path, key)
        elif isinstance(messages, list) and messages:
            if isinstance(messages[0], str):
                return InvalidRecord(path, messages[0])
            messages = messages[0]
        else:
            return InvalidRecord(path, str(messages))


def load(schema: Schema, doc: Any, path: str = "") -> Any:
    """``schema.load(doc)``, its first error raised as :class:`InvalidRecord`."""
    if not isinstance(doc, Mapping):
        raise InvalidRecord(path, "expected a JSON object")
    try:
        return schema.load(doc)
    except ValidationError as err:
        raise first_error(err.messages, path) from None


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


def read_record(data: bytes | str | Mapping[str, Any]) -> Record:
    """A :class:`Record` from its JSON (bytes, text or decoded), or :class:`InvalidRecord`."""
    from domain.wolves.positions import from_position

    doc = parse(data)
    check_header(doc, FORMAT)
    loaded = load(RECORD_SCHEMA, doc)
    meta = check_meta(loaded["meta"])
    start: State | None = None
    setup: Setup | None = loaded.get("setup")
    if "start" in loaded:
        if setup is not None:
            raise InvalidRecord("setup", "a record with a start position has no setup")
        start = from_position(loaded["start"], path="start")
        players = start.table.players
        if "players" in loaded and tuple(loaded["players"]) != players:
            raise InvalidRecord("players", "the players differ from start.players")
        gmap = start.table.map
    else:
        if setup is None:
            raise InvalidRecord("setup", "missing: a record has a setup or a start position")
        if "players" not in loaded:
            raise InvalidRecord("players", "Missing data for required field.")
        players = tuple(loaded["players"])
        check_players(list(players))
        gmap = build_map(setup)
    actions: tuple[Action, ...] = tuple(loaded["actions"])
    for i, action in enumerate(actions):
        if action.player >= len(players):
            raise InvalidRecord(
                f"actions[{i}].player",
                f"seat {action.player} does not exist in a {len(players)}-player game",
            )
        check_map_hexes(action_hexes(action, f"actions[{i}]"), gmap)
    return Record(dict(meta), players, setup, start, actions, loaded["rules"])


def record_to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON-able dict (what :func:`write_record` serialises)."""
    from domain.wolves.positions import to_position

    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "players": [player_to_json(p) for p in record.players],
        "actions": [action_to_json(a) for a in record.actions],
    }
    if record.meta:
        doc["meta"] = dict(record.meta)
    if record.setup is not None:
        doc["setup"] = setup_to_json(record.setup)
    if record.start is not None:
        doc["start"] = to_position(record.start)
    if record.rules_version is not None:
        doc["rules"] = record.rules_version
    return doc


def write_record(record: Record) -> bytes:
    """The record's canonical JSON bytes; ``read_record(write_record(r)) == r``."""
    return canonical_json(record_to_json(record))
