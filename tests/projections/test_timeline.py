"""Stored timelines and summaries equal what folding the engine's events gives at every step."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import orjson
import pytest

from domain.ruleset import Milestone, SeatScore, StepFacts
from domain.store import GameLibrary
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.describe import label
from domain.wolves.events import ACTION_TYPES
from domain.wolves.evolve import evolve
from domain.wolves.records import Record, read_record, write_record
from domain.wolves.replay import replay, written_start
from domain.wolves.ruleset import WOLVES
from domain.wolves.scoring import control, final_scores
from domain.wolves.state import State
from projections.readmodels import ReadModels
from projections.timeline import Timeline, expand
from tests.projections.conftest import FIXTURES, Store, fixture_names, fixture_record, upload

ON_POSTGRESQL = ("2p-08-big-map", "3p-09-auto-push-stall-10", "4p-07-random-terrain",
                 "5p-00-heuristic")  # fmt: skip


def who(key: int | None) -> str:
    return "automaton" if key is None else str(key)


def expected_control(state: State, region: int) -> dict[str, object]:
    """Region control as W-8 ranks it: by control, then alphas; a tie has no leader."""
    held = control(state, region)
    ranked = sorted(held.values(), reverse=True)
    leaders = [k for k, v in held.items() if ranked and v == ranked[0]]
    return {
        "region": region,
        "top": state.scoring[region][0] if state.scoring.get(region) else None,
        "control": {who(k): c for k, (c, _) in held.items()},
        "leader": who(leaders[0]) if len(leaders) == 1 else None,
        "margin": ranked[0][0] - (ranked[1][0] if len(ranked) > 1 else 0) if ranked else 0,
    }


def expected_milestones(names: Sequence[str], events: Sequence[ev.Event]) -> list[dict[str, Any]]:
    """What a step of The Wolves marks: its region scorings (the seats that won points,
    first place first), the phases scored, the game's end (its winners)."""
    out: list[dict[str, Any]] = []
    for e in events:
        if isinstance(e, ev.RegionScored):
            won = sorted((s.place, s.seat) for s in e.standings if s.seat is not None and s.points)
            out.append({"kind": "region_scored", "text": label(names, [e]),
                        "seats": [seat for _, seat in won]})  # fmt: skip
        elif isinstance(e, ev.PhaseScored):
            out.append({"kind": "phase_scored", "text": e.phase, "seats": []})
        elif isinstance(e, ev.GameEnded):
            winners = [s.seat for s in e.scores if s.place == 1]
            out.append({"kind": "game_ended", "text": label(names, [e]), "seats": winners})
    return out


def check_game(models: ReadModels, library: GameLibrary, name: str) -> None:
    """Every step of the stored timeline and the summary against the engine's."""
    game_id = check_timeline(models, library, fixture_record(name), name)
    check_summary(models, game_id, name)


def check_timeline(models: ReadModels, library: GameLibrary, record: bytes, name: str) -> UUID:
    """Every step of the stored timeline against the engine folded to that step."""
    game_id = library.upload(record).game_id
    models.catch_up(library)
    rows = models.timeline(game_id)
    played = replay(read_record(record))
    assert rows is not None and len(rows) == len(played.steps) + 1
    names = [p.name for p in played.initial.table.players]
    state = played.initial
    for n, row in enumerate(rows):
        events = played.steps[n - 1] if n else []
        for event in events:
            state = evolve(state, event)
        assert row["step"] == n
        assert row["scores"] == [
            {"seat": s.seat, "total": s.total, "place": s.place, "parts": dict(s.parts)}
            for s in WOLVES.scores(state)
        ], (name, n)  # fmt: skip
        assert row["milestones"] == expected_milestones(names, events), (name, n)
        assert row["vp"] == [dataclasses.asdict(s) for s in final_scores(state)], (name, n)
        assert row["control"] == [
            expected_control(state, r) for r in state.table.map.regions
        ], (name, n)  # fmt: skip
        assert row["moonlight"] == state.date
        assert row["finished"] == state.finished
        assert row["turn"] == (None if state.finished else state.player)
        phase, dates = state.phases_scored, state.table.phase_dates
        assert row["next_phase"] == (
            None if phase == 3 else {"phase": box.PHASES[phase], "date": dates[phase]}
        )
        assert row["scoring"] == [
            {k: v for k, v in WOLVES.encode_event(e)[1].items()}
            for e in events
            if isinstance(e, ev.RegionScored)
        ]  # fmt: skip
        if n:
            assert row["label"] == label(names, events)
            acted = next(e for e in events if type(e) in ACTION_TYPES)  # after a turn it ended
            assert row["type"] == ACTION_TYPES[type(acted)] and row["player"] == acted.player
    return game_id


