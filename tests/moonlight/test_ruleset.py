"""Moonlight behind the ruleset interface: the registry, stored events, self-play, and the
step follower's facts (labels, milestones, scores, the board view's numbers)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain import games
from domain.moonlight import events as ev
from domain.moonlight.actions import AlphaPower, Place, RoundStart
from domain.moonlight.cells import Cell
from domain.moonlight.describe import label
from domain.moonlight.players import self_play
from domain.moonlight.ruleset import MOONLIGHT
from domain.moonlight.state import State
from domain.replays import replay
from domain.ruleset import StepFacts
from tests.moonlight.scenario import fill_won_by, playing, run, start, tied_round


def test_moonlight_is_registered_by_its_record_name() -> None:
    assert games.ruleset("moonlight") is MOONLIGHT
    assert MOONLIGHT in list(games.rulesets())
    assert MOONLIGHT.seats == range(2, 3) and MOONLIGHT.review is None
    assert set(MOONLIGHT.bots) == {"random", "greedy"}


def test_self_play_is_the_same_game_for_the_same_arguments() -> None:
    one = MOONLIGHT.self_play(2, ["greedy", "random"], seed=3)
    assert MOONLIGHT.write_record(one) == MOONLIGHT.write_record(
        MOONLIGHT.self_play(2, ["greedy", "random"], seed=3)
    )
    assert MOONLIGHT.write_record(one) != MOONLIGHT.write_record(
        MOONLIGHT.self_play(2, ["greedy", "random"], seed=4)
    )
    with pytest.raises(ValueError):
        MOONLIGHT.self_play(3, ["random"] * 3, seed=3)


def test_the_bots_choose_legal_actions() -> None:
    state = MOONLIGHT.start(MOONLIGHT.self_play(2, ["random", "random"], seed=1))
    for name, make in MOONLIGHT.bots.items():
        action = make(7).choose(state)
        assert action in list(MOONLIGHT.legal_actions(state)), name


def test_the_greedy_bot_beats_the_random_one_more_often_than_not() -> None:
    won = 0
    for seed in range(40):
        kinds = ("greedy", "random") if seed % 2 else ("random", "greedy")
        state = self_play(kinds, seed=seed).state
        won += state.packs[kinds.index("greedy")].rounds_won == 2
    assert won >= 28, won


def test_every_event_is_stored_as_json_and_read_back_equal() -> None:
    record = MOONLIGHT.self_play(2, ["random", "greedy"], seed=9)
    kinds = set()
    for events in replay(MOONLIGHT, record).steps:
        for event in events:
            kind, data = MOONLIGHT.encode_event(event)
            kinds.add(kind)
            assert MOONLIGHT.decode_event(kind, json.loads(json.dumps(data))) == event
    assert {"RoundStarted", "CardDrawn", "CardPlaced", "RoundScored", "GameEnded"} <= kinds
    with pytest.raises(ValueError):
        MOONLIGHT.decode_event("WolvesDrafted", {})
    with pytest.raises(ValueError):
        MOONLIGHT.decode_event("CardPlaced", {"player": 0})


def follow(state: State, *actions: Any) -> tuple[list[StepFacts], State]:
    follower = MOONLIGHT.follow(["Ana", "Bo"], state)
    facts = [follower.first()]
    for action in actions:
        state, events = MOONLIGHT.play(state, action)
        facts.append(follower.step(events))
    assert follower.state == state
    return facts, state


def board(facts: list[StepFacts]) -> dict[Cell, list[tuple[int, Any]]]:
    """The table the board view rebuilds from the steps' numbers."""
    cells: dict[Cell, list[tuple[int, Any]]] = {}
    for fact in facts:
        if fact.numbers.get("cleared"):
            cells = {}
        for entry in fact.numbers.get("cells", ()):
            cells[tuple(entry["cell"])] = [(c["player"], c["card"]) for c in entry["stack"]]
    return cells


