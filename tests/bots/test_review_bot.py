"""The review bot and the bot seats of records: the bot plays legal actions (the rules
accept each one, W-4 to W-11) and the same one for the same seed and position, at every
depth; records of both games keep ``players[i].bot`` (and ``bot_depth``) through reading,
writing and positions, and refuse an unknown bot or depth naming the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from api.cli import main
from api.commands.simulate import strongest
from domain.games import read_record, ruleset
from domain.ruleset import InvalidRecord
from domain.wolves.analysis.evaluation import Evaluation
from domain.wolves.analysis.reviewbot import STRENGTHS, ReviewBot, value
from domain.wolves.players import make_bot
from domain.wolves.records import BOTS, SEARCHING_BOTS
from domain.wolves.rules import play
from domain.wolves.state import State

FIXTURES = Path(__file__).parents[1] / "fixtures"
WOLVES = ruleset("the-wolves")
MOONLIGHT = ruleset("moonlight")


def positions(name: str, every: int) -> list[State]:
    """Every ``every``-th position of a fixture game (its draft and its turns)."""
    record = read_record(json.loads((FIXTURES / "the-wolves" / f"{name}.json").read_text()))[1]
    states = [WOLVES.start(record)]
    for action in record.actions:
        states.append(WOLVES.play(states[-1], action)[0])
    return [s for s in states[:-1:every] if not s.finished]


@pytest.mark.parametrize("name", ["2p-03-heuristic", "4p-00-heuristic"])
def test_the_review_bot_plays_legal_actions_the_same_for_the_same_seed(name: str) -> None:
    for i, state in enumerate(positions(name, 25)):
        action = ReviewBot(i).choose(state)
        assert action.player == state.player
        after, events = play(state, action)  # the rules would refuse an illegal one
        assert events
        assert ReviewBot(i).choose(state) == action


def test_a_deeper_review_bot_searches_more_and_still_plays_legally() -> None:
    assert [STRENGTHS[d].candidates for d in range(1, 5)] == sorted(
        STRENGTHS[d].candidates for d in range(1, 5)
    )
    assert STRENGTHS[1].playouts < STRENGTHS[4].playouts
    state = positions("2p-03-heuristic", 10)[3]
    for depth in (2, 3):
        play(state, make_bot("review", 5, depth).choose(state))
    with pytest.raises(ValueError, match="depth"):
        make_bot("review", 5, 5)
    with pytest.raises(ValueError, match="does not search"):
        make_bot("heuristic", 5, 2)


def test_each_ruleset_lists_the_bots_its_records_name() -> None:
    assert list(WOLVES.bots) == list(BOTS) == ["random", "heuristic", "review"]
    assert SEARCHING_BOTS == ("review",)
    assert list(MOONLIGHT.bots) == ["random", "greedy"]
    assert isinstance(WOLVES.bots["review"](3, depth=2), ReviewBot)


def _record(game: str) -> dict[str, Any]:
    rules = ruleset(game)
    doc: dict[str, Any] = orjson.loads(rules.write_record(rules.self_play(2, ["random"] * 2, 4)))
    return doc


@pytest.mark.parametrize(
    ("game", "bot"),
    [("the-wolves", {"bot": "review", "bot_depth": 3}), ("the-wolves", {"bot": "heuristic"}),
     ("moonlight", {"bot": "greedy"})],
)  # fmt: skip
def test_a_records_bot_seat_is_kept_by_reading_writing_and_positions(
    game: str, bot: dict[str, Any]
) -> None:
    rules = ruleset(game)
    doc = _record(game)
    doc["players"][1].update(bot)
    record = rules.read_record(doc)
    written = orjson.loads(rules.write_record(record))
    assert written["players"][1] == doc["players"][1]
    assert "bot" not in written["players"][0]
    seats = rules.players(rules.start(record))
    assert (seats[1].bot, seats[1].bot_depth) == (bot["bot"], bot.get("bot_depth"))
    assert seats[0].bot is None
    position = rules.write_position(rules.start(record))
    assert position["players"][1] == doc["players"][1]
    assert rules.players(rules.read_position(position)) == seats


def test_a_review_bot_without_depth_searches_at_depth_one() -> None:
    doc = _record("the-wolves")
    doc["players"][0]["bot"] = "review"
    record = WOLVES.read_record(doc)
    assert record.players[0].bot_depth == 1


@pytest.mark.parametrize(
    ("game", "fields", "path", "words"),
    [
        ("the-wolves", {"bot": "stockfish"}, "players[1].bot", "random, heuristic, review"),
        ("the-wolves", {"bot": 3}, "players[1].bot", "got 3"),
        ("the-wolves", {"bot": "review", "bot_depth": 5}, "players[1].bot_depth", "1 to 4"),
        ("the-wolves", {"bot": "review", "bot_depth": True}, "players[1].bot_depth", "1 to 4"),
        ("the-wolves", {"bot": "heuristic", "bot_depth": 2}, "players[1].bot_depth", "search"),
        ("the-wolves", {"bot_depth": 2}, "players[1].bot_depth", "only a bot"),
        ("moonlight", {"bot": "review"}, "players[1].bot", "random, greedy"),
    ],
)
def test_a_bad_bot_seat_is_refused_naming_its_field(
    game: str, fields: dict[str, Any], path: str, words: str
) -> None:
    doc = _record(game)
    doc["players"][1].update(fields)
    with pytest.raises(InvalidRecord) as refused:
        ruleset(game).read_record(doc)
    assert refused.value.path == path
    assert words in refused.value.message


def test_howl_simulate_names_the_review_bot_and_keeps_the_heuristic_as_its_default(
    tmp_path: Path,
) -> None:
    assert strongest(WOLVES) == "heuristic" and strongest(MOONLIGHT) == "greedy"
    refused = CliRunner().invoke(main, ["simulate", "--player", "nope", "--out", str(tmp_path)])
    assert refused.exit_code == 2 and "random, heuristic, review" in refused.output


def test_the_review_bot_values_its_win_chance_and_a_little_its_vp_margin() -> None:
    lost, behind, closer = (0.0, 1.0), (10.0, 40.0), (25.0, 40.0)

    assert value(Evaluation(lost, closer), 0) > value(Evaluation(lost, behind), 0)
    assert value(Evaluation((0.55, 0.45), behind), 0) > value(Evaluation((0.5, 0.5), closer), 0)
    assert value(Evaluation((0.5, 0.5), (30.0, 30.0)), 1) == 0.5  # no margin: the chance alone
    # a blend: 0.002 a point, so 15 points of margin outweigh 0.02 of win probability
    assert value(Evaluation((0.48, 0.52), closer), 0) > value(Evaluation((0.5, 0.5), behind), 0)
