"""The cards (M-1): values, moons, each seat's deck, the Lone Wolf, and the setup a record
gives them.

A card is written as its value (``1`` … ``5``) or ``"lone_wolf"``: cards of one value are
alike, so a record never needs to say which of them was played. Moons are not in the
source: the record's ``setup.deck`` gives them, and :func:`assumed_setup` writes the deck
this engine assumes (one moon on every 2 and on the 5), labelled as an assumption.

>>> setup = assumed_setup(seed=7)
>>> faces = Faces.of(setup)
>>> faces.value[5], faces.moons[5], faces.value[LONE_WOLF], faces.moons[LONE_WOLF]
(5, 1, 4, 0)
>>> sum(faces.full(lone_wolf=True))
12
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

Card = Literal[1, 2, 3, 4, 5, "lone_wolf"]
"""A card as a record writes it: a wolf card's value, or the Lone Wolf."""
Value = Literal[1, 2, 3, 4, 5]
"""A wolf card's value."""
LONE_WOLF: Final = "lone_wolf"
VALUES: Final[tuple[Value, ...]] = (1, 2, 3, 4, 5)
CARDS: Final[tuple[Card, ...]] = (1, 2, 3, 4, 5, LONE_WOLF)
"""Every kind of card, in the order counts per kind are kept (:attr:`Faces.full`)."""
INDEX: Final[Mapping[Card, int]] = {card: i for i, card in enumerate(CARDS)}
"""The place of each kind of card in a tuple of counts per kind."""
COUNTS: Final[Mapping[Value, int]] = {1: 2, 2: 2, 3: 4, 4: 2, 5: 1}
"""How many cards of each value a seat's deck holds (M-1): 11 in all."""
DECK_SIZE: Final = sum(COUNTS.values())
MAX_MOONS: Final = 5
"""Most moons one card may show in a record (a bound: the source gives no number)."""

ASSUMED_MOONS: Final[Mapping[Value, int]] = {1: 0, 2: 1, 3: 0, 4: 0, 5: 1}
"""The moons :func:`assumed_setup` gives each value: an assumption, not the source's."""
ASSUMED_LONE_WOLF: Final[tuple[Value, int]] = (4, 0)
"""The Lone Wolf's value and moons in :func:`assumed_setup`: an assumption."""
ASSUMPTION: Final = (
    "assumed deck: the source does not say which cards show moons or what the Lone Wolf "
    "is; this deck gives one moon to every 2 and to the 5, and the Lone Wolf value 4"
)
"""What to say wherever an assumed deck is shown."""


def card_name(card: Card) -> str:
    """A card in a sentence: ``a 3``, ``the Lone Wolf``.

    >>> card_name(3), card_name(LONE_WOLF)
    ('a 3', 'the Lone Wolf')
    """
    return "the Lone Wolf" if card == LONE_WOLF else f"a {card}"


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One line of ``setup.deck``: every card of ``value`` shows ``moons`` moons."""

    value: Value
    count: int
    moons: int


@dataclass(frozen=True, slots=True)
class LoneWolfCard:
    """``setup.lone_wolf``: the Lone Wolf's value and moons (it has no power, M-1)."""

    value: Value
    moons: int


Order = tuple[Card, ...]
"""One seat's deck in the order it was drawn after a shuffle."""


@dataclass(frozen=True, slots=True)
class Setup:
    """A record's ``setup``: the cards' moons, the Lone Wolf, and optionally the deck orders.

    ``draws`` holds, for every round played (a replayed round counts again), both seats'
    deck orders after the shuffle; None when the record does not know them (M-2).
    ``seed`` records how the setup was made; the rest is authoritative.
    """

    deck: tuple[DeckEntry, ...]
    lone_wolf: LoneWolfCard
    draws: tuple[tuple[Order, Order], ...] | None = None
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class Faces:
    """What each kind of card shows under a setup: its value and its moons."""

    value: Mapping[Card, int]
    moons: Mapping[Card, int]

    @staticmethod
    def of(setup: Setup) -> Faces:
        """The faces ``setup`` gives every card."""
        value: dict[Card, int] = {e.value: e.value for e in setup.deck}
        moons: dict[Card, int] = {e.value: e.moons for e in setup.deck}
        value[LONE_WOLF] = setup.lone_wolf.value
        moons[LONE_WOLF] = setup.lone_wolf.moons
        return Faces(value, moons)

    @staticmethod
    def full(lone_wolf: bool) -> tuple[int, ...]:
        """A seat's whole deck as counts per kind (:data:`CARDS` order)."""
        return (*(COUNTS[v] for v in VALUES), 1 if lone_wolf else 0)


def deck_cards(lone_wolf: bool) -> list[Card]:
    """A seat's whole deck, value by value, the Lone Wolf last when held."""
    cards: list[Card] = [v for v in VALUES for _ in range(COUNTS[v])]
    return [*cards, LONE_WOLF] if lone_wolf else cards


def counts_of(cards: tuple[Card, ...] | list[Card]) -> tuple[int, ...]:
    """Cards as counts per kind (:data:`CARDS` order)."""
    counts = [0] * len(CARDS)
    for card in cards:
        counts[INDEX[card]] += 1
    return tuple(counts)


def assumed_setup(seed: int | None = None) -> Setup:
    """The deck this engine assumes (:data:`ASSUMPTION`), with no deck orders."""
    value, moons = ASSUMED_LONE_WOLF
    deck = tuple(DeckEntry(v, COUNTS[v], ASSUMED_MOONS[v]) for v in VALUES)
    return Setup(deck, LoneWolfCard(value, moons), None, seed)
