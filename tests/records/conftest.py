"""Fixtures of the record tests: one finished game per player count."""

from __future__ import annotations

import pytest

from tests.games import Game, random_game


@pytest.fixture(scope="session", params=[2, 3, 4, 5], ids=lambda n: f"{n}p")
def game(request: pytest.FixtureRequest) -> Game:
    """A finished random game (cached across tests)."""
    return random_game(request.param, seed=request.param * 10)


@pytest.fixture(scope="session")
def game3() -> Game:
    """A finished random three-player game."""
    return random_game(3, seed=30)