def check_summary(models: ReadModels, game_id: object, name: str) -> None:
    """The summary's counts and scores are the fixture's expected ones."""
    expected = json.loads((FIXTURES / f"{name}.expected.json").read_text())
    summary = models.summary(game_id)  # type: ignore[arg-type]
    assert summary is not None
    assert (summary["actions"], summary["events"], summary["finished"]) == (
        expected["actions"], expected["events"], expected["finished"]
    )  # fmt: skip
    for seat, score in zip(summary["seats"], expected["scores"], strict=True):
        assert seat["total"] == score["total"] and seat["place"] == score["place"]
        assert seat["breakdown"] == {
            k: score[k] for k in ("regions", "spread", "speed", "howl", "lairs", "prey", "pack")
        }
        assert seat["winner"] == (expected["finished"] and score["place"] == 1)


def test_timelines_equal_the_engine_folded_at_every_step(store: Store) -> None:
    names = fixture_names() if store.url.startswith("sqlite") else ON_POSTGRESQL
    with store.library() as library, store.models() as models:
        for name in names:
            check_game(models, library, name)


def test_a_record_from_a_position_folds_from_it(store: Store) -> None:
    record = read_record(fixture_record("2p-00-heuristic"))
    half = len(record.actions) // 2
    middle = replay(record, at=half).state
    later = Record(players=record.players, start=middle, actions=record.actions[half:])
    with store.library() as library, store.models() as models:
        check_timeline(models, library, write_record(later), "from a position")


def without_passes_keeping_tokens(name: str) -> Record:
    """A fixture record without the passes of players out of actions but holding a bonus
    action token (but the last): the next seat's action ends those turns (records.md)."""
    record = read_record(fixture_record(name))
    played = replay(record)
    kept = [
        a for i, a in enumerate(record.actions)
        if a.type != "pass" or not played.state_at(i).out_of_actions or i == len(record.actions) - 1
    ]  # fmt: skip
    assert len(kept) < len(record.actions)
    return dataclasses.replace(record, actions=tuple(kept))


def test_w6_turns_ended_by_the_next_seat_keep_their_labels_and_seats(store: Store) -> None:
    """A turn kept open by tokens and ended by the next seat's action: that step is the next
    seat's action, and its label says the turn ended with tokens left (W-6)."""
    record = without_passes_keeping_tokens("3p-01-heuristic")
    assert replay(record).state.finished
    with store.library() as library, store.models() as models:
        game_id = check_timeline(models, library, write_record(record), "without passes")
        rows = models.timeline(game_id)
    assert rows is not None
    names = [p.name for p in record.players]
    ended = [r for r in rows if " ends the turn keeping " in (r["label"] or "")]
    assert ended
    for row in ended:  # "Ana ends the turn keeping 1 bonus action token; Bo moves …"
        before = names[(row["player"] - 1) % len(names)]
        assert row["label"].startswith(f"{before} ends the turn keeping "), row["label"]
        assert f"; {names[row['player']]} " in row["label"]


def test_stored_records_start_where_the_engine_does() -> None:
    for name in fixture_names():
        record = read_record(fixture_record(name))
        assert written_start(write_record(record).decode()) == replay(record, at=0).state, name


def test_summary_counts_what_happened(store: Store) -> None:
    with store.library() as library, store.models() as models:
        ids = upload(library, ["3p-00-heuristic"])
        models.catch_up(library)
        summary = models.summary(ids["3p-00-heuristic"])
    played = replay(read_record(fixture_record("3p-00-heuristic")))
    events = [e for step in played.steps for e in step]
    assert summary is not None
    seats = summary["seats"]
    for seat in seats:
        mine = [e for e in events if getattr(e, "player", None) == seat["seat"]]
        kinds = [type(e).__name__ for e in mine]
        assert seat["dominations"]["made"] == kinds.count("PieceDominated")
        assert seat["bonus_tokens"]["spent"]["action"] == kinds.count("BonusActionSpent")
        assert sum(seat["actions"].values()) == sum(type(e) in ACTION_TYPES for e in mine)
        assert seat["prey"] == [e.prey for e in mine if type(e).__name__ == "PreyHunted"]
        assert seat["region_wins"]["total"] == sum(
            1
            for e in events
            if type(e).__name__ == "RegionScored"
            for s in e.standings
            if s.seat == seat["seat"] and s.place == 1
        )
    assert sum(s["dominations"]["suffered"] for s in seats) == sum(
        s["dominations"]["made"] for s in seats
    )
    final = played.state
    assert summary["winners"] == [s["name"] for s in seats if s["place"] == 1]
    assert summary["end_reason"] == next(e.reason for e in events if hasattr(e, "reason"))
    assert [s["lairs"] for s in seats] == [b.lairs for b in final.boards]
    assert [list(s["dens"].values()) for s in seats] == [list(b.dens) for b in final.boards]
    assert [(s["name"], s["terrain"]) for s in seats] == [
        ("Ana", "desert"), ("Bo", "forest"), ("Cy", "mountain")
    ]  # fmt: skip


