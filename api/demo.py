"""Demo data for ``howl serve --demo``."""

from __future__ import annotations


def seed_demo(store_url: str) -> int:
    """Seed demo games into the store at ``store_url`` if it holds no games yet.

    Returns the number of games seeded. No ruleset is registered yet, so there are no
    demo games to seed and this returns 0 without touching the store.
    """
    del store_url
    return 0
