"""One way to the read models' database (``projections.db``): the read models and the
``analyses`` table reach the store's own database, in its schema, through the same
:class:`~projections.db.Database`, pooled or a connection per use."""

from __future__ import annotations

import uuid

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
