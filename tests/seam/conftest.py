"""Fixtures of the seam tests: take-away, the game only the tests know."""

from tests.takeaway import takeaway  # noqa: F401 (the fixture, offered to these tests)
