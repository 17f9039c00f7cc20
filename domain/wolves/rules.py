"""``decide(state, action) -> events``: the rules that check an action and say what follows.

>>> from domain.wolves.setup import Player, generate_setup
>>> players = (Player("Ana", "blue", "forest"), Player("Bo", "red", "tundra"),
...            Player("Cy", "yellow", "desert"))
>>> state = initial_state(players, generate_setup(3, seed=1))
>>> decide(state, Draft(0, (5, 7)))
[WolvesDrafted(player=0, hex=(5, 7))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import assert_never

from domain.hexes import Hex, distance, fmt, is_path, steps_within
from domain.ruleset import IllegalAction, seat_named
from domain.wolves import components as box
from domain.wolves import events as ev
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
)
from domain.wolves.components import PieceKind, PreyType, Terrain, Track, WolfKind
from domain.wolves.evolve import apply
from domain.wolves.scoring import final_scores, score_region
from domain.wolves.state import Piece, State, initial_state

Emit = Callable[[ev.Event], object]
"""Where a rule sends each event it causes (what it returns is ignored)."""

__all__ = ["IllegalAction", "close_turn", "decide", "play", "initial_state"]


def decide(state: State, action: Action) -> list[ev.Event]:
    """The events an action causes, or ``IllegalAction``; ``state`` is not changed."""
    return play(state, action)[1]


def seat_name(state: State, seat: int | None) -> str:
    """``seat 0 (Ana)``: a seat of ``state``'s game as messages name it."""
    return seat_named(seat, state.table.players)


def play(state: State, action: Action) -> tuple[State, list[ev.Event]]:
    """Check ``action`` and return the state after it together with the events it caused."""
    _check_not_over(state)
    work = state.copy()
    events: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        apply(work, event)
        events.append(event)

    if action.player != work.player and work.out_of_actions:
        _end_turn(work, emit)  # the next seat's action ends the turn, as a pass would (W-6)
        _check_not_over(work)
    if action.player != work.player:
        raise IllegalAction(
            "W-6",
            f"it is {seat_name(work, work.player)}'s turn, not {seat_name(work, action.player)}'s",
        )
    if work.drafting != isinstance(action, Draft):
        if work.drafting:
            raise IllegalAction(
                "W-4.1", f"the draft is on: {seat_name(work, work.player)} must draft"
            )
        raise IllegalAction("W-4.1", "the draft is over")
    if work.out_of_actions and not isinstance(action, BonusAction | Pass):
        raise IllegalAction(
            "W-6",
            f"{seat_name(work, work.player)} has no action left: spend a bonus action token "
            "or pass",
        )
    _act(work, action, emit)
    if not isinstance(action, Draft | BonusAction | Pass):
        _hunt(work, action.player, emit)
    holds_token = work.boards[action.player].bonus_action > 0
    if work.out_of_actions and (isinstance(action, Pass) or not holds_token):
        _end_turn(work, emit)  # else the player may still spend a token or pass (W-6)
    return work, events


def close_turn(state: State) -> State:
    """The state once a turn kept open by bonus action tokens has ended without a pass, as
    the next seat's action ends it (W-6); ``state`` itself when no turn is kept open."""
    if not state.out_of_actions:
        return state
    work = state.copy()
    _end_turn(work, partial(apply, work))
    return work


def _check_not_over(state: State) -> None:
    if state.finished:
        raise IllegalAction("W-7", "the game is over: no action after its last turn ended")


# --- payment (W-6) -----------------------------------------------------------------------


def tiles_showing(state: State, seat: int, terrain: Terrain) -> int:
    """How many of a seat's tile slots show ``terrain``."""
    slots = range(len(state.boards[seat].flipped))
    return sum(state.showing(seat, slot) == terrain for slot in slots)


