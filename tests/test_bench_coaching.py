"""The coaching benchmark suite runs, small: review bot duels, the evaluator's Brier score
per third of the game with its baseline, and the review's flagged steps finished out both
ways and reviewed again with another seed."""

from __future__ import annotations

import json

import pytest

from domain.wolves.analysis.review import position
from scripts.benchmarks import coaching


def test_the_coaching_suite_measures_duels_and_the_evaluator(
    capsys: pytest.CaptureFixture[str],
) -> None:
    coaching.run([
        "--games2", "2", "--games4", "0", "--held-out", "4",
        "--reviewed", "1", "--flags", "2", "--finishes", "2",
    ])  # fmt: skip
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]

    assert [m["metric"] for m in lines] == [
        "brier_first_third", "brier_middle_third", "brier_last_third",
        "suggestion_realized_gain_ratio", "suggestion_better_share", "flag_seed_agreement",
        "reviewbot_2p_win_rate",
    ]  # fmt: skip
    for third in lines[:3]:
        assert 0 <= third["value"] <= 2 and 0 <= third["baseline"] <= 2
        assert third["games"] == 4 and third["positions"] > 0
    gain, better, agreement = lines[3:6]
    assert gain["steps"] == better["steps"] == 2 and gain["finishes"] == 2
    assert gain["claimed"] > 0 and gain["value"] == pytest.approx(
        gain["gain"] / gain["claimed"], 0.01
    )
    assert 0 <= better["value"] <= 1 and better["interval"][0] <= better["interval"][1]
    assert agreement["flags"] > 0 and 0 <= agreement["value"] <= 1
    duels = lines[6]
    assert duels["games"] == 2 and duels["depth"] == 1 and 0 <= duels["value"] <= 1
    low, high = duels["interval"]
    assert 0 <= low <= duels["value"] <= high <= 1
    assert duels["actions"] > 0 and duels["baseline_actions"] > 0
    assert 0 < duels["turns"] < duels["actions"] and duels["baseline_turns"] > 0


def test_a_finished_line_is_the_same_game_every_run_and_ends_it() -> None:
    game = coaching._game(2, coaching.SEED, coaching._bots(2, None, 1, 1))
    before = position(game.states[20], game.actions[20])
    job = (before, (game.actions[20],), before.player, 3)
    share = coaching.finished_share(job)

    assert share in (0.0, 0.5, 1.0) and coaching.finished_share(job) == share


def test_a_duel_is_the_same_game_every_run() -> None:
    job = (2, coaching.SEED, 1, 1)

    assert coaching.duel(job) == coaching.duel(job)
    assert coaching.heuristic_length((2, coaching.SEED)) == coaching.heuristic_length(
        (2, coaching.SEED)
    )
