"""Positions (``howl.position``): the complete state at one moment, as records.md describes.

A position round-trips exactly: ``from_position(to_position(s)) == s``. Besides the
fields of records.md it carries what a state needs to go on exactly as it would have
(``moonlight_pieces``, ``phases_scored``, ``turn.draft_picks``, ``turn.round_start_date``);
a document without them gets values derived from the rest.

>>> from domain.wolves.setup import Player, generate_setup
>>> from domain.wolves.state import initial_state
>>> players = (Player("Ana", "blue", "forest"), Player("Bo", "red", "tundra"))
>>> state = initial_state(players, generate_setup(2, seed=7))
>>> from_position(to_position(state)) == state
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from marshmallow import fields, post_load, validate

from domain.bounds import Int, List, brief
from domain.hexes import Hex, fmt
from domain.wolves import components as box
from domain.wolves.records import (
    GAME,
    MAX_BONUS_TOKENS,
    MAX_MAP_HEXES,
    MAX_PLAYERS,
    MAX_REGION_ID,
    MAX_REGIONS,
    MAX_STALL_LIMIT,
    SLOTS,
    VERSION,
    Base,
    Bool,
    HexField,
    InvalidRecord,
    PlayerSchema,
    SetupSchema,
    check_header,
    check_players,
    join,
    load,
    one_of,
    parse,
    player_to_json,
    setup_to_json,
)
from domain.wolves.state import Piece, PlayerBoard, State, new_table

FORMAT = "howl.position"
PLAYER_PIECES = ("alpha", "pack", "den", "lair")
WOLVES = ("alpha", "pack")
AUTOMATON_PIECES = ("alpha", "pack", "lair")
UNKNOWN = "unknown"  # a Moonlight entry whose piece the document does not say

MAX_PIECES = 2 * MAX_MAP_HEXES
"""Most entries of ``pieces``: two player pieces, or one token, per hex (W-6)."""
MAX_DATE = 255
"""Largest Moonlight date (the last phase date is 30; a turn adds a few pieces at most)."""
MAX_REGION_TOKENS = 2 * MAX_REGIONS
"""Most region scoring tokens a seat can win: two per region."""
MAX_REGION_POINTS = MAX_REGION_TOKENS * max(first for first, _ in box.TOKEN_VALUES.values())
"""Most region points a seat can win: every token, at the highest first-place value."""
MAX_SEAT = MAX_PLAYERS - 1

__all__ = ["FORMAT", "from_position", "read_position", "to_position"]


class PieceSchema(Base):
    """``{"hex", "kind", "player"}``, ``{"hex", "kind": "lone_wolf"}`` or a prey stack."""

    hex = HexField(required=True)
    kind = fields.String(
        required=True, validate=one_of("piece", (*PLAYER_PIECES, box.LONE_WOLF, box.PREY))
    )
    player = Int(0, MAX_SEAT, allow_none=True)
    prey = fields.String(validate=one_of("prey", box.PREY_TYPES))
    count = Int(1, 4)


class DensSchema(Base):
    """Dens taken per attribute track."""

    spread = Int(0, box.DENS_PER_TRACK, load_default=0)
    speed = Int(0, box.DENS_PER_TRACK, load_default=0)
    howl = Int(0, box.DENS_PER_TRACK, load_default=0)


def _count(most: int) -> Int:
    return Int(0, most, load_default=0)


class BoardSchema(Base):
    """One seat's player board (W-5); a field left out is at its start value."""

    flipped = List(Bool(), SLOTS, load_default=lambda: [False] * SLOTS,
                   validate=validate.Length(equal=SLOTS))  # fmt: skip
    dens = fields.Nested(DensSchema, load_default=lambda: {t: 0 for t in box.TRACKS})
    lairs = _count(box.LAIRS)
    wolves = _count(len(box.PACK_TRACK))
    prey = List(
        fields.String(validate=one_of("prey", box.PREY_TYPES)), len(box.PREY_TYPES),
        load_default=list,
    )  # fmt: skip
    bonus_terrain = _count(MAX_BONUS_TOKENS)
    bonus_action = _count(MAX_BONUS_TOKENS)
    region_points = _count(MAX_REGION_POINTS)
    region_tokens = _count(MAX_REGION_TOKENS)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> PlayerBoard:
        dens = data["dens"]
        return PlayerBoard(
            flipped=(False, *data["flipped"][1:]),  # the faction tile is never flipped (W-5)
            dens=(dens["spread"], dens["speed"], dens["howl"]),
            lairs=data["lairs"],
            wolves=data["wolves"],
            prey=tuple(data["prey"]),
            bonus_terrain=data["bonus_terrain"],
            bonus_action=data["bonus_action"],
            region_points=data["region_points"],
            region_tokens=data["region_tokens"],
        )