def settle(state: State, seat: int, pay: Pay, cost: int, terrain: Terrain, rule: str) -> ev.Paid:
    """The payment the engine settles on: the asked tiles and tokens, completed if short.

    Completion takes the faction tile first, then the lowest slots showing ``terrain``,
    then bonus terrain tokens (records.md ``pay``).
    """
    board = state.boards[seat]
    tiles = list(pay.tiles or ())
    for slot in tiles:
        if not 0 <= slot < len(board.flipped):
            raise IllegalAction("W-6", f"tile slot {slot} does not exist (slots 0 to 5)")
        if state.showing(seat, slot) != terrain:
            raise IllegalAction(
                rule, f"tile slot {slot} shows {state.showing(seat, slot)}, not {terrain}"
            )
    if len(set(tiles)) != len(tiles):
        raise IllegalAction("W-6", f"tile slots {tiles} flip one tile twice")
    tokens = pay.bonus_terrain or 0
    if tokens < 0:
        raise IllegalAction("W-6", f"pays {tokens} bonus terrain tokens: a count is never negative")
    if tokens > board.bonus_terrain:
        raise IllegalAction(
            "W-6",
            f"pays {tokens} bonus terrain tokens, {seat_name(state, seat)} holds "
            f"{board.bonus_terrain}",
        )
    if len(tiles) + tokens > cost:
        raise IllegalAction(rule, f"pays {len(tiles) + tokens} for an action costing {cost}")
    if len(tiles) + tokens < cost:
        for slot in range(len(board.flipped)):
            if len(tiles) + tokens == cost:
                break
            if slot not in tiles and state.showing(seat, slot) == terrain:
                tiles.append(slot)
        tokens += min(cost - len(tiles) - tokens, board.bonus_terrain - tokens)
    if len(tiles) + tokens < cost:
        raise IllegalAction(
            rule,
            f"cannot pay {cost} {terrain}: {seat_name(state, seat)} shows {terrain} on "
            f"{tiles_showing(state, seat, terrain)} tiles and holds "
            f"{board.bonus_terrain} bonus terrain tokens",
        )
    return ev.Paid(tuple(tiles), tokens, terrain)


# --- occupancy and push (W-6, W-6.6) -------------------------------------------------------


def check_destination(
    state: State, seat: int, kind: WolfKind, h: Hex, rule: str
) -> tuple[int, WolfKind] | None:
    """Check a wolf of ``seat`` may end on ``h``; return the enemy wolf it pushes (its seat
    and kind), if any."""
    if not state.table.map.is_land(h):
        raise IllegalAction(rule, f"{fmt(h)} is not a land hex")
    if state.has_token(h):
        raise IllegalAction("W-6", f"{fmt(h)} holds a lone wolf or prey token")
    here = state.at(h)
    if len(here) >= box.MAX_PIECES_PER_HEX:
        raise IllegalAction("W-6", f"{fmt(h)} already holds {len(here)} pieces")
    if not here or here[0].player == seat:
        return None
    other = here[0]
    if box.RANK[kind] <= box.RANK[other.kind]:
        article = "an" if kind == "alpha" else "a"
        owner = seat_name(state, other.player)
        raise IllegalAction(
            "W-6", f"{article} {kind} may not end on {fmt(h)} with {owner}'s {other.kind}"
        )
    if other.kind == "den":
        return None
    if other.player is None:
        raise IllegalAction("W-11", f"the automaton's {other.kind} on {fmt(h)} is never pushed")
    assert other.kind != "lair"  # it ranks above every wolf (W-6)
    return other.player, other.kind


def push_options(state: State, src: Hex, owner: int) -> list[Hex]:
    """The nearest hexes a wolf pushed from ``src`` may go to, lowest ``y`` then ``x`` first.

    With ``auto_push`` (W-12) only empty hexes count, never one holding the wolf's own piece.
    """
    gmap = state.table.map
    own_piece_ok = not state.table.setup.options.auto_push
    steps = gmap.steps_from(src)
    best: int | None = None
    found: list[Hex] = []
    for h, d in sorted(steps.items(), key=lambda kv: (kv[1], kv[0][1], kv[0][0])):
        if best is not None and d > best:
            break
        if d == 0 or state.has_token(h):
            continue
        here = state.at(h)
        if not here or (own_piece_ok and len(here) == 1 and here[0].player == owner):
            best = d
            found.append(h)
    return found


