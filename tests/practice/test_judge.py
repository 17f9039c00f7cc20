"""The practice judge: an action at a flagged step scored as the review scored the played one."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from domain.ruleset import IllegalAction
from domain.wolves.actions import BuildDen
from domain.wolves.analysis.practice import score, threshold
from domain.wolves.analysis.review import position
from domain.wolves.records import action_from_json
from domain.wolves.replay import replay
from domain.wolves.ruleset import WOLVES
from tests.practice.conftest import QUICK, flagged, game_record


@cache
def _at(index: int) -> Any:
    """The practice position of reviewed action ``index``."""
    record = game_record()
    return position(replay(record, at=index).state, record.actions[index])


def test_the_review_finds_mistakes_of_both_seats(reviewed: dict[str, Any]) -> None:
    assert flagged(reviewed, 0) and flagged(reviewed, 1)


def test_the_played_action_scores_as_the_review_stored_it(reviewed: dict[str, Any]) -> None:
    for step in flagged(reviewed):
        at, index = _at(step["index"]), step["index"]
        playouts = step["playouts"]  # the settings', or more for a step re-checked
        played = score(at, [action_from_json(step["action"])], index, QUICK, playouts=playouts)
        assert played == (step["win_after"], step["label"])
        for alternative in step["alternatives"]:  # a bonus action token's line as one
            line = [action_from_json(a) for a in alternative["actions"]]
            again = score(at, line, index, QUICK, playouts=playouts)
            assert again == (alternative["win"], alternative["label"])


def test_the_better_action_is_accepted_and_the_flagged_one_rejected(
    reviewed: dict[str, Any],
) -> None:
    for step in flagged(reviewed):
        at = _at(step["index"])
        played = WOLVES.review.judge(at, step, QUICK, action_from_json(step["action"]))
        assert not played["accepted"], step
        assert played["loss"] == pytest.approx(step["loss"], abs=2e-4)
        assert played["loss"] >= 2 * played["threshold"]  # a mistake is twice an inaccuracy
        assert played["best"] == step["best"]["action"]
        better = WOLVES.review.judge(at, step, QUICK, action_from_json(step["best"]["action"]))
        assert better["accepted"] and better["loss"] == 0.0, step
        assert better["label"] == step["best"]["label"]
        assert better["win"] == step["best"]["win"]


def test_the_threshold_is_the_inaccuracy_one_per_player_count() -> None:
    assert [round(threshold(n), 4) for n in (2, 3, 4, 5)] == [0.05, 0.0333, 0.025, 0.02]


def test_an_illegal_action_names_its_rule(reviewed: dict[str, Any]) -> None:
    step = flagged(reviewed)[0]
    at = _at(step["index"])
    other = 1 - step["seat"]
    with pytest.raises(IllegalAction) as err:
        WOLVES.review.judge(at, step, QUICK, BuildDen(other, (0, 0), "speed"))
    assert err.value.rule.startswith("W-")
