"""``howl migrate``: re-check stored games under the current rules and report what would change."""

from __future__ import annotations

from collections import Counter

import click

from api.commands.configured import using_store
from domain.store.migrate import EVENTS, ILLEGAL, RESULT, UNCHANGED, recheck_all
from services.library import open_library


@click.command("migrate")
@click.option("--all", "every", is_flag=True, help="Also games stored under the current rules.")
def migrate(every: bool) -> None:
    """Replay stored games of older rules versions under their game's current rules; list
    those whose events or result would change. Stored games are not changed: they keep
    replaying as they were stored."""
    counts: Counter[str] = Counter()
    current: set[str] = set()
    with open_library(using_store()) as library:
        for found in recheck_all(library, every):
            counts[found.change] += 1
            current.add(found.current)
            if found.change != UNCHANGED:
                detail = f": {found.detail}" if found.detail else ""
                click.echo(f"{found.game_id} ({found.rules_version}) {found.change}{detail}")
    total = sum(counts.values())
    under = f" ({', '.join(sorted(current))})" if current else ""
    click.echo(
        f"re-checked {total} game{'s' if total != 1 else ''} under the current rules{under}: "
        f"{counts[UNCHANGED]} unchanged, {counts[EVENTS]} with other events but the same "
        f"result, {counts[RESULT]} with another result, {counts[ILLEGAL]} now illegal"
    )