def push_destination(state: State, seat: int, kind: WolfKind, src: Hex, asked: Hex | None) -> Hex:
    """Where a wolf of ``seat`` pushed off ``src`` goes: the asked or the engine's nearest hex
    (W-6.6)."""
    options = push_options(state, src, seat)
    if not options:
        raise IllegalAction("W-6.6", f"no hex to push {seat_name(state, seat)}'s {kind} to")
    if asked is None:
        return options[0]
    if state.table.setup.options.auto_push and asked != options[0]:
        raise IllegalAction(
            "W-12", f"auto_push sends the wolf to {fmt(options[0])}, not {fmt(asked)}"
        )
    if asked not in options:
        near = ", ".join(fmt(h) for h in options)
        raise IllegalAction("W-6.6", f"push_to {fmt(asked)} is not a nearest free hex ({near})")
    return asked


# --- the actions ------------------------------------------------------------------------------


def _draft(state: State, action: Draft, emit: Emit) -> None:
    h, gmap = action.hex, state.table.map
    if not gmap.is_land(h):
        raise IllegalAction("W-4.1", f"{fmt(h)} is not a land hex")
    if state.at(h) or state.has_token(h):
        raise IllegalAction("W-4.1", f"{fmt(h)} is not empty")
    if state.table.start_tile_draft:
        if h not in gmap.side:
            raise IllegalAction("W-4.1", f"{fmt(h)} is not on the start tile")
        first = [w for w, _ in state.wolves_of(action.player)]
        if first and gmap.side.get(first[0]) == gmap.side[h]:
            raise IllegalAction(
                "W-4.1", f"second pick {fmt(h)} must be on the other side than {fmt(first[0])}"
            )
    else:
        region = gmap.region_of.get(h)
        top = state.scoring.get(region, ()) if region is not None else ()
        if region is None or not top or top[0] == "crescent":
            raise IllegalAction("W-4.1", f"{fmt(h)} is in a region whose top token is a crescent")
    emit(ev.WolvesDrafted(action.player, h))


def _bonus_action(state: State, action: BonusAction, emit: Emit) -> None:
    if state.boards[action.player].bonus_action < 1:
        raise IllegalAction("W-6", f"{seat_name(state, action.player)} holds no bonus action token")
    emit(ev.BonusActionSpent(action.player))


def _move(state: State, action: Move, emit: Emit) -> None:
    seat, board = action.player, state.boards[action.player]
    spread, speed = board.track("spread"), board.track("speed")
    if not action.steps:
        raise IllegalAction("W-6.1", "a move needs at least one wolf")
    if len(action.steps) > spread:
        raise IllegalAction("W-6.1", f"moves {len(action.steps)} wolves, pack spread is {spread}")
    gmap = state.table.map
    scratch = state.copy()
    arrived: Counter[tuple[Hex, WolfKind]] = Counter()
    moves: list[ev.Moved] = []
    pushes: list[ev.WolfPushed] = []
    terrains = {gmap.land.get(s.dst) for s in action.steps}
    for step in action.steps:
        kind = _wolf_at(scratch, seat, step.src, step.wolf, arrived)
        if step.dst == step.src:
            raise IllegalAction("W-6.1", f"the {kind} on {fmt(step.src)} does not move")
        _check_reach(scratch, step.src, step.dst, step.path, speed)
        pushed = check_destination(scratch, seat, kind, step.dst, "W-6.1")
        _relocate(scratch, Piece(seat, kind), step.src, step.dst)
        if pushed is not None:
            owner, wolf = pushed
            dst = push_destination(scratch, owner, wolf, step.dst, step.push_to)
            _relocate(scratch, Piece(owner, wolf), step.dst, dst)
            pushes.append(ev.WolfPushed(owner, wolf, step.dst, dst))
        arrived[(step.dst, kind)] += 1
        moves.append(ev.Moved(step.src, step.dst, kind))
    (terrain,) = terrains if len(terrains) == 1 else (None,)
    if terrain is None:  # every wolf ended on land (_check_reach): on more than one terrain
        shown = ", ".join(sorted(str(t) for t in terrains))
        raise IllegalAction("W-6.1", f"every moved wolf must end on the paid terrain, not {shown}")
    paid = settle(state, seat, action.pay, box.COSTS["move"], terrain, "W-6.1")
    emit(ev.WolvesMoved(seat, paid, tuple(moves)))
    for event in pushes:
        emit(event)


def _relocate(state: State, piece: Piece, src: Hex, dst: Hex) -> None:
    rest = list(state.at(src))
    rest.remove(piece)
    if rest:
        state.pieces[src] = tuple(rest)
    else:
        del state.pieces[src]
    state.pieces[dst] = (*state.at(dst), piece)


