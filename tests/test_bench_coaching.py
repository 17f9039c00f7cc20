"""The coaching benchmark suite runs, small: review bot duels and the evaluator's Brier
score per third of the game, each reported with its baseline."""

from __future__ import annotations

import json

import pytest

from scripts.benchmarks import coaching


def test_the_coaching_suite_measures_duels_and_the_evaluator(
    capsys: pytest.CaptureFixture[str],
) -> None:
    coaching.run(["--games2", "2", "--games4", "0", "--held-out", "4"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]

    assert [m["metric"] for m in lines] == [
        "brier_first_third", "brier_middle_third", "brier_last_third", "reviewbot_2p_win_rate",
    ]  # fmt: skip
    for third in lines[:3]:
        assert 0 <= third["value"] <= 2 and 0 <= third["baseline"] <= 2
        assert third["games"] == 4 and third["positions"] > 0
    duels = lines[3]
    assert duels["games"] == 2 and duels["depth"] == 1 and 0 <= duels["value"] <= 1
    low, high = duels["interval"]
    assert 0 <= low <= duels["value"] <= high <= 1
    assert duels["actions"] > 0 and duels["baseline_actions"] > 0


def test_a_duel_is_the_same_game_every_run() -> None:
    job = (2, coaching.SEED, 1, 1)

    assert coaching.duel(job) == coaching.duel(job)
    assert coaching.heuristic_length((2, coaching.SEED)) == coaching.heuristic_length(
        (2, coaching.SEED)
    )
