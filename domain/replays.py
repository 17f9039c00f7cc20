"""Replaying a record of any game: its ruleset over its actions, step by step.

>>> from domain.games import ruleset
>>> from domain.documents import parse
>>> wolves = ruleset("the-wolves")
>>> record = wolves.self_play(2, ["random", "random"], seed=3)
>>> played = replay(wolves, record, at=4)
>>> len(played.steps), wolves.turn(played.state)
(4, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.ruleset import GameRecord, IllegalAction, Ruleset

CHECK_EVERY = 16
"""Actions replayed between two calls of a replay's ``check``."""


class RecordError(Exception):
    """A record whose action at ``index`` breaks rule ``rule``: the record is rejected whole."""

    def __init__(self, index: int, action: dict[str, Any], rule: str, message: str) -> None:
        super().__init__(f"action {index} (step {index + 1}): {rule}: {message}")
        self.index = index
        self.action = action
        self.rule = rule
        self.message = message

    def to_json(self) -> dict[str, Any]:
        """``{"error": "illegal_action", "index", "action", "rule", "message"}`` (records.md)."""
        return {
            "error": "illegal_action",
            "index": self.index,
            "action": self.action,
            "rule": self.rule,
            "message": self.message,
        }


@dataclass
class Replay:
    """A record played through: the state before, the events of each action, the state after."""

    rules: Ruleset
    initial: Any
    state: Any
    steps: list[list[Any]]

    def state_at(self, n: int) -> Any:
        """The state after the first ``n`` replayed actions (a fold over their events)."""
        if not 0 <= n <= len(self.steps):
            raise ValueError(f"step {n} is outside 0 to {len(self.steps)}")
        if n == len(self.steps):
            return self.state
        return self.rules.fold(self.initial, [e for events in self.steps[:n] for e in events])


def replay(
    rules: Ruleset,
    record: GameRecord,
    at: int | None = None,
    check: Callable[[], None] | None = None,
) -> Replay:
    """Play the first ``at`` actions (all by default); an illegal one raises RecordError.

    ``check``, when given, is called before the first action and every ``CHECK_EVERY``
    actions after it: whatever it raises ends the replay (a caller's work budget).
    """
    actions = record.actions if at is None else record.actions[:at]
    if at is not None and not 0 <= at <= len(record.actions):
        raise ValueError(f"at={at} is outside 0 to {len(record.actions)}")
    start = rules.start(record)
    state = start
    steps: list[list[Any]] = []
    for index, action in enumerate(actions):
        if check is not None and index % CHECK_EVERY == 0:
            check()
        try:
            state, events = rules.play(state, action)
        except IllegalAction as err:
            raise RecordError(index, rules.write_action(action), err.rule, err.message) from None
        steps.append(list(events))
    return Replay(rules, start, state, steps)
