"""The replay's data and figures, without a browser."""

from __future__ import annotations

import math
from typing import Any

from dashboard import charts
from dashboard.boards import wolves as board
from dashboard.pages.replay import log_entry
from domain.hexes import neighbours
from domain.wolves.describe import stored_label
from domain.wolves.records import read_record
from domain.wolves.replay import Replay, replay
from domain.wolves.ruleset import WOLVES
from projections.timeline import timeline
from tests.dashboard.conftest import FIXTURES


def _game(name: str) -> tuple[Replay, list[dict[str, Any]]]:
    played = replay(read_record((FIXTURES / name).read_bytes()))
    return played, timeline(WOLVES, played.initial, played.steps)


def test_frames_show_every_piece_and_token_of_the_state() -> None:
    played, _ = _game("2p-00-heuristic.json")
    state = played.state_at(20)
    frame = board.frame(state, played.steps[19])
    assert len(frame["p"]) == sum(len(pieces) for pieces in state.pieces.values())
    assert any(seat == -1 for *_, seat in frame["p"])  # the automaton pack
    assert {tuple(h) for h in frame["l"]} == set(state.lone_wolves)
    assert sum(count for *_, count in frame["r"]) == sum(c for _, c in state.prey.values())
    assert frame["h"], "the step's action touched at least one hex"


def test_the_map_has_every_hex_and_a_region_outline() -> None:
    played, _ = _game("5p-00-heuristic.json")
    gmap = played.initial.table.map
    drawn = board.drawing(gmap)
    assert len(board.hexes(gmap)) == len(gmap.terrain) == len(drawn["terrain"]) == 176
    assert drawn["terrain"] == [gmap.terrain[(x, y)] for x, y, _ in board.hexes(gmap)]
    assert set(drawn["terrain"]) == set(board.LAND_ORDER)
    assert [label for *_, label in drawn["labels"]] == [f"R{r}" for r in gmap.regions]
    x0, x1, y0, y1 = drawn["range"]
    centres = [board.centre((x, y)) for x, y, _ in board.hexes(gmap)]
    assert all(x0 < x < x1 and y0 < y < y1 for x, y in centres)
    ends = {(e[i], e[i + 1]) for e in drawn["outlines"] for i in (0, 2)}
    for h, region in gmap.region_of.items():  # a hex beside another region: its border drawn
        if any(gmap.region_of.get(n, 0) != region for n in neighbours(h) if n in gmap.terrain):
            cx, cy = board.centre(h)
            assert any(math.dist((cx, cy), end) < 1.01 for end in ends)


def test_charts_follow_the_timeline() -> None:
    played, rows = _game("5p-00-heuristic.json")
    names = [p.name for p in played.initial.table.players]
    colors = board.seat_colors(played.initial)
    marks = charts.milestones(rows, board.MARKS)  # what WolvesView.marked marks
    assert [text for _, text in marks] == ["crescent", "quarter", "full"]
    scored = {row["step"]: {s["phase"] for s in row["scoring"]} for row in rows if row["scoring"]}
    assert all(phase in scored[step] for step, phase in marks)
    vp = charts.score_figure(rows, names, colors, board.WOLVES.score, marks)
    assert [t["y"][-1] for t in vp["data"]] == [v["total"] for v in rows[-1]["vp"]]
    assert [t["customdata"][-1] for t in vp["data"]] == [
        [v[area] for area in board.AREAS] for v in rows[-1]["vp"]
    ]  # fmt: skip
    assert [shape["x0"] for shape in vp["layout"]["shapes"]] == [step for step, _ in marks]
    assert vp["layout"]["title"]["text"] == "Victory points"
    margin = charts.margin_figure(rows, names, colors, "VP", marks)
    totals = [v["total"] for v in rows[-1]["vp"]]
    assert [t["y"][-1] for t in margin["data"]] == [
        t - max(totals[:i] + totals[i + 1 :]) for i, t in enumerate(totals)
    ]  # fmt: skip
    control = board.control_figure(rows, names, colors)
    heat = control["data"][0]
    assert len(heat["z"]) == len(played.initial.table.map.regions)
    assert all(len(row) == len(rows) for row in heat["z"])
    scored = control["data"][1]
    assert len(scored["x"]) == sum(len(row["scoring"]) for row in rows)


def test_step_log_says_when_a_turn_ends_with_tokens_left() -> None:
    """W-6: a turn kept open by a bonus action token and ended by the next seat's action (or a
    pass) keeps the token; the step log's line says so before the action."""
    events = [
        {"type": "TurnEnded",
         "data": {"player": 0, "next_player": 1, "stalled_rounds": 0, "tokens_left": 2}},
        {"type": "Passed", "data": {"player": 1}},
        {"type": "TurnEnded",
         "data": {"player": 1, "next_player": 2, "stalled_rounds": 0, "tokens_left": 0}},
    ]  # fmt: skip
    text = stored_label(["Ana", "Bo", "Cy"], events)
    assert log_entry({"step": 9, "player": 1, "label": text, "milestones": []}) == [
        9,
        1,
        "Ana ends the turn keeping 2 bonus action tokens; Bo passes",
        [],
        None,
    ]


def test_the_step_log_lists_a_steps_milestones_under_its_line() -> None:
    """A region scored is a milestone of its step: its text leaves the step's line for a
    line of its own; the game's end comes last."""
    _, rows = _game("3p-00-heuristic.json")
    scoring = next(row for row in rows if row["scoring"])
    _, _, line, marked, end = log_entry(scoring)
    assert marked == [m["text"] for m in scoring["milestones"] if m["kind"] == "region_scored"]
    assert marked and all(text not in line for text in marked) and end is None
    assert line and line in scoring["label"]
    assert log_entry(rows[-1])[4] == rows[-1]["milestones"][-1]["text"] == "the game ends"
