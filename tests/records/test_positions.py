"""The ``howl.position`` format: exact round trips, records that start from one, checks."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.wolves import BonusAction, Pass, legal_actions
from domain.wolves.positions import from_position, read_position, to_position
from domain.wolves.records import InvalidRecord, canonical_json, read_record, write_record
from domain.wolves.replay import replay
from domain.wolves.scoring import final_scores
from domain.wolves.state import MoonlightPiece
from tests.games import Game, random_game

Doc = dict[str, Any]
EXTRAS = ("moonlight_pieces", "phases_scored")
TURN_EXTRAS = ("draft_picks", "round_start_date")


@settings(max_examples=25, deadline=None)
@given(n=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 2), step=st.integers(0, 400))
def test_position_round_trip_at_any_step(n: int, seed: int, step: int) -> None:
    game = random_game(n, seed)
    state = game.states[step % len(game.states)]
    doc = to_position(state)
    assert from_position(doc) == state
    assert read_position(canonical_json(doc)) == state
    assert to_position(from_position(doc)) == doc


def _from_step(game: Game, step: int, strip: bool = False) -> Any:
    """The game's record restarted from the position at ``step``."""
    doc = to_position(game.states[step])
    if strip:  # what a position written by another tool may leave out
        for key in EXTRAS:
            doc.pop(key)
        for key in TURN_EXTRAS:
            doc["turn"].pop(key)
    record = dataclasses.replace(
        game.record, setup=None, start=from_position(doc), actions=game.record.actions[step:]
    )
    return record


@settings(max_examples=15, deadline=None)
@given(
    n=st.sampled_from([2, 3, 4, 5]),
    seed=st.integers(0, 2),
    step=st.integers(0, 400),
    strip=st.booleans(),
)
def test_record_from_an_exported_position_ends_the_same(
    n: int, seed: int, step: int, strip: bool
) -> None:
    game = random_game(n, seed)
    step %= len(game.record.actions) + 1
    record = _from_step(game, step, strip)
    data = write_record(record)
    again = read_record(data)
    assert again == record and write_record(again) == data
    result = replay(again)
    assert final_scores(result.state) == final_scores(game.final)
    assert result.state.finished == game.final.finished
    if not strip:
        assert result.state == game.final


def test_start_record_json(game3: Game) -> None:
    doc = json.loads(write_record(_from_step(game3, 50)))
    assert "setup" not in doc and doc["start"]["format"] == "howl.position"
    assert doc["players"] == doc["start"]["players"]
    assert len(doc["actions"]) == len(game3.record.actions) - 50
    doc["players"][0]["name"] = "Someone else"
    with pytest.raises(InvalidRecord) as caught:
        read_record(doc)
    assert caught.value.path == "players"
    doc["start"]["pieces"][0]["hex"] = [77, 77]
    with pytest.raises(InvalidRecord) as caught:
        read_record(doc)
    assert caught.value.path == "start.pieces[0].hex"


def test_position_document_shape(game3: Game) -> None:
    doc = to_position(game3.states[40])
    assert (doc["format"], doc["version"], doc["game"]) == ("howl.position", 1, "the-wolves")
    assert set(doc) >= {"players", "setup", "pieces", "boards", "scoring", "moonlight", "turn"}
    assert set(doc["turn"]) >= {"player", "actions_left", "stalled_rounds"}
    kinds = {p["kind"] for p in doc["pieces"]}
    assert {"alpha", "pack", "lone_wolf", "prey"} <= kinds
    board = doc["boards"][0]
    assert set(board["dens"]) == {"spread", "speed", "howl"} and len(board["flipped"]) == 6
    assert all(isinstance(k, str) for k in doc["scoring"])


def test_derived_fields_of_a_bare_position(game3: Game) -> None:
    state = next(s for s in game3.states if s.phases_scored == 1 and s.actions_left == 2)
    doc = to_position(state)
    for key in EXTRAS:
        doc.pop(key)
    for key in TURN_EXTRAS:
        doc["turn"].pop(key)
    bare = from_position(doc)
    assert bare.phases_scored == 1
    assert bare.draft_picks == state.draft_picks
    assert bare.moonlight == (MoonlightPiece("unknown"),) * state.date
    assert bare.pieces == state.pieces and bare.boards == state.boards


# --- ill-formed positions ------------------------------------------------------------------------


def _piece(doc: Doc, kind: str, player: int | None = 0) -> int:
    return next(
        i for i, p in enumerate(doc["pieces"]) if p["kind"] == kind and p.get("player") == player
    )


def _water(doc: Doc) -> list[int]:
    return doc["setup"]["tiles"][1]["center"]


def _alpha_hex(doc: Doc, seat: int) -> list[int]:
    return doc["pieces"][_piece(doc, "alpha", seat)]["hex"]


def _lone(doc: Doc) -> list[int]:
    return doc["pieces"][_piece(doc, "lone_wolf", None)]["hex"]


def _put(kind: str, player: Any = 0, times: int = 1, **more: Any) -> Callable[[Doc, Any], None]:
    """Add ``times`` pieces on an empty land hex, after giving seat 2 dens to place."""

    def change(doc: Doc, empty: list[int]) -> None:
        doc["boards"][2]["dens"].update(spread=4, speed=4)
        piece = {"hex": empty, "kind": kind, **more}
        if player != "-":
            piece["player"] = player
        doc["pieces"].extend([piece] * times)

    return change


