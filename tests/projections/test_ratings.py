"""The ratings read model (:mod:`projections.ratings`) on both backends: rated on from where it
was when games are added after those it rated, from the start when one it rated leaves the
league, and always as a rating from scratch would be."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.ratings import League, Played, Rated
from domain.store import GameLibrary
from projections import ratings
from projections.readmodels import ReadModels
from tests.api.test_ratings import league_record

SEASON = ratings.Season("moonlight")


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the games :meth:`League.play` rates, in order, from now on."""
    seen: list[str] = []
    play = League.play

    def counted(league: League, game: Played) -> Rated:
        seen.append(game.game_id)
        return play(league, game)

    monkeypatch.setattr(League, "play", counted)
    return seen


def from_scratch(models: ReadModels) -> dict[str, object]:
    """The leaderboard as rated anew, nothing kept."""
    ratings._kept.clear()
    return models.ratings(SEASON)


def test_games_added_are_rated_on_and_a_game_gone_private_rates_anew(
    store_url: str, played: list[str]
) -> None:
    with GameLibrary.open(store_url) as library, ReadModels(store_url) as models:
        ids = [str(library.upload(league_record(i)).game_id) for i in range(6)]
        models.catch_up(library)
        first = models.ratings(SEASON)
        assert played == ids and first["games"] == 6
        assert models.ratings(SEASON) == first and len(played) == 6  # kept: nothing rated
        more = [str(library.upload(league_record(i)).game_id) for i in range(6, 9)]
        models.catch_up(library)
        grown = models.ratings(SEASON)
        assert played == ids + more and grown["games"] == 9
        assert grown == from_scratch(models)
        played.clear()
        library.set_visibility(UUID(ids[0]), "private")
        models.catch_up(library)
        shrunk = models.ratings(SEASON)
        assert played == ids[1:] + more and shrunk["games"] == 8
        assert shrunk == from_scratch(models)
