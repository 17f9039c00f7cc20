"""Store URLs map to eventsourcing's settings; PostgreSQL tables go in the chosen schema."""

from __future__ import annotations

import uuid

import psycopg
import pytest

from domain.store import GameLibrary, StoreConfig, store_env
from services.config import Settings
from services.library import open_library, store_config
from tests.store.conftest import record_bytes


def test_sqlite_url() -> None:
    env = store_env(StoreConfig("sqlite:////srv/howl/howl.sqlite3"))
    assert env == {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": "/srv/howl/howl.sqlite3",
        "CREATE_TABLE": "y",
    }


def test_postgresql_url_and_pool_settings() -> None:
    config = StoreConfig(
        "postgresql://ann:p%40ss@db.example:6543/games", schema="howl", pool_size=3,
        max_overflow=4, connect_timeout=7,
    )  # fmt: skip
    env = store_env(config)
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "db.example", "6543", "games",
    )  # fmt: skip
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("ann", "p@ss")
    assert (env["POSTGRES_SCHEMA"], env["POSTGRES_POOL_SIZE"]) == ("howl", "3")
    assert (env["POSTGRES_MAX_OVERFLOW"], env["POSTGRES_CONNECT_TIMEOUT"]) == ("4", "7")
    assert env["CREATE_TABLE"] == "y"


def test_postgresql_url_defaults() -> None:
    env = store_env(StoreConfig("postgresql:///howl?host=/run/postgresql"))
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "/run/postgresql", "5432", "howl",
    )  # fmt: skip
    assert env["POSTGRES_PASSWORD"] == ""


@pytest.mark.parametrize("url", ["mysql://db/howl", "sqlite://relative", "postgresql://db"])
def test_unsupported_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError):
        store_env(StoreConfig(url))


def test_settings_choose_the_store() -> None:
    settings = Settings.from_env(
        {
            "HOWL_DATABASE_URL": "postgresql://howl@db/howl",
            "HOWL_DATABASE_SCHEMA": "games",
            "HOWL_DB_POOL_SIZE": "2",
            "HOWL_DB_MAX_OVERFLOW": "0",
            "HOWL_DB_CONNECT_TIMEOUT": "3",
        }
    )
    assert store_config(settings) == StoreConfig("postgresql://howl@db/howl", "games", 2, 0, 3)
    with pytest.raises(ValueError, match="HOWL_DB_POOL_SIZE"):
        Settings.from_env({"HOWL_DB_POOL_SIZE": "0"})


def test_the_environment_does_not_leak_into_the_store(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    monkeypatch.setenv("GAMES_PERSISTENCE_MODULE", "eventsourcing.postgres")
    with open_library(Settings(sqlite_url)) as library:
        assert library.env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"
        assert library.upload(record_bytes(2, seed=301)).created


def test_postgresql_tables_are_made_in_the_schema(pg_url: str) -> None:
    schema = f"howl_{uuid.uuid4().hex[:8]}"
    with GameLibrary.open(StoreConfig(pg_url, schema=schema)) as library:
        library.upload(record_bytes(2, seed=302))
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (schema,),
        ).fetchall()
    assert sorted(name for (name,) in rows) == ["games_events", "games_snapshots"]
