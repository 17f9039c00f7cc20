"""Fixtures of the analysis tests: the fixture corpus, read once, and small settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.wolves.analysis.review import Settings
from domain.wolves.records import Record, read_record

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "the-wolves"
QUICK = Settings(playouts=2, candidates=1)
"""Settings small enough for tests on two slow cores."""


def fixture_record(name: str) -> Record:
    """A fixture game's record by file stem, e.g. ``3p-00-heuristic``."""
    return read_record((CORPUS / f"{name}.json").read_bytes())


@pytest.fixture(scope="session")
def corpus() -> dict[str, Record]:
    """Every fixture game, by file stem."""
    return {
        p.stem: read_record(p.read_bytes())
        for p in sorted(CORPUS.glob("*.json"))
        if not p.name.endswith(".expected.json")
    }
