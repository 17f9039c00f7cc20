"""``evolve(state, event) -> state``: how each event changes a position."""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

from domain.hexes import Hex
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.components import PieceKind, Track
from domain.wolves.state import MoonlightPiece, Piece, PlayerBoard, State

_BOARD_INDEX = {name: i for i, name in enumerate(PlayerBoard._fields)}
_FLIPPED, _BONUS_TERRAIN = _BOARD_INDEX["flipped"], _BOARD_INDEX["bonus_terrain"]


class _Pieces(dict[tuple[int | None, PieceKind], Piece]):
    """Each piece made once (the handlers place the same few again and again)."""

    def __missing__(self, key: tuple[int | None, PieceKind]) -> Piece:
        piece = self[key] = Piece(*key)
        return piece


_PIECES = _Pieces()


def evolve(state: State, event: ev.Event) -> State:
    """The state after ``event``; ``state`` itself is left unchanged."""
    return apply(state.copy(), event)


def fold(state: State, events: list[ev.Event]) -> State:
    """The state after all ``events`` in order."""
    out = state.copy()
    for event in events:
        apply(out, event)
    return out


def apply(state: State, event: ev.Event) -> State:
    """Apply ``event`` to a state this caller owns (changes it in place) and return it."""
    _apply.registry.get(type(event), _apply)(event, state)  # events are final classes
    return state


def handler(kind: type[ev.Event]) -> Callable[[Any, State], None]:
    """What :func:`apply` does with an event of class ``kind``, taking it or a view of its
    fields (any object with its fields as attributes, such as ``codec.view``'s) and the
    state to change."""
    found: Callable[[Any, State], None] = _apply.registry[kind]
    return found


def _replace(board: PlayerBoard, **changes: Any) -> PlayerBoard:
    """``board._replace(**changes)``, without its checks on every call (a board changes at
    most events)."""
    values: list[Any] = list(board)
    for name, value in changes.items():
        values[_BOARD_INDEX[name]] = value
    return PlayerBoard(*values)


def _dens(board: PlayerBoard, track: Track) -> tuple[int, int, int]:
    """A board's dens taken per track after taking the leftmost den of ``track`` (W-6.2)."""
    dens = list(board.dens)
    dens[box.TRACKS.index(track)] += 1
    return dens[0], dens[1], dens[2]


def _add(state: State, h: Hex, player: int | None, kind: PieceKind) -> None:
    state.pieces[h] = (*state.pieces.get(h, ()), _PIECES[player, kind])


def _remove(state: State, h: Hex, player: int | None, kind: PieceKind) -> None:
    here = list(state.pieces[h])
    here.remove(_PIECES[player, kind])
    if here:
        state.pieces[h] = tuple(here)
    else:
        del state.pieces[h]


def _set_board(state: State, seat: int, board: PlayerBoard) -> None:
    boards = list(state.boards)
    boards[seat] = board
    state.boards = tuple(boards)


def _pay(state: State, seat: int, paid: ev.Paid, **changes: Any) -> None:
    """Settle a payment (W-5) with the action's other ``changes`` of the seat's board, in
    one new board; one action fewer is left."""
    board = state.boards[seat]
    values: list[Any] = list(board)
    if paid.tiles:
        turned = list(board.flipped)
        for slot in paid.tiles:
            if slot:  # the faction tile shows the home terrain on both sides: never flipped (W-5)
                turned[slot] = not turned[slot]
        values[_FLIPPED] = tuple(turned)
    values[_BONUS_TERRAIN] -= paid.bonus_terrain
    for name, value in changes.items():
        values[_BOARD_INDEX[name]] = value
    _set_board(state, seat, PlayerBoard(*values))
    state.actions_left -= 1


@singledispatch
def _apply(event: object, state: State) -> None:
    raise TypeError(f"not a Wolves event: {event!r}")


@_apply.register
def _(event: ev.WolvesDrafted, state: State) -> None:
    _add(state, event.hex, event.player, "alpha")
    _add(state, event.hex, event.player, "pack")
    state.draft_picks += 1
    if state.drafting:
        state.player = state.table.draft_order[state.draft_picks]
    else:
        state.player = 0
        state.actions_left = box.ACTIONS_PER_TURN


