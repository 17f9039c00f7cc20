"""Fixtures of the event store tests: a fresh game library on each backend."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.store import GameLibrary, StoreConfig
from domain.wolves.records import write_record
from tests.games import random_game
from tests.takeaway import takeaway  # noqa: F401 (the fixture, offered to the store tests)

HOWL = str(Path(sys.executable).with_name("howl"))


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


@pytest.fixture
def env(store_url: str) -> dict[str, str]:
    """The environment of a ``howl`` process using a store of its own."""
    schema = f"cli_{uuid.uuid4().hex[:12]}"
    return {**os.environ, "HOWL_DATABASE_URL": store_url, "HOWL_DATABASE_SCHEMA": schema}


def howl(env: dict[str, str], *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """Run ``howl ARGS…`` to the end."""
    return subprocess.run(
        [HOWL, *args], input=stdin, capture_output=True, env=env, timeout=300, check=False
    )
