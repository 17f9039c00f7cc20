"""The ratings read model (:mod:`projections.ratings`) on both backends: rated on from where it
was when games are added after those it rated, from the start when one it rated leaves the
league, and always as a rating from scratch would be."""

from __future__ import annotations

from datetime import date
from uuid import UUID

import pytest

from domain.ratings import League, Played, Rated
from domain.store import GameLibrary
from domain.store.players import merge
from projections import ratings
from projections.readmodels import ReadModels
from tests.api.test_ratings import league_record
from tests.projections.conftest import Store, everything

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


def from_scratch(models: ReadModels, season: ratings.Season = SEASON) -> dict[str, object]:
    """The leaderboard as rated anew, nothing kept."""
    ratings._kept.clear()
    return models.ratings(season)


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


def test_a_league_read_before_it_was_rated_on_stays_as_it_was(store_url: str) -> None:
    with GameLibrary.open(store_url) as library, ReadModels(store_url) as models:
        for i in range(40, 44):  # games no other test of the module stores
            library.upload(league_record(i))
        models.catch_up(library)
        before = ratings.rating(models.db, SEASON)
        key, n = "zoe", before.count  # zoë wins every game
        was = (before.of(key), before.games_of(key), before.count, before.rated)
        assert was[1:] == (n, n, n) and n >= 4
        more = [str(library.upload(league_record(i)).game_id) for i in range(44, 47)]
        models.catch_up(library)
        after = ratings.rating(models.db, SEASON)
        assert after.games is before.games  # rated on: the games are shared, not copied
        assert (before.of(key), before.games_of(key), before.count, before.rated) == was
        assert before.games.index(more[0], before.count) is None
        assert after.games.index(more[0], after.count) == n
        assert (after.games_of(key), after.count, after.of(key)[:n]) == (n + 3, n + 3, was[0])


