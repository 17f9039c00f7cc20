"""Statistics: a corpus small enough to check by hand, and agreement with real games."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest

from projections.readmodels import ReadModels
from projections.statistics import wilson
from tests.projections.conftest import FIXTURES, Store, upload
from tests.projections.synthetic import Played, Seat, insert

# Four finished public games (plus a private and an unfinished one, never counted):
#   G1 2p 2026-01-10, 30 turns: Ana desert 60 (1st, 1 crescent first), Bo forest 50
#   G2 2p 2026-02-10, 35 turns: Ana desert 40 (1 full first), Bo mountain 45 (1st, 1 crescent)
#   G3 3p 2026-03-10, 42 turns, random terrain: Ana grassland 55 (1st, 2 quarter firsts),
#      Bo forest 52, Cy mountain 30
#   G4 3p 2026-04-10, 48 turns: Ana desert 41, Bo forest 47 (1st), Cy mountain 35 (1 crescent)
HAND = [
    Played([Seat("Ana", "desert", 60, 1, {"crescent": 1}), Seat("Bo", "forest", 50, 2)],
           datetime(2026, 1, 10, tzinfo=UTC), turns=30),
    Played([Seat("Ana", "desert", 40, 2, {"full": 1}),
            Seat("Bo", "mountain", 45, 1, {"crescent": 1})],
           datetime(2026, 2, 10, tzinfo=UTC), turns=35),
    Played([Seat("Ana", "grassland", 55, 1, {"quarter": 2}), Seat("Bo", "forest", 52, 2),
            Seat("Cy", "mountain", 30, 3)],
           datetime(2026, 3, 10, tzinfo=UTC), turns=42, options={"random_terrain": 1}),
    Played([Seat("Ana", "desert", 41, 2), Seat("Bo", "forest", 47, 1),
            Seat("Cy", "mountain", 35, 3, {"crescent": 1})],
           datetime(2026, 4, 10, tzinfo=UTC), turns=48),
    Played([Seat("Ana", "tundra", 90, 1), Seat("Bo", "tundra", 10, 2)],
           datetime(2026, 4, 11, tzinfo=UTC), visibility="private"),
    Played([Seat("Ana", "tundra", 90, 1), Seat("Bo", "tundra", 10, 2)],
           datetime(2026, 4, 12, tzinfo=UTC), finished=False),
]  # fmt: skip


@pytest.fixture
def hand(store: Store) -> Iterator[ReadModels]:
    """Read models holding the hand-checked corpus."""
    with store.models() as models:
        insert(models, HAND)
        yield models


def wolves(models: ReadModels, **filters: object) -> dict:
    """The Wolves' statistics (with its own figures)."""
    return models.stats(game="the-wolves", **filters)  # type: ignore[arg-type]


def by(rows: list[dict], key: str) -> dict:
    return {row[key]: row for row in rows}


def interval(row: dict) -> tuple[float, float]:
    return row["low"], row["high"]


