"""Rule tests' two moves, for any game given its ``play(state, action) -> (state, events)``:
an action refused under a rule, and a line of actions played out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from domain.ruleset import IllegalAction

Play = Callable[[Any, Any], tuple[Any, Sequence[Any]]]


def refused(play: Play, state: Any, action: Any, rule: str, *words: str) -> IllegalAction:
    """Assert ``action`` is rejected under ``rule`` with every one of ``words`` in the message."""
    with pytest.raises(IllegalAction) as caught:
        play(state, action)
    err = caught.value
    assert err.rule == rule, err
    for word in words:
        assert word in err.message, (word, err.message)
    return err


def played(play: Play, state: Any, *actions: Any) -> tuple[Any, list[Any]]:
    """Play ``actions`` in order; the final state and every event they caused."""
    events: list[Any] = []
    for action in actions:
        state, more = play(state, action)
        events.extend(more)
    return state, events
