"""A game whose projection fails is recorded and skipped; the runner goes on past it."""

from __future__ import annotations

import pytest

from domain.store.uploads import canonical_record, prepare
from projections import builds, tables
from projections.builds import Build, Projected
from tests.projections.conftest import Store, fixture_record, upload
from tests.projections.poison import BASE, store_poison

GOOD = ["2p-06-random", "3p-00-heuristic"]
LATER = ["4p-00-heuristic"]


@pytest.mark.parametrize("stage", ["fold", "write"])
def test_a_failing_game_is_recorded_and_the_others_are_projected(store: Store, stage: str) -> None:
    with store.library() as library, store.models() as models:
        good = upload(library, GOOD[:1])
        poison = store_poison(library, stage)
        good |= upload(library, GOOD[1:])
        last = library.recorder.max_notification_id()
        assert models.catch_up(library) == last
        assert models.position() == last
        assert {g["game_id"] for g in models.list_games().items} == {str(i) for i in good.values()}
        assert models.summary(poison) is None
        assert models.stats()["games"] == 2
        [failure] = models.failures()
        assert (failure.game_id, failure.stage) == (str(poison), stage)
        assert 0 < failure.position <= last and failure.version > 0 and failure.failed_at
        assert models.failure(poison) == failure and models.failure_count() == 1
        later = upload(library, LATER)  # the runner is not wedged: later games go in
        assert models.catch_up(library) > 0
        assert models.summary(later[LATER[0]]) is not None
        assert models.failure_count() == 1
        assert models.rebuild(library) == library.recorder.max_notification_id()
        assert models.list_games().total == 3 and models.failures()[0].game_id == str(poison)


def test_retry_projects_the_games_whose_cause_is_gone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A projection bug (one game's fold raises) is fixed: retry projects the game."""
    project = builds.project
    with store.library() as library, store.models() as models:
        ids = upload(library, GOOD)
        broken = ids[GOOD[0]]

        def buggy(build: Build) -> Projected:
            if build.game_id == broken:
                raise ZeroDivisionError("a bug in the projection")
            return project(build)

        monkeypatch.setattr(builds, "project", buggy)
        models.catch_up(library)
        [failure] = models.failures()
        assert failure.error == "ZeroDivisionError: a bug in the projection"
        assert models.retry(library) == ([], models.failures())  # still there
        monkeypatch.setattr(builds, "project", project)
        fixed, remaining = models.retry(library)
        assert (fixed, remaining) == ([str(broken)], [])
        assert models.failure_count() == 0
        assert models.summary(broken) is not None and models.list_games().total == 2
        assert models.position() == library.recorder.max_notification_id()


def test_a_poison_that_stays_is_reported_by_retry(store: Store) -> None:
    with store.library() as library, store.models() as models:
        poison = store_poison(library, "write")
        upload(library, GOOD[:1])
        models.catch_up(library)
        fixed, [failure] = models.retry(library)
        assert fixed == [] and failure.game_id == str(poison) and failure.stage == "write"
        assert models.failure_count() == 1 and models.list_games().total == 1


def test_metadata_of_a_failed_game_changes_nothing(store: Store) -> None:
    with store.library() as library, store.models() as models:
        poison = store_poison(library, "fold")
        models.catch_up(library)
        library.retitle(poison, "Renamed")
        library.set_visibility(poison, "private")
        models.catch_up(library)
        assert models.summary(poison) is None and models.failure_count() == 1
        with models.db.reading() as conn:
            for table in tables.LIVE.game_tables[:-1]:
                count = models.db.execute(conn, f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                assert count == 0, table


def test_text_postgresql_cannot_store_fails_only_its_game(store: Store) -> None:
    """A NUL in a title (stored before the reader refused it) fits SQLite but not
    PostgreSQL: there, the game and a game retitled so are failures, the others go in."""
    with store.library() as library, store.models() as models:
        library.add(prepare(*canonical_record(fixture_record(BASE)), title="bad\x00title"))
        ids = upload(library, GOOD)
        library.retitle(ids[GOOD[1]], "x\x00y")
        assert models.catch_up(library) == library.recorder.max_notification_id()
        expected = 3 if store.url.startswith("sqlite") else 1
        assert models.list_games().total == expected
        assert models.failure_count() == 3 - expected