def test_wilson_intervals_by_hand() -> None:
    # p = 1/3: centre (1/3 + 1.96²/6) / (1 + 1.96²/3) = 0.4269, half-width 0.3654
    assert wilson(1, 3) == pytest.approx((0.0615, 0.7923), abs=1e-4)
    # p = 1/2, n = 4: centre 0.5, half-width 1.96 / 1.9604 · √(1/16 + 1.96²/64) = 0.3500
    assert wilson(2, 4) == pytest.approx((0.1500, 0.8500), abs=1e-4)
    # p = 1, n = 1: centre (1 + 1.96²/2) / (1 + 1.96²) = 0.6033, half-width 0.3967
    assert wilson(1, 1) == pytest.approx((0.2065, 1.0), abs=1e-4)
    # p = 0, n = 2: centre (1.96²/4) / (1 + 1.96²/2) = 0.3288 = the half-width
    assert wilson(0, 2) == pytest.approx((0.0, 0.6576), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_win_rates(hand: ReadModels) -> None:
    stats = wolves(hand)
    assert (stats["games"], stats["seats"]) == (4, 10)
    seat = by(stats["win_rate"]["by_seat"], "seat")
    assert {s: (r["n"], r["wins"]) for s, r in seat.items()} == {0: (4, 2), 1: (4, 2), 2: (2, 0)}
    assert interval(seat[0]) == pytest.approx((0.1500, 0.8500), abs=1e-4)
    assert interval(seat[2]) == pytest.approx((0.0, 0.6576), abs=1e-4)
    assert seat[0]["rate"] == 0.5 and seat[2]["small_sample"]
    terrain = by(stats["win_rate"]["by_terrain"], "terrain")
    assert {t: (r["n"], r["wins"]) for t, r in terrain.items()} == {
        "desert": (3, 1), "forest": (3, 1), "grassland": (1, 1), "mountain": (3, 1)
    }  # fmt: skip
    assert interval(terrain["desert"]) == pytest.approx((0.0615, 0.7923), abs=1e-4)
    assert interval(terrain["grassland"]) == pytest.approx((0.2065, 1.0), abs=1e-4)
    players = by(stats["win_rate"]["by_players"], "players")
    assert {p: (r["n"], r["wins"]) for p, r in players.items()} == {2: (4, 2), 3: (6, 2)}
    pairs = {(r["players"], r["seat"]): r["wins"] for r in stats["win_rate"]["by_players_seat"]}
    assert pairs == {(2, 0): 1, (2, 1): 1, (3, 0): 1, (3, 1): 1, (3, 2): 0}


def test_victory_points_actions_and_length(hand: ReadModels) -> None:
    stats = wolves(hand)
    assert stats["vp"]["average"]["total"] == 45.5  # 455 / 10
    assert stats["vp"]["average"]["breakdown"]["regions"] == 22.5  # the halves, rounded down
    seat = by(stats["vp"]["by_seat"], "seat")
    assert (seat[0]["total"], seat[1]["total"], seat[2]["total"]) == (49.0, 48.5, 32.5)
    mix = by(stats["actions"], "type")
    assert (mix["move"]["count"], mix["den"]["count"]) == (100, 50)
    assert mix["move"]["share"] == pytest.approx(2 / 3) and mix["pass"]["count"] == 0
    phase = by(stats["region_winners"], "phase")
    assert {p: (r["n"], r["wins"]) for p, r in phase.items()} == {
        "crescent": (3, 2), "quarter": (1, 1), "full": (1, 0)
    }  # fmt: skip
    turns = stats["length"]["turns"]
    assert (turns["games"], turns["mean"], turns["median"], turns["min"], turns["max"]) == (
        4, 38.75, 38.5, 30, 48
    )  # fmt: skip
    assert turns["buckets"] == [
        {"from": 30, "to": 39, "games": 2},
        {"from": 40, "to": 49, "games": 2},
    ]
    named = by(stats["players"], "name")
    brief = [
        (p["name"], p["games"], p["wins"], p["average_vp"], p["terrain"]) for p in named.values()
    ]
    assert brief == [
        ("Ana", 4, 2, 49.0, "desert"), ("Bo", 4, 2, 48.5, "forest"), ("Cy", 2, 0, 32.5, "mountain")
    ]  # fmt: skip
    assert interval(named["Cy"]["win_rate"]) == pytest.approx((0.0, 0.6576), abs=1e-4)


def test_length_counts_games_of_equal_turns_and_different_actions(store: Store) -> None:
    games = [
        Played([Seat("Ana", "desert", 50, 1), Seat("Bo", "forest", 40, 2)],
               datetime(2026, 5, 1, tzinfo=UTC), turns=30, actions=61),
        Played([Seat("Ana", "desert", 45, 2), Seat("Bo", "forest", 47, 1)],
               datetime(2026, 5, 2, tzinfo=UTC), turns=30, actions=64),
    ]  # fmt: skip
    with store.models() as models:
        insert(models, games)
        length = models.stats()["length"]
    assert length["turns"]["games"] == length["actions"]["games"] == 2
    assert length["turns"]["buckets"] == [{"from": 30, "to": 39, "games": 2}]


def test_filters(hand: ReadModels) -> None:
    assert hand.stats(players=2)["games"] == 2
    assert hand.stats(players=3)["seats"] == 6
    assert hand.stats(option="random_terrain")["games"] == 1
    assert hand.stats(option="standard")["games"] == 3
    assert hand.stats(since=date(2026, 2, 1))["games"] == 3
    assert hand.stats(until=date(2026, 3, 10))["games"] == 3  # that day included
    assert hand.stats(until=datetime(2026, 3, 10, tzinfo=UTC))["games"] == 2
    assert hand.stats(since=date(2026, 2, 1), until=date(2026, 3, 31), players=3)["games"] == 1
    cy = wolves(hand, player="CY")
    assert (cy["games"], cy["seats"]) == (2, 2)
    assert by(cy["win_rate"]["by_terrain"], "terrain")["mountain"]["n"] == 2
    with pytest.raises(ValueError):
        hand.stats(option="no_such_option")


def test_player(hand: ReadModels) -> None:
    ana = hand.player("ana", "the-wolves")
    assert ana is not None
    assert (ana["name"], ana["games"], ana["wins"], ana["average_vp"]) == ("Ana", 4, 2, 49.0)
    assert ana["terrain"] == "desert"
    assert {t["terrain"]: (t["games"], t["wins"]) for t in ana["terrains"]} == {
        "desert": (3, 1), "grassland": (1, 1)
    }  # fmt: skip
    assert [t["vp"] for t in ana["trend"]] == [60, 40, 55, 41]
    assert [t["rolling_vp"] for t in ana["trend"]] == [60, 50, 155 / 3, 49]
    assert interval(ana["win_rate"]) == pytest.approx((0.1500, 0.8500), abs=1e-4)
    assert hand.player("Nobody") is None


def test_statistics_of_real_games_agree_with_their_results(store: Store) -> None:
    names = ["2p-00-heuristic", "2p-02-heuristic", "3p-00-heuristic", "4p-00-heuristic"]
    expected = {n: json.loads((FIXTURES / f"{n}.expected.json").read_text()) for n in names}
    with store.library() as library, store.models() as models:
        upload(library, names)
        models.catch_up(library)
        stats = wolves(models)
        summaries = []
        for g in models.list_games().items:
            summary = models.summary(g["game_id"])
            assert summary is not None, g["game_id"]
            summaries.append(summary)
    finished = [e for e in expected.values() if e["finished"]]
    scores = [s for e in finished for s in e["scores"]]
    assert (stats["games"], stats["seats"]) == (len(finished), len(scores))
    seat = by(stats["win_rate"]["by_seat"], "seat")
    for i, row in seat.items():
        mine = [s for s in scores if s["seat"] == i]
        assert (row["n"], row["wins"]) == (len(mine), sum(s["place"] == 1 for s in mine))
    assert stats["vp"]["average"]["total"] == pytest.approx(
        sum(s["total"] for s in scores) / len(scores)
    )
    seats = [s for game in summaries for s in game["seats"]]
    mix = by(stats["actions"], "type")
    assert all(mix[k]["count"] == sum(s["actions"][k] for s in seats) for k in mix)
    for row in stats["region_winners"]:
        firsts = [s for s in seats if s["region_wins"][row["phase"]]]
        assert (row["n"], row["wins"]) == (len(firsts), sum(s["winner"] for s in firsts))
    assert stats["length"]["turns"]["games"] == len(finished)


def test_every_game_unless_a_game_or_its_options_are_named(hand: ReadModels) -> None:
    every = hand.stats()
    assert every["game"] is None and every["by_game"] == [{"game": "the-wolves", "games": 4}]
    assert "vp" not in every and "by_terrain" not in every["win_rate"]
    assert "average_vp" not in every["players"][0] and "terrain" not in every["players"][0]
    assert every["win_rate"]["by_seat"] == wolves(hand)["win_rate"]["by_seat"]
    named = hand.stats(option="big_map=false")  # an option of The Wolves (W-12) only
    assert named["game"] == "the-wolves" and named["vp"]["average"]["n"] == 10
    assert [f["key"] for f in named["figures"]] == ["by_terrain", "vp", "actions", "region_winners"]
    with pytest.raises(ValueError, match="unknown option 'fly'"):
        hand.stats(option="fly")
    with pytest.raises(ValueError, match="no game 'chess'"):
        hand.stats(game="chess")


def test_who_started_and_the_score_distribution(hand: ReadModels) -> None:
    stats = wolves(hand)
    started = by(stats["win_rate"]["by_start"], "started")  # seat 0 starts The Wolves
    assert {k: (r["n"], r["wins"]) for k, r in started.items()} == {True: (4, 2), False: (6, 2)}
    score = stats["score"]  # 30 35 40 41 45 47 50 52 55 60, in bars 5 VP wide
    assert (score["seats"], score["mean"], score["median"], score["min"], score["max"]) == (
        10, 45.5, 46, 30, 60
    )  # fmt: skip
    assert [(b["from"], b["to"], b["seats"]) for b in score["buckets"]] == [
        (30, 34, 1), (35, 39, 1), (40, 44, 2), (45, 49, 2), (50, 54, 2), (55, 59, 1), (60, 64, 1)
    ]  # fmt: skip


def test_a_player_of_every_game(hand: ReadModels) -> None:
    ana = hand.player("ANA")
    assert ana is not None and ana["game"] is None
    assert (ana["games"], ana["wins"], ana["average_score"]) == (4, 2, 49.0)
    assert ana["by_game"] == [{"game": "the-wolves", "games": 4, "wins": 2, "average_score": 49.0}]
    assert "terrain" not in ana and "vp" not in ana["trend"][0]
    assert [t["score"] for t in ana["trend"]] == [60, 40, 55, 41]
    assert hand.played() == {"the-wolves": 4}


def test_a_game_made_private_leaves_every_statistic(store: Store) -> None:
    """The game's own table repeats its visibility, as the seats do: both follow a change."""
    with store.library() as library, store.models() as models:
        ids = upload(library, ["2p-00-heuristic", "3p-00-heuristic"])
        models.catch_up(library)
        assert wolves(models)["games"] == models.stats()["games"] == 2
        library.set_visibility(ids["3p-00-heuristic"], "private")
        models.catch_up(library)
        assert wolves(models)["games"] == models.stats()["games"] == 1
        assert wolves(models, option="standard")["seats"] == 2
        assert models.player("Cy", "the-wolves") is None
