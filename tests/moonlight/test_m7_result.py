"""M-7 Result: best of three, and ``howl score --json``'s document."""

from __future__ import annotations

import jsonschema
import pytest

from domain.moonlight import events as ev
from domain.moonlight.actions import AlphaPower, Place
from domain.moonlight.rules import play
from domain.moonlight.ruleset import MOONLIGHT
from domain.moonlight.scoring import score_document
from domain.moonlight.state import State
from tests.moonlight.scenario import fill_won_by, illegal, of_type, playing, run, start, tied_round

ROUND = {
    "type": "object",
    "required": ["points", "moons", "cards", "threes", "won"],
    "additionalProperties": False,
    "properties": {
        "points": {"type": "integer", "minimum": 0},
        "moons": {"enum": [0, 2]},
        "cards": {"type": "integer", "minimum": 0},
        "threes": {"type": "integer", "minimum": 0},
        "won": {"type": ["boolean", "null"]},
    },
}
SCORES = {
    "type": "object",
    "required": ["scores"],
    "additionalProperties": False,
    "properties": {
        "scores": {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "items": {
                "type": "object",
                "required": ["seat", "total", "place", "rounds"],
                "additionalProperties": False,
                "properties": {
                    "seat": {"enum": [0, 1]},
                    "total": {"enum": [0, 1, 2]},
                    "place": {"enum": [1, 2]},
                    "rounds": {"type": "array", "items": ROUND},
                },
            },
        }
    },
}
"""M-7's document, as a JSON schema."""


def rounds_won_by(*winners: int) -> tuple[State, list[ev.Event]]:
    """A game whose rounds are won by ``winners`` in turn, each loser starting the next."""
    state, events = start(), []
    starter = 0
    for i, winner in enumerate(winners):
        if i:
            state, more = play(state, AlphaPower(1 - winners[i - 1], "Moon Call"))
            events += more
        state, more = run(state, *fill_won_by(winner, starter))
        events += more
        starter = 1 - winner
    return state, events


@pytest.mark.parametrize("winners", [(0, 0), (1, 1), (0, 1, 0), (1, 0, 1), (0, 1, 1)])
def test_m7_the_first_seat_to_win_two_rounds_wins_the_game(winners: tuple[int, ...]) -> None:
    state, events = rounds_won_by(*winners)
    assert state.finished and state.alpha_due is None
    assert of_type(events, ev.GameEnded) == [ev.GameEnded(winners[-1])]
    assert [e.player for e in of_type(events, ev.RoundWon)] == list(winners)
    assert MOONLIGHT.turn(state) is None and list(MOONLIGHT.legal_actions(state)) == []
    scores = MOONLIGHT.scores(state)
    assert [(s.total, s.place) for s in scores] == [
        (winners.count(0), 1 if winners[-1] == 0 else 2),
        (winners.count(1), 1 if winners[-1] == 1 else 2),
    ]


def test_m7_the_game_goes_on_after_one_round_won() -> None:
    state, events = rounds_won_by(0)
    assert not state.finished and of_type(events, ev.GameEnded) == []
    assert [(s.total, s.place) for s in MOONLIGHT.scores(state)] == [(1, 1), (0, 2)]


def test_m7_no_action_after_the_game_is_over() -> None:
    state, _ = rounds_won_by(1, 1)
    illegal(state, Place(0, 3, (0, 0)), "M-7", "the game is over", "seat 1")
    illegal(state, AlphaPower(0, "Moon Call"), "M-7", "the game is over")


def test_m7_score_json_reports_rounds_won_each_round_and_places() -> None:
    state, _ = rounds_won_by(0, 1, 1)
    doc = MOONLIGHT.score_json(state)
    jsonschema.validate(doc, SCORES)
    assert doc == {
        "scores": [
            {
                "seat": 0,
                "total": 1,
                "place": 2,
                "rounds": [
                    {"points": 5, "moons": 0, "cards": 4, "threes": 1, "won": True},
                    {"points": 2, "moons": 2, "cards": 0, "threes": 0, "won": False},
                    {"points": 2, "moons": 2, "cards": 0, "threes": 0, "won": False},
                ],
            },
            {
                "seat": 1,
                "total": 2,
                "place": 1,
                "rounds": [
                    {"points": 2, "moons": 2, "cards": 0, "threes": 0, "won": False},
                    {"points": 5, "moons": 0, "cards": 4, "threes": 1, "won": True},
                    {"points": 5, "moons": 0, "cards": 4, "threes": 1, "won": True},
                ],
            },
        ]
    }


def test_m7_a_replayed_round_appears_with_won_null() -> None:
    cells, action = tied_round(last=1)
    state, _ = play(playing(cells, player=1), action)
    doc = score_document(state)
    jsonschema.validate(doc, SCORES)
    assert [s["rounds"] for s in doc["scores"]] == [
        [{"points": 0, "moons": 0, "cards": 0, "threes": 0, "won": None}]
    ] * 2
    assert [(s["total"], s["place"]) for s in doc["scores"]] == [(0, 1), (0, 1)]


def test_m7_an_unfinished_game_scores_the_rounds_so_far() -> None:
    state, _ = play(start(), Place(0, 3, (0, 0)))
    assert score_document(state)["scores"][0] == {"seat": 0, "total": 0, "place": 1, "rounds": []}
