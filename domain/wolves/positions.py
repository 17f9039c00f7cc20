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
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from domain.bounds import REQUIRED, boolean, brief, choice, mapping
from domain.documents import join, parse
from domain.hexes import Hex, fmt
from domain.ruleset import InvalidRecord
from domain.wolves import components as box
from domain.wolves.components import (
    Dominable,
    Ground,
    LoneWolf,
    Marker,
    Phase,
    PieceKind,
    PreyType,
    Side,
)
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
    between,
    check_header,
    check_players,
    each,
    nullable,
    optional,
    player_to_json,
    read_hex,
    read_player,
    read_seat,
    required,
    setup_from_json,
    setup_to_json,
)
from domain.wolves.state import MoonlightPiece, Piece, PlayerBoard, State, Unknown, new_table

FORMAT = "howl.position"
UNKNOWN: Unknown = "unknown"  # a Moonlight entry whose piece the document does not say
MOONLIGHT_KINDS: tuple[LoneWolf | Dominable | Unknown, ...] = (
    box.LONE_WOLF,
    "den",
    "pack",
    UNKNOWN,
)
"""What a Moonlight entry may be: a lone wolf, a seat's den or pack wolf, or unknown."""
ENTRY_KINDS: tuple[PieceKind | Marker, ...] = (*box.PIECE_KINDS, *box.MARKERS)
"""A ``pieces`` entry's ``kind``: a player piece, a lone wolf token or a prey stack."""
AUTOMATON_PIECES = ("alpha", "pack", "lair")

MAX_PIECES = 2 * MAX_MAP_HEXES
"""Most entries of ``pieces``: two player pieces, or one token, per hex (W-6)."""
MAX_DATE = 255
"""Largest Moonlight date (the last phase date is 30; a turn adds a few pieces at most)."""
MAX_REGION_TOKENS = 2 * MAX_REGIONS
"""Most region scoring tokens a seat can win: two per region."""
MAX_REGION_POINTS = MAX_REGION_TOKENS * max(first for first, _ in box.TOKEN_VALUES.values())
"""Most region points a seat can win: every token, at the highest first-place value."""

__all__ = ["FORMAT", "from_position", "read_position", "to_position"]

# --- fields -----------------------------------------------------------------------------------

_DENS = between(0, box.DENS_PER_TRACK)
_DATE = between(0, MAX_DATE)
_PREY_COUNT = between(1, 4)


def _count(doc: Mapping[str, Any], key: str, path: str, most: int) -> int:
    """A count from 0 to ``most``; 0 when left out."""
    return optional(doc, key, path, between(0, most), 0)


def _prey(value: Any, path: str) -> PreyType:
    return choice(value, path, "prey", box.PREY_TYPES)


def _flipped(value: Any, path: str) -> list[bool]:
    flipped = each(value, path, SLOTS, boolean)
    if len(flipped) != SLOTS:
        raise InvalidRecord(path, f"Length must be {SLOTS}.")
    return flipped


def _dens(value: Any, path: str) -> tuple[int, int, int]:
    """Dens taken per attribute track."""
    doc = mapping(value, path)
    spread, speed, howl = (optional(doc, track, path, _DENS, 0) for track in box.TRACKS)
    return spread, speed, howl


def _board(value: Any, path: str) -> PlayerBoard:
    """One seat's player board (W-5); a field left out is at its start value."""
    doc = mapping(value, path)
    flipped = optional(doc, "flipped", path, _flipped, [False] * SLOTS)
    dens = optional(doc, "dens", path, _dens, (0, 0, 0))
    lairs = _count(doc, "lairs", path, box.LAIRS)
    wolves = _count(doc, "wolves", path, len(box.PACK_TRACK))
    prey = optional(doc, "prey", path, lambda v, at: each(v, at, len(box.PREY_TYPES), _prey), [])
    return PlayerBoard(
        flipped=(False, *flipped[1:]),  # the faction tile is never flipped (W-5)
        dens=dens,
        lairs=lairs,
        wolves=wolves,
        prey=tuple(prey),
        bonus_terrain=_count(doc, "bonus_terrain", path, MAX_BONUS_TOKENS),
        bonus_action=_count(doc, "bonus_action", path, MAX_BONUS_TOKENS),
        region_points=_count(doc, "region_points", path, MAX_REGION_POINTS),
        region_tokens=_count(doc, "region_tokens", path, MAX_REGION_TOKENS),
    )


class Entry(NamedTuple):
    """One entry of ``pieces`` as written: ``{"hex", "kind", "player"}`` (``player`` null:
    the automaton), ``{"hex", "kind": "lone_wolf"}`` or ``{"hex", "kind": "prey", "prey",
    "count"}`` (``size``); ``owned`` tells whether ``player`` was given at all."""

    hex: Hex
    kind: PieceKind | Marker
    owned: bool
    player: int | None
    prey: PreyType | None
    size: int | None


