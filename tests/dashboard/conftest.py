"""Browser-test helpers: screenshots kept as test artifacts."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

SCREENSHOTS = Path(__file__).parents[2] / "test-results" / "screenshots"
FIXTURES = Path(__file__).parents[1] / "fixtures" / "the-wolves"


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A desktop-sized window, as the dashboard is laid out for one."""
    return {**browser_context_args, "viewport": {"width": 1600, "height": 1000}}


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    """Wait up to 15 s in ``expect``: each test's fresh browser context loads plotly.js cold."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def screenshot(tmp_path: Path) -> Callable[[Page, str], Path]:
    """``screenshot(page, "name")``: a full-page PNG under the test's tmp dir, copied to
    ``test-results/screenshots/`` (git-ignored)."""

    def take(page: Page, name: str) -> Path:
        path = tmp_path / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, SCREENSHOTS / path.name)
        return path

    return take
