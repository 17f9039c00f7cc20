"""The tables benchmark suite runs, small: on both backends every metric is reported, each
action was accepted and reached every watcher, and no stream was refused; the table page is
timed for each wolf clicked and each action sent."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser

from scripts.benchmarks import tables

SMALL = tables.Sizes(actions=6, tables=3, watchers=2, pace=0.5, seconds=1.5, idle=0.3)


def test_the_tables_suite_measures_a_small_run(
    store_url: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    backend = request.node.callspec.params["store_url"]
    tables.measure(backend, store_url, SMALL)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    got = {line["metric"].removesuffix(f"_{backend}"): line for line in lines}
    assert all(line["suite"] == "tables" for line in lines)
    assert sorted(got) == sorted([
        "table_action_roundtrip_ms", "table_sse_delivery_ms", "tables_load_actions_per_s",
        "tables_load_action_roundtrip_ms", "tables_load_sse_delivery_ms",
        "tables_load_server_rss_mb", "tables_load_server_cpu_percent",
        "tables_load_streams_refused",
    ])  # fmt: skip
    trips = got["table_action_roundtrip_ms"]
    assert trips["count"] == SMALL.actions and trips["failures"] == 0
    assert 0 < trips["p50"] <= trips["value"] and trips["baseline"] > 0
    assert got["table_sse_delivery_ms"]["count"] == SMALL.actions
    rate, entered = got["tables_load_actions_per_s"], got["tables_load_action_roundtrip_ms"]
    assert rate["failures"] == 0 and entered["count"] >= SMALL.tables  # one per table at least
    assert rate["value"] == pytest.approx(entered["count"] / SMALL.seconds, abs=1e-3)
    delivered = got["tables_load_sse_delivery_ms"]
    assert delivered["count"] == entered["count"] * SMALL.watchers
    assert delivered["missed"] == 0
    assert got["tables_load_streams_refused"]["value"] == 0
    assert got["tables_load_streams_refused"]["ended_early"] == 0
    assert got["tables_load_server_rss_mb"]["value"] > 50
    assert got["tables_load_server_rss_mb"]["processes"] >= 2
    assert got["tables_load_server_cpu_percent"]["value"] > 0


@pytest.mark.browser
def test_the_tables_suite_times_the_table_page(
    sqlite_url: str, browser: Browser, capsys: pytest.CaptureFixture[str]
) -> None:
    sizes = tables.Sizes(opened_with=4, clicked=2)  # after the drafts, two dens: before
    tables.measure_page(sqlite_url, sizes, browser)  # each, a wolf may move (W-6.1)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    got = {line["metric"]: line for line in lines}
    assert sorted(got) == ["table_action_render_ms", "table_click_highlight_ms"]
    assert got["table_click_highlight_ms"]["count"] == 2
    assert got["table_action_render_ms"]["count"] == 2
    for line in got.values():
        assert 0 < line["p50"] <= line["value"] < 20_000
