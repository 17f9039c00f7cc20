"""The replay page's frame for a game with no board view and no review: a tiny countdown
game (seats take turns counting down; whoever says zero wins) built here, without a
browser."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from dash import html

from dashboard import boards, charts
from dashboard.game import Game, payload
from dashboard.pages.replay import NO_REVIEW, analysis_panel, log_entry, slider_marks
from domain.ruleset import Milestone, Seat, SeatScore, StepFacts
from projections.timeline import timeline


class Countdown:
    """Just what a timeline needs of a ruleset: seats, a follower."""

    name = "countdown"
    review = None

    def players(self, state: Any) -> tuple[Seat, ...]:
        return (Seat("Ana", "blue"), Seat("Bo", "#123456"))

    def follow(self, names: Sequence[str], start: int) -> Follower:
        return Follower(names, start)

    def chart_item(self, key: str, item: Any) -> Any:
        return item


class Follower:
    """Each event is a number said; saying 0 wins."""

    def __init__(self, names: Sequence[str], start: int) -> None:
        self.names, self.state, self.said = names, start, 0

    def facts(self, seat: int | None, marks: tuple[Milestone, ...] = ()) -> StepFacts:
        scores = tuple(
            SeatScore(s, int(bool(marks) and s == seat), 1, {"said": self.said if s == seat else 0})
            for s in range(2)
        )
        turn = None if marks else (0 if seat is None else 1 - seat)
        label = f"{self.names[seat]} says {self.state}" if seat is not None else "start"
        if marks:
            label += "; " + marks[0].text
        return StepFacts(seat, None if seat is None else "say", label, turn, bool(marks), scores,
                         marks, {"left": self.state})  # fmt: skip

    def first(self) -> StepFacts:
        return self.facts(None)

    def step(self, events: Sequence[int]) -> StepFacts:
        seat = self.said % 2
        self.said += 1
        self.state = events[0]
        won = (
            (Milestone("game_ended", f"{self.names[seat]} wins", (seat,)),) if not events[0] else ()
        )
        return self.facts(seat, won)


def countdown_game() -> Game:
    rules = Countdown()
    rows = timeline(rules, 3, [[2], [1], [0]])  # type: ignore[arg-type]
    return Game(None, uuid.uuid4(), rules, 3, rows, ["Ana", "Bo"], ["#0072B2", "#123456"])  # type: ignore[arg-type]


def test_a_game_without_a_board_view_gets_the_frame_alone() -> None:
    game = countdown_game()
    view = boards.view(game.rules.name)
    assert view is boards.PLAIN
    assert (view.data(game), view.board(game), view.panels(game), view.charts(game)) == (
        {}, None, [], []
    )  # fmt: skip
    rows = game.rows
    assert [row["left"] for row in rows] == [3, 2, 1, 0]
    marks = view.marked(game)
    assert marks == [(3, "Ana wins")]
    assert slider_marks(marks, game.last) == {0: "start", 3: "Ana wins"}
    log = [log_entry(row) for row in rows]
    assert log[-1] == [3, 0, "Ana says 0", [], "Ana wins"]
    score = charts.score_figure(rows, game.names, game.colors, view.score, marks)
    assert score["layout"]["title"]["text"] == "Score"
    assert [t["y"] for t in score["data"]] == [[0, 0, 0, 1], [0, 0, 0, 0]]
    assert "said %{customdata[0]}" in score["data"][0]["hovertemplate"]
    shown = payload(game, view, log, ["replay-margin", view.score.id])
    assert shown["board"] == {} and shown["view"] == "" and shown["game"] == "countdown"
    assert shown["players"] == [{"name": "Ana", "color": "#0072B2"},
                                {"name": "Bo", "color": "#123456"}]  # fmt: skip


def test_a_game_the_review_does_not_know_says_so() -> None:
    game = countdown_game()
    panel, win = analysis_panel(None, game.game_id, game)  # type: ignore[arg-type]
    assert win is None
    assert any(isinstance(part, html.P) and part.children == NO_REVIEW for part in panel)