def _entry(value: Any, path: str) -> Entry:
    doc = mapping(value, path)
    h = required(doc, "hex", path, read_hex)
    kind = required(doc, "kind", path, lambda v, at: choice(v, at, "piece", ENTRY_KINDS))
    player = nullable(doc, "player", path, read_seat)
    prey = optional(doc, "prey", path, _prey, None)
    return Entry(
        h, kind, "player" in doc, player, prey, optional(doc, "count", path, _PREY_COUNT, None)
    )


class Turn(NamedTuple):
    """Whose turn, actions left, stalled rounds (and draft picks, round start date: None
    when the document leaves them to be derived)."""

    player: int
    actions_left: int
    stalled_rounds: int
    draft_picks: int | None
    round_start_date: int | None


def _turn(value: Any, path: str) -> Turn:
    doc = mapping(value, path)
    return Turn(
        required(doc, "player", path, read_seat),
        required(doc, "actions_left", path, between(0, box.ACTIONS_PER_TURN + MAX_BONUS_TOKENS)),
        _count(doc, "stalled_rounds", path, MAX_STALL_LIMIT),
        optional(doc, "draft_picks", path, between(0, 2 * MAX_PLAYERS), None),
        optional(doc, "round_start_date", path, _DATE, None),
    )


def _moon_entry(value: Any, path: str) -> MoonlightPiece:
    """One piece on the Moonlight board: a lone wolf, or a seat's den or pack wolf."""
    doc = mapping(value, path)
    kind = required(doc, "kind", path, lambda v, at: choice(v, at, "piece", MOONLIGHT_KINDS))
    return MoonlightPiece(kind, optional(doc, "player", path, read_seat, None))


# --- writing ----------------------------------------------------------------------------------


def _moon_to_json(entry: MoonlightPiece) -> dict[str, Any]:
    if entry.player is None:
        return {"kind": entry.kind}
    return {"kind": entry.kind, "player": entry.player}


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
    players = tuple(
        required(doc, "players", path, lambda v, at: each(v, at, MAX_PLAYERS, read_player))
    )
    setup = required(doc, "setup", path, setup_from_json)
    entries = required(doc, "pieces", path, lambda v, at: each(v, at, MAX_PIECES, _entry))
    boards = required(doc, "boards", path, lambda v, at: each(v, at, MAX_PLAYERS, _board))
    scoring_doc = required(doc, "scoring", path, lambda v, at: v)
    date = required(doc, "moonlight", path, _DATE)
    moon = optional(
        doc, "moonlight_pieces", path, lambda v, at: each(v, at, MAX_DATE, _moon_entry), None
    )
    phases = optional(doc, "phases_scored", path, between(0, len(box.PHASES)), None)
    turn = required(doc, "turn", path, _turn)
    finished = optional(doc, "finished", path, boolean, False)
    check_players(players, join(path, "players"))
    table = new_table(players, setup)
    seats = len(players)
    if len(boards) != seats:
        raise InvalidRecord(join(path, "boards"), f"expected {seats} boards, one per seat")
    for seat, board in enumerate(boards):
        for i, kind in enumerate(board.prey):
            if kind in board.prey[:i]:
                raise InvalidRecord(
                    join(path, f"boards[{seat}].prey[{i}]"), f"a seat never holds two {kind}"
                )
    pieces, lone, prey = _pieces(entries, table.map.terrain, boards, join(path, "pieces"))
    scoring = _scoring(scoring_doc, table.map.regions, join(path, "scoring"))
    moonlight = _moonlight(moon, date, seats, path)
    at = join(path, "turn")
    if turn.player >= seats:
        raise InvalidRecord(join(at, "player"), f"seat {turn.player} does not exist")
    alphas = sum(p.kind == "alpha" and p.player is not None for ps in pieces.values() for p in ps)
    order = table.draft_order
    picks = min(len(order), alphas) if turn.draft_picks is None else turn.draft_picks
    if picks > len(order):
        raise InvalidRecord(join(at, "draft_picks"), f"the draft has {len(order)} picks")
    if picks < len(order) and table.start_tile_draft:
        _check_draft(entries, table.map.side, join(path, "pieces"))
    if picks < len(order) and not finished and turn.player != order[picks]:
        raise InvalidRecord(
            join(at, "player"), f"draft pick {picks + 1} is seat {order[picks]}'s, not seat "
            f"{turn.player}'s"
        )  # fmt: skip
    idle = picks == len(order) and not finished and turn.actions_left < 1
    if idle and not boards[turn.player].bonus_action:  # with a token: spend it or pass (W-6)
        raise InvalidRecord(
            join(at, "actions_left"), "the player to act has no action and no bonus token left"
        )
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
        player=turn.player,
        actions_left=turn.actions_left,
        draft_picks=picks,
        phases_scored=phases,
        stalled_rounds=turn.stalled_rounds,
        round_start_date=date if turn.round_start_date is None else turn.round_start_date,
        finished=finished,
    )


