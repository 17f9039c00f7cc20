"""Property tests over random games: every game ends, the invariants hold after every
event, play and evolve agree and leave their input alone, records and positions
round-trip, and the legal actions are exactly those play accepts."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.moonlight.actions import Place
from domain.moonlight.cards import CARDS
from domain.moonlight.evolve import evolve, fold
from domain.moonlight.fields import MAX_ACTIONS
from domain.moonlight.legal import legal_actions
from domain.moonlight.players import self_play
from domain.moonlight.positions import read_position, to_position
from domain.moonlight.records import Record, initial, read_record, write_record
from domain.moonlight.rules import play
from domain.moonlight.ruleset import MOONLIGHT
from domain.moonlight.state import State
from domain.replays import replay
from domain.ruleset import IllegalAction
from tests.moonlight.invariants import check_state

GAMES = st.fixed_dictionaries(
    {
        "kinds": st.sampled_from(
            [("random", "random"), ("greedy", "random"), ("random", "greedy")]
        ),
        "seed": st.integers(0, 2**32),
        "draws": st.booleans(),
        "round_starts": st.booleans(),
    }
)
PROPERTIES = settings(max_examples=30, deadline=None)


@PROPERTIES
@given(GAMES)
def test_random_games_end_and_keep_the_invariants_after_every_event(game: dict) -> None:
    played = self_play(**game)
    assert played.state.finished and len(played.record.actions) < MAX_ACTIONS
    state = initial(played.record)
    check_state(state)
    for action in played.record.actions:
        before = to_position(state)
        after, events = play(state, action)
        assert to_position(state) == before, "play left its input alone"
        for event in events:
            state = evolve(state, event)
            check_state(state, settled=False)
        assert state == after, "evolving the events gives play's state"
        check_state(state)
    assert state.rounds == played.state.rounds and state.cells == played.state.cells
    if game["draws"]:
        assert state == played.state


@PROPERTIES
@given(GAMES)
def test_replay_write_read_replay_gives_the_same_events(game: dict) -> None:
    record = self_play(**game).record
    first = replay(MOONLIGHT, record)
    again = replay(MOONLIGHT, read_record(write_record(record)))
    assert again.steps == first.steps and again.state == first.state
    assert fold(first.initial, [e for step in first.steps for e in step]) == first.state
    assert game["draws"] == (record.setup is not None and record.setup.draws is not None)


@PROPERTIES
@given(GAMES, st.randoms(use_true_random=False))
def test_a_position_at_a_random_step_round_trips_and_replays_the_rest(
    game: dict, rng: random.Random
) -> None:
    record = self_play(**game).record
    played = replay(MOONLIGHT, record)
    n = rng.randrange(len(record.actions) + 1)
    state = played.state_at(n)
    doc = json.loads(json.dumps(to_position(state)))
    assert read_position(doc) == state
    rest = Record(players=record.players, start=state, actions=record.actions[n:])
    again = replay(MOONLIGHT, read_record(write_record(rest)))
    assert again.steps == played.steps[n:]
    assert MOONLIGHT.score_json(again.state) == MOONLIGHT.score_json(played.state)


@PROPERTIES
@given(GAMES, st.randoms(use_true_random=False))
def test_legal_actions_are_exactly_what_play_accepts(game: dict, rng: random.Random) -> None:
    record = self_play(**game).record
    played = replay(MOONLIGHT, record)
    state: State = played.state_at(rng.randrange(len(record.actions)))
    legal = legal_actions(state)
    assert legal, "a game not over always has an action"
    for action in legal:
        play(state, action)
    seat = state.player
    for _ in range(40):
        card = rng.choice(CARDS)
        action = Place(seat, card, (rng.randint(-3, 3), rng.randint(-3, 3)))
        try:
            play(state, action)
        except IllegalAction:
            assert action not in legal
        else:
            assert action in legal