def _wolf_at(
    state: State,
    seat: int,
    src: Hex,
    wolf: WolfKind | None,
    arrived: Counter[tuple[Hex, WolfKind]],
) -> WolfKind:
    """Which wolf of ``seat`` a step moves from ``src`` (each wolf at most once, W-6.1)."""
    kinds = [p.kind for p in state.at(src) if p.player == seat and p.kind in box.WOLF_KINDS]
    free = [k for k in box.WOLF_KINDS if kinds.count(k) > arrived[(src, k)]]
    if wolf is not None:
        if wolf not in kinds:
            raise IllegalAction("W-6.1", f"{seat_name(state, seat)} has no {wolf} on {fmt(src)}")
        if wolf not in free:
            raise IllegalAction("W-6.1", f"the {wolf} on {fmt(src)} already moved in this action")
        return wolf
    if not kinds:
        raise IllegalAction("W-6.1", f"{seat_name(state, seat)} has no wolf on {fmt(src)}")
    if len(set(kinds)) > 1 and len(free) > 1:
        raise IllegalAction("W-6.1", f"{fmt(src)} holds an alpha and a pack wolf: name the wolf")
    if not free:
        raise IllegalAction("W-6.1", f"the wolf on {fmt(src)} already moved in this action")
    return free[0]


def _check_reach(
    state: State, src: Hex, dst: Hex, path: tuple[Hex, ...] | None, speed: int
) -> None:
    gmap = state.table.map
    if not gmap.is_land(dst):
        raise IllegalAction("W-6.1", f"{fmt(dst)} is not a land hex")
    if path is not None:
        full = [src, *(h for h in path if h != src)]
        if full[-1] != dst:
            full.append(dst)
        if not is_path(full) or not all(gmap.is_land(h) for h in full):
            raise IllegalAction("W-6.1", f"the path to {fmt(dst)} is not a chain of land hexes")
        if len(full) - 1 > speed:
            raise IllegalAction(
                "W-6.1", f"the path to {fmt(dst)} takes {len(full) - 1} steps, speed is {speed}"
            )
        return
    if steps_within(src, dst, gmap.land_neighbours, speed) is None:
        far = gmap.steps_from(src).get(dst)
        need = "no land path" if far is None else f"{far} steps"
        raise IllegalAction(
            "W-6.1", f"{fmt(dst)} is out of reach from {fmt(src)}: {need}, wolf speed is {speed}"
        )


def _near_alpha(state: State, seat: int, h: Hex, reach: int, rule: str, what: str) -> None:
    alphas = state.alphas_of(seat)
    nearest = min((distance(a, h) for a in alphas), default=None)
    if nearest is None or nearest > reach:
        at = "no alpha on the map" if nearest is None else f"nearest alpha at distance {nearest}"
        raise IllegalAction(
            rule, f"no alpha of {seat_name(state, seat)} within {what} {reach} of {fmt(h)} ({at})"
        )


def _gain_den(state: State, seat: int, track: Track | None, rule: str) -> Track:
    """Check a den can be taken from ``track``; return the track."""
    if track is None or track not in box.TRACKS:
        raise IllegalAction(rule, f"track must be one of {', '.join(box.TRACKS)}, not {track}")
    if state.boards[seat].dens_taken(track) >= box.DENS_PER_TRACK:
        raise IllegalAction(rule, f"{seat_name(state, seat)} has no den left on the {track} track")
    return track


def _den_rewards(state: State, seat: int, track: Track, emit: Emit) -> None:
    taken = state.boards[seat].dens_taken(track)
    bonus = box.TRACK_BONUS[track].get(taken)
    if bonus:
        emit(ev.BonusTokenGained(seat, bonus[state.table.two_player]))


