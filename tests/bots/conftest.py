"""Bots test fixtures: the API tests' servers and contract, the browser tests' window and
screenshots."""

from __future__ import annotations

from tests.api.conftest import contract, fresh_server  # noqa: F401 (fixtures)
from tests.dashboard.conftest import (  # noqa: F401 (fixtures)
    browser_context_args,
    patient_expect,
    screenshot,
)