@pytest.mark.parametrize("name", fixture_names())
def test_the_followers_own_rows_are_the_timelines_diff_of_its_steps(name: str) -> None:
    """The Wolves' follower walking a game from its stored events gives, step by step,
    the very rows the timeline keeps of its facts (``Timeline.add``), stored alike."""
    played = replay(read_record(fixture_record(name)))
    stored = [
        [dict(zip(("type", "data"), WOLVES.encode_event(e), strict=True)) for e in events]
        for events in played.steps
    ]
    walked = Timeline(WOLVES, played.initial)
    walked.walk(stored)
    stepped = Timeline(WOLVES, played.initial)
    for events in played.steps:
        stepped.add(stepped.follower.step(events))
    assert walked.rows == stepped.rows
    assert orjson.dumps(walked.doc()) == orjson.dumps(stepped.doc())
    assert walked.follower.state == stepped.follower.state == played.state


class Script:
    """A follower reading its steps' facts from a script (``numbers`` of each step)."""

    def __init__(self, steps: list[dict[str, Any]]) -> None:
        self.steps = iter(steps)
        self.total = 0

    state = None

    def facts(self) -> StepFacts:
        numbers = next(self.steps)
        total = self.total = numbers.get("total", self.total)
        scores = (SeatScore(0, total, 1, {"a": total, "b": 1}), SeatScore(1, 0, 2, {"a": 0}))
        marks = (Milestone("hit", "a hit", (0,)),) if "hit" in numbers else ()
        return StepFacts(0, "go", "went", 1, False, scores, marks, numbers)

    first = facts

    def step(self, events: Sequence[Any]) -> StepFacts:
        return self.facts()


def test_stored_rows_give_back_each_steps_numbers_as_of_that_step() -> None:
    """Lists patched item by item, dicts kept as values, new keys, whole values: every
    expanded row holds each number as its latest step gave it."""
    given: list[dict[str, Any]] = [
        {"cells": [{"x": 1, "y": 2}, {"x": 3}, [1, 2]], "round": 1, "total": 0},
        {"cells": [{"x": 1, "y": 5}, {"x": 3}, [1, 2]], "total": 4, "hit": 1},
        {"cells": [{"x": 1, "y": 5}, {"z": 3}, [2]]},
        {"round": 2, "seen": {"a": 1}},
        {"cells": [{"y": 6, "x": 1}], "seen": {"a": 2}},
        {},
    ]

    class Game:
        name = "script"

        def players(self, state: Any) -> tuple[Any, ...]:
            return ()

        def follow(self, names: Sequence[str], start: Any) -> Script:
            return Script(given)

        def chart_item(self, key: str, item: Any) -> Any:
            return item

    line = Timeline(Game(), None)  # type: ignore[arg-type]
    for _ in given[1:]:
        line.add(line.follower.step([]))
    rows = expand(json.loads(json.dumps(line.doc())), Game())  # type: ignore[arg-type]
    now: dict[str, Any] = {}
    for row, numbers in zip(rows, given, strict=True):
        now.update(numbers)
        assert {k: row[k] for k in now} == now
        total = now.get("total", 0)
        assert row["scores"][0] == {"seat": 0, "total": total, "place": 1,
                                    "parts": {"a": total, "b": 1}}  # fmt: skip
        assert row["milestones"] == ([{"kind": "hit", "text": "a hit", "seats": [0]}]
                                     if "hit" in numbers else [])  # fmt: skip
    assert [list(row["cells"][0]) for row in rows][-1] == ["y", "x"]


def test_numbers_are_stored_as_the_follower_gives_them_and_shown_by_the_ruleset() -> None:
    """A follower may keep a number compact: the stored document holds it so, the rows
    show it through ``Ruleset.chart_item`` (The Wolves rank a region's control then)."""
    played = replay(read_record(fixture_record("2p-00-heuristic")))
    line = Timeline(WOLVES, played.initial)
    for events in played.steps:
        line.add(line.follower.step(events))
    doc = line.doc()
    first = doc["rows"][0][7]
    regions = played.initial.table.map.regions
    assert [row[0] for row in first["control"]] == list(regions)
    assert all(type(held) is list for _, _, held in first["control"])
    rows = expand(doc)
    assert rows[0]["control"] == [WOLVES.chart_item("control", c) for c in first["control"]]
    assert all(type(v) is dict for row in rows for v in row["vp"] + row["control"])
