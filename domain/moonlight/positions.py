"""Moonlight positions (``howl.position``, ``"game": "moonlight"``): a whole state in JSON.

A position holds the seats and the setup, the round number and the rounds won, each
cell's stack (bottom first, with its owner), every seat's cards left (and, when the deck
orders are known, its hand and deck), the rounds scored so far, and the turn: its phase,
the seat to act, the round's starter, the seat taking M-4's one more turn and the seat
still to choose an Alpha Power. It round-trips exactly, so a position exported at step
*n* and used as a record's ``start`` replays the rest of the game to the same result.

A position is taken as given: the reader checks that it is well formed (the stacks follow
M-3, the cards fit the rectangle, each seat's cards are its deck's, the counts agree) but
not that some history could have led to it.

>>> from domain.ruleset import Seat
>>> from domain.moonlight.cards import assumed_setup
>>> from domain.moonlight.state import initial_state
>>> state = initial_state((Seat("Ana", "green"), Seat("Bo", "blue")), assumed_setup())
>>> read_position(to_position(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.documents import join, parse
from domain.moonlight.cards import DECK_SIZE, INDEX, LONE_WOLF, Card, Faces, counts_of
from domain.moonlight.cells import CELLS, FIRST, Cell, connected, fits, fmt
from domain.moonlight.events import RoundPoints
from domain.moonlight.fields import (
    GAME,
    MAX_POWER,
    MAX_ROUNDS,
    VERSION,
    cell_to_json,
    check_header,
    expand,
    optional,
    players_to_json,
    read_bool,
    read_card,
    read_cards,
    read_cell,
    read_int,
    read_list,
    read_object,
    read_players,
    read_seat,
    read_setup,
    read_text,
    required,
    setup_to_json,
)
from domain.moonlight.rules import HAND
from domain.moonlight.scoring import MOON_POINTS
from domain.moonlight.state import WINS, Pack, Phase, Placed, RoundResult, Stack, State, Table
from domain.ruleset import InvalidRecord

FORMAT = "howl.position"
MAX_STACK = 5
"""Most cards one cell can hold: each covers one exactly one lower (M-3), 1 up to 5."""
MAX_CARDS = DECK_SIZE + 1
"""Most cards a seat has in a round: its deck and the Lone Wolf."""
POINT_FIELDS = ("points", "moons", "cards", "threes", "moons_shown", "visible")
MAX_POINTS: Mapping[str, int] = {
    "moons": MOON_POINTS,
    "cards": CELLS,
    "threes": CELLS,
    "points": MOON_POINTS + 2 * CELLS,
    "moons_shown": CELLS * 5,
    "visible": CELLS,
}
"""Bounds of each field of a round's points (a table has 12 visible cards at most)."""
PHASES = tuple(p.value for p in Phase)