@_apply.register
def _(event: ev.BonusActionSpent, state: State) -> None:
    board = state.boards[event.player]
    _set_board(state, event.player, _replace(board, bonus_action=board.bonus_action - 1))
    state.actions_left += 1


@_apply.register
def _(event: ev.WolvesMoved, state: State) -> None:
    _pay(state, event.player, event.paid)
    for m in event.moves:
        _remove(state, m.src, event.player, m.kind)
        _add(state, m.dst, event.player, m.kind)


@_apply.register
def _(event: ev.WolfPushed, state: State) -> None:
    _remove(state, event.src, event.player, event.kind)
    _add(state, event.dst, event.player, event.kind)


@_apply.register
def _(event: ev.DenBuilt, state: State) -> None:
    board = state.boards[event.player]
    _pay(state, event.player, event.paid, dens=_dens(board, event.track))
    _add(state, event.hex, event.player, "den")


@_apply.register
def _(event: ev.LairBuilt, state: State) -> None:
    _pay(state, event.player, event.paid, lairs=state.boards[event.player].lairs + 1)
    _remove(state, event.hex, event.player, "den")
    _add(state, event.hex, event.player, "lair")
    state.moonlight = (*state.moonlight, MoonlightPiece("den", event.player))


@_apply.register
def _(event: ev.LoneWolfHowled, state: State) -> None:
    _pay(state, event.player, event.paid, wolves=state.boards[event.player].wolves + 1)
    state.lone_wolves = state.lone_wolves - {event.hex}
    _add(state, event.hex, event.player, event.wolf)
    state.moonlight = (*state.moonlight, MoonlightPiece("lone_wolf"))


@_apply.register
def _(event: ev.PieceDominated, state: State) -> None:
    board = state.boards[event.player]
    if event.track is not None:
        _pay(state, event.player, event.paid, dens=_dens(board, event.track))
    else:
        _pay(state, event.player, event.paid, wolves=board.wolves + 1)
    _remove(state, event.hex, event.victim, event.piece)
    _add(state, event.hex, event.player, event.replacement)
    state.moonlight = (*state.moonlight, MoonlightPiece(event.piece, event.victim))


@_apply.register
def _(event: ev.BonusTokenGained, state: State) -> None:
    board = state.boards[event.player]
    if event.token == "action":
        _set_board(state, event.player, _replace(board, bonus_action=board.bonus_action + 1))
    else:
        _set_board(state, event.player, _replace(board, bonus_terrain=board.bonus_terrain + 1))


@_apply.register
def _(event: ev.PreyHunted, state: State) -> None:
    kind, count = state.prey[event.hex]
    if count > 1:
        state.prey[event.hex] = (kind, count - 1)
    else:
        del state.prey[event.hex]
    board = state.boards[event.player]
    _set_board(state, event.player, _replace(board, prey=(*board.prey, event.prey)))


@_apply.register
def _(event: ev.Passed, state: State) -> None:
    state.actions_left = 0


@_apply.register
def _(event: ev.TurnEnded, state: State) -> None:
    if event.next_player == 0:
        state.round_start_date = state.date
    state.player = event.next_player
    state.actions_left = box.ACTIONS_PER_TURN
    state.stalled_rounds = event.stalled_rounds


@_apply.register
def _(event: ev.RegionScored, state: State) -> None:
    state.scoring[event.region] = state.scoring[event.region][1:]
    for s in event.standings:
        if s.seat is not None and s.points:
            board = state.boards[s.seat]
            _set_board(
                state,
                s.seat,
                _replace(
                    board,
                    region_points=board.region_points + s.points,
                    region_tokens=board.region_tokens + int(s.token),
                ),
            )


@_apply.register
def _(event: ev.PhaseScored, state: State) -> None:
    state.phases_scored += 1


@_apply.register
def _(event: ev.GameEnded, state: State) -> None:
    state.finished = True
    state.actions_left = 0
