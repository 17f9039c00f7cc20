"""The JSON fields Moonlight's records and positions share, read with their bounds and
written back: seats, the setup, cards, cells and actions.

Every reader takes a decoded JSON value and the JSON path it sits at, and either returns
the typed value or raises :class:`~domain.ruleset.InvalidRecord` naming that path. Every
number, string and list is checked against a bound before it is used (a list's length
before any of its entries is read). Readers ignore object keys they do not know.

>>> read_cell([1, -2], "actions[3].cell")
(1, -2)
>>> read_cell([1, 9], "cell")
Traceback (most recent call last):
...
domain.ruleset.InvalidRecord: cell: coordinates run from -3 to 3 (M-3: the cards fit around [0, 0])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from domain import bounds, documents
from domain.documents import join
from domain.moonlight.actions import Action, AlphaPower, Place, RoundStart
from domain.moonlight.cards import (
    CARDS,
    COUNTS,
    DECK_SIZE,
    LONE_WOLF,
    MAX_MOONS,
    VALUES,
    Card,
    DeckEntry,
    Faces,
    LoneWolfCard,
    Order,
    Setup,
    Value,
    counts_of,
)
from domain.moonlight.cells import CELLS, REACH, Cell
from domain.ruleset import InvalidRecord, Seat
from domain.seat_bots import bot_json, read_bot

GAME = "moonlight"
"""The records' and positions' ``"game"``."""
VERSION = 1
MAX_TEXT = 64
"""Longest player name, colour or rules version."""
MAX_POWER = 200
"""Longest Alpha Power name (free text, M-6)."""
MAX_ACTIONS = 1200
"""Most actions a record may hold: a round takes at least 12 placements (M-4), so this
allows 100 rounds played, replays included (best of three needs 2 or 3)."""
MAX_ROUNDS = MAX_ACTIONS // CELLS
"""Most rounds a record or position may describe (deck orders, rounds scored)."""
MAX_SEED = bounds.INT64_MAX
SEATS = 2
BOTS = ("random", "greedy")
"""The computer players a seat may be played by (``players[i].bot``), weakest first."""
ACTION_TYPES = ("place", "round_start", "alpha_power")


# --- plain values ----------------------------------------------------------------------


def read_object(value: Any, path: str) -> Mapping[str, Any]:
    """A JSON object."""
    if not isinstance(value, dict):
        raise InvalidRecord(path, f"expected a JSON object, got {bounds.brief(value)}")
    return value


def read_int(value: Any, path: str, least: int, most: int) -> int:
    """A JSON integer from ``least`` to ``most`` (no float, string or boolean)."""
    if type(value) is not int or not least <= value <= most:
        raise InvalidRecord(
            path, f"expected an integer from {least} to {most}, got {bounds.brief(value)}"
        )
    return value


def read_bool(value: Any, path: str) -> bool:
    """A JSON ``true`` or ``false``."""
    if type(value) is not bool:
        raise InvalidRecord(path, f"expected true or false, got {bounds.brief(value)}")
    return value


def read_text(value: Any, path: str, most: int) -> str:
    """A non-empty string of at most ``most`` characters, with no NUL or lone surrogate."""
    if not isinstance(value, str):
        raise InvalidRecord(path, f"expected a string, got {bounds.brief(value)}")
    text: str = value
    problem = bounds.text_problem(text, most)
    if problem is None and not text:
        problem = "must not be empty"
    if problem is not None:
        raise InvalidRecord(path, problem)
    return text


def read_list(value: Any, path: str, most: int, least: int = 0) -> list[Any]:
    """A JSON list of ``least`` to ``most`` entries, its length checked before any entry."""
    if not isinstance(value, list):
        raise InvalidRecord(path, f"expected a list, got {bounds.brief(value)}")
    if not least <= len(value) <= most:
        want = f"at most {most}" if least == 0 else f"{least} to {most}"
        raise InvalidRecord(
            path, f"expected {most if least == most else want} entries, not {len(value)}"
        )
    return value


def check_header(doc: Mapping[str, Any], fmt: str, path: str = "") -> None:
    """``format``, ``version`` and ``game`` are the ones this reader speaks."""
    documents.check_header(doc, (("format", fmt), ("version", VERSION), ("game", GAME)), path)


def required(doc: Mapping[str, Any], key: str, path: str) -> Any:
    """``doc[key]``, or an :class:`InvalidRecord` saying it is missing."""
    if key not in doc:
        raise InvalidRecord(join(path, key), "missing")
    return doc[key]


def optional(doc: Mapping[str, Any], key: str) -> Any:
    """``doc[key]``, None when absent (null and absent mean the same)."""
    return doc.get(key)


# --- the game's values -------------------------------------------------------------------


def read_seat(value: Any, path: str) -> int:
    """A seat: 0 or 1."""
    return read_int(value, path, 0, SEATS - 1)


def read_value(value: Any, path: str) -> Value:
    """A wolf card's value, 1 to 5 (M-1)."""
    return cast(Value, read_int(value, path, 1, 5))