def _pieces(
    entries: Sequence[Entry],
    terrain: Mapping[Hex, Ground],
    boards: Sequence[PlayerBoard],
    path: str,
) -> tuple[dict[Hex, tuple[Piece, ...]], set[Hex], dict[Hex, tuple[PreyType, int]]]:
    """Pieces, lone wolves and prey; each placed by the occupancy rules of W-6."""
    pieces: dict[Hex, tuple[Piece, ...]] = {}
    lone: set[Hex] = set()
    prey: dict[Hex, tuple[PreyType, int]] = {}
    owned: Counter[tuple[int, PieceKind]] = Counter()
    for i, entry in enumerate(entries):
        at = f"{path}[{i}]"
        h, kind = entry.hex, entry.kind
        if h not in terrain:
            raise InvalidRecord(f"{at}.hex", f"{fmt(h)} is not on the map")
        if terrain[h] not in box.TERRAINS:
            raise InvalidRecord(f"{at}.hex", f"{fmt(h)} is {terrain[h]}: it holds nothing (W-6)")
        here = pieces.get(h, ())
        token = h in lone or h in prey
        if kind == box.LONE_WOLF or kind == box.PREY:
            if here or token:
                raise InvalidRecord(at, f"a {kind} token may not share {fmt(h)} (W-6)")
            if kind == box.LONE_WOLF:
                lone.add(h)
                continue
            if entry.prey is None:
                raise InvalidRecord(f"{at}.prey", REQUIRED)
            if entry.size is None:
                raise InvalidRecord(f"{at}.count", REQUIRED)
            prey[h] = (entry.prey, entry.size)
            continue
        if not entry.owned:
            raise InvalidRecord(f"{at}.player", "missing: a seat, or null for the automaton")
        piece = Piece(entry.player, kind)
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


def _check_draft(entries: Sequence[Entry], side: Mapping[Hex, Side], path: str) -> None:
    """While the draft is on, the seats' wolves stand on the start tile (W-4.1)."""
    for i, entry in enumerate(entries):
        if entry.kind in box.WOLF_KINDS and entry.player is not None and entry.hex not in side:
            raise InvalidRecord(
                f"{path}[{i}].hex", f"{fmt(entry.hex)}: during the draft wolves stand on the "
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


def _supply(board: PlayerBoard, kind: PieceKind) -> int:
    """How many pieces of a kind a board has released onto the map at most (W-5)."""
    taken = box.PACK_TRACK[: board.wolves]
    return {
        "alpha": box.START_WOLVES["alpha"] + taken.count("alpha"),
        "pack": box.START_WOLVES["pack"] + taken.count("pack"),
        "den": max(0, sum(board.dens) - board.lairs),
        "lair": board.lairs,
    }[kind]


def _scoring(doc: Any, regions: tuple[int, ...], path: str) -> dict[int, tuple[Phase, ...]]:
    """Tokens still on each region, top first; a region left out has none."""
    if not isinstance(doc, Mapping):
        raise InvalidRecord(path, "expected an object: region id → scoring tokens")
    if len(doc) > MAX_REGIONS:
        raise InvalidRecord(path, f"at most {MAX_REGIONS} regions, not {len(doc)}")
    out: dict[int, tuple[Phase, ...]] = {r: () for r in regions}
    for key, stack in doc.items():
        region = _region_id(key)
        if region is None:
            raise InvalidRecord(path, f"a region id is an integer, not {brief(key)}")
        at = join(path, key)
        if region not in out:
            raise InvalidRecord(at, f"region {key} is not on the map")
        if not isinstance(stack, list) or len(stack) > 2:
            raise InvalidRecord(at, "expected a list of at most 2 scoring tokens, top first")
        tokens: list[Phase] = []
        for i, token in enumerate(stack):
            if token not in box.PHASES:
                raise InvalidRecord(f"{at}[{i}]", f"unknown scoring token {brief(token)}")
            tokens.append(box.PHASES[box.PHASES.index(token)])
        out[region] = tuple(tokens)
    return out


def _region_id(key: str) -> int | None:
    """The region id a ``scoring`` key writes in ASCII decimal digits, or None."""
    digits = key[1:] if key.startswith("-") else key
    if not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(MAX_REGION_ID))):
        return None
    return int(key)


def _moonlight(
    entries: Sequence[MoonlightPiece] | None, date: int, seats: int, path: str
) -> tuple[MoonlightPiece, ...]:
    """The Moonlight board's pieces in date order; anonymous when the document lists none.
    A den or pack wolf names the seat it came from; a lone wolf, no seat."""
    if entries is None:
        return (MoonlightPiece(UNKNOWN),) * date
    at = join(path, "moonlight_pieces")
    if len(entries) != date:
        raise InvalidRecord(at, f"{len(entries)} pieces for Moonlight date {date}")
    out = []
    for i, entry in enumerate(entries):
        if entry.kind == "den" or entry.kind == "pack":
            if entry.player is None or entry.player >= seats:
                raise InvalidRecord(f"{at}[{i}].player", "the seat the piece came from")
            out.append(entry)
        else:
            out.append(MoonlightPiece(entry.kind))
    return tuple(out)


def _phases_scored(
    dates: tuple[int, ...], scoring: Mapping[int, tuple[Phase, ...]], date: int, finished: bool
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
