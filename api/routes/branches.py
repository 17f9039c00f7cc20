"""``/api/branches``: what-if branches stored beside the games they leave from.

A branch is created with ``POST /api/games/{id}/branches`` (:func:`create_branch`); its id
comes from its parent, step and actions, so it never changes and is cached like a game.
Branches of any game are checked, stored and replayed by the game's ruleset; their
comparison with the game is the review's what-if, for a game that has a review.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from flask import url_for
from werkzeug.wrappers import Response

from api.caching import IMMUTABLE, immutable_json, json_response
from api.openapi import ApiBlueprint
from api.problems import Problem
from api.schemas import BranchInfo, Position
from api.uploads import record_problem
from domain.games import ruleset
from domain.replays import RecordError
from domain.ruleset import InvalidRecord
from domain.store import UnknownGame
from domain.store.branches import BranchInfo as StoredBranch
from domain.store.branches import (
    OtherRules,
    branch_id_for,
    branch_info,
    branch_state_at,
    save_branch,
)
from services.branches import describe
from services.shared import Services, services

blp = ApiBlueprint("branches", __name__, url_prefix="/api/branches",
                   description="What-if branches of games")  # fmt: skip
CACHED = {"ETag": {"schema": {"type": "string"}}, "Cache-Control": {"schema": {"type": "string"}}}


def create_branch(svc: Services, parent_id: UUID, step: int, docs: Sequence[Any]) -> Response:
    """Check and store a branch of ``parent_id``: 201 (new) or 200 (stored before) with its
    description and ``Location``; 400/422 problems for a bad step or action."""
    library = svc.library
    last = library.steps(parent_id)
    if step > last:
        message = f"Must be at most {last}, the game's last step."
        raise Problem(400, "invalid_parameters", f"Invalid parameters: step: {message}",
                      errors={"json": {"step": [message]}}, limit=last)  # fmt: skip
    if step + len(docs) > svc.settings.max_actions:
        limit = svc.settings.max_actions
        raise Problem(422, "too_many_actions", f"A game may have at most {limit} actions.",
                      limit=limit)  # fmt: skip
    rules = library.rules(parent_id)
    try:
        actions = [rules.read_action(doc, f"actions[{i}]") for i, doc in enumerate(docs)]
    except InvalidRecord as exc:
        raise record_problem(exc) from None
    known = library.exists(branch_id_for(parent_id, step, [rules.write_action(a) for a in actions]))
    try:
        with svc.writing():
            branch_id = save_branch(library, parent_id, step, actions)
    except RecordError as exc:
        exc.index -= step  # the branch's own actions count
        raise record_problem(exc) from None
    except OtherRules as exc:
        raise Problem(409, "other_rules_version", f"{exc}.",
                      rules_version=exc.rules_version) from None  # fmt: skip
    response = json_response(describe(library, branch_id), 200 if known else 201)
    response.headers["Location"] = url_for("branches.branch", branch_id=branch_id)
    return response


def _info(branch_id: UUID) -> StoredBranch:
    try:
        return branch_info(services().library, branch_id)
    except UnknownGame:
        raise Problem(404, "unknown_branch", f"No branch {branch_id} is stored.") from None


@blp.route("/<uuid:branch_id>")
@blp.response(200, BranchInfo, description="The branch: its parent, step, actions and the "
              f"comparison. Cache-Control: `{IMMUTABLE}`.", headers=CACHED)  # fmt: skip
@blp.alt_response(304, description="The client's copy (`If-None-Match`) is current.")
@blp.problems(404)
def branch(branch_id: UUID) -> Response:
    """A what-if branch: the game it leaves, after how many actions, its own actions, and how
    it compares with the game (scores and win probabilities)."""
    svc = services()

    def render() -> dict[str, Any]:
        _info(branch_id)
        return describe(svc.library, branch_id)

    return immutable_json(svc.bodies, render, "branch", branch_id)


@blp.route("/<uuid:branch_id>/states/<int:step>")
@blp.response(200, Position, description="The branched game's position after the first "
              f"`step` actions. Cache-Control: `{IMMUTABLE}`.", headers=CACHED)  # fmt: skip
@blp.alt_response(304, description="The client's copy (`If-None-Match`) is current.")
@blp.problems(404)
def state(branch_id: UUID, step: int) -> Response:
    """The position (records.md) after the first `step` actions of the branched game: the
    parent's up to the branch point, the branch's own after it."""
    svc = services()

    def render() -> dict[str, Any]:
        info = _info(branch_id)
        last = info.step + len(info.actions)
        if step > last:
            raise Problem(404, "unknown_step", f"Branch {branch_id} has steps 0 to {last}.",
                          limit=last)  # fmt: skip
        state = branch_state_at(svc.library, branch_id, step)
        return ruleset(info.game).write_position(state)

    return immutable_json(svc.bodies, render, "branch-state", branch_id, step)