class TurnSchema(Base):
    """Whose turn, actions left, stalled rounds (and draft picks, round start date)."""

    player = Int(0, MAX_SEAT, required=True)
    actions_left = Int(0, box.ACTIONS_PER_TURN + MAX_BONUS_TOKENS, required=True)
    stalled_rounds = _count(MAX_STALL_LIMIT)
    draft_picks = Int(0, 2 * MAX_PLAYERS)
    round_start_date = Int(0, MAX_DATE)


class MoonlightSchema(Base):
    """One piece on the Moonlight board: a lone wolf, or a seat's den or pack wolf."""

    kind = fields.String(
        required=True, validate=one_of("piece", (box.LONE_WOLF, "den", "pack", UNKNOWN))
    )
    player = Int(0, MAX_SEAT)


class PositionSchema(Base):
    """A ``howl.position`` document (after its header is checked)."""

    players = List(fields.Nested(PlayerSchema), MAX_PLAYERS, required=True)
    setup = fields.Nested(SetupSchema, required=True)
    pieces = List(fields.Nested(PieceSchema), MAX_PIECES, required=True)
    boards = List(fields.Nested(BoardSchema), MAX_PLAYERS, required=True)
    scoring = fields.Raw(required=True)
    moonlight = Int(0, MAX_DATE, required=True)
    moonlight_pieces = List(fields.Nested(MoonlightSchema), MAX_DATE)
    phases_scored = Int(0, len(box.PHASES))
    turn = fields.Nested(TurnSchema, required=True)
    finished = Bool(load_default=False)


# --- writing ----------------------------------------------------------------------------------


def _moon_to_json(entry: str) -> dict[str, Any]:
    kind, _, seat = entry.partition(":")
    return {"kind": kind, "player": int(seat)} if seat else {"kind": kind}


def to_position(state: State) -> dict[str, Any]:
    """The ``howl.position`` document of a state (a JSON-able dict)."""
    table = state.table
    pieces: list[dict[str, Any]] = [
        {"hex": list(h), "kind": p.kind, "player": p.player}
        for h in sorted(state.pieces)
        for p in state.pieces[h]
    ]
    pieces += [{"hex": list(h), "kind": box.LONE_WOLF} for h in sorted(state.lone_wolves)]
    pieces += [
        {"hex": list(h), "kind": box.PREY, "prey": kind, "count": count}
        for h, (kind, count) in sorted(state.prey.items())
    ]
    boards = [
        {
            "flipped": list(b.flipped),
            "dens": dict(zip(box.TRACKS, b.dens, strict=True)),
            "lairs": b.lairs,
            "wolves": b.wolves,
            "prey": list(b.prey),
            "bonus_terrain": b.bonus_terrain,
            "bonus_action": b.bonus_action,
            "region_points": b.region_points,
            "region_tokens": b.region_tokens,
        }
        for b in state.boards
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "players": [player_to_json(p) for p in table.players],
        "setup": setup_to_json(table.setup),
        "pieces": pieces,
        "boards": boards,
        "scoring": {str(r): list(stack) for r, stack in sorted(state.scoring.items())},
        "moonlight": state.date,
        "moonlight_pieces": [_moon_to_json(m) for m in state.moonlight],
        "phases_scored": state.phases_scored,
        "turn": {
            "player": state.player,
            "actions_left": state.actions_left,
            "stalled_rounds": state.stalled_rounds,
            "draft_picks": state.draft_picks,
            "round_start_date": state.round_start_date,
        },
        "finished": state.finished,
    }


# --- reading ----------------------------------------------------------------------------------


def read_position(data: bytes | str | Mapping[str, Any]) -> State:
    """The state a position document (bytes, text or decoded) describes."""
    return from_position(parse(data, "position"))


