"""Reviewing games: a deliberately bad action is caught, and the better one is found."""

from __future__ import annotations

import dataclasses

import pytest

from domain.wolves.actions import BonusAction, Move, Pass
from domain.wolves.analysis.review import (
    CLEAR_Z,
    RECHECK,
    Settings,
    action_accuracy,
    classify,
    review,
    seat_accuracy,
    thresholds,
    unsure,
)
from domain.wolves.events import PreyHunted
from domain.wolves.records import Record
from domain.wolves.replay import replay
from domain.wolves.rules import play
from tests.analysis.conftest import QUICK, fixture_record

GAME = "3p-00-heuristic"
SETTINGS = Settings(playouts=6, candidates=2)  # 3 playouts: too noisy to classify the pass


def first_hunt(record: Record) -> int:
    """The first one-wolf Move after the first third that hunts prey with both actions left."""
    played = replay(record)
    for i, action in enumerate(record.actions):
        if i < len(record.actions) // 3 or not isinstance(action, Move) or len(action.steps) > 1:
            continue
        hunted = any(isinstance(e, PreyHunted) for e in played.steps[i])
        if hunted and played.state_at(i).actions_left == 2:
            return i
    raise AssertionError("no such hunt in the game")


HUNT = first_hunt(fixture_record(GAME))


@pytest.fixture(scope="module")
def skipped_hunt():
    """The game up to the hunt, where the mover passes instead (a deliberately bad action)."""
    record = fixture_record(GAME)
    bad = Pass(record.actions[HUNT].player)
    return record, dataclasses.replace(record, actions=(*record.actions[:HUNT], bad))


def test_passing_instead_of_an_available_hunt_is_a_blunder_or_mistake(skipped_hunt):
    _, bad = skipped_hunt
    step = review(bad, SETTINGS, workers=1, indexes=[HUNT]).steps[0]
    assert step.index == HUNT and isinstance(step.played.action, Pass)
    assert step.classification in ("mistake", "blunder"), step.to_json()
    best = step.best
    assert best is not step.played
    assert "hunts" in best.label, best.label
    assert best.evaluation.win[step.seat] - step.win_after == pytest.approx(step.loss, abs=1e-9)
    doc = step.to_json()
    assert doc["best"]["label"] == best.label
    assert doc["win_before"] > doc["win_after"]


def test_the_hunt_played_scores_better_than_the_pass(skipped_hunt):
    record, bad = skipped_hunt
    hunt = review(record, SETTINGS, workers=1, indexes=[HUNT]).steps[0]
    passed = review(bad, SETTINGS, workers=1, indexes=[HUNT]).steps[0]
    assert hunt.win_after - passed.win_after >= thresholds(3)[1][1]
    assert hunt.loss < passed.loss
    assert hunt.classification is None  # the hunting move itself is not flagged


def test_two_seeds_agree_on_the_flags_of_a_fixture_game():
    """Reviews with other playout seeds flag the same steps (``scripts/bench coaching``'s
    ``flag_seed_agreement``: the share of one review's flags the other makes, both ways)."""
    record = fixture_record("2p-00-heuristic")
    settings = Settings(playouts=12, candidates=4)  # the standard depth
    flags = [
        {s.index for s in review(record, dataclasses.replace(settings, seed=seed)).steps
         if s.classification is not None}
        for seed in (0, 1)
    ]  # fmt: skip
    assert len(flags[0]) >= 5
    assert 2 * len(flags[0] & flags[1]) / (len(flags[0]) + len(flags[1])) >= 0.85, flags


def test_a_review_does_not_depend_on_the_number_of_processes():
    record = fixture_record("2p-00-heuristic")
    indexes = [5, 20, 33]
    alone = review(record, QUICK, workers=1, indexes=indexes).to_json()
    shared = review(record, QUICK, workers=2, indexes=indexes).to_json()
    assert alone == shared
    assert [s["step"] for s in alone["steps"]] == [6, 21, 34]
    assert alone["settings"]["key"] == QUICK.key
    assert len(alone["graph"]) == 4 and all(len(g["win"]) == 2 for g in alone["graph"])
    assert [s["name"] for s in alone["seats"]] == [p.name for p in record.players]


def test_progress_is_reported_step_by_step():
    seen = []
    record = fixture_record("2p-01-heuristic")
    review(record, QUICK, lambda done, total: seen.append((done, total)), 1, [10, 11])
    assert seen == [(0, 2), (1, 2), (2, 2)]


def test_thresholds_scale_with_the_number_of_players():
    assert thresholds(2) == [("blunder", 0.15), ("mistake", 0.1), ("inaccuracy", 0.05)]
    assert [round(t, 4) for _, t in thresholds(4)] == [0.075, 0.05, 0.025]
    assert classify(0.16, 0.0, 2) == "blunder"
    assert classify(0.16, 0.1, 2) is None  # within the playouts' noise
    assert classify(0.04, 0.0, 2) is None


