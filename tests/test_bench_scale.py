"""The scale benchmark suite runs, small: two stored games reviewed on a local pool and on
Dask clusters of 1 and 2 workers give the same reviews, every metric is reported, and the
rates and the speedup follow from the timings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.wolves.analysis.review import ANALYSIS_VERSION
from scripts.benchmarks import scale

FIXTURES = Path(__file__).resolve().parent / "fixtures/the-wolves"
SMALL = scale.Sizes(games=2, playouts=1, tasks=40, filled=1000)


def test_the_scale_suite_measures_a_small_run(capsys: pytest.CaptureFixture[str]) -> None:
    blobs = [(FIXTURES / f"2p-0{i}-heuristic.json").read_bytes() for i in range(SMALL.games)]
    scale.measure(blobs, SMALL)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    got = {line["metric"]: line for line in lines}
    assert all(line["suite"] == "scale" for line in lines)
    assert sorted(got) == sorted([
        "reviews_per_min_local", "reviews_per_min_dask_1", "reviews_per_min_dask_2",
        "dask_speedup_2_workers", "dask_task_overhead_ms", "review_seconds",
        "review_save_ms", "reviews_identical",
    ])  # fmt: skip
    same = got["reviews_identical"]
    assert same["value"] == 1 and same["differing"] == [] and same["due_after_saving"] == 0
    assert same["games"] == SMALL.games
    assert same["settings"].startswith(f"a{ANALYSIS_VERSION}-p1-c3-")
    rates = {}
    for name, workers, scheduler in (("local", 2, None), ("dask_1", 1, "local"),
                                     ("dask_2", 2, "local")):  # fmt: skip
        line = got[f"reviews_per_min_{name}"]
        assert (line["workers"], line["scheduler"], line["games"]) == (workers, scheduler, 2)
        assert line["value"] == pytest.approx(2 / line["wall_s"] * 60, rel=1e-3)
        assert line["start_s"] > 0
        rates[name] = line["value"]
    speedup = got["dask_speedup_2_workers"]
    assert speedup["value"] == pytest.approx(rates["dask_2"] / rates["dask_1"], rel=1e-3)
    assert speedup["target"] == 1.8
    overhead = got["dask_task_overhead_ms"]
    assert overhead["tasks"] == SMALL.tasks
    assert 0 < overhead["value"] < 1000 and 0 < overhead["baseline"] < 1000
    review = got["review_seconds"]
    assert review["reviews"] == 2 and 0.05 < review["value"] < 60
    saved = got["review_save_ms"]
    assert saved["backend"] == "sqlite" and 0 < saved["value"] < 10_000
    assert saved["filled_rows"] == SMALL.filled
    assert saved["review_kb"] > 10  # a review of some 80 actions, its alternatives and graph
