"""Fixtures of the read-model tests: a fresh store on each backend, its read models, games."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.store import GameLibrary, StoreConfig
from projections.readmodels import ReadModels

FIXTURES = Path(__file__).parent.parent / "fixtures" / "the-wolves"


@dataclass(frozen=True)
class Store:
    """Where one test's games live: a URL and, on PostgreSQL, a schema of its own."""

    url: str
    schema: str = "public"

    @property
    def env(self) -> dict[str, str]:
        """The ``HOWL_…`` settings naming this store, for ``howl`` subprocesses."""
        return {"HOWL_DATABASE_URL": self.url, "HOWL_DATABASE_SCHEMA": self.schema}

    def library(self) -> GameLibrary:
        """A game library on this store (the caller closes it)."""
        return GameLibrary.open(StoreConfig(self.url, schema=self.schema))

    def models(self, **options: Any) -> ReadModels:
        """Read models on this store (the caller closes them)."""
        return ReadModels(self.url, self.schema, **options)


@pytest.fixture
def store(store_url: str) -> Store:
    """A store of its own for each test: a new SQLite file, or a new PostgreSQL schema."""
    if store_url.startswith("postgresql"):
        return Store(store_url, f"t_{uuid.uuid4().hex[:12]}")
    return Store(store_url)


@pytest.fixture
def library(store: Store) -> Iterator[GameLibrary]:
    """An empty game library on the test's store."""
    with store.library() as lib:
        yield lib


@pytest.fixture
def models(store: Store) -> Iterator[ReadModels]:
    """Read models on the test's store."""
    with store.models() as read_models:
        yield read_models


@cache
def fixture_names() -> tuple[str, ...]:
    """The fixture games, by file stem (``2p-00-heuristic`` …)."""
    return tuple(
        sorted(p.stem for p in FIXTURES.glob("*.json") if not p.stem.endswith(".expected"))
    )


def fixture_record(name: str) -> bytes:
    """A fixture game's record."""
    return (FIXTURES / f"{name}.json").read_bytes()


def upload(library: GameLibrary, names: list[str] | tuple[str, ...]) -> dict[str, uuid.UUID]:
    """Store fixture games; their ids by name."""
    return {name: library.upload(fixture_record(name)).game_id for name in names}


def everything(models: ReadModels) -> dict[str, Any]:
    """All the read models hold, for comparing two of them."""
    games = models.list_games(include_private=True, limit=500, sort="uploaded_at").items
    ids = [uuid.UUID(g["game_id"]) for g in games]
    return {
        "games": games,
        "summaries": [models.summary(i) for i in ids],
        "timelines": [models.timeline(i) for i in ids],
        "stats": models.stats(),
        "players": [models.player(name) for name in ("Ana", "Bo", "Cy", "Dee", "Eli")],
    }
