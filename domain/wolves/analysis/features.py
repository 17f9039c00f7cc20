"""What the static evaluator sees of a position: one row of numbers per seat.

Every feature is about one seat; the conditional-logit model compares seats, so only
differences between seats matter to the win probability. ``progress`` is the Moonlight
date as a share of the full-moon date, ``urgency`` grows as the next phase nears and
``stillness`` as the Moonlight stands still.

>>> from domain.wolves.players import seats
>>> from domain.wolves.setup import generate_setup
>>> from domain.wolves.state import initial_state
>>> rows = features(initial_state(seats(3, 1), generate_setup(3, 1)))
>>> len(rows), len(rows[0]) == len(FEATURES)
(3, True)
"""

from __future__ import annotations

from domain.hexes import Hex
from domain.wolves import components as box
from domain.wolves.scoring import board_vp, score_region
from domain.wolves.state import State

FEATURES: tuple[str, ...] = (
    "vp",  # points so far: region points and board VP (all locked in)
    "vp_late",  # vp × progress: a lead counts more as the game ends
    "next_now",  # region points the seat would take if the next phase were scored now
    "next_urgent",  # next_now × urgency
    "later_now",  # the same for regions scored in later phases
    "margin_next",  # control margins in next-phase regions (clipped, token-weighted)
    "margin_later",  # the same in later-phase regions
    "hunt_ready",  # VP of the next prey, if a stack it may hunt has 2 of its wolves around
    "hunt_near",  # VP of the next prey, if a stack it may hunt has 1 of its wolves around
    "prey_left",  # VP of the next prey × share of the game left
    "bonus_action",  # bonus action tokens × share left
    "bonus_terrain",  # bonus terrain tokens × share left
    "terrains",  # distinct terrains showing on the tiles × share left
    "wolves",  # wolves on the map
    "pack_left",  # wolves still on the pack track × share left
    "dens_left",  # dens still on the attribute tracks × share left
    "tempo",  # actions left this turn, for the seat to act
    "wait",  # turns before the seat acts again, over the seats: 0 for the seat to act
    "vp_still",  # vp × stillness: a lead counts more while the Moonlight stands still
)

CLIP = 2
"""Control margins count up to this many pieces either way."""
STILL_ROUNDS = 5
"""Full rounds without a Moonlight advance that make a game without a stall limit count as
standing still (:func:`stillness` 1)."""


def progress(state: State) -> float:
    """How far the game is: Moonlight date over the full-moon date, 1 when finished."""
    if state.finished:
        return 1.0
    return min(1.0, state.date / state.table.phase_dates[-1])


def stillness(state: State) -> float:
    """How long the Moonlight has stood still, 0 to 1: full rounds without an advance over
    the stall limit (W-12, where every phase left is scored at once), or over
    :data:`STILL_ROUNDS` in a game without one. A frozen board keeps the standings it has,
    so a lead counts more (``vp_still``): freezing the board never helps the seat behind."""
    return min(1.0, state.stalled_rounds / (state.table.stall_limit or STILL_ROUNDS))


def urgency(state: State) -> float:
    """1 when the next phase is scored at the end of this turn, falling as it is further."""
    if state.phases_scored >= len(box.PHASES):
        return 0.0
    left = max(0, state.table.phase_dates[state.phases_scored] - state.date)
    return 1.0 / (1.0 + left / 3)


def _regions(state: State, n: int) -> tuple[list[list[float]], list[list[float]]]:
    """Per seat: [points now, margin] in next-phase regions, and in later ones."""
    nxt = [[0.0, 0.0] for _ in range(n)]
    later = [[0.0, 0.0] for _ in range(n)]
    phase = box.PHASES[state.phases_scored] if state.phases_scored < len(box.PHASES) else None
    for region in state.table.map.regions:
        stack = state.scoring.get(region)
        if not stack:
            continue
        into = nxt if stack[0] == phase else later
        standings = score_region(state, region, stack[0]).standings
        if not standings:
            continue
        weight = box.TOKEN_VALUES[stack[0]][0] / 8
        held = [0] * n
        for standing in standings:
            if standing.seat is not None:
                into[standing.seat][0] += standing.points
                held[standing.seat] = standing.control
        for seat in range(n):
            best = max((s.control for s in standings if s.seat != seat), default=0)
            if held[seat] or best:
                into[seat][1] += weight * max(-CLIP, min(CLIP, held[seat] - best))
    return nxt, later


def _prey_around(state: State, n: int) -> list[list[int]]:
    """Per seat: how many huntable stacks have 1 and 2+ of its wolf hexes around them."""
    wolf_hexes: list[set[Hex]] = [set() for _ in range(n)]
    for h, pieces in state.pieces.items():
        for p in pieces:
            if p.player is not None and p.kind in ("alpha", "pack"):
                wolf_hexes[p.player].add(h)
    around = [[0, 0] for _ in range(n)]
    neighbours = state.table.map.land_neighbours
    for h, (kind, count) in state.prey.items():
        if count <= 0:
            continue
        for seat in range(n):
            if kind in state.boards[seat].prey:
                continue
            near = sum(1 for x in neighbours.get(h, ()) if x in wolf_hexes[seat])
            if near:
                around[seat][min(near, 2) - 1] += 1
    return around


def features(state: State) -> list[list[float]]:
    """One row of :data:`FEATURES` per seat."""
    n = len(state.boards)
    two = state.table.two_player
    p = progress(state)
    left = 1.0 - p
    u = urgency(state)
    still = stillness(state)
    nxt, later = _regions(state, n)
    around = _prey_around(state, n)
    wolves = [0] * n
    for pieces in state.pieces.values():
        for piece in pieces:
            if piece.player is not None and piece.kind in ("alpha", "pack"):
                wolves[piece.player] += 1
    rows = []
    for seat, board in enumerate(state.boards):
        vp = board.region_points + sum(board_vp(board, two).values())
        held = len(board.prey)
        prey_vp = box.PREY_VP[two]
        next_prey = prey_vp[held + 1] - prey_vp[held] if held < len(box.PREY_TYPES) else 0
        showing = {state.showing(seat, s) for s in range(len(board.flipped))}
        acting = not state.finished and not state.drafting and state.player == seat
        rows.append([
            vp,
            vp * p,
            nxt[seat][0],
            nxt[seat][0] * u,
            later[seat][0],
            nxt[seat][1],
            later[seat][1],
            next_prey * min(around[seat][1], 1),
            next_prey * min(around[seat][0], 1),
            next_prey * left,
            board.bonus_action * left,
            board.bonus_terrain * left,
            len(showing) * left,
            wolves[seat],
            (len(box.PACK_TRACK) - board.wolves) * left,
            (3 * box.DENS_PER_TRACK - sum(board.dens)) * left,
            state.actions_left if acting else 0,
            (seat - state.player) % n / n,
            vp * still,
        ])  # fmt: skip
    return rows
