"""Fixtures of the event store tests: a fresh game library on each backend."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from domain.store import GameLibrary, StoreConfig
from domain.wolves.records import write_record
from tests.games import random_game
from tests.takeaway import takeaway  # noqa: F401 (the fixture, offered to the store tests)


@pytest.fixture
def store_config(store_url: str) -> StoreConfig:
    """A store of its own for each test: a new SQLite file, or a new PostgreSQL schema."""
    if store_url.startswith("postgresql"):
        return StoreConfig(store_url, schema=f"t_{uuid.uuid4().hex[:12]}", connect_timeout=10)
    return StoreConfig(store_url)


@pytest.fixture
def library(store_config: StoreConfig) -> Iterator[GameLibrary]:
    """An empty game library, closed after the test."""
    with GameLibrary.open(store_config) as lib:
        yield lib


def record_bytes(players: int, seed: int) -> bytes:
    """The canonical record of a finished random game."""
    return write_record(random_game(players, seed).record)


def stored_count(library: GameLibrary) -> int:
    """How many events the library's store holds (all games)."""
    return len(library.recorder.select_notifications(start=None, limit=1_000_000))
