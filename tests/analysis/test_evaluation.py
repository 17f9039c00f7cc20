"""The static evaluator: calibrated on the fixture games, which it was not fitted on."""

from __future__ import annotations

import json
from importlib import resources

from domain.wolves.analysis import calibration
from domain.wolves.analysis.evaluation import StaticEvaluator, outcome
from domain.wolves.analysis.features import FEATURES, STILL_ROUNDS, features
from domain.wolves.records import Record
from domain.wolves.replay import initial
from domain.wolves.rules import play
from domain.wolves.scoring import final_scores


def samples(records: dict[str, Record]) -> list[calibration.Sample]:
    """Every position after the draft of every game, with the game's actual winners."""
    evaluator = StaticEvaluator.load()
    out = []
    for record in records.values():
        state = initial(record)
        positions = []
        for action in record.actions:
            state, _ = play(state, action)
            if not state.drafting and not state.finished:
                positions.append(state)
        won = outcome(state)
        for s in positions:
            vp = tuple(float(f.total) for f in final_scores(s))
            out.append(calibration.Sample(evaluator.evaluate(s).win, vp, won))
    return out


def test_beats_the_leader_and_uniform_baselines_on_the_fixture_corpus(corpus):
    report = calibration.report(samples(corpus))
    assert report["positions"]["count"] > 3000
    for metric in ("brier", "log_loss"):
        scores = report[metric]
        assert scores["static"] < scores["leader"] < scores["uniform"] + 1e-9, (metric, scores)
        assert scores["static"] < 0.95 * scores["uniform"], (metric, scores)


def test_a_finished_game_evaluates_to_its_result(corpus):
    record = corpus["3p-00-heuristic"]
    state = initial(record)
    for action in record.actions:
        state, _ = play(state, action)
    ev = StaticEvaluator.load().evaluate(state)
    assert ev.win == outcome(state)
    assert ev.vp == tuple(float(s.total) for s in final_scores(state))


def test_probabilities_sum_to_one_and_expected_vp_is_at_least_the_vp_so_far(corpus):
    record = corpus["5p-00-heuristic"]
    state = initial(record)
    evaluator = StaticEvaluator.load()
    for i, action in enumerate(record.actions[:-1]):
        state, _ = play(state, action)
        if i % 9 == 0:
            ev = evaluator.evaluate(state)
            assert abs(sum(ev.win) - 1) < 1e-9
            assert all(0 < w < 1 for w in ev.win)
            now = [row[0] for row in features(state)]
            assert all(e >= v for e, v in zip(ev.vp, now, strict=True))


def test_a_still_moonlight_never_helps_the_seat_in_last_place(corpus):
    """Freezing the board is never scored as good for the seat furthest behind: the longer
    the Moonlight stands still (W-12), the lower (or the same) its win chance."""
    evaluator = StaticEvaluator.load()
    checked = 0
    for name in ("2p-00-heuristic", "3p-00-heuristic", "4p-00-heuristic", "5p-00-heuristic"):
        record = corpus[name]
        state = initial(record)
        for i, action in enumerate(record.actions[:-1]):
            state, _ = play(state, action)
            if state.drafting or i % 5:
                continue
            last = min(final_scores(state), key=lambda s: (s.total, -s.place)).seat
            chances = []
            for rounds in range(STILL_ROUNDS + 2):
                frozen = state.copy()
                frozen.stalled_rounds = rounds
                chances.append(evaluator.evaluate(frozen).win[last])
            assert chances == sorted(chances, reverse=True), (name, i, chances)
            checked += 1
    assert checked > 50


def test_the_weights_file_says_how_it_was_made():
    model = json.loads(
        resources.files("domain.wolves.analysis").joinpath("weights.json").read_text()
    )
    assert model["features"] == list(FEATURES)
    provenance = model["provenance"]
    assert provenance["script"] == "scripts/fit-evaluator"
    assert {"seed", "games", "rules_version"} <= provenance.keys()
    held_out = model["metrics"]
    for metric in ("brier", "log_loss"):
        assert held_out[metric]["static"] < held_out[metric]["leader"]
        assert held_out[metric]["static"] < held_out[metric]["uniform"]
