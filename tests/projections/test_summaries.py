"""Summaries and statistics of any game: a game of dice made up for these tests declares its
own columns, and the read models keep, filter and chart them with no change of their own."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.games import register, unregister
from domain.ruleset import Seat, SeatScore
from domain.statistics import Column, Mix, Option, RatesBy, RatesWhen, Spread, Statistics, Summary
from projections import summaries, tables
from projections.readmodels import ReadModels
from tests.projections.conftest import Store, upload
from tests.projections.synthetic import Played
from tests.projections.synthetic import Seat as WolvesSeat
from tests.projections.synthetic import insert as insert_wolves


@dataclasses.dataclass
class Throws:
    """A game of dice: who throws with which hand, the die's sides, the faces thrown."""

    seats: tuple[Seat, ...]
    hands: tuple[str, ...]
    sides: int = 6
    throws: tuple[tuple[int, int], ...] = ()  # (seat, face)


def summarize(
    start: Throws, steps: Sequence[Sequence[Any]], end: Throws, scores: Sequence[SeatScore]
) -> Summary:
    faces = [[face for seat, face in end.throws if seat == s] for s in range(len(end.seats))]
    return Summary(
        starter=0,
        end_reason="thrown",
        game={"sides": start.sides, "rounds": len(steps) // len(start.seats)},
        seats=[
            {"hand": hand, "sixes": mine.count(6), "ones": mine.count(1)}
            for hand, mine in zip(start.hands, faces, strict=True)
        ],
    )


DICE_STATISTICS = Statistics(
    summarize=summarize,
    game_columns=(Column("sides", "sides of the die"), Column("rounds", "rounds thrown")),
    seat_columns=(
        Column("hand", "throwing hand", "text", values=("right", "left")),
        Column("sixes", "sixes thrown"),
        Column("ones", "ones thrown"),
    ),
    options=(Option("sides", "sides", 6, 4, 20),),
    figures=(
        RatesBy("by_hand", "hand", "Win rate by hand"),
        Mix("faces", "Faces thrown", "face", (("six", "sixes"), ("one", "ones"))),
        RatesWhen("sixers", "Win rate of seats throwing a six", "face", (("six", "sixes"),)),
        Spread("rounds", "rounds", "Rounds"),
    ),
    attribute="hand",
    score_name="pips",
)


class Dice:
    """As much of a ruleset as summaries and statistics use."""

    name = "dice"
    title = "Dice"
    seats = range(2, 4)
    statistics = DICE_STATISTICS

    def players(self, state: Throws) -> tuple[Seat, ...]:
        return state.seats

    def finished(self, state: Throws) -> bool:
        return True

    def scores(self, state: Throws) -> tuple[SeatScore, ...]:
        totals = [sum(f for s, f in state.throws if s == seat) for seat in range(len(state.seats))]
        return tuple(
            SeatScore(seat, total, 1 + sum(t > total for t in totals))
            for seat, total in enumerate(totals)
        )


DICE = Dice()


@pytest.fixture
def dice() -> Iterator[Dice]:
    """The game of dice, registered while a test runs."""
    register(DICE)  # type: ignore[arg-type]
    yield DICE
    unregister(DICE.name)


def played(
    names: Sequence[str], hands: Sequence[str], faces: Sequence[int], sides: int = 6
) -> tuple[Throws, list[list[tuple[int, int]]], Throws]:
    """A game thrown in turn (``faces`` in seat order), as start, steps and end."""
    seats = tuple(Seat(n, "blue") for n in names)
    start = Throws(seats, tuple(hands), sides)
    steps = [[(i % len(names), face)] for i, face in enumerate(faces)]
    return start, steps, dataclasses.replace(start, throws=tuple(t for s in steps for t in s))


def store_dice(models: ReadModels, games: Sequence[Any], when: datetime) -> list[str]:
    """Write the games' rows as the runner writes them; their ids."""
    models.position()  # tables made
    made = []
    for i, (start, steps, end) in enumerate(games):
        at = tables.timestamp(when + timedelta(hours=i))
        identity = {
            "game_id": str(uuid.uuid4()), "version": 1, "title": f"dice {i}", "tags": "[]",
            "visibility": "public", "uploaded_at": at, "played_at": at, "uploaded_by": None,
            "rules_version": "dice-1",
        }  # fmt: skip
        made.append(summaries.rows(DICE, start, steps, end, identity))  # type: ignore[arg-type]
    db = models.db
    with db.connect() as conn:
        db.insert(conn, tables.GAMES, summaries.GAME_COLUMNS, [g for g, _, _ in made])
        db.insert(conn, tables.SEATS, summaries.SEAT_COLUMNS, [s for _, ss, _ in made for s in ss])
        tables.insert_extras(db, conn, tables.LIVE, [own for _, _, own in made])
    return [game[0] for game, _, _ in made]


# Ana (right) beats Bo (left) twice, 11-3 and 15-9; Bo (left) beats Cy (right) 9-2 on an
# 8-sided die
DICE_GAMES = [
    played(["Ana", "Bo"], ["right", "left"], [6, 1, 5, 2]),
    played(["Ana", "Bo"], ["right", "left"], [6, 6, 6, 1, 3, 2]),
    played(["Bo", "Cy"], ["left", "right"], [8, 1, 1, 1], sides=8),
]
WHEN = datetime(2026, 6, 1, tzinfo=UTC)


def test_summaries_come_from_the_rulesets_outputs(dice: Dice) -> None:
    start, steps, end = DICE_GAMES[1]
    game, seats, own = summaries.summarize(dice, start, steps, end)  # type: ignore[arg-type]
    assert game == {
        "game": "dice", "players": 2, "turns": 6, "actions": 6, "events": 6, "finished": 1,
        "end_reason": "thrown", "top_score": 15, "winners": ["Ana"],
        "extras": "[6,3]",
    }  # fmt: skip
    assert [
        (s["name"], s["total"], s["place"], s["won"], s["started"], s["attribute"]) for s in seats
    ] == [("Ana", 15, 1, 1, 1, "right"), ("Bo", 9, 2, 0, 0, "left")]  # fmt: skip
    assert own == [
        {"sides": 6, "rounds": 3, "hand": "right", "sixes": 2, "ones": 0},
        {"sides": 6, "rounds": 3, "hand": "left", "sixes": 1, "ones": 1},
    ]


def test_extras_that_are_not_declared_are_refused(dice: Dice) -> None:
    start, steps, end = DICE_GAMES[0]
    wrong = dataclasses.replace(
        DICE_STATISTICS, summarize=lambda *_: Summary(game={"sides": 6}, seats=[{}, {}])
    )
    with pytest.raises(ValueError, match="not declared"):
        summaries.summarize(_with(wrong), start, steps, end)  # type: ignore[arg-type]


def test_a_game_cannot_name_a_column_as_the_generic_ones() -> None:
    clash = Statistics(seat_columns=(Column("total", "a second total"),))
    with pytest.raises(ValueError, match="cannot be named total"):
        summaries.own_columns(clash)


def _with(stats: Statistics) -> Dice:
    other = Dice()
    other.statistics = stats
    return other


@pytest.fixture
def both(store: Store, dice: Dice) -> Iterator[tuple[ReadModels, list[str]]]:
    """Read models holding two games of The Wolves and the three games of dice."""
    with store.models() as models:
        insert_wolves(models, [
            Played([WolvesSeat("Ana", "desert", 60, 1), WolvesSeat("Bo", "forest", 50, 2)], WHEN),
            Played([WolvesSeat("Ana", "tundra", 40, 2), WolvesSeat("Bo", "forest", 45, 1)], WHEN),
        ])  # fmt: skip
        yield models, store_dice(models, DICE_GAMES, WHEN)


def test_a_games_own_figures(both: tuple[ReadModels, list[str]]) -> None:
    models, _ = both
    stats = models.stats(game="dice")
    assert (stats["game"], stats["games"], stats["seats"]) == ("dice", 3, 6)
    hands = {r["hand"]: (r["n"], r["wins"]) for r in stats["win_rate"]["by_hand"]}
    assert hands == {"left": (3, 1), "right": (3, 2)}
    assert stats["faces"] == [
        {"face": "six", "count": 4, "share": 4 / 9}, {"face": "one", "count": 5, "share": 5 / 9}
    ]  # fmt: skip
    [sixers] = stats["sixers"]  # Ana twice (won both), Bo once (lost)
    assert (sixers["face"], sixers["n"], sixers["wins"]) == ("six", 3, 2)
    assert stats["length"]["rounds"]["min"] == 2 and stats["length"]["rounds"]["max"] == 3
    assert stats["length"]["turns"]["mean"] == 14 / 3
    ana = next(p for p in stats["players"] if p["name"] == "Ana")
    assert (ana["games"], ana["hand"], ana["average_pips"]) == (2, "right", 13.0)
    assert [f["kind"] for f in stats["figures"]] == ["rates_by", "mix", "rates_when", "spread"]
    assert models.stats(game="the-wolves")["games"] == 2
    every = models.stats()
    assert (every["games"], every["by_game"]) == (
        5, [{"game": "dice", "games": 3}, {"game": "the-wolves", "games": 2}]
    )  # fmt: skip
    assert models.played() == {"dice": 3, "the-wolves": 2}


def test_options_and_attributes_pick_their_game(both: tuple[ReadModels, list[str]]) -> None:
    models, ids = both
    assert models.stats(option="sides=8")["game"] == "dice"
    assert models.stats(option="sides=8")["games"] == 1
    assert models.stats(option="standard", game="dice")["games"] == 2
    assert models.stats(option="big_map")["game"] == "the-wolves"
    with pytest.raises(ValueError, match="sides must be 4 … 20"):
        models.stats(option="sides=3")
    with pytest.raises(ValueError, match="unknown option 'big_map'"):
        models.stats(game="dice", option="big_map")
    lefts = models.list_games(hand="left", sort="title")
    assert [g["game_id"] for g in lefts.items] == ids
    assert models.list_games(terrain="tundra").total == 1
    assert models.list_games(game="dice", players=2).total == 3
    assert models.list_games(game="dice", sort="-top_pips", limit=1).items[0]["top_pips"] == 15
    with pytest.raises(ValueError, match="no game has all of sides, terrain"):
        models.list_games(option="sides=6", terrain="tundra")
    with pytest.raises(ValueError, match="dice has no seat attribute terrain"):
        models.list_games(game="dice", terrain="tundra")


def test_a_games_summary_and_players(both: tuple[ReadModels, list[str]]) -> None:
    models, ids = both
    summary = models.summary(uuid.UUID(ids[2]))
    assert summary is not None
    assert (summary["game"], summary["options"], summary["rounds"]) == ("dice", {"sides": 8}, 2)
    assert (summary["top_score"], summary["top_pips"], summary["winners"]) == (9, 9, ["Bo"])
    assert summary["seats"][1] == {
        "seat": 1, "name": "Cy", "color": "blue", "total": 2, "place": 2, "winner": False,
        "started": False, "bot": False, "hand": "right", "sixes": 0, "ones": 2,
    }  # fmt: skip
    listed = models.list_games(game="dice", sort="title").items[0]
    assert [s["hand"] for s in listed["seats"]] == ["right", "left"]
    bo = models.player("bo", "dice")
    assert bo is not None and (bo["games"], bo["wins"], bo["hand"]) == (3, 1, "left")
    assert bo["hands"] == [{"hand": "left", "games": 3, "wins": 1}]
    assert [t["pips"] for t in bo["trend"]] == [3, 9, 9]
    every = models.player("bo")
    assert every is not None
    wolves = [t["score"] for t in every["trend"] if t["game"] == "the-wolves"]
    assert every["by_game"] == [
        {"game": "dice", "games": 3, "wins": 1, "average_score": 7.0},
        {"game": "the-wolves", "games": 2, "wins": 1, "average_score": sum(wolves) / 2},
    ]
    rolled = [t["rolling_score"] for t in every["trend"] if t["game"] == "dice"]
    assert rolled == [3, 6, 7]  # pips over the dice games alone, never mixed with VP


def test_a_game_added_or_changed_rebuilds_the_tables(store: Store, dice: Dice) -> None:
    changed = dataclasses.replace(
        DICE_STATISTICS, seat_columns=(*DICE_STATISTICS.seat_columns, Column("twos", "twos"))
    )
    with store.library() as library:
        upload(library, ["2p-00-heuristic"])
        with store.models() as models:
            models.catch_up(library)
            store_dice(models, DICE_GAMES[:1], WHEN)
            assert models.list_games().total == 2
        register(_with(changed))  # type: ignore[arg-type]
        with store.models() as models:
            assert models.position() == 0 and models.list_games().total == 0
            models.catch_up(library)
            assert [g["game"] for g in models.list_games().items] == ["the-wolves"]
        with store.models() as models:  # the same columns: nothing to rebuild
            assert models.position() == library.recorder.max_notification_id()
            assert models.list_games().total == 1