def test_accuracy_formula():
    assert action_accuracy(0.0, 3) == pytest.approx(100, abs=0.01)
    assert action_accuracy(1.0, 2) == 0
    assert seat_accuracy([100, 100]) == pytest.approx(100)
    assert seat_accuracy([100, 0]) < 50  # the harmonic mean weighs the blunder
    assert seat_accuracy([]) is None


def test_accuracy_is_given_per_stage_of_the_game_as_for_the_whole_of_it():
    record = fixture_record("2p-00-heuristic")
    played = replay(record)
    scored = [played.state_at(i).phases_scored for i in range(len(record.actions))]
    picked = [scored.index(0), scored.index(1), scored.index(2), scored.index(2) + 1]
    done = review(record, QUICK, workers=1, indexes=picked)
    doc = done.to_json()

    assert [s["stage"] for s in doc["steps"]] == ["opening", "middle", "end", "end"]
    for seat in doc["seats"]:
        mine = [s for s in done.steps if s.seat == seat["seat"] and s.accuracy is not None]
        assert [part["stage"] for part in seat["stages"]] == ["opening", "middle", "end"]
        for part in seat["stages"]:
            these = [s.accuracy for s in mine if s.stage == part["stage"]]
            assert part["actions"] == len(these)
            expected = seat_accuracy(these)
            assert part["accuracy"] == (None if expected is None else round(expected, 1))
        assert sum(part["actions"] for part in seat["stages"]) == seat["actions"]


def _with_a_token(record: Record) -> list[int]:
    """The indexes of the first three actions, not a token spent, whose mover holds a bonus
    action token."""
    played = replay(record)
    return [
        i for i, action in enumerate(record.actions)
        if not isinstance(action, BonusAction) and played.state_at(i).player == action.player
        and played.state_at(i).boards[action.player].bonus_action
    ][:3]  # fmt: skip


def test_a_bonus_action_token_is_suggested_only_with_the_action_it_buys() -> None:
    record = fixture_record("2p-00-heuristic")
    indexes = _with_a_token(record)
    assert indexes, "the game never holds a bonus action token"
    every = Settings(playouts=1, candidates=1_000)  # every line the reviewer lists is scored
    played = replay(record)
    lines = 0
    for step in review(record, every, workers=1, indexes=indexes).steps:
        doc = step.to_json()
        assert doc["alternatives"] and (doc["best"] is None or doc["best"] in doc["alternatives"])
        played_key = tuple(played.steps[step.index])
        name = record.players[step.seat].name
        for scored, alternative in zip(step.alternatives, doc["alternatives"], strict=True):
            assert not isinstance(scored.action, BonusAction)  # never a token alone
            if len(scored.line) == 1:
                continue
            lines += 1
            bonus, bought = scored.line
            assert isinstance(bonus, BonusAction) and alternative["actions"][0]["type"] == (
                "bonus_action"
            )  # fmt: skip
            assert alternative["label"].startswith(f"{name} spends a bonus action token, then ")
            spent, _ = play(played.state_at(step.index), bonus)
            # the action played, with the token spent first, is the same line: not suggested
            assert tuple(play(spent, bought)[1]) != played_key
    assert lines, "no line with a bonus action token was scored"


def test_a_step_near_a_threshold_is_re_checked_with_more_playouts() -> None:
    record = fixture_record(GAME)
    few = Settings(playouts=4, candidates=2)
    indexes = list(range(20, 60))
    steps = review(record, few, workers=1, indexes=indexes).steps
    players = len(record.players)
    rechecked = 0
    for step in steps:
        ends = len(step.played.ends)
        assert all(len(a.ends) == ends for a in step.alternatives)
        if ends == few.playouts:  # sure at once: not re-checked
            assert not step.alternatives or not unsure(step.loss, step.loss_se, players)
        else:
            assert ends == RECHECK * few.playouts
            rechecked += 1
        best = step.best
        assert best.evaluation.win[step.seat] - step.win_after == pytest.approx(step.loss, abs=1e-9)
        assert step.classification == classify(step.loss, step.loss_se, players)
    assert 0 < rechecked < len(steps), rechecked


def test_each_verdict_and_win_chance_carries_its_uncertainty() -> None:
    record = fixture_record("2p-00-heuristic")
    doc = review(record, QUICK, workers=1, indexes=range(12)).to_json()
    assert doc["graph"][0]["se"] is None  # the start: the static evaluator's, error unknown
    for point in doc["graph"][1:]:
        assert len(point["se"]) == 2 and all(0 <= e <= 0.5 for e in point["se"])
    flagged = [s for s in doc["steps"] if s["classification"]]
    assert flagged, "no flagged action in the first 12"
    for step in doc["steps"]:
        if step["classification"] is None:
            assert step["confidence"] is None
        elif step["action"]["type"] == "draft":
            assert step["confidence"] == "low"  # draft choices: low, whatever the loss
        else:
            sure = step["loss"] >= CLEAR_Z * step["loss_se"]
            assert step["confidence"] == ("clear" if sure else "likely")