def from_position(doc: Mapping[str, Any], path: str = "") -> State:
    """The state a position document describes, or :class:`InvalidRecord` with a JSON path.

    ``path`` is where the document sits in an enclosing one (``"start"`` in a record).
    """
    if not isinstance(doc, Mapping):
        raise InvalidRecord(path, "expected a position object")
    check_header(doc, FORMAT, path)
    data = load(PositionSchema(), doc, path)
    players = tuple(data["players"])
    check_players(list(players), join(path, "players"))
    table = new_table(players, data["setup"])
    seats = len(players)
    boards: list[PlayerBoard] = data["boards"]
    if len(boards) != seats:
        raise InvalidRecord(join(path, "boards"), f"expected {seats} boards, one per seat")
    for seat, board in enumerate(boards):
        for i, kind in enumerate(board.prey):
            if kind in board.prey[:i]:
                raise InvalidRecord(
                    join(path, f"boards[{seat}].prey[{i}]"), f"a seat never holds two {kind}"
                )
    pieces, lone, prey = _pieces(data["pieces"], table.map.terrain, boards, join(path, "pieces"))
    scoring = _scoring(data["scoring"], table.map.regions, join(path, "scoring"))
    date = data["moonlight"]
    moonlight = _moonlight(data.get("moonlight_pieces"), date, seats, path)
    turn = data["turn"]
    at = join(path, "turn")
    if turn["player"] >= seats:
        raise InvalidRecord(join(at, "player"), f"seat {turn['player']} does not exist")
    alphas = sum(p.kind == "alpha" and p.player is not None for ps in pieces.values() for p in ps)
    order = table.draft_order
    picks = turn.get("draft_picks", min(len(order), alphas))
    if picks > len(order):
        raise InvalidRecord(join(at, "draft_picks"), f"the draft has {len(order)} picks")
    finished = data["finished"]
    if picks < len(order) and table.start_tile_draft:
        _check_draft(data["pieces"], table.map.side, join(path, "pieces"))
    if picks < len(order) and not finished and turn["player"] != order[picks]:
        raise InvalidRecord(
            join(at, "player"), f"draft pick {picks + 1} is seat {order[picks]}'s, not seat "
            f"{turn['player']}'s"
        )  # fmt: skip
    idle = picks == len(order) and not finished and turn["actions_left"] < 1
    if idle and not boards[turn["player"]].bonus_action:  # with a token: spend it or pass (W-6)
        raise InvalidRecord(
            join(at, "actions_left"), "the player to act has no action and no bonus token left"
        )
    phases = data.get("phases_scored")
    if phases is None:
        phases = _phases_scored(table.phase_dates, scoring, date, finished)
    return State(
        table=table,
        pieces=pieces,
        lone_wolves=frozenset(lone),
        prey=prey,
        scoring=scoring,
        boards=tuple(boards),
        moonlight=moonlight,
        player=turn["player"],
        actions_left=turn["actions_left"],
        draft_picks=picks,
        phases_scored=phases,
        stalled_rounds=turn["stalled_rounds"],
        round_start_date=turn.get("round_start_date", date),
        finished=finished,
    )


def _pieces(
    entries: list[dict[str, Any]], terrain: dict[Hex, str], boards: list[PlayerBoard], path: str
) -> tuple[dict[Hex, tuple[Piece, ...]], set[Hex], dict[Hex, tuple[str, int]]]:
    """Pieces, lone wolves and prey; each placed by the occupancy rules of W-6."""
    pieces: dict[Hex, tuple[Piece, ...]] = {}
    lone: set[Hex] = set()
    prey: dict[Hex, tuple[str, int]] = {}
    owned: Counter[tuple[int, str]] = Counter()
    for i, entry in enumerate(entries):
        at = f"{path}[{i}]"
        h, kind = entry["hex"], entry["kind"]
        if h not in terrain:
            raise InvalidRecord(f"{at}.hex", f"{fmt(h)} is not on the map")
        if terrain[h] not in box.TERRAINS:
            raise InvalidRecord(f"{at}.hex", f"{fmt(h)} is {terrain[h]}: it holds nothing (W-6)")
        here = pieces.get(h, ())
        token = h in lone or h in prey
        if kind in (box.LONE_WOLF, box.PREY):
            if here or token:
                raise InvalidRecord(at, f"a {kind} token may not share {fmt(h)} (W-6)")
            if kind == box.LONE_WOLF:
                lone.add(h)
                continue
            for name in ("prey", "count"):
                if name not in entry:
                    raise InvalidRecord(f"{at}.{name}", "Missing data for required field.")
            prey[h] = (entry["prey"], entry["count"])
            continue
        if "player" not in entry:
            raise InvalidRecord(f"{at}.player", "missing: a seat, or null for the automaton")
        piece = Piece(entry["player"], kind)
        _check_owner(piece, len(boards), f"{at}.player")
        if token:
            raise InvalidRecord(at, f"{fmt(h)} holds a lone wolf or prey token (W-6)")
        _check_occupancy(piece, here, h, at)
        pieces[h] = (*here, piece)
        if piece.player is not None:
            owned[(piece.player, kind)] += 1
            most = _supply(boards[piece.player], kind)
            if owned[(piece.player, kind)] > most:
                raise InvalidRecord(
                    at, f"seat {piece.player} has more than {most} {kind} pieces off its board"
                )
    return pieces, lone, prey


def _check_draft(entries: list[dict[str, Any]], side: dict[Hex, str], path: str) -> None:
    """While the draft is on, the seats' wolves stand on the start tile (W-4.1)."""
    for i, entry in enumerate(entries):
        if entry["kind"] in WOLVES and entry.get("player") is not None and entry["hex"] not in side:
            raise InvalidRecord(
                f"{path}[{i}].hex", f"{fmt(entry['hex'])}: during the draft wolves stand on the "
                "start tile (W-4.1)"
            )  # fmt: skip


