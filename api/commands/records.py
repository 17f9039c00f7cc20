"""``howl validate``, ``howl replay`` and ``howl score``: records.md's command-line contract.

Each reads a game record from FILE (``-`` for standard input). A record that is not well
formed or breaks a rule exits 1 with the error JSON (``invalid_record`` or
``illegal_action``) on standard output.
"""

from __future__ import annotations

import dataclasses
import json
from typing import IO, Any, NoReturn

import click

from domain.wolves.positions import to_position
from domain.wolves.records import InvalidRecord, Record, read_record
from domain.wolves.replay import RecordError, Replay, describe, replay
from domain.wolves.scoring import final_scores
from domain.wolves.state import State

FILE = click.argument("file", type=click.File("rb"))
AT = click.option(
    "--at", type=click.IntRange(min=0), help="Only the first N actions (default: all).", metavar="N"
)
JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON (the scripting format).")


def _emit(doc: Any) -> None:
    """One JSON document on a line of standard output, UTF-8, keys in the documents' order."""
    click.echo(json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode())


def _fail(doc: dict[str, Any]) -> NoReturn:
    _emit(doc)
    raise SystemExit(1)


def _load(file: IO[bytes]) -> tuple[Record, Replay]:
    """Read and replay the whole record; on an error print its JSON and exit 1."""
    try:
        record = read_record(file.read())
        return record, replay(record)
    except (InvalidRecord, RecordError) as err:
        _fail(err.to_json())


def _state_at(record: Record, result: Replay, at: int | None) -> State:
    if at is None:
        return result.state
    if at > len(record.actions):
        raise click.BadParameter(f"the record has {len(record.actions)} actions", param_hint="--at")
    return result.state_at(at)


@click.command("validate")
@FILE
def validate_command(file: IO[bytes]) -> None:
    """Check a game record; print a one-line summary (exit 0) or the error JSON (exit 1)."""
    record, result = _load(file)
    click.echo(f"ok: {describe(record, result)}")


@click.command("replay")
@FILE
@AT
@JSON
def replay_command(file: IO[bytes], at: int | None, as_json: bool) -> None:
    """The position after the first N actions (default: the end of the record)."""
    record, result = _load(file)
    state = _state_at(record, result, at)
    if as_json:
        _emit(to_position(state))
        return
    step = len(record.actions) if at is None else at
    player = state.table.players[state.player].name
    if state.finished:
        now = "game over"
    elif state.drafting:
        now = f"draft pick {state.draft_picks + 1}, {player} to pick"
    else:
        left, tokens = state.actions_left, state.boards[state.player].bonus_action
        now = f"{player} to act ({left} action{'s' if left != 1 else ''} left"
        if state.out_of_actions:  # W-6: a token may still be spent, or the turn passed
            now += f", {tokens} bonus action token{'s' if tokens != 1 else ''} to spend or keep"
        now += ")"
    click.echo(f"after {step} of {len(record.actions)} actions: Moonlight date {state.date}, {now}")


@click.command("score")
@FILE
@AT
@JSON
def score_command(file: IO[bytes], at: int | None, as_json: bool) -> None:
    """Final (or current) score per seat with its breakdown and place (W-9)."""
    record, result = _load(file)
    scores = final_scores(_state_at(record, result, at))
    if as_json:
        _emit({"scores": [dataclasses.asdict(s) for s in scores]})
        return
    for s in sorted(scores, key=lambda s: (s.place, s.seat)):
        name = record.players[s.seat].name
        click.echo(
            f"{s.place}. {name}: {s.total} (regions {s.regions}, spread {s.spread}, "
            f"speed {s.speed}, howl {s.howl}, lairs {s.lairs}, prey {s.prey}, pack {s.pack}; "
            f"{s.region_tokens} region tokens, {s.wolves_on_map} wolves on the map)"
        )
