"""The replay's data and figures, without a browser."""

from __future__ import annotations

from typing import Any

from dashboard import board, charts
from dashboard.pages.replay import log_entry
from domain.wolves.describe import stored_label
from domain.wolves.records import read_record
from domain.wolves.replay import Replay, replay
from projections.timeline import timeline
from tests.dashboard.conftest import FIXTURES


def _game(name: str) -> tuple[Replay, list[dict[str, Any]]]:
    played = replay(read_record((FIXTURES / name).read_bytes()))
    return played, timeline(played.initial, played.steps)


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
    figure = board.figure(played.initial)
    assert len(board.hexes(gmap)) == len(gmap.terrain) == 176
    hover = next(t for t in figure["data"] if t.get("name") == "hexes")
    assert len(hover["x"]) == len(gmap.terrain)
    names = {t.get("name") for t in figure["data"]}
    assert {"forest", "mountain", "grassland", "tundra", "desert", "water", "chasm"} <= names


def test_charts_follow_the_timeline() -> None:
    played, rows = _game("5p-00-heuristic.json")
    names = [p.name for p in played.initial.table.players]
    colors = board.seat_colors(played.initial)
    vp = charts.vp_figure(rows, names, colors)
    assert [t["y"][-1] for t in vp["data"]] == [v["total"] for v in rows[-1]["vp"]]
    phases = [phase for _, phase in charts.scoring_steps(rows)]
    assert phases == ["crescent", "quarter", "full"]
    control = charts.control_figure(rows, names, colors)
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
    assert log_entry({"step": 9, "player": 1, "label": text}) == [
        9, 1, "Ana ends the turn keeping 2 bonus action tokens; Bo passes", [], None
    ]
