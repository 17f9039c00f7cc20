"""What the player to act may do: every legal non-move action, move destinations, move sampling.

Everything here agrees with ``decide``: an action it yields is accepted.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from domain.hexes import Hex, distance
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
from domain.wolves.components import Terrain, WolfKind
from domain.wolves.rules import IllegalAction, check_destination, decide, settle, tiles_showing
from domain.wolves.state import Piece, State


def payment(state: State, seat: int, cost: int, terrain: Terrain) -> Pay | None:
    """The engine's canonical payment for ``cost`` of ``terrain``, or None if unaffordable."""
    if tiles_showing(state, seat, terrain) + state.boards[seat].bonus_terrain < cost:
        return None  # checked here: settle's refusal would build a message for nothing
    paid = settle(state, seat, Pay(), cost, terrain, "W-6")
    return Pay(paid.tiles, paid.bonus_terrain)


def legal_actions(state: State) -> Iterator[Action]:
    """Every legal draft, bonus action, den, lair, howl, dominate and pass (moves: see below)."""
    if state.finished:
        return
    seat = state.player
    if state.drafting:
        yield from _drafts(state, seat)
        return
    if state.boards[seat].bonus_action:
        yield BonusAction(seat)
    if state.out_of_actions:  # a token to spend, or a pass keeping it (W-6)
        yield Pass(seat)
        return
    yield from _dens(state, seat)
    yield from _lairs(state, seat)
    yield from _howls(state, seat)
    yield from _dominates(state, seat)
    yield Pass(seat)


def _drafts(state: State, seat: int) -> Iterator[Draft]:
    gmap = state.table.map
    mine = [h for h, _ in state.wolves_of(seat)]
    for h in sorted(gmap.land_neighbours, key=lambda p: (p[1], p[0])):
        if state.at(h) or state.has_token(h):
            continue
        if state.table.start_tile_draft:
            if h not in gmap.side or (mine and gmap.side.get(mine[0]) == gmap.side[h]):
                continue
        else:
            region = gmap.region_of.get(h)
            top = state.scoring.get(region, ()) if region is not None else ()
            if not top or top[0] == "crescent":
                continue
        yield Draft(seat, h)


def _around_alphas(state: State, seat: int, reach: int) -> set[Hex]:
    gmap = state.table.map
    out: set[Hex] = set()
    for a in state.alphas_of(seat):
        out.update(h for h in gmap.land_neighbours if distance(a, h) <= reach)
    return out


def _dens(state: State, seat: int) -> Iterator[BuildDen]:
    board = state.boards[seat]
    tracks = [t for t in box.TRACKS if board.dens_taken(t) < box.DENS_PER_TRACK]
    if not tracks:
        return
    for h in sorted(_around_alphas(state, seat, 1), key=lambda p: (p[1], p[0])):
        here = state.at(h)
        if state.has_token(h) or len(here) >= box.MAX_PIECES_PER_HEX:
            continue
        if any(p.player != seat or p.kind in ("den", "lair") for p in here):
            continue
        pay = payment(state, seat, box.COSTS["den"], state.table.map.land[h])
        if pay is not None:
            yield from (BuildDen(seat, h, t, pay) for t in tracks)


