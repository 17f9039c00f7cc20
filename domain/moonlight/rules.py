"""``play(state, action) -> (state, events)``: Moonlight's rules M-2 … M-7.

An action the rules forbid raises :class:`~domain.ruleset.IllegalAction` with the rule id
and a message naming the seat, the card and the cell; ``state`` is never changed.

How the engine reads what the rules reference leaves open:

- A round begins with its first action (a ``round_start`` or the first card): until then
  the table still shows the last round as it was scored.
- "The opponent's last or only visible card" is a card of a seat that shows no other.
- After a seat places its last card the opponent always takes one more turn (if it holds
  a card), and the round ends after it (M-4).
- The loser of a round that does not end the game chooses its Alpha Power (an
  ``alpha_power`` action) before the next round begins; it is recorded and has no effect.

>>> from domain.ruleset import Seat
>>> from domain.moonlight.actions import Place
>>> from domain.moonlight.cards import assumed_setup
>>> from domain.moonlight.state import initial_state
>>> state = initial_state((Seat("Ana", "green"), Seat("Bo", "blue")), assumed_setup())
>>> state, events = play(state, Place(0, 3, (0, 0)))
>>> [type(e).__name__ for e in events]
['RoundStarted', 'CardPlaced']
>>> play(state, Place(1, 4, (2, 0)))
Traceback (most recent call last):
...
domain.ruleset.IllegalAction: M-3: a 4 on [2, 0] is not next to a card on the table
"""

from __future__ import annotations

from domain.moonlight import events as ev
from domain.moonlight.actions import Action, AlphaPower, Place, RoundStart
from domain.moonlight.cards import INDEX, LONE_WOLF, Faces, card_name, counts_of
from domain.moonlight.cells import CELLS, FIRST, bounds, fit_message, fits, fmt, neighbours
from domain.moonlight.evolve import evolve
from domain.moonlight.scoring import round_winner, score_round
from domain.moonlight.state import WINS, Phase, State
from domain.ruleset import IllegalAction, seat_named

HAND = 3
"""Cards each seat draws at the start of a round (M-2)."""


class Turn:
    """The events of one action so far, each applied to the state as it is decided."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def add(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def seat_name(state: State, seat: int | None) -> str:
    """``seat 0 (Ana)``: a seat of ``state``'s game as messages name it."""
    return seat_named(seat, state.table.players)


def play(state: State, action: Action) -> tuple[State, list[ev.Event]]:
    """The state after ``action`` and the events it caused; ``IllegalAction`` when the
    rules forbid it."""
    if state.finished:
        raise IllegalAction(
            "M-7", f"the game is over: {seat_name(state, _winner(state))} won two rounds"
        )
    turn = Turn(state)
    match action:
        case Place():
            _place(turn, action)
        case RoundStart(player=seat):
            if state.phase is Phase.PLAYING:
                raise IllegalAction(
                    "M-2",
                    f"round {state.round} has begun: a round_start comes before its first card",
                )
            _no_power_due(state)
            begin_round(turn, seat, named=True)
        case AlphaPower(player=seat, power=power):
            due = state.alpha_due
            if due is None:
                raise IllegalAction(
                    "M-6", "no Alpha Power is chosen now: the loser of a round chooses one "
                    "before the next round begins",
                )  # fmt: skip
            if seat != due:
                raise IllegalAction(
                    "M-6",
                    f"{seat_name(state, due)} lost round {state.rounds[-1].round}: only "
                    f"{seat_name(state, due)} chooses an Alpha Power",
                )
            turn.add(ev.AlphaPowerChosen(seat, power))
    return turn.state, turn.events


def begin_round(turn: Turn, starter: int, named: bool) -> None:
    """Start the next round with ``starter`` to play first (M-2): with known deck orders,
    each seat's order is checked against its deck and 3 cards are drawn."""
    state = turn.state
    draws = state.table.setup.draws
    if draws is not None:
        index = state.played
        if index >= len(draws):
            raise IllegalAction(
                "M-2",
                f"setup.draws gives {len(draws)} rounds of deck orders: none for round "
                f"{state.round} (round {index + 1} played)",
            )
        for seat, order in enumerate(draws[index]):
            lone_wolf = state.packs[seat].lone_wolf
            if counts_of(order) != Faces.full(lone_wolf):
                held = "with" if lone_wolf else "without"
                raise IllegalAction(
                    "M-2",
                    f"setup.draws[{index}][{seat}] is not {seat_name(state, seat)}'s deck "
                    f"{held} the Lone Wolf, shuffled",
                )
    turn.add(ev.RoundStarted(state.round, starter, named))
    if draws is not None:
        for seat in (0, 1):
            for _ in range(HAND):
                deck = turn.state.packs[seat].deck
                if deck:
                    turn.add(ev.CardDrawn(seat, deck[0]))