def _check_owner(piece: Piece, seats: int, at: str) -> None:
    if piece.player is None:
        if seats != 2 or piece.kind not in AUTOMATON_PIECES:
            what = "only in a two-player game" if seats != 2 else "no dens"
            raise InvalidRecord(at, f"the automaton pack has {what} (W-11)")
    elif piece.player >= seats:
        raise InvalidRecord(at, f"seat {piece.player} does not exist")


def _check_occupancy(piece: Piece, here: tuple[Piece, ...], h: Hex, at: str) -> None:
    """W-6: at most 2 player pieces, one den or lair; enemies share only den + wolf."""
    if len(here) >= box.MAX_PIECES_PER_HEX:
        raise InvalidRecord(at, f"{fmt(h)} already holds {len(here)} pieces (W-6)")
    for other in here:
        if piece.kind in ("den", "lair") and other.kind in ("den", "lair"):
            raise InvalidRecord(at, f"{fmt(h)} already holds a {other.kind} (W-6)")
        if other.player != piece.player and {piece.kind, other.kind} not in (
            {"den", "alpha"},
            {"den", "pack"},
        ):
            owner = "the automaton" if other.player is None else f"seat {other.player}"
            raise InvalidRecord(
                at, f"a {piece.kind} may not share {fmt(h)} with {owner}'s {other.kind} (W-6)"
            )


def _supply(board: PlayerBoard, kind: str) -> int:
    """How many pieces of a kind a board has released onto the map at most (W-5)."""
    taken = box.PACK_TRACK[: board.wolves]
    return {
        "alpha": box.START_WOLVES["alpha"] + taken.count("alpha"),
        "pack": box.START_WOLVES["pack"] + taken.count("pack"),
        "den": max(0, sum(board.dens) - board.lairs),
        "lair": board.lairs,
    }[kind]


def _scoring(doc: Any, regions: tuple[int, ...], path: str) -> dict[int, tuple[str, ...]]:
    """Tokens still on each region, top first; a region left out has none."""
    if not isinstance(doc, Mapping):
        raise InvalidRecord(path, "expected an object: region id → scoring tokens")
    if len(doc) > MAX_REGIONS:
        raise InvalidRecord(path, f"at most {MAX_REGIONS} regions, not {len(doc)}")
    out: dict[int, tuple[str, ...]] = {r: () for r in regions}
    for key, stack in doc.items():
        region = _region_id(key)
        if region is None:
            raise InvalidRecord(path, f"a region id is an integer, not {brief(key)}")
        at = join(path, key)
        if region not in out:
            raise InvalidRecord(at, f"region {key} is not on the map")
        if not isinstance(stack, list) or len(stack) > 2:
            raise InvalidRecord(at, "expected a list of at most 2 scoring tokens, top first")
        for i, token in enumerate(stack):
            if token not in box.PHASES:
                raise InvalidRecord(f"{at}[{i}]", f"unknown scoring token {brief(token)}")
        out[region] = tuple(stack)
    return out


def _region_id(key: str) -> int | None:
    """The region id a ``scoring`` key writes in ASCII decimal digits, or None."""
    digits = key[1:] if key.startswith("-") else key
    if not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(MAX_REGION_ID))):
        return None
    return int(key)


def _moonlight(
    entries: list[dict[str, Any]] | None, date: int, seats: int, path: str
) -> tuple[str, ...]:
    """The Moonlight board's pieces in date order; anonymous when the document lists none."""
    if entries is None:
        return (UNKNOWN,) * date
    at = join(path, "moonlight_pieces")
    if len(entries) != date:
        raise InvalidRecord(at, f"{len(entries)} pieces for Moonlight date {date}")
    out = []
    for i, entry in enumerate(entries):
        kind, seat = entry["kind"], entry.get("player")
        if kind in ("den", "pack"):
            if seat is None or seat >= seats:
                raise InvalidRecord(f"{at}[{i}].player", "the seat the piece came from")
            out.append(f"{kind}:{seat}")
        else:
            out.append(kind)
    return tuple(out)


def _phases_scored(
    dates: tuple[int, ...], scoring: dict[int, tuple[str, ...]], date: int, finished: bool
) -> int:
    """Phases already scored: every one reached whose tokens are gone from the regions' tops."""
    if finished:
        return len(box.PHASES)
    tops = {stack[0] for stack in scoring.values() if stack}
    done = 0
    for phase, when in zip(box.PHASES, dates, strict=True):
        if date < when or phase in tops:
            break
        done += 1
    return done