def test_the_follower_labels_each_step_and_marks_a_round_won() -> None:
    facts, state = follow(start(), *fill_won_by(0), AlphaPower(1, "Moon Call"))
    assert facts[0].label == "setup" and facts[0].turn == 0 and facts[0].player is None
    assert facts[1].label == "round 1 begins, Ana starts; Ana places a 5 on [0, 0]"
    assert (facts[1].player, facts[1].action, facts[1].turn) == (0, "place", 1)
    end = facts[12]
    assert end.label.startswith("Bo places a 3 on [3, 2]; round 1 ends (the rectangle is full)")
    assert "Ana 5, Bo 2; Ana wins round 1; Ana gains the Lone Wolf" in end.label
    assert [(m.kind, m.seats) for m in end.milestones] == [("round_won", (0,))]
    assert end.numbers["rounds_won"] == [1, 0] and end.numbers["round"] == 2
    scoring = end.numbers["scoring"]
    assert [r["winner"] for r in scoring["rows"]] == [0, 0, None]
    assert scoring["ignored"] == [[1, 0], [3, 0], [1, 1], [3, 1], [0, 2], [1, 2], [2, 2], [3, 2]]
    assert scoring["tripled"] == [[3, 0]] and scoring["winner"] == 0
    assert [s.parts for s in end.scores] == [
        {"rounds_won": 1, "points": 5},
        {"rounds_won": 0, "points": 2},
    ]
    assert [(s.total, s.place) for s in end.scores] == [(1, 1), (0, 2)]
    power = facts[13]
    assert (power.player, power.action) == (1, "alpha_power")
    assert "recorded only" in power.label
    assert board(facts) == {c: [(p.player, p.card) for p in s] for c, s in state.cells.items()}


def test_the_board_view_rebuilds_every_step_from_what_changed() -> None:
    record = MOONLIGHT.self_play(2, ["greedy", "greedy"], seed=2)
    played = replay(MOONLIGHT, record)
    follower = MOONLIGHT.follow(["Ana", "Bo"], played.initial)
    facts = [follower.first()]
    for n, events in enumerate(played.steps, 1):
        facts.append(follower.step(events))
        state = played.state_at(n)
        assert board(facts) == {c: [(p.player, p.card) for p in s] for c, s in state.cells.items()}
        assert [s.total for s in facts[-1].scores] == [p.rounds_won for p in state.packs]
        json.dumps(facts[-1].numbers)
    assert facts[-1].finished and facts[-1].turn is None
    assert [m.kind for m in facts[-1].milestones] == ["round_won", "game_ended"]


def test_the_follower_marks_a_replayed_round() -> None:
    cells, action = tied_round(last=1)
    facts, _ = follow(playing(cells, player=1), action)
    assert [m.kind for m in facts[1].milestones] == ["round_replayed"]
    assert facts[1].numbers["scoring"]["winner"] is None
    assert "round 1 is tied on points and cards and is played again" in facts[1].label


def test_a_named_starter_is_the_steps_actor() -> None:
    facts, _ = follow(start(), RoundStart(1), Place(1, 3, (0, 0)))
    assert (facts[1].player, facts[1].action) == (1, "round_start")
    assert facts[1].label == "round 1 begins, Bo named to start"
    assert facts[2].label == "Bo places a 3 on [0, 0]" and "cleared" not in facts[2].numbers


def test_a_lone_wolf_placed_is_labelled_by_name() -> None:
    state, _ = run(start(), *fill_won_by(1), AlphaPower(0, "X"), Place(0, 3, (0, 0)))
    facts, _ = follow(state, Place(1, "lone_wolf", (1, 0)))
    assert facts[1].label == "Bo places the Lone Wolf on [1, 0]"
    assert facts[1].numbers["cells"][0]["stack"] == [
        {"player": 1, "card": "lone_wolf", "value": 4, "moons": 0}
    ]
    assert label(["Ana", "Bo"], [ev.CardCovered(0, 5, (1, 0), "lone_wolf")]) == (
        "Ana covers Bo's Lone Wolf on [1, 0] with a 5"
    )