def _den(state: State, action: BuildDen, emit: Emit) -> None:
    seat, h = action.player, action.hex
    track = _gain_den(state, seat, action.track, "W-6.2")
    terrain = state.table.map.land.get(h)
    if terrain is None:
        raise IllegalAction("W-6.2", f"{fmt(h)} is not a land hex")
    _near_alpha(state, seat, h, 1, "W-6.2", "distance")
    here = state.at(h)
    if state.has_token(h):
        raise IllegalAction("W-6.2", f"{fmt(h)} holds a lone wolf or prey token")
    if any(p.kind in ("den", "lair") for p in here):
        raise IllegalAction("W-6.2", f"{fmt(h)} already holds a den or lair")
    if any(p.player != seat for p in here):
        raise IllegalAction("W-6.2", f"{fmt(h)} holds an enemy piece")
    if len(here) >= box.MAX_PIECES_PER_HEX:
        raise IllegalAction("W-6", f"{fmt(h)} already holds {len(here)} pieces")
    paid = settle(state, seat, action.pay, box.COSTS["den"], terrain, "W-6.2")
    emit(ev.DenBuilt(seat, paid, h, track))
    _den_rewards(state, seat, track, emit)


def _lair(state: State, action: UpgradeLair, emit: Emit) -> None:
    seat, h, gmap = action.player, action.hex, state.table.map
    if Piece(seat, "den") not in state.at(h):
        raise IllegalAction("W-6.3", f"{seat_name(state, seat)} has no den on {fmt(h)}")
    if h not in gmap.lair_sites:
        raise IllegalAction("W-6.3", f"the den on {fmt(h)} is not next to a water source")
    _near_alpha(state, seat, h, 1, "W-6.3", "distance")
    region = gmap.region_of.get(h)
    for other in gmap.region_hexes.get(region, ()) if region is not None else ():
        if Piece(seat, "lair") in state.at(other):
            raise IllegalAction(
                "W-6.3",
                f"{seat_name(state, seat)} already has a lair in region {region} at {fmt(other)}",
            )
    if state.boards[seat].lairs >= box.LAIRS:
        raise IllegalAction("W-6.3", f"{seat_name(state, seat)} has no lair left")
    paid = settle(state, seat, action.pay, box.COSTS["lair"], gmap.land[h], "W-6.3")
    emit(ev.LairBuilt(seat, paid, h))
    emit(ev.BonusTokenGained(seat, "terrain"))
    for piece in state.at(h):
        if piece.player not in (seat, None) and piece.kind in box.WOLF_KINDS:
            dst = push_destination(state, piece.player, piece.kind, h, action.push_to)
            emit(ev.WolfPushed(piece.player, piece.kind, h, dst))


def _howl(state: State, action: Howl, emit: Emit) -> None:
    seat, h = action.player, action.hex
    if h not in state.lone_wolves:
        raise IllegalAction("W-6.4", f"no lone wolf on {fmt(h)}")
    board = state.boards[seat]
    _near_alpha(state, seat, h, board.track("howl"), "W-6.4", "howl range")
    wolf = board.next_wolf()
    if wolf is None:
        raise IllegalAction("W-6.4", f"{seat_name(state, seat)}'s pack track is empty")
    paid = settle(state, seat, action.pay, box.COSTS["howl"], state.table.map.land[h], "W-6.4")
    emit(ev.LoneWolfHowled(seat, paid, h, wolf))


def _dominate(state: State, action: Dominate, emit: Emit) -> None:
    seat, h = action.player, action.hex
    here = state.at(h)
    for p in here:
        if p.player is None and (action.piece is None or action.piece == p.kind):
            raise IllegalAction(
                "W-11", f"the automaton's {p.kind} on {fmt(h)} can never be dominated"
            )
    targets = [
        (p.player, p.kind) for p in here
        if p.player not in (seat, None) and p.kind in box.DOMINABLE
        and (action.piece is None or p.kind == action.piece)
    ]  # fmt: skip
    if not targets:
        kinds = ", ".join(f"{p.kind} of {seat_name(state, p.player)}" for p in here) or "nothing"
        raise IllegalAction(
            "W-6.5", f"no enemy pack wolf or den to dominate on {fmt(h)} (it holds {kinds})"
        )
    if len(targets) > 1:
        raise IllegalAction("W-6.5", f"{fmt(h)} holds an enemy den and pack wolf: name the piece")
    ((victim, kind),) = targets
    if sum(p.player == victim for p in here) > 1:
        raise IllegalAction(
            "W-6.5",
            f"{seat_name(state, victim)} has a second piece on {fmt(h)}: it cannot be dominated",
        )
    board = state.boards[seat]
    _near_alpha(state, seat, h, board.track("howl"), "W-6.5", "howl range")
    track: Track | None = None
    replacement: PieceKind
    if kind == "den":
        track = _gain_den(state, seat, action.track, "W-6.5")
        replacement = "den"
    else:
        wolf = board.next_wolf()
        if wolf is None:
            raise IllegalAction("W-6.5", f"{seat_name(state, seat)}'s pack track is empty")
        replacement = wolf
    terrain = state.table.map.land[h]
    paid = settle(state, seat, action.pay, box.COSTS["dominate"], terrain, "W-6.5")
    emit(ev.PieceDominated(seat, paid, h, victim, kind, replacement, track))
    if track is not None:
        _den_rewards(state, seat, track, emit)


