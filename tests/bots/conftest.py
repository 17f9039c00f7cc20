"""Bots-at-tables test fixtures: the API tests' servers and contract."""

from __future__ import annotations

from tests.api.conftest import contract, fresh_server  # noqa: F401 (fixtures)
