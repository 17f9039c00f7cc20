"""One way to the read models' database (``projections.db``): the read models and the
``analyses`` table reach the store's own database, in its schema, through the same
:class:`~projections.db.Database`, pooled or a connection per use; its turns exclude one
another across processes."""

from __future__ import annotations

import multiprocessing
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from domain.wolves.analysis.review import Settings as AnalysisSettings
from projections.analysis import Analyses
from projections.db import Database
from services.config import Settings
from services.library import analyses_url
from tests.projections.conftest import Store


def test_reviews_and_read_models_share_the_stores_database_and_schema(store: Store) -> None:
    game = str(uuid.uuid4())
    url = analyses_url(Settings(store.url, database_schema=store.schema))
    with store.models() as models:
        models.position()  # the store's schema made
        Analyses(url).enqueue(game, AnalysisSettings())
        rows = models.db.fetchall("SELECT game_id, status FROM analyses")
    assert rows == [(game, "queued")]


def test_a_connection_per_use_keeps_the_search_path_its_url_names(pg_url: str) -> None:
    schema = f"t_{uuid.uuid4().hex[:12]}"
    pooled = Database(pg_url, schema)  # makes the schema
    with pooled.reading() as conn:
        assert conn.execute("SHOW search_path").fetchone() == (schema,)
    pooled.close()
    named = analyses_url(Settings(pg_url, database_schema=schema))
    with Database(named, schema=None, pool_size=0).connect() as conn:
        assert conn.execute("SHOW search_path").fetchone() == (schema,)
    with Database(pg_url, schema=None, pool_size=0).reading() as conn:
        assert conn.execute("SHOW search_path").fetchone() != (schema,)


def test_reading_a_review_waits_for_no_writer(sqlite_url: str) -> None:
    game = str(uuid.uuid4())
    analyses = Analyses(sqlite_url)
    analyses.enqueue(game, AnalysisSettings())
    with Database(sqlite_url).connect():  # a writer holds SQLite's write lock meanwhile
        status = analyses.status(game, AnalysisSettings().key)
    assert status["status"] == "queued"


def _hold_turn(url: str, schema: str, name: str, held: Any, seconds: float) -> float:
    """Take the turn ``name`` in this (child) process, say so, hold it; when it let go."""
    with Database(url, schema).turn(name):
        held.set()
        time.sleep(seconds)
        return time.monotonic()


def test_a_turn_waits_for_another_process_to_end_its_own(store: Store) -> None:
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(1, context) as other:
        held = manager.Event()
        released = other.submit(_hold_turn, store.url, store.schema, "catch-up", held, 2.0)
        assert held.wait(30)
        db = Database(store.url, store.schema)
        with db.turn("another"):  # another name: not waited for
            assert not released.done()
        with db.turn("catch-up"):
            taken = time.monotonic()
        assert taken >= released.result()  # monotonic clocks are the machine's, shared
        with db.turn("catch-up"):  # let go for good
            pass
