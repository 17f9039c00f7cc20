"""Variations for every face: what-if lines played at a table from any step of a stored game
(:mod:`domain.store.tables`), each one's own actions kept as a branch of its game; the
review's suggested line; a variation compared with its game; a game's list of them.

A variation is a table with an origin, so every table function (:mod:`services.tables`)
plays it. Its writes need its author (``by``) when tokens are configured; every refusal is
a :class:`Refusal`. The functions act on the current app's services unless given ``svc``.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.bounds import is_int, text_problem
from domain.replays import RecordError
from domain.ruleset import InvalidRecord, Ruleset
from domain.store import UnknownGame
from domain.store import tables as store
from domain.store.branches import OtherRules, branch_info
from domain.store.tables import StaleVersion, TableFull, TableView, UnknownTable
from projections.analysis_worker import analysis_status
from services.branches import compare
from services.refusals import Refusal
from services.shared import Services, services
from services.tables import check_author, document, record_refusal, table_uuid, write_refusal

__all__ = [
    "delete", "game_variations", "name_problem", "open_variation", "rename", "variation_doc",
]  # fmt: skip

MAX_NAME = 80
"""Characters a variation's name has at most."""
MAX_PLIES = 12
"""Actions of the engine's continuation a suggested line plays at most."""
DEFAULT_PLIES = 4
MAX_LISTED = 500
"""Variations a game's list shows at most."""


def _svc(svc: Services | None) -> Services:
    return svc if svc is not None else services()


def _invalid(name: str, message: str, **extra: Any) -> Refusal:
    return Refusal(400, "invalid_parameters", f"Invalid parameters: {name}: {message}",
                   errors={"json": {name: [message]}}, **extra)  # fmt: skip


def name_problem(name: str) -> str | None:
    """Why ``name`` is no variation name (1 to :data:`MAX_NAME` characters, no control
    characters), or None.

    >>> name_problem("Hunt first"), name_problem(""), name_problem("a\\tb")
    (None, 'empty', 'contains a control character')
    """
    if not name.strip():
        return "empty"
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        return "contains a control character"
    return text_problem(name, MAX_NAME)


def _name(name: object) -> str:
    if not isinstance(name, str):
        raise _invalid("name", "Must be a string.")
    problem = name_problem(name)
    if problem is not None:
        raise _invalid("name", f"Must be 1 to {MAX_NAME} characters without control "
                       f"characters: {problem}.", limit=MAX_NAME)  # fmt: skip
    return name


def _unknown(variation_id: object) -> Refusal:
    return Refusal(404, "unknown_variation", f"No variation {variation_id} is stored.")


def _game_uuid(game_id: UUID | str) -> UUID:
    try:
        return game_id if isinstance(game_id, UUID) else UUID(str(game_id))
    except ValueError:
        raise UnknownGame(game_id) from None  # type: ignore[arg-type]


def _suggested(svc: Services, game_id: UUID, step: int, plies: object) -> list[dict[str, Any]]:
    """The review's better alternative to the action at index ``step``, then ``plies``
    actions of the review's own continuation (records.md JSON)."""
    if not is_int(plies) or not 1 <= plies <= MAX_PLIES:
        raise _invalid("plies", f"Must be an integer from 1 to {MAX_PLIES}.", limit=MAX_PLIES)
    library = svc.library
    rules = library.rules(game_id)
    status = analysis_status(svc.analyses_url, game_id, svc.analysis_settings)
    if rules.review is None or status["status"] != "done":
        raise Refusal(409, "no_review", f"Game {game_id} has no stored review at the current "
                      f"settings ({svc.analysis_settings.key}).")  # fmt: skip
    reviewed = next((s for s in status["result"]["steps"] if s["index"] == step), None)
    if reviewed is None or reviewed["best"] is None:
        found = "no action reviewed" if reviewed is None else "no better action than the one played"
        raise Refusal(409, "not_flagged", f"The review found {found} at step {step + 1}.")
    better = rules.read_action(reviewed["best"]["action"], "best")
    after, _ = rules.play(library.state_at(game_id, step), better)
    line = rules.review.continuation(after, plies, svc.analysis_settings, step + 1)
    return [rules.write_action(a) for a in (better, *line)]


