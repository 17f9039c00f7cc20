"""The game library (event store) that Howl's settings point at."""

from __future__ import annotations

from api.config import Settings
from domain.store import GameLibrary, StoreConfig


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