def read_card(value: Any, path: str) -> Card:
    """A card: a value 1 to 5 or ``"lone_wolf"`` (M-1)."""
    if value == LONE_WOLF and isinstance(value, str):
        return LONE_WOLF
    if type(value) is int and 1 <= value <= 5:
        return cast(Card, value)
    raise InvalidRecord(path, f'a card is a value 1 to 5 or "lone_wolf", not {bounds.brief(value)}')


def read_cards(value: Any, path: str, most: int) -> tuple[Card, ...]:
    """A list of at most ``most`` cards."""
    return tuple(read_card(c, join(path, i)) for i, c in enumerate(read_list(value, path, most)))


def read_cell(value: Any, path: str) -> Cell:
    """A cell ``[x, y]``, each coordinate within reach of ``[0, 0]`` (M-3)."""
    if not isinstance(value, list) or len(value) != 2 or any(type(v) is not int for v in value):
        raise InvalidRecord(path, f"a cell is [x, y], two integers, not {bounds.brief(value)}")
    x, y = value
    if not (-REACH <= x <= REACH and -REACH <= y <= REACH):
        raise InvalidRecord(
            path,
            f"coordinates run from {-REACH} to {REACH} (M-3: the cards fit around [0, 0])",
        )
    return (x, y)


def cell_to_json(cell: Cell) -> list[int]:
    """``[x, y]``."""
    return [cell[0], cell[1]]


# --- seats -------------------------------------------------------------------------------


def read_players(value: Any, path: str = "players") -> tuple[Seat, ...]:
    """Exactly two seats ``{"name", "color"}`` (Moonlight is for two), each maybe played by
    one of :data:`BOTS` (``bot``)."""
    entries = read_list(value, path, SEATS, SEATS)
    seats = []
    for i, entry in enumerate(entries):
        at = join(path, i)
        doc = read_object(entry, at)
        name = read_text(required(doc, "name", at), join(at, "name"), MAX_TEXT)
        color = read_text(required(doc, "color", at), join(at, "color"), MAX_TEXT)
        seats.append(Seat(name, color, *read_bot(doc, at, BOTS, ())))
    return tuple(seats)


def players_to_json(players: Sequence[Seat]) -> list[dict[str, Any]]:
    """The seats as records write them."""
    return [{"name": p.name, "color": p.color, **bot_json(p.bot, p.bot_depth)} for p in players]


# --- setup -------------------------------------------------------------------------------


def read_setup(value: Any, path: str = "setup") -> Setup:
    """``{"seed", "deck", "lone_wolf", "draws"}`` (M-1, M-2): the deck lists every value
    once with M-1's count; ``draws`` (optional) lists both seats' deck orders per round
    played, each a shuffle of the seat's deck with or without the Lone Wolf."""
    doc = read_object(value, path)
    seed = optional(doc, "seed")
    if seed is not None:
        seed = read_int(seed, join(path, "seed"), 0, MAX_SEED)
    deck = _read_deck(required(doc, "deck", path), join(path, "deck"))
    at = join(path, "lone_wolf")
    lone = read_object(required(doc, "lone_wolf", path), at)
    lone_wolf = LoneWolfCard(
        read_value(required(lone, "value", at), join(at, "value")),
        read_int(required(lone, "moons", at), join(at, "moons"), 0, MAX_MOONS),
    )
    draws = optional(doc, "draws")
    if draws is not None:
        draws = _read_draws(draws, join(path, "draws"))
    return Setup(deck, lone_wolf, draws, seed)