def _lairs(state: State, seat: int) -> Iterator[UpgradeLair]:
    gmap = state.table.map
    if state.boards[seat].lairs >= box.LAIRS:
        return
    with_lair = {
        gmap.region_of.get(h) for h, ps in state.pieces.items() if Piece(seat, "lair") in ps
    }
    near = _around_alphas(state, seat, 1)
    for h, ps in sorted(state.pieces.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if Piece(seat, "den") not in ps or h not in gmap.lair_sites or h not in near:
            continue
        if gmap.region_of.get(h) in with_lair:
            continue
        pay = payment(state, seat, box.COSTS["lair"], gmap.land[h])
        if pay is not None:
            yield UpgradeLair(seat, h, pay)


def _howls(state: State, seat: int) -> Iterator[Howl]:
    board = state.boards[seat]
    if board.next_wolf() is None:
        return
    alphas = state.alphas_of(seat)
    reach = board.track("howl")
    for h in sorted(state.lone_wolves, key=lambda p: (p[1], p[0])):
        if any(distance(a, h) <= reach for a in alphas):
            pay = payment(state, seat, box.COSTS["howl"], state.table.map.land[h])
            if pay is not None:
                yield Howl(seat, h, pay)


def _dominates(state: State, seat: int) -> Iterator[Dominate]:
    board = state.boards[seat]
    alphas = state.alphas_of(seat)
    reach = board.track("howl")
    tracks = [t for t in box.TRACKS if board.dens_taken(t) < box.DENS_PER_TRACK]
    for h, here in sorted(state.pieces.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if not any(distance(a, h) <= reach for a in alphas):
            continue
        for victim in here:
            if victim.player in (seat, None) or victim.kind not in ("pack", "den"):
                continue
            if sum(p.player == victim.player for p in here) > 1:
                continue
            pay = payment(state, seat, box.COSTS["dominate"], state.table.map.land[h])
            if pay is None:
                continue
            if victim.kind == "den":
                yield from (Dominate(seat, h, pay, "den", t) for t in tracks)
            elif board.next_wolf() is not None:
                yield Dominate(seat, h, pay, "pack")


def move_destinations(state: State) -> dict[tuple[Hex, WolfKind], list[Hex]]:
    """Each wolf of the player to act (hex, kind) → hexes it may end on in a one-wolf Move."""
    if state.finished or state.drafting or state.out_of_actions:
        return {}
    seat = state.player
    gmap = state.table.map
    speed = state.boards[seat].track("speed")
    affordable = {t: payment(state, seat, 1, t) is not None for t in box.TERRAINS}
    out: dict[tuple[Hex, WolfKind], list[Hex]] = {}
    for src, kind in sorted(set(state.wolves_of(seat))):
        dests = []
        for h in gmap.steps_from(src, speed):
            if h == src or not affordable[gmap.land[h]]:
                continue
            try:
                check_destination(state, seat, kind, h, "W-6.1")
            except IllegalAction:
                continue
            dests.append(h)
        out[(src, kind)] = sorted(dests, key=lambda p: (p[1], p[0]))
    return out


def single_moves(state: State) -> Iterator[Move]:
    """Every legal one-wolf Move of the player to act, with its canonical payment."""
    seat = state.player
    for (src, kind), dests in move_destinations(state).items():
        for dst in dests:
            pay = payment(state, seat, 1, state.table.map.land[dst])
            yield Move(seat, (WolfStep(src, dst, kind),), pay or Pay())


def sample_move(state: State, rng: random.Random, tries: int = 8) -> Move | None:
    """A random complete Move of 1 to ``spread`` wolves on one terrain, checked by ``decide``."""
    options = move_destinations(state)
    wolves = [w for w, dests in options.items() if dests]
    if not wolves:
        return None
    seat = state.player
    spread = state.boards[seat].track("spread")
    terrain_of = state.table.map.land
    for _ in range(tries):
        first = rng.choice(wolves)
        first_dst = rng.choice(options[first])
        terrain = terrain_of[first_dst]
        steps = [WolfStep(first[0], first_dst, first[1])]
        others = [w for w in wolves if w != first]
        rng.shuffle(others)
        for wolf in others[: rng.randint(0, spread - 1)]:
            same = [d for d in options[wolf] if terrain_of[d] == terrain]
            if same:
                steps.append(WolfStep(wolf[0], rng.choice(same), wolf[1]))
        move = Move(seat, tuple(steps), payment(state, seat, 1, terrain) or Pay())
        try:
            decide(state, move)
        except IllegalAction:
            continue
        return move
    pay = payment(state, seat, 1, terrain_of[first_dst]) or Pay()
    return Move(seat, (WolfStep(first[0], first_dst, first[1]),), pay)
