"""The game library (event store), the read models and the analyses that Howl's settings
point at."""

from __future__ import annotations

from domain.ruleset import ReviewSettings
from domain.store import GameLibrary, StoreConfig
from projections.analysis import default_settings
from projections.db import backend_of
from projections.readmodels import ReadModels
from services.config import Settings


def store_config(settings: Settings) -> StoreConfig:
    """Where and how to reach the event store, from ``settings``."""
    return StoreConfig(
        settings.database_url,
        schema=settings.database_schema,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        connect_timeout=settings.db_connect_timeout,
    )


def open_library(settings: Settings | None = None) -> GameLibrary:
    """A :class:`GameLibrary` on the configured store (default: settings from the environment).

    The caller closes it (``library.close()`` or ``with open_library() as library:``).
    """
    return GameLibrary.open(store_config(settings or Settings.from_env()))


def open_read_models(settings: Settings | None = None) -> ReadModels:
    """The :class:`ReadModels` in the configured store's database (``HOWL_DATABASE_URL``,
    ``_SCHEMA``, ``HOWL_DB_POOL_SIZE``; default: settings from the environment).

    The caller closes them (``models.close()`` or ``with open_read_models() as models:``).
    """
    settings = settings or Settings.from_env()
    return ReadModels(
        settings.database_url, settings.database_schema, pool_size=settings.db_pool_size
    )


def analyses_url(settings: Settings) -> str:
    """The URL of the ``analyses`` table's database: the store's, in the store's schema.

    >>> analyses_url(Settings("postgresql://db/howl?sslmode=disable", database_schema="t1"))
    'postgresql://db/howl?sslmode=disable&options=-csearch_path%3Dt1'
    >>> analyses_url(Settings("sqlite:////srv/howl.sqlite3", database_schema="t1"))
    'sqlite:////srv/howl.sqlite3'
    """
    url = settings.database_url
    if backend_of(url) != "postgresql" or settings.database_schema == "public":
        return url
    option = f"options=-csearch_path%3D{settings.database_schema}"  # a plain identifier
    return f"{url}{'&' if '?' in url else '?'}{option}"


def analysis_settings(settings: Settings) -> ReviewSettings:
    """The review settings the API asks for (``HOWL_ANALYSIS_PLAYOUTS``/``_CANDIDATES``)."""
    return default_settings(
        playouts=settings.analysis_playouts, candidates=settings.analysis_candidates
    )