def to_position(state: State) -> dict[str, Any]:
    """The state as a ``howl.position`` document."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "players": players_to_json(state.table.players),
        "setup": setup_to_json(state.table.setup),
        "round": state.round,
        "rounds_won": [pack.rounds_won for pack in state.packs],
        "cells": [
            {
                "cell": cell_to_json(cell),
                "stack": [{"player": p.player, "card": p.card} for p in state.cells[cell]],
            }
            for cell in sorted(state.cells)
        ],
        "seats": [
            {
                "left": expand(pack.left),
                "hand": None if pack.hand is None else list(pack.hand),
                "deck": None if pack.deck is None else list(pack.deck),
                "lone_wolf": pack.lone_wolf,
                "power": pack.power,
            }
            for pack in state.packs
        ],
        "rounds": [
            {
                "round": r.round,
                "winner": r.winner,
                "seats": [{k: getattr(points, k) for k in POINT_FIELDS} for points in r.seats],
            }
            for r in state.rounds
        ],
        "turn": {
            "phase": state.phase.value,
            "player": state.player,
            "starter": state.starter,
            "last_turn": state.last_turn,
            "alpha_power": state.alpha_due,
        },
        "finished": state.finished,
    }


def read_position(data: bytes | str | Mapping[str, Any], path: str = "") -> State:
    """The :class:`State` a position describes, or :class:`InvalidRecord` with the path."""
    doc = data if path else parse(data, "position")
    doc = read_object(doc, path)
    check_header(doc, FORMAT, path)
    players = read_players(required(doc, "players", path), join(path, "players"))
    setup = read_setup(required(doc, "setup", path), join(path, "setup"))
    faces = Faces.of(setup)
    rounds = _read_rounds(required(doc, "rounds", path), join(path, "rounds"))
    at = join(path, "rounds_won")
    won = read_list(required(doc, "rounds_won", path), at, 2, 2)
    wins = tuple(read_int(n, join(at, i), 0, WINS) for i, n in enumerate(won))
    for seat, n in enumerate(wins):
        if n != sum(r.winner == seat for r in rounds):
            raise InvalidRecord(
                join(at, seat), f"seat {seat} won {n} rounds, but rounds say otherwise"
            )
    over = max(wins) >= WINS
    finished = read_bool(required(doc, "finished", path), join(path, "finished"))
    if finished != over:
        raise InvalidRecord(join(path, "finished"), "a game is over when a seat has won 2 rounds")
    number = read_int(required(doc, "round", path), join(path, "round"), 1, 2 * WINS - 1)
    if number != (sum(wins) if over else sum(wins) + 1):
        raise InvalidRecord(join(path, "round"), "the round is one more than the rounds won")
    cells = _read_cells(required(doc, "cells", path), join(path, "cells"), faces)
    turn_at = join(path, "turn")
    turn = read_object(required(doc, "turn", path), turn_at)
    phase = _read_phase(required(turn, "phase", turn_at), join(turn_at, "phase"))
    if (phase is Phase.OVER) != over:
        raise InvalidRecord(join(turn_at, "phase"), "the phase is over exactly when the game is")
    player = read_seat(required(turn, "player", turn_at), join(turn_at, "player"))
    starter = read_seat(required(turn, "starter", turn_at), join(turn_at, "starter"))
    last_turn = _read_optional_seat(turn, "last_turn", turn_at)
    due = _read_optional_seat(turn, "alpha_power", turn_at)
    if last_turn is not None and phase is not Phase.PLAYING:
        raise InvalidRecord(join(turn_at, "last_turn"), "M-4's one more turn is taken in a round")
    if due is not None and (
        phase is not Phase.BETWEEN or not rounds or rounds[-1].winner != 1 - due
    ):
        raise InvalidRecord(
            join(turn_at, "alpha_power"),
            "M-6: only the loser of the last round chooses one, between rounds",
        )
    if phase is Phase.BETWEEN and player != (starter if due is None else due):
        raise InvalidRecord(
            join(turn_at, "player"),
            "between rounds the starter acts, or the loser choosing an Alpha Power",
        )
    known = setup.draws is not None
    seats_at = join(path, "seats")
    entries = read_list(required(doc, "seats", path), seats_at, 2, 2)
    packs = tuple(
        _read_pack(e, join(seats_at, s), s, wins[s], cells, known, phase)
        for s, e in enumerate(entries)
    )
    table = Table(players, setup, faces)
    return State(table, (packs[0], packs[1]), cells, phase, starter, player, last_turn, due, rounds)


def _read_optional_seat(doc: Mapping[str, Any], key: str, path: str) -> int | None:
    value = optional(doc, key)
    return None if value is None else read_seat(value, join(path, key))


def _read_phase(value: Any, path: str) -> Phase:
    if value not in PHASES or not isinstance(value, str):
        raise InvalidRecord(path, f"expected one of {', '.join(PHASES)}")
    return Phase(value)


def _read_rounds(value: Any, path: str) -> tuple[RoundResult, ...]:
    rounds: list[RoundResult] = []
    for i, entry in enumerate(read_list(value, path, MAX_ROUNDS)):
        at = join(path, i)
        doc = read_object(entry, at)
        expected = 1 + sum(r.winner is not None for r in rounds)
        number = read_int(required(doc, "round", at), join(at, "round"), 1, 2 * WINS - 1)
        if number != expected:
            raise InvalidRecord(
                join(at, "round"), f"expected round {expected} (a replayed round keeps its number)"
            )
        winner = _read_optional_seat(doc, "winner", at)
        seats_at = join(at, "seats")
        entries = read_list(required(doc, "seats", at), seats_at, 2, 2)
        seats = tuple(_read_points(e, join(seats_at, s)) for s, e in enumerate(entries))
        rounds.append(RoundResult(number, (seats[0], seats[1]), winner))
    return tuple(rounds)


def _read_points(value: Any, path: str) -> RoundPoints:
    doc = read_object(value, path)
    got = {
        k: read_int(required(doc, k, path), join(path, k), 0, MAX_POINTS[k]) for k in POINT_FIELDS
    }
    if got["moons"] not in (0, MOON_POINTS):
        raise InvalidRecord(
            join(path, "moons"), f"M-5: the moon majority scores {MOON_POINTS} or 0"
        )
    if got["points"] != got["moons"] + got["cards"] + got["threes"]:
        raise InvalidRecord(join(path, "points"), "M-5: points are moons + cards + threes")
    return RoundPoints(**got)


def _read_cells(value: Any, path: str, faces: Faces) -> dict[Cell, Stack]:
    cells: dict[Cell, Stack] = {}
    for i, entry in enumerate(read_list(value, path, CELLS)):
        at = join(path, i)
        doc = read_object(entry, at)
        cell = read_cell(required(doc, "cell", at), join(at, "cell"))
        if cell in cells:
            raise InvalidRecord(join(at, "cell"), f"{fmt(cell)} is listed twice")
        stack_at = join(at, "stack")
        stack: list[Placed] = []
        for j, item in enumerate(read_list(required(doc, "stack", at), stack_at, MAX_STACK, 1)):
            where = join(stack_at, j)
            card_doc = read_object(item, where)
            placed = Placed(
                read_seat(required(card_doc, "player", where), join(where, "player")),
                read_card(required(card_doc, "card", where), join(where, "card")),
            )
            if stack and (
                placed.player == stack[-1].player
                or faces.value[placed.card] != faces.value[stack[-1].card] + 1
            ):
                raise InvalidRecord(
                    where, "M-3: a card covers only an opponent's card exactly one lower"
                )
            stack.append(placed)
        cells[cell] = tuple(stack)
    if cells:
        if FIRST not in cells:
            raise InvalidRecord(path, f"M-3: a round's first card lies on {fmt(FIRST)}")
        if not fits(cells) or not connected(cells):
            raise InvalidRecord(
                path, "M-3: the cards are connected and fit a rectangle of 4 × 3 or 3 × 4"
            )
    return cells


def _read_pack(
    value: Any,
    path: str,
    seat: int,
    rounds_won: int,
    cells: Mapping[Cell, Stack],
    known: bool,
    phase: Phase,
) -> Pack:
    doc = read_object(value, path)
    left = counts_of(read_cards(required(doc, "left", path), join(path, "left"), MAX_CARDS))
    lone_wolf = read_bool(required(doc, "lone_wolf", path), join(path, "lone_wolf"))
    power = optional(doc, "power")
    if power is not None:
        power = read_text(power, join(path, "power"), MAX_POWER)
    on_table = counts_of([p.card for stack in cells.values() for p in stack if p.player == seat])
    held = tuple(a + b for a, b in zip(left, on_table, strict=True))
    with_lone_wolf = held[INDEX[LONE_WOLF]] == 1
    playing = phase is Phase.PLAYING
    if (
        held != Faces.full(with_lone_wolf)
        or lone_wolf < with_lone_wolf
        or (playing and lone_wolf != with_lone_wolf)
    ):
        raise InvalidRecord(
            join(path, "left"),
            f"M-1: seat {seat}'s cards left and on the table are not its deck "
            f"({'with' if lone_wolf else 'without'} the Lone Wolf)",
        )
    hand = optional(doc, "hand")
    deck = optional(doc, "deck")
    if known != (hand is not None and deck is not None) or (hand is None) != (deck is None):
        what = "lists" if known else "null"
        raise InvalidRecord(
            join(path, "hand"),
            f"hand and deck are {what} when setup.draws is {'given' if known else 'null'}",
        )
    hand_cards: tuple[Card, ...] | None = None
    deck_cards: tuple[Card, ...] | None = None
    if hand is not None and deck is not None:
        hand_cards = read_cards(
            hand, join(path, "hand"), HAND if phase is Phase.PLAYING else MAX_CARDS
        )
        deck_cards = read_cards(deck, join(path, "deck"), MAX_CARDS)
        if counts_of([*hand_cards, *deck_cards]) != left:
            raise InvalidRecord(join(path, "hand"), "hand and deck together are the cards left")
    return Pack(left, hand_cards, deck_cards, lone_wolf, rounds_won, power)
