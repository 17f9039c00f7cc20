"""Moonlight stored and projected on SQLite and PostgreSQL: its summaries and its statistics
per game agree with the fixtures' results and records (M-5, M-7)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from projections.readmodels import ReadModels
from tests.projections.conftest import Store

FIXTURES = Path(__file__).parents[1] / "fixtures" / "moonlight"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json") if not p.stem.endswith(".expected"))


def load(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    record = json.loads((FIXTURES / f"{name}.json").read_text())
    return record, json.loads((FIXTURES / f"{name}.expected.json").read_text())


def starter(record: dict[str, Any]) -> int:
    """The seat that starts round 1 (M-2): seat 0 unless a ``round_start`` names one."""
    first = record["actions"][0]
    return first["player"] if first["type"] == "round_start" else 0


@pytest.fixture(scope="module")
def corpus() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [load(name) for name in NAMES]


def test_the_corpus_is_large_enough() -> None:
    assert len(NAMES) >= 30


def test_statistics_per_game_agree_with_the_results(
    store: Store, corpus: list[tuple[dict[str, Any], dict[str, Any]]]
) -> None:
    with store.library() as library, store.models() as models:
        ids = [library.upload((FIXTURES / f"{n}.json").read_bytes()).game_id for n in NAMES]
        models.catch_up(library)
        stats = models.stats(game="moonlight")  # type: ignore[arg-type]
        every = models.stats()
        summaries = [models.summary(i) for i in ids]
    finished = [(r, e) for r, e in corpus if e["finished"]]
    assert stats["game"] == "moonlight" and stats["games"] == len(finished)
    assert {"game": "moonlight", "games": len(finished)} in every["by_game"]
    assert "card_values" not in every
    # M-7: a seat's total is its rounds won; the winner is the first to two
    for seat, row in enumerate(stats["win_rate"]["by_seat"]):
        places = [e["scores"][seat]["place"] for _, e in finished]
        assert (row["seat"], row["n"], row["wins"]) == (seat, len(places), places.count(1))
    # M-2: seat 0 starts round 1 unless the record names who does
    starters = [starter(r) for r, _ in finished]
    starts = {r["started"]: r for r in stats["win_rate"]["by_start"]}
    assert starts[True]["n"] == starts[False]["n"] == len(finished)
    assert 0 < starters.count(1) < len(starters)
    assert starts[True]["wins"] == sum(
        e["scores"][seat]["place"] == 1 for seat, (_, e) in zip(starters, finished, strict=True)
    )
    # rounds won, by whether their winner started them: every round won counted once
    won = sum(r["won"] is True for _, e in finished for s in e["scores"] for r in s["rounds"])
    assert sum(r["count"] for r in stats["round_winners"]) == won
    # M-5: the round points by part, summed over every round scored
    parts = {p["part"]: p["count"] for p in stats["round_points"]}
    for part in ("moons", "cards", "threes"):
        expected = sum(r[part] for _, e in finished for s in e["scores"] for r in s["rounds"])
        assert parts[part] == expected, part
    # card values played, per value and per seat, from the records' placements
    placed: Counter[tuple[int, str]] = Counter(
        (a["player"], str(a["card"]))
        for r, _ in finished
        for a in r["actions"]
        if a["type"] == "place"
    )
    mix = {row["value"]: row["count"] for row in stats["card_values"]}
    assert mix == {v: placed[0, v] + placed[1, v] for v in ("1", "2", "3", "4", "5", "lone_wolf")}
    for row in stats["cards_played"]["by_seat"]:
        for value, mean in row["breakdown"].items():
            assert mean == pytest.approx(placed[row["seat"], value] / len(finished))
    assert stats["length"]["rounds"]["games"] == len(finished)
    rounds = Counter(len(e["scores"][0]["rounds"]) for _, e in finished)  # one bar a count
    assert stats["length"]["rounds"]["buckets"] == [
        {"from": n, "to": n, "games": rounds[n]} for n in sorted(rounds)
    ]
    assert stats["players"][0]["average_rounds_won"] == stats["players"][0]["average_score"]
    # each summary shows the seat's extras beside the generic fields
    for summary, (record, expected) in zip(summaries, corpus, strict=True):
        assert summary is not None
        for seat, shown in enumerate(summary["seats"]):
            rounds = expected["scores"][seat]["rounds"]
            assert shown["total"] == expected["scores"][seat]["total"]
            assert shown["points"]["total"] == sum(r["points"] for r in rounds)
            assert shown["rounds"]["won"] == sum(r["won"] is True for r in rounds)
            assert sum(shown["played"].values()) == sum(
                a["type"] == "place" and a["player"] == seat for a in record["actions"]
            )


@contextmanager
def holding(store: Store, *games: str) -> Iterator[ReadModels]:
    """The read models of ``store`` once it holds the fixture games ``games``, in that order
    (Moonlight's by name, The Wolves' as ``2p-…``)."""
    with store.library() as library, store.models() as models:
        for game in games:
            folder = FIXTURES.parent / "the-wolves" if game.startswith("2p-") else FIXTURES
            library.upload((folder / f"{game}.json").read_bytes())
        models.catch_up(library)
        yield models


def test_a_players_trend_averages_each_game_apart(store: Store) -> None:
    """Moonlight counts rounds won and The Wolves VP: a player's rolling score and average
    per game never mix the two."""
    games = ("00-greedy", "2p-00-heuristic", "01-greedy", "2p-01-heuristic")
    with holding(store, *games) as models:
        ana = models.player("Ana")
    assert ana is not None and {g["game"] for g in ana["by_game"]} == {"moonlight", "the-wolves"}
    seen: dict[str, list[int]] = {}
    for point in ana["trend"]:
        own = seen.setdefault(point["game"], [])
        own.append(point["score"])
        assert point["rolling_score"] == sum(own[-5:]) / len(own[-5:]), point
    for count in ana["by_game"]:
        scores = seen[count["game"]]
        assert (count["games"], count["average_score"]) == (len(scores), sum(scores) / len(scores))
    assert max(seen["moonlight"]) <= 3 < min(seen["the-wolves"])  # rounds won against VP


def test_a_players_bounded_trend_is_the_end_of_the_whole_one(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`~projections.statistics.RECENT_GAMES` seats, the trend is the last points
    of the whole one: a point's number and rolling score count its game's seats before the
    bound too, and the counts and averages cover every game."""
    games = ("2p-00-heuristic", "2p-01-heuristic", "00-greedy", "01-greedy", "2p-02-heuristic",
             "02-greedy")  # fmt: skip
    with holding(store, *games) as models:
        whole = models.player("Ana")
        monkeypatch.setattr("projections.statistics.RECENT_GAMES", 3)
        bounded = models.player("Ana")
    assert whole is not None and bounded is not None and whole["games"] == 6
    assert [p["game"] for p in bounded["trend"]] == ["moonlight", "the-wolves", "moonlight"]
    assert bounded["trend"] == whole["trend"][-3:]
    assert bounded["trend"][1]["number"] == 3  # the Wolves' third, two before the bound
    assert {**bounded, "trend": []} == {**whole, "trend": []}
