"""What one app shares across requests and threads: one game library, one set of read
models and one body cache, opened on first use (so building the app stays fast and a store
that is down does not stop it from starting)."""

from __future__ import annotations

import logging
import threading
import time

from flask import Flask, current_app

from api.caching import BodyCache
from api.config import Settings
from api.library import open_library
from domain.store import GameLibrary
from projections.readmodels import ReadModels

SERVICES_KEY = "howl.services"
CATCH_UP_INTERVAL = 2.0
"""Seconds a list or statistics answer may lag games stored by another process."""

log = logging.getLogger(__name__)


class Services:
    """The app's shared game library, read models and body cache (thread-safe)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.bodies = BodyCache()
        self._library: GameLibrary | None = None
        self._read_models: ReadModels | None = None
        self._open_lock = threading.Lock()
        self._catch_up_lock = threading.Lock()
        self._caught_up_at = float("-inf")

    @property
    def library(self) -> GameLibrary:
        """The game library (event store), opened on first use."""
        if self._library is None:
            with self._open_lock:
                if self._library is None:
                    library = open_library(self.settings)
                    library.cached_games = self.settings.cached_games
                    self._library = library
        return self._library

    @property
    def read_models(self) -> ReadModels:
        """The read models, opened on first use."""
        if self._read_models is None:
            with self._open_lock:
                if self._read_models is None:
                    self._read_models = ReadModels.from_settings(self.settings)
        return self._read_models

    def catch_up(self) -> ReadModels:
        """Project every stored event not yet projected, then answer the read models."""
        library, models = self.library, self.read_models
        with self._catch_up_lock:
            models.catch_up(library)
            self._caught_up_at = time.monotonic()
        return models

    def fresh(self) -> ReadModels:
        """The read models, caught up unless that was done in the last moments."""
        if time.monotonic() - self._caught_up_at > CATCH_UP_INTERVAL:
            return self.catch_up()
        return self.read_models

    def close(self) -> None:
        """Close the library and the read models (they open again on next use)."""
        with self._open_lock:
            if self._library is not None:
                self._library.close()
                self._library = None
            if self._read_models is not None:
                self._read_models.close()
                self._read_models = None


def services(app: Flask | None = None) -> Services:
    """The :class:`Services` of ``app`` (default: the current app)."""
    return (app or current_app).extensions[SERVICES_KEY]
