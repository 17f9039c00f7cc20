"""Which stored games are due for a review (:func:`services.reviews.due`), page by page, and
the ``analyses`` table made by two processes at once."""

from __future__ import annotations

import multiprocessing
import time
import uuid
from concurrent.futures import ProcessPoolExecutor

import psycopg

from domain.store import GameLibrary
from projections.analysis import Analyses
from services.reviews import due
from tests.analysis.conftest import QUICK
from tests.analysis.test_projection import short_game

VALUES = {"playouts": QUICK.playouts, "candidates": QUICK.candidates}


def test_the_games_due_are_found_page_by_page_in_upload_order(store_url: str) -> None:
    """Seven games, three of them reviewed: a page of two ids a query gives what one page of
    five hundred gives, in upload order."""
    with GameLibrary.open(store_url) as library:
        games = [library.upload(short_game(n)).game_id for n in range(4, 11)]
        analyses = Analyses(store_url)
        settings = next(due(library, analyses, VALUES)).settings
        assert settings == QUICK
        for done in (games[0], games[3], games[4]):
            analyses.save(done, settings, {"steps": []})
        analyses.enqueue(games[5], settings)  # asked for, not done: still due
        left = [games[i] for i in (1, 2, 5, 6)]
        assert [d.game_id for d in due(library, analyses, VALUES, page=2)] == left
        assert [d.game_id for d in due(library, analyses, VALUES)] == left


def _save_from_now_on(url: str, start: float, games: list[str]) -> int:
    """Wait until ``start`` (wall time), then save a review of each of ``games``."""
    analyses = Analyses(url)
    time.sleep(max(0.0, start - time.time()))
    for game in games:
        analyses.save(game, QUICK, {"steps": []})
    return len(games)


def test_two_processes_that_first_use_the_table_at_once_both_save(pg_url: str) -> None:
    """Each in a schema of its own, made empty: both make the table and save, no deadlock."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn) as pool:
        pool.submit(time.sleep, 0).result()
        pool.submit(time.sleep, 0).result()
        for _ in range(3):
            schema = f"race_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(pg_url, autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
            url = f"{pg_url}{'&' if '?' in pg_url else '?'}options=-csearch_path%3D{schema}"
            games = [[str(uuid.uuid4()) for _ in range(5)] for _ in range(2)]
            start = time.time() + 0.5
            saved = [pool.submit(_save_from_now_on, url, start, ids) for ids in games]
            assert [s.result(timeout=60) for s in saved] == [5, 5]
            every = {g for ids in games for g in ids}
            assert Analyses(url).done(QUICK.key, sorted(every)) == every