def _no_power_due(state: State) -> None:
    if state.alpha_due is not None:
        raise IllegalAction(
            "M-6",
            f"{seat_name(state, state.alpha_due)} lost round {state.rounds[-1].round} and "
            f"chooses an Alpha Power before round {state.round} begins",
        )


def _place(turn: Turn, action: Place) -> None:
    seat, card, cell = action.player, action.card, action.cell
    if turn.state.phase is Phase.BETWEEN:
        _no_power_due(turn.state)
        begin_round(turn, turn.state.starter, named=False)
    state = turn.state
    if seat != state.player:
        message = f"it is {seat_name(state, state.player)}'s turn, not {seat_name(state, seat)}'s"
        if not state.cells:
            message += (
                f": {seat_name(state, state.player)} starts round {state.round} (a round_start "
                "action names another seat)"
            )
        raise IllegalAction("M-2", message)
    pack = state.packs[seat]
    name = card_name(card)
    if card == LONE_WOLF and not pack.lone_wolf:
        raise IllegalAction(
            "M-6",
            f"{seat_name(state, seat)} holds no Lone Wolf to place on {fmt(cell)}: a round's "
            "winner gains it",
        )
    if pack.hand is not None:
        if card not in pack.hand:
            shown = ", ".join(_kind(c) for c in pack.hand) or "none"
            raise IllegalAction(
                "M-2",
                f"{seat_name(state, seat)} has no {_kind(card)} in hand to place on {fmt(cell)} "
                f"(hand: {shown})",
            )
    elif pack.left[INDEX[card]] == 0:
        raise IllegalAction(
            "M-2",
            f"{seat_name(state, seat)} has no {_kind(card)} left in hand or deck to place on "
            f"{fmt(cell)}",
        )
    cells = state.cells
    faces = state.table.faces
    if not cells:
        if cell != FIRST:
            raise IllegalAction(
                "M-3", f"{name} on {fmt(cell)}: the first card of a round goes on {fmt(FIRST)}"
            )
        turn.add(ev.CardPlaced(seat, card, cell))
    elif cell not in cells:
        if not any(n in cells for n in neighbours(cell)):
            raise IllegalAction("M-3", f"{name} on {fmt(cell)} is not next to a card on the table")
        if not fits([*cells, cell]):
            raise IllegalAction(
                "M-3", f"{name} on {fmt(cell)} {fit_message(bounds([*cells, cell]))}"
            )
        turn.add(ev.CardPlaced(seat, card, cell))
    else:
        top = cells[cell][-1]
        under = faces.value[top.card]
        if top.player == seat:
            raise IllegalAction(
                "M-3",
                f"{name} cannot go on {fmt(cell)}: it shows {seat_name(state, seat)}'s own "
                f"{_kind(top.card)}, and a card covers only the opponent's",
            )
        if faces.value[card] != under + 1:
            raise IllegalAction(
                "M-3",
                f"{name} cannot cover the {_kind(top.card)} on {fmt(cell)}: a card covers "
                "only one exactly one lower",
            )
        if state.visible(top.player) == 1:
            raise IllegalAction(
                "M-3",
                f"{name} cannot cover the {_kind(top.card)} on {fmt(cell)}: it is "
                f"{seat_name(state, top.player)}'s only visible card",
            )
        turn.add(ev.CardCovered(seat, card, cell, top.card))
    deck = turn.state.packs[seat].deck
    if deck:
        turn.add(ev.CardDrawn(seat, deck[0]))
    _after_card(turn, seat)


def _after_card(turn: Turn, seat: int) -> None:
    """The end of a round (M-4) after ``seat`` placed a card, with its scoring."""
    state = turn.state
    if len(state.cells) == CELLS:
        end_round(turn, "rectangle_full")
    elif state.last_turn == seat:
        end_round(turn, "last_card")
    elif state.packs[seat].cards_left == 0:
        turn.add(ev.LastCardPlaced(seat))
        if state.packs[1 - seat].cards_left == 0:
            end_round(turn, "last_card")


def end_round(turn: Turn, reason: ev.EndReason) -> None:
    """End and score the round (M-4, M-5) and give what its result brings (M-6, M-7)."""
    number = turn.state.round
    turn.add(ev.RoundEnded(number, reason))
    scored = score_round(turn.state)
    turn.add(scored)
    result = round_winner(scored.seats)
    if result is None:
        turn.add(ev.RoundReplayed(number))
        return
    won, by = result
    turn.add(ev.RoundWon(number, won, by))
    if turn.state.packs[won].rounds_won >= WINS:
        turn.add(ev.GameEnded(won))
    elif not turn.state.packs[won].lone_wolf:
        turn.add(ev.LoneWolfGained(won))


def _kind(card: object) -> str:
    return "Lone Wolf" if card == LONE_WOLF else str(card)


def _winner(state: State) -> int:
    return next(s for s, pack in enumerate(state.packs) if pack.rounds_won >= WINS)