def open_variation(
    game_id: UUID | str, step: object, by: str | None, name: object = None,
    actions: object = None, suggested: bool = False, plies: object = DEFAULT_PLIES,
    svc: Services | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Open a variation of a stored game at ``step`` (the position after its first ``step``
    actions), named ``name`` (default "Variation at step n", numbered from "(2)" when taken),
    with its first own ``actions``
    (records.md JSON), or ``suggested``: the review's better alternative to the action at
    index ``step`` and ``plies`` actions of its continuation ("Suggested at step n+1").
    The table document with its ``variation``; nothing is stored when it is refused."""
    svc = _svc(svc)
    library, gid = svc.library, _game_uuid(game_id)
    last = library.steps(gid)  # an unknown game is UnknownGame
    if not is_int(step) or not 0 <= step <= last:
        raise _invalid("step", f"Must be an integer from 0 to {last}, the game's last step.",
                       limit=last)  # fmt: skip
    docs: object
    if suggested:
        if actions is not None:
            raise _invalid("actions", "A suggested line takes no actions.")
        docs = _suggested(svc, gid, step, plies)
        default = f"Suggested at step {step + 1}"
    else:
        docs = [] if actions is None else actions
        default = f"Variation at step {step}"
    if not isinstance(docs, list):
        raise _invalid("actions", "Must be a list of records.md actions.")
    limit = svc.settings.max_actions
    if step + len(docs) > limit:
        raise Refusal(422, "too_many_actions", f"A game may have at most {limit} actions.",
                      limit=limit)  # fmt: skip
    title = _unused(default, library, gid) if name is None else _name(name)
    rules = library.rules(gid)
    if not docs and rules.finished(library.state_at(gid, step)):
        raise Refusal(409, "game_over", f"The game is over at step {step}: there is nothing "
                      "to play from there.")  # fmt: skip
    try:
        played = [rules.read_action(doc, f"actions[{i}]") for i, doc in enumerate(docs)]
        with svc.writing():
            view = store.open_variation(library, gid, step, played, by, title, limit)
    except (InvalidRecord, RecordError) as exc:
        raise record_refusal(exc) from None
    except OtherRules as exc:
        raise Refusal(409, "other_rules_version", f"{exc}.",
                      rules_version=exc.rules_version) from None  # fmt: skip
    except TableFull as exc:
        raise Refusal(422, "too_many_actions", f"{exc}", limit=exc.limit) from None
    return document(view)


def _unused(default: str, library: Any, game_id: UUID) -> str:
    """``default``, or with the first number from 2 that no live variation of the game is
    named with ("Variation at step 30 (2)"), so that a game's lines are told apart."""
    taken = {v.name for v in store.variations_of(library, game_id)}
    return next(
        name for n in range(1, len(taken) + 2)
        if (name := default if n == 1 else f"{default} ({n})") not in taken
    )  # fmt: skip


def _view(variation_id: UUID | str, svc: Services) -> TableView:
    """A live variation; a 404 ``unknown_variation`` refusal for none."""
    try:
        view = store.load_table(svc.library, table_uuid(variation_id))
    except UnknownTable:
        raise _unknown(variation_id) from None
    if view.origin is None:
        raise _unknown(variation_id)
    return view


def _standing(rules: Ruleset, state: Any) -> dict[str, Any]:
    """Every seat's score total and, for a game with a review, its static win chances."""
    review = rules.review
    return {
        "scores": [s.total for s in rules.scores(state)],
        "win": None if review is None else [round(w, 4) for w in review.win(state)],
    }


def describe(view: TableView, svc: Services) -> dict[str, Any]:
    """The variation document: origin, name, author, own actions, branch and comparison
    (the branch's, null without own actions or review), the main line at the variation's
    last step and the variation's end."""
    assert view.origin is not None
    library, rules = svc.library, view.rules
    steps = view.origin_step + len(view.actions)
    same = min(steps, library.steps(view.origin))
    branch = None if view.branch_id is None else branch_info(library, view.branch_id)
    return {
        "variation_id": str(view.table_id),
        "game_id": str(view.origin),
        "game": rules.name,
        "step": view.origin_step,
        "name": view.name,
        "author": view.opened_by,
        "actions": view.actions,
        "steps": steps,
        "branch_id": None if view.branch_id is None else str(view.branch_id),
        "version": view.version,
        "created_at": view.opened_at.isoformat(),
        "updated_at": view.updated_at.isoformat(),
        "comparison": None if branch is None else compare(library, branch),
        "main": {"step": same, **_standing(rules, library.state_at(view.origin, same))},
        "end": _standing(rules, view.state),
    }


def variation_doc(variation_id: UUID | str, svc: Services | None = None) -> dict[str, Any]:
    """The variation document (:func:`describe`); 404 ``unknown_variation`` for none."""
    svc = _svc(svc)
    return describe(_view(variation_id, svc), svc)


def _writer(variation_id: UUID | str, by: str | None, svc: Services) -> UUID:
    """The id of a live variation its author (``by``) may change."""
    vid = _view(variation_id, svc).table_id
    check_author(vid, by, svc)
    return vid


def rename(
    variation_id: UUID | str, name: object, by: str | None, svc: Services | None = None
) -> dict[str, Any]:
    """Rename a variation (its author only); the variation document."""
    svc = _svc(svc)
    vid = _writer(variation_id, by, svc)
    title = _name(name)
    try:
        with svc.writing():
            view = store.rename_variation(svc.library, vid, title)
    except StaleVersion as exc:
        raise write_refusal(exc) from None
    return describe(view, svc)


def delete(variation_id: UUID | str, by: str | None, svc: Services | None = None) -> None:
    """Delete a variation (its author only): it leaves every list; its stream stays."""
    svc = _svc(svc)
    vid = _writer(variation_id, by, svc)
    try:
        with svc.writing():
            store.delete_variation(svc.library, vid)
    except StaleVersion as exc:
        raise write_refusal(exc) from None


def game_variations(game_id: UUID | str, svc: Services | None = None) -> list[dict[str, Any]]:
    """A stored game's live variations with at least one own action, by step then creation
    (at most :data:`MAX_LISTED`)."""
    svc = _svc(svc)
    gid = _game_uuid(game_id)
    svc.library.steps(gid)  # an unknown game is UnknownGame
    lines = [v for v in store.variations_of(svc.library, gid) if v.actions]
    lines.sort(key=lambda v: (v.step, v.opened_at))
    return [_line(v) for v in lines[:MAX_LISTED]]


def _line(v: store.VariationLine) -> dict[str, Any]:
    return {
        "variation_id": str(v.variation_id), "branch_id": str(v.branch_id), "step": v.step,
        "name": v.name, "author": v.author, "actions": v.actions, "steps": v.step + v.actions,
        "updated_at": v.updated_at.isoformat(),
    }  # fmt: skip