def test_a_league_whose_rating_on_failed_is_rated_anew(
    store_url: str, played: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with GameLibrary.open(store_url) as library, ReadModels(store_url) as models:
        ids = [str(library.upload(league_record(i)).game_id) for i in range(50, 53)]
        models.catch_up(library)
        models.ratings(SEASON)
        more = [str(library.upload(league_record(i)).game_id) for i in range(53, 55)]
        models.catch_up(library)
        play = League.play

        def fails_on_the_last(league: League, game: Played) -> Rated:
            if game.game_id == more[-1]:
                raise RuntimeError("the rating failed")
            return play(league, game)

        with monkeypatch.context() as patch:
            patch.setattr(League, "play", fails_on_the_last)
            with pytest.raises(RuntimeError):
                models.ratings(SEASON)  # more[0] was kept, the state was not
        played.clear()
        again = models.ratings(SEASON)
        assert len(played) == again["games"] and played[-5:] == ids + more  # rated anew
        assert again == from_scratch(models)


def test_a_tag_moved_between_games_or_a_game_played_earlier_rates_anew(
    store_url: str, played: list[str]
) -> None:
    """Changes that leave the league's size as it was are seen too: a tag taken from one
    game and given to another, and a new game played before those rated (in leagues of
    this test's games alone: played in spring, or tagged ``club``)."""
    spring = ratings.Season("moonlight", since=date(2026, 3, 1), until=date(2026, 5, 31))
    club = ratings.Season("moonlight", tag="club")
    with GameLibrary.open(store_url) as library, ReadModels(store_url) as models:
        ids = [library.upload(league_record(i, f"2026-03-0{i + 2}")).game_id for i in range(4)]
        for game_id in ids[:2]:
            library.change(game_id, {"tags": ["club"]})
        models.catch_up(library)
        assert models.ratings(club)["games"] == 2 and models.ratings(spring)["games"] == 4
        library.change(ids[0], {"tags": []})
        library.change(ids[3], {"tags": ["club"]})
        models.catch_up(library)
        played.clear()
        moved = models.ratings(club)
        assert played == [str(ids[1]), str(ids[3])] and moved["games"] == 2
        played.clear()
        earlier = library.upload(league_record(4, "2026-03-01")).game_id
        later = library.upload(league_record(5, "2026-04-01")).game_id
        models.catch_up(library)
        everyone = models.ratings(spring)
        assert played == [str(g) for g in (earlier, *ids, later)]  # rated anew, in order
        assert everyone == from_scratch(models, spring)
        played.clear()
        latest = library.upload(league_record(6, "2026-05-01")).game_id
        models.catch_up(library)
        assert models.ratings(spring)["games"] == 7 and played == [str(latest)]  # rated on


def test_a_merge_withdrawal_or_new_day_rates_anew_and_a_rebuild_agrees(
    store: Store, played: list[str]
) -> None:
    """Bo also wrote himself "Bob": merged, then more of his games come in under both names;
    a game is withdrawn and another re-dated. The league kept is rated anew at each change,
    and the read models followed one change at a time equal those rebuilt from the log."""
    with store.library() as library, store.models() as models:

        def bob(i: int) -> bytes:
            return league_record(i).replace(b'"Bo"', b'"Bob"' if i % 2 else b'"Bo"')

        ids = [library.upload(bob(i)).game_id for i in (0, 3, 6, 9)]
        models.catch_up(library)
        names = {p["name"] for p in models.ratings(SEASON)["players"]}
        assert {"Bo", "Bob"} <= names
        merge(library, "bob", "Bo", "ana")
        models.catch_up(library)
        played.clear()
        merged = models.ratings(SEASON)
        assert len(played) == 4  # rated anew under one player
        bo = next(p for p in merged["players"] if p["name"] == "Bo")
        assert bo["games"] == 4 and "Bob" not in {p["name"] for p in merged["players"]}
        ids += [library.upload(bob(i)).game_id for i in (12, 15)]  # Bob after the merge
        library.withdraw(ids[0])
        library.change(ids[1], {"played_on": date(2020, 1, 1)})
        models.catch_up(library)
        now = models.ratings(SEASON)
        assert next(p for p in now["players"] if p["name"] == "Bo")["games"] == 5
        assert now == from_scratch(models)
        rated = models.player_rating("BOB", SEASON)
        assert rated is not None and rated["history"][0]["game_id"] == str(ids[1])
        live = everything(models)
        models.rebuild(library)
        assert everything(models) == live
        assert models.ratings(SEASON) == now


def test_a_players_trend_and_history_show_their_last_games_numbered_among_all(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`~projections.statistics.RECENT_GAMES` games, a player's trend and rating
    history are the last ones of what they would be without the bound, each numbered among
    all of theirs (a rolling score counts the games before too); the counts cover them all."""
    with GameLibrary.open(store_url) as library, ReadModels(store_url) as models:
        for i in range(7):
            library.upload(league_record(i, f"2026-03-{i + 1:02d}"))
        models.catch_up(library)
        whole, rated = models.player("Zoë"), models.player_rating("Zoë", SEASON)
        assert whole is not None and rated is not None and whole["games"] == rated["games"] > 4
        assert [t["number"] for t in whole["trend"]] == list(range(1, whole["games"] + 1))
        assert [s["number"] for s in rated["history"]] == list(range(1, rated["games"] + 1))
        monkeypatch.setattr(ratings, "RECENT_GAMES", 4)
        monkeypatch.setattr("projections.statistics.RECENT_GAMES", 4)
        recent, rated_recent = models.player("Zoë"), models.player_rating("Zoë", SEASON)
        assert recent is not None and rated_recent is not None
        assert recent["trend"] == whole["trend"][-4:]
        assert rated_recent["history"] == rated["history"][-4:]
        assert {**recent, "trend": []} == {**whole, "trend": []}
        assert {**rated_recent, "history": []} == {**rated, "history": []}
