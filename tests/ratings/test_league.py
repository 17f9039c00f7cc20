"""Ratings over synthetic leagues (:mod:`domain.ratings`): the strongest ends first, equals stay
together, ties share a change, and games that cannot be rated leave the ratings alone."""

from __future__ import annotations

import random

import pytest

from domain.ratings import START_MU, League, Played, Seat, rate

NAMES = ("ana", "bo", "cy", "di", "ed")


def league_games(count: int, winner: str | None, seed: int = 1) -> list[Played]:
    """``count`` games of 2 to 4 of :data:`NAMES` drawn at random; ``winner`` (when seated)
    always first, the others placed at random."""
    draw = random.Random(seed)
    games = []
    for i in range(count):
        seated = draw.sample(NAMES, draw.randint(2, 4))
        order = sorted(seated, key=lambda n: (n != winner, draw.random()))
        games.append(Played(f"g{i}", tuple(Seat(n, order.index(n) + 1) for n in seated)))
    return games


def test_a_player_who_always_wins_ends_first_and_is_the_favourite() -> None:
    league, rated = rate(league_games(150, winner="cy"))
    table = league.standings()
    assert table[0].player == "cy"
    assert table[0].rating.shown > max(s.rating.shown for s in table[1:]) + 5
    late = [g for g in rated[100:] if any(c.player == "cy" for c in g.changes)]
    assert late and all(max(g.changes, key=lambda c: c.win_chance).player == "cy" for g in late)
    assert all(c.predicted_place == 1 for g in late for c in g.changes if c.player == "cy")


def test_equals_stay_within_a_sigma_of_each_other() -> None:
    """Five players who take turns winning round-robin games of two."""
    pairs = [(a, b) for a in NAMES for b in NAMES if a < b]
    games = [
        Played(f"g{i}-{a}{b}", (Seat(a, 1 + (i % 2)), Seat(b, 2 - (i % 2))))
        for i in range(20) for a, b in pairs
    ]  # fmt: skip
    league, _ = rate(games)
    mus = [league.rating(n).mu for n in NAMES]
    sigma = max(league.rating(n).sigma for n in NAMES)
    assert max(mus) - min(mus) < sigma
    assert all(abs(mu - START_MU) < sigma for mu in mus)


def test_seats_that_share_a_place_move_alike() -> None:
    league = League()
    rated = league.play(Played("g", (Seat("ana", 1), Seat("bo", 1), Seat("cy", 3))))
    ana, bo, cy = rated.changes
    assert ana.after == bo.after and ana.after.mu > ana.before.mu > cy.after.mu
    assert [c.win_chance for c in rated.changes] == pytest.approx([1 / 3] * 3)


@pytest.mark.parametrize(
    "seats", [(Seat("ana", 1),), (Seat("ana", 1), Seat("ana", 2)), ()],
    ids=["one player", "one player twice", "no seat"],
)  # fmt: skip
def test_a_game_that_cannot_be_rated_changes_nothing(seats: tuple[Seat, ...]) -> None:
    league, _ = rate(league_games(10, winner=None))
    before = dict(league.ratings)
    assert league.play(Played("odd", seats)).changes == ()
    assert league.ratings == before


def test_the_order_played_matters_and_rating_again_gives_the_same() -> None:
    games = league_games(40, winner=None, seed=3)
    first, _ = rate(games)
    assert rate(games)[0].ratings == first.ratings
    assert rate(reversed(games))[0].ratings != first.ratings