def _pass(state: State, action: Pass, emit: Emit) -> None:
    emit(ev.Passed(action.player))


def _act(state: State, action: Action, emit: Emit) -> None:
    """Check an action by the rule of its kind and emit the events it settles."""
    match action:
        case Draft():
            _draft(state, action, emit)
        case BonusAction():
            _bonus_action(state, action, emit)
        case Move():
            _move(state, action, emit)
        case BuildDen():
            _den(state, action, emit)
        case UpgradeLair():
            _lair(state, action, emit)
        case Howl():
            _howl(state, action, emit)
        case Dominate():
            _dominate(state, action, emit)
        case Pass():
            _pass(state, action, emit)
        case _:
            assert_never(action)


# --- what follows an action: hunts, end of turn, scoring, game end ------------------------------


def hunts(state: State, seat: int) -> list[tuple[Hex, PreyType]]:
    """Prey stacks a seat hunts now: 3+ of its wolf hexes adjacent, type not held (W-6.7)."""
    held = state.boards[seat].prey
    if len(held) >= len(box.PREY_TYPES):
        return []
    neighbours = state.table.map.land_neighbours
    pieces = state.pieces
    surrounded = []
    for h, (kind, _) in state.prey.items():
        if kind in held:
            continue
        around = 0
        for n in neighbours.get(h, ()):
            for piece in pieces.get(n, ()):
                if piece.player == seat and piece.kind in _WOLVES:
                    around += 1
                    break
        if around >= 3:
            surrounded.append((h, kind))
    found: list[tuple[Hex, PreyType]] = []
    for h, kind in sorted(surrounded, key=lambda hk: (hk[0][1], hk[0][0])):
        if all(kind != k for _, k in found):
            found.append((h, kind))
    return found


_WOLVES = frozenset(("alpha", "pack"))


def _hunt(state: State, seat: int, emit: Emit) -> None:
    for h, kind in hunts(state, seat):  # distinct kinds the seat lacks: never too many
        emit(ev.PreyHunted(seat, h, kind))
        if not state.table.two_player:
            emit(ev.BonusTokenGained(seat, "action"))


def _score_phases(state: State, emit: Emit, until_date: int | None) -> None:
    """Score every phase reached (all remaining ones when ``until_date`` is None), in order."""
    while state.phases_scored < len(box.PHASES):
        i = state.phases_scored
        if until_date is not None and until_date < state.table.phase_dates[i]:
            return
        phase = box.PHASES[i]
        for region in state.table.map.regions:
            stack = state.scoring.get(region, ())
            if stack and stack[0] == phase:
                emit(score_region(state, region, phase))
        emit(ev.PhaseScored(phase))


def _end_turn(state: State, emit: Emit) -> None:
    """End of turn (W-7): score phases reached, end the game, or pass to the next seat."""
    _score_phases(state, emit, state.date)
    if state.phases_scored == len(box.PHASES):
        emit(ev.GameEnded("full_moon", final_scores(state)))
        return
    seats = len(state.table.players)
    nxt = (state.player + 1) % seats
    stalled = state.stalled_rounds
    if nxt == 0:
        stalled = stalled + 1 if state.date == state.round_start_date else 0
    limit = state.table.stall_limit
    if limit is not None and stalled >= limit:
        _score_phases(state, emit, None)
        emit(ev.GameEnded("stall", final_scores(state)))
        return
    emit(ev.TurnEnded(state.player, nxt, stalled, state.boards[state.player].bonus_action))