def _read_deck(value: Any, path: str) -> tuple[DeckEntry, ...]:
    entries: dict[Value, DeckEntry] = {}
    for i, entry in enumerate(read_list(value, path, len(VALUES), len(VALUES))):
        at = join(path, i)
        doc = read_object(entry, at)
        card = read_value(required(doc, "value", at), join(at, "value"))
        if card in entries:
            raise InvalidRecord(join(at, "value"), f"value {card} is listed twice")
        count = read_int(required(doc, "count", at), join(at, "count"), 0, DECK_SIZE)
        if count != COUNTS[card]:
            raise InvalidRecord(
                join(at, "count"), f"M-1: a deck holds {COUNTS[card]} cards of value {card}"
            )
        moons = read_int(required(doc, "moons", at), join(at, "moons"), 0, MAX_MOONS)
        entries[card] = DeckEntry(card, count, moons)
    return tuple(entries[v] for v in VALUES)


def _read_draws(value: Any, path: str) -> tuple[tuple[Order, Order], ...]:
    rounds = []
    decks = (Faces.full(lone_wolf=False), Faces.full(lone_wolf=True))
    for i, entry in enumerate(read_list(value, path, MAX_ROUNDS)):
        at = join(path, i)
        pair = []
        for seat, order in enumerate(read_list(entry, at, SEATS, SEATS)):
            where = join(at, seat)
            cards = read_cards(order, where, DECK_SIZE + 1)
            if counts_of(cards) not in decks:
                raise InvalidRecord(
                    where,
                    f"M-2: a deck order is a seat's {DECK_SIZE} cards (1 ×2, 2 ×2, 3 ×4, 4 ×2, "
                    "5 ×1), with the Lone Wolf once it is gained, shuffled",
                )
            pair.append(cards)
        rounds.append((pair[0], pair[1]))
    return tuple(rounds)


def setup_to_json(setup: Setup) -> dict[str, Any]:
    """The setup as records write it."""
    return {
        "seed": setup.seed,
        "deck": [{"value": e.value, "count": e.count, "moons": e.moons} for e in setup.deck],
        "lone_wolf": {"value": setup.lone_wolf.value, "moons": setup.lone_wolf.moons},
        "draws": None
        if setup.draws is None
        else [[list(order) for order in pair] for pair in setup.draws],
    }


# --- actions -----------------------------------------------------------------------------


def read_action(value: Any, path: str = "") -> Action:
    """One action: ``place`` (``card``, ``cell``), ``round_start`` or ``alpha_power``
    (``power``), each with the acting (or, for ``round_start``, starting) ``player``."""
    doc = read_object(value, path)
    kind = required(doc, "type", path)
    if kind not in ACTION_TYPES or not isinstance(kind, str):
        raise InvalidRecord(
            join(path, "type"),
            f"unknown action type {bounds.brief(kind)} ({', '.join(ACTION_TYPES)})",
        )
    seat = read_seat(required(doc, "player", path), join(path, "player"))
    if kind == "place":
        card = read_card(required(doc, "card", path), join(path, "card"))
        return Place(seat, card, read_cell(required(doc, "cell", path), join(path, "cell")))
    if kind == "round_start":
        return RoundStart(seat)
    return AlphaPower(seat, read_text(required(doc, "power", path), join(path, "power"), MAX_POWER))


def action_to_json(action: Action) -> dict[str, Any]:
    """The action as records write it.

    >>> action_to_json(Place(1, "lone_wolf", (1, 0)))
    {'type': 'place', 'player': 1, 'card': 'lone_wolf', 'cell': [1, 0]}
    """
    doc: dict[str, Any] = {"type": action.type, "player": action.player}
    match action:
        case Place(card=card, cell=cell):
            doc.update(card=card, cell=cell_to_json(cell))
        case AlphaPower(power=power):
            doc["power"] = power
    return doc


def expand(counts: Sequence[int]) -> list[Card]:
    """Counts per kind (:data:`~domain.moonlight.cards.CARDS` order) as a list of cards."""
    return [card for card, n in zip(CARDS, counts, strict=True) for _ in range(n)]
