"""``howl tables`` and ``howl table``: list live tables, open one from a record, and enter
actions read as JSON lines (for scripts and tests)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

import click

from api.commands.configured import using_store
from services import bots, tables
from services.refusals import Refusal
from services.shared import Services


@contextmanager
def opened() -> Iterator[Services]:
    """The configured store's services (no analysis worker), closed afterwards."""
    svc = Services(using_store(), analysis_worker=False)
    try:
        yield svc
    finally:
        svc.close()


def refusal_json(exc: Refusal) -> dict[str, Any]:
    """A refusal as one JSON line: its problem kind, status, detail and extension members."""
    return {"error": exc.kind, "status": exc.status, "detail": exc.detail, **exc.extra}


def line(doc: Any) -> None:
    """Print ``doc`` as one JSON line."""
    click.echo(json.dumps(doc, separators=(",", ":")))


@click.command("tables")
@click.option("--json", "as_json", is_flag=True, help="One JSON summary per line.")
def list_tables(as_json: bool) -> None:
    """List the live tables, the last changed first."""
    with opened() as svc:
        found = tables.list_tables(svc)
    for t in found:
        if as_json:
            line(t)
            continue
        state = "closed" if t["closed"] else "finished" if t["finished"] else f"turn {t['turn']}"
        players = ", ".join(t["players"])
        click.echo(f"{t['table_id']}  {t['game']:<11} v{t['version']:<4} {t['actions']:>4} "
                   f"actions  {state:<8}  {players}  {t['title'] or ''}".rstrip())  # fmt: skip


@click.group("table")
def table() -> None:
    """Open a live table and enter its actions."""


def parse_bot(text: str) -> tuple[str, Any]:
    """``1=heuristic`` → ("1", "heuristic"); ``2=review:3`` → ("2", {"bot": "review",
    "depth": 3}): a ``bots`` entry of the record (the tables service checks it)."""
    seat, equals, bot = text.partition("=")
    name, colon, depth = bot.partition(":")
    if not (equals and seat.isdigit() and name) or (colon and not depth.isdigit()):
        raise click.BadParameter(f"SEAT=NAME or SEAT=NAME:DEPTH (such as 1=review:2), not {text}")
    return seat, {"bot": name, "depth": int(depth)} if colon else name


@table.command("open")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--bot", "bot_items", multiple=True, metavar="SEAT=NAME[:DEPTH]",
              help="A seat the computer plays (repeat for more), such as 1=heuristic or "
              "1=review:2; its turns are played by the server.")  # fmt: skip
def open_table(path: str, bot_items: tuple[str, ...]) -> None:
    """Open a table from a howl.game record (a file, or - for stdin); prints the table.

    Exits 1 when the record is refused (its error is printed as JSON)."""
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    if bot_items:
        try:
            doc = json.loads(data)
        except ValueError as exc:
            raise click.BadParameter(f"not a JSON record: {exc}", param_hint="PATH") from None
        if not isinstance(doc, dict):
            raise click.BadParameter("a record is a JSON object", param_hint="PATH")
        doc["bots"] = dict(parse_bot(item) for item in bot_items)
        data = json.dumps(doc).encode()
    with opened() as svc:
        try:
            doc = tables.open_table(data, None, svc)
        except Refusal as exc:
            line(refusal_json(exc))
            sys.exit(1)
    line(doc)


@table.command("play")
@click.argument("table_id", type=click.UUID)
def play(table_id: UUID) -> None:
    """Enter the actions read from stdin, one JSON object per line, each against the table's
    version at that moment; prints one JSON line per action: its ``version`` and ``events``,
    or its ``error``. Exits 1 if any action was refused.

    At a table with bots, each action is entered once the bots have played their turns
    (``version`` is the table's after their answer)."""
    failed = False
    with opened() as svc:
        try:
            version = bots.settle(svc, table_id).version
        except tables.UnknownTable as exc:
            raise click.ClickException(str(exc)) from exc
        for number, text in enumerate(sys.stdin, 1):
            if not text.strip():
                continue
            try:
                done = tables.enter(table_id, json.loads(text), version, None, svc)
            except json.JSONDecodeError as exc:
                failed = True
                line({"line": number, "error": "invalid_json", "detail": str(exc)})
                continue
            except Refusal as exc:
                failed = True
                line({"line": number, **refusal_json(exc)})
                version = exc.extra.get("version", version)
                continue
            version = bots.settle(svc, table_id).version
            line({"line": number, "version": version, "events": done["events"]})
    if failed:
        sys.exit(1)