CASES: list[tuple[str, Callable[[Doc, Any], Any], str]] = [
    ("format", lambda d, e: d.update(format="howl.game"), "format"),
    (
        "piece on water",
        lambda d, e: d["pieces"].append({"hex": _water(d), "kind": "den", "player": 0}),
        "pieces[{n}].hex",
    ),
    ("piece off the map", lambda d, e: d["pieces"][0].update(hex=[50, -3]), "pieces[0].hex"),
    (
        "enemy alphas",
        lambda d, e: d["pieces"].append({"hex": _alpha_hex(d, 0), "kind": "alpha", "player": 1}),
        "pieces[{n}]",
    ),
    (
        "on a lone wolf",
        lambda d, e: d["pieces"].append({"hex": _lone(d), "kind": "pack", "player": 0}),
        "pieces[{n}]",
    ),
    (
        "two lone wolves",
        lambda d, e: d["pieces"].append({"hex": _lone(d), "kind": "lone_wolf"}),
        "pieces[{n}]",
    ),
    (
        "three pieces",
        lambda d, e: (
            _put("den", 2)(d, e)
            or _put("den", 2, 2)(d, [e[0], e[1]])
            or d["pieces"].__setitem__(-2, {**d["pieces"][-2], "player": 1})
        ),
        "pieces[{n1}]",
    ),
    ("two dens", _put("den", 2, 2), "pieces[{n1}]"),
    ("automaton in 3p", _put("lair", None), "pieces[{n}].player"),
    ("no owner", _put("lair", "-"), "pieces[{n}].player"),
    ("seat 3", _put("lair", 3), "pieces[{n}].player"),
    ("lair not on the board", _put("lair", 0), "pieces[{n}]"),
    ("prey without count", _put("prey", "-", prey="deer"), "pieces[{n}].count"),
    ("boards", lambda d, e: d["boards"].pop(), "boards"),
    ("flipped", lambda d, e: d["boards"][0].update(flipped=[True]), "boards[0].flipped"),
    ("dens", lambda d, e: d["boards"][2]["dens"].update(howl=5), "boards[2].dens.howl"),
    ("prey twice", lambda d, e: d["boards"][1].update(prey=["deer", "deer"]), "boards[1].prey[1]"),
    ("region", lambda d, e: d["scoring"].update({"99": ["full"]}), "scoring.99"),
    ("scoring token", lambda d, e: d["scoring"].update({"1": ["half"]}), "scoring.1[0]"),
    (
        "moonlight pieces",
        lambda d, e: d["moonlight_pieces"].append({"kind": "lone_wolf"}),
        "moonlight_pieces",
    ),
    ("turn seat", lambda d, e: d["turn"].update(player=3), "turn.player"),
    (
        "no action or token left",
        lambda d, e: (
            d["turn"].update(actions_left=0)
            or d["boards"][d["turn"]["player"]].update(bonus_action=0)
        ),
        "turn.actions_left",
    ),
    ("players", lambda d, e: d.update(players=d["players"][:1]), "players"),
]


@pytest.mark.parametrize(("change", "path"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_ill_formed_position_names_the_path(
    game3: Game, change: Callable[[Doc, Any], Any], path: str
) -> None:
    state = next(s for s in game3.states[10:] if s.actions_left == 2 and s.lone_wolves)
    doc = copy.deepcopy(to_position(state))
    gmap = state.table.map
    empty = next(h for h in sorted(gmap.land_neighbours) if not state.at(h)
                 and not state.has_token(h) and h in gmap.region_of)  # fmt: skip
    n = len(doc["pieces"])
    change(doc, list(empty))
    with pytest.raises(InvalidRecord) as caught:
        from_position(doc)
    assert caught.value.path == path.format(n=n, n1=n + 1, n2=n + 2), caught.value.message


def test_ill_formed_draft_positions(game3: Game) -> None:
    state = game3.states[2]
    assert state.drafting and state.player == 2
    doc = to_position(state)
    doc["turn"]["player"] = 0
    with pytest.raises(InvalidRecord) as caught:
        from_position(doc)
    assert caught.value.path == "turn.player"
    doc = to_position(state)
    free = set(state.table.map.region_of) - set(state.pieces) - set(state.lone_wolves)
    doc["pieces"][0]["hex"] = list(min(free - set(state.prey)))
    with pytest.raises(InvalidRecord) as caught:
        from_position(doc)
    assert caught.value.path == "pieces[0].hex"


def test_w6_position_with_no_action_but_a_token_left(game3: Game) -> None:
    """records.md "Actions": a player with no action left who holds a bonus action token may
    still spend it or pass (W-6), so such a position is well formed."""
    state = next(s for s in game3.states[10:] if s.actions_left == 2)
    doc = copy.deepcopy(to_position(state))
    doc["turn"]["actions_left"] = 0
    doc["boards"][state.player]["bonus_action"] = 1
    read = from_position(doc)
    assert read.out_of_actions
    assert list(legal_actions(read)) == [BonusAction(state.player), Pass(state.player)]


def test_w5_faction_tile_is_read_unflipped(game3: Game) -> None:
    """W-5: the faction tile (slot 0) shows the home terrain on both sides; positions show it
    unflipped, and one written as flipped reads the same."""
    state = game3.final
    assert not any(b.flipped[0] for s in game3.states for b in s.boards)
    doc = copy.deepcopy(to_position(state))
    doc["boards"][0]["flipped"][0] = True
    assert from_position(doc).boards[0] == state.boards[0]
