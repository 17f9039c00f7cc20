"""The evaluator's fit (``scripts/fit-evaluator``): which games it learns from, and that a
seed gives the same weights file."""

from __future__ import annotations

import json
from pathlib import Path

from domain.wolves.analysis.features import FEATURES
from scripts import fit_evaluator as fit

STILL = FEATURES.index("vp_still")


def test_some_games_seat_stalling_bots_under_a_stall_limit_and_some_a_review_bot() -> None:
    seed = 1 * fit.SEED_STRIDE
    assert fit.game_kinds(3, 5, seed + 3) == ["heuristic"] * 5
    stalled = fit.game_kinds(12, 2, seed + 12)
    assert "stalling" in stalled and set(stalled) <= {"stalling", "heuristic"}
    assert sorted(fit.game_kinds(20, 2, seed + 20)) == ["heuristic", "review"]
    assert "random" in fit.game_kinds(13, 3, seed + 13) + fit.game_kinds(14, 4, seed + 14)


def test_a_stall_game_shows_the_fit_frozen_boards() -> None:
    i, players, positions = fit.positions(12, 1)  # a stall limit of 2 rounds
    assert (i, players) == (12, 2)
    still = [rows for rows, *_ in positions if any(row[STILL] for row in rows)]
    assert still, "no position where the Moonlight stood still"
    assert all(0 <= left <= 1 for _, left, _, _ in positions)


def test_a_seed_gives_the_same_weights_file(tmp_path: Path) -> None:
    files = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in files:
        assert fit.main(["--games", "10", "--workers", "1", "--out", str(out)]) == 0
    first, second = (json.loads(p.read_text()) for p in files)
    assert first == second
    assert first["features"] == list(FEATURES)
    assert first["provenance"]["games"] == 10 and first["provenance"]["seed"] == 1
