"""The ratings benchmark suite runs, small: a Moonlight bot league and the fixture corpora are
rated and both metrics reported for each, with their baselines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts.benchmarks import ratings


def test_the_ratings_suite_measures_small_leagues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ratings, "CACHE", tmp_path)
    bots = ratings.league("moonlight", 40)
    assert ratings.league("moonlight", 40) == bots  # the second time from the cache
    assert {s.player for g in bots for s in g.seats} <= set(ratings.ROSTER)
    fixtures = ratings.fixtures("moonlight")
    assert len(fixtures) >= 30 and all(len(g.seats) == 2 for g in fixtures)
    ratings.measure({"moonlight-bots": bots, "fixtures-moonlight": fixtures})
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(m["metric"], m["league"]) for m in lines] == [
        ("ratings_favourite_win_rate", "moonlight-bots"), ("ratings_log_loss", "moonlight-bots"),
        ("ratings_favourite_win_rate", "fixtures-moonlight"),
        ("ratings_log_loss", "fixtures-moonlight"),
    ]  # fmt: skip
    win, loss = lines[0], lines[1]
    assert win["games"] == loss["games"] == 32 and win["baseline"] == 0.5
    assert 0 <= win["value"] <= 1 and loss["value"] > 0
    assert loss["baseline"] == pytest.approx(0.6931, abs=1e-4)  # log 2: two seats, one winner
