"""What-if branches as the faces show them: a stored branch described, and compared with
the game it leaves by the game's review (for a game that has one)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.documents import parse
from domain.games import ruleset
from domain.store import GameLibrary
from domain.store.branches import BranchInfo, branch_info


def compare(library: GameLibrary, info: BranchInfo) -> dict[str, Any] | None:
    """The review's comparison of a branch with its game: both ends by the static evaluator,
    and the parent after as many actions as the branch; None for a game with no review."""
    rules = ruleset(info.game)
    review = rules.review
    if review is None:
        return None
    parent = rules.read_record(parse(library.record(info.parent_id)))
    compared = review.what_if(parent, info.step, info.actions)
    same = min(info.step + len(info.actions), len(parent.actions))
    state = library.state_at(info.parent_id, same)
    at_same, win_same = review.outcome(state, same), review.win(state)
    return {
        "original": compared["original"],
        "branch": compared["branch"],
        "original_same_step": at_same,
        "win_change": compared["win_change"],
        "win_change_same_step": [
            round(b - a, 4) for a, b in zip(win_same, compared["branch"]["win"], strict=True)
        ],
    }


def describe(library: GameLibrary, branch_id: UUID) -> dict[str, Any]:
    """A stored branch with its comparison (:func:`compare`). ``UnknownGame`` for an unknown
    branch."""
    info = branch_info(library, branch_id)
    rules = ruleset(info.game)
    return {
        "branch_id": str(branch_id),
        "parent_id": str(info.parent_id),
        "game": info.game,
        "step": info.step,
        "actions": [rules.write_action(a) for a in info.actions],
        "steps": info.step + len(info.actions),
        "rules_version": info.rules_version,
        "comparison": compare(library, info),
    }
