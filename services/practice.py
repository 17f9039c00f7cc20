"""Practice from a reviewed game's mistakes, for every face: the positions where a seat made
a mistake or a blunder, the legal actions there, an entered action judged by the game's
review (:meth:`domain.ruleset.Review.judge`), and the solution on request; every refusal is
a :class:`Refusal`.

The stored review at the server's analysis settings is the judge's reference: a game
without one is refused (409 ``no_review``). Progress is kept per player name
(:mod:`domain.store.practice`). Who writes (``by``) is decided by each face with the
uploads' rule. The functions act on the current app's :class:`~services.shared.Services`
unless given ``svc``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.games import ruleset
from domain.replays import RecordError
from domain.ruleset import IllegalAction, InvalidRecord, Review, Ruleset
from domain.store import practice as store
from projections.analysis_worker import analysis_status
from services.refusals import Refusal
from services.shared import Services, services
from services.tables import legal_in, record_refusal

__all__ = ["FLAGGED", "JUDGES", "judge", "legal", "position", "positions", "reveal"]

FLAGGED = ("mistake", "blunder")
"""The classes of the actions a seat practises."""
JUDGES = 2
"""Actions this process judges at once (each runs the review's playouts for one action)."""
JUDGE_WAIT = 10.0
"""Seconds a judging request waits for its turn before a 503 ``busy``."""
_judging = threading.BoundedSemaphore(JUDGES)


def _svc(svc: Services | None) -> Services:
    return svc if svc is not None else services()


def _invalid(where: str, name: str, message: str) -> Refusal:
    return Refusal(400, "invalid_parameters", f"Invalid parameters: {name}: {message}",
                   errors={where: {name: [message]}})  # fmt: skip


def player_name(name: object, where: str = "json") -> str:
    """A player's name as given, trimmed; a 400 :class:`Refusal` naming ``player`` for one
    that is not 1–64 characters without control characters (:func:`store.check_name`)."""
    if not isinstance(name, str):
        raise _invalid(where, "player", "Must be a string, the player's name.")
    why = store.check_name(name)
    if why is not None:
        raise _invalid(where, "player", why)
    return name.strip()


def _index(index: object) -> int:
    if isinstance(index, bool) or not isinstance(index, int):
        raise _invalid("json", "index", "Must be an integer, the action's 0-based index.")
    return index


@dataclass(frozen=True)
class Reviewed:
    """A stored game with its stored review at the server's settings."""

    game_id: UUID
    rules: Ruleset
    review: Review
    result: dict[str, Any]

    def step(self, index: int) -> dict[str, Any]:
        """The review of the flagged action ``index``; 409 ``not_flagged`` for another."""
        for step in self.result["steps"]:
            if step["index"] == index and step["classification"] in FLAGGED:
                return dict(step)
        raise Refusal(409, "not_flagged", f"The review flags no mistake or blunder at index "
                      f"{index} (step {index + 1}) of game {self.game_id}.",
                      index=index)  # fmt: skip

    def position(self, svc: Services, step: Mapping[str, Any]) -> Any:
        """The state the mover chose the flagged action of ``step`` from."""
        before = svc.library.state_at(self.game_id, step["index"])
        return self.review.practice_position(before, self.rules.read_action(step["action"]))


def reviewed(game_id: UUID, svc: Services) -> Reviewed:
    """The game and its stored review (``UnknownGame`` for no game; 409 ``no_review`` for a
    game whose ruleset has no review, or none stored at the server's settings)."""
    rules = ruleset(svc.library.info(game_id).game)
    if rules.review is None:
        raise Refusal(409, "no_review", f"No review for this game yet: Howl does not review "
                      f"{rules.title} games.", game=rules.name)  # fmt: skip
    status = analysis_status(svc.analyses_url, game_id, svc.analysis_settings)
    if status["status"] != "done":
        raise Refusal(409, "no_review", f"Game {game_id} has no stored review at the current "
                      f"analysis settings ({status['status']}): ask for it first.",
                      game=rules.name, review=status["status"])  # fmt: skip
    return Reviewed(game_id, rules, rules.review, status["result"])


def _progress(p: store.Progress) -> dict[str, Any]:
    return {"solved": p.solved, "revealed": p.revealed, "tries": p.tries}


def positions(game_id: UUID, seat: object, player: str | None = None,
              svc: Services | None = None) -> dict[str, Any]:  # fmt: skip
    """The seat's mistakes and blunders in the stored review, each with the position before
    it, the action played and the player's progress there (none without ``player``)."""
    svc = _svc(svc)
    game = reviewed(game_id, svc)
    seats = len(game.result["players"])
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise _invalid("query", "seat", f"Must be a seat of the game, 0 … {seats - 1}.")
    name = None if player is None else player_name(player, "query")
    done = {} if name is None else store.progress(svc.library, name, game_id)
    found = []
    for step in game.result["steps"]:
        if step["seat"] != seat or step["classification"] not in FLAGGED:
            continue
        at = game.position(svc, step)
        found.append({
            "index": step["index"], "step": step["index"] + 1,
            "classification": step["classification"],
            "position": game.rules.write_position(at), "played": step["action"],
            "label": step["label"],
            **_progress(done.get(step["index"], store.Progress())),
        })  # fmt: skip
    return {"game_id": str(game_id), "seat": seat, "player": name, "positions": found}


def position(game_id: UUID, index: object, svc: Services | None = None) -> tuple[Ruleset, Any]:
    """The game's ruleset and the practice position of the flagged action ``index``."""
    svc = _svc(svc)
    game = reviewed(game_id, svc)
    return game.rules, game.position(svc, game.step(_index(index)))


def legal(game_id: UUID, index: object, hex: str | tuple[int, int] | None = None,
          svc: Services | None = None) -> dict[str, Any]:  # fmt: skip
    """The legal actions at the practice position of the flagged action ``index``, as a
    table's ``legal`` answers (``version`` 0: a practice position never changes)."""
    rules, at = position(game_id, index, svc)
    return {"index": index, "version": 0, **legal_in(rules, at, hex)}


def judge(game_id: UUID, index: object, action: object, player: object, by: str | None,
          svc: Services | None = None) -> dict[str, Any]:  # fmt: skip
    """Judge ``action`` (records.md JSON) at the flagged action ``index`` for ``player`` and
    keep the try: ``accepted``, ``loss``, ``threshold``, ``label`` (what it did), ``win``,
    ``best`` and ``best_label`` (only once accepted or revealed) and the progress there.
    An illegal action is a 422 ``illegal_action`` (``rule``) and nothing is kept."""
    svc = _svc(svc)
    name = player_name(player)
    game = reviewed(game_id, svc)
    step = game.step(_index(index))
    if not isinstance(action, Mapping):
        raise Refusal(422, "invalid_record", "action: Must be a JSON object.", path="action",
                      message="Must be a JSON object.")  # fmt: skip
    was = store.progress(svc.library, name, game_id).get(step["index"], store.Progress())
    if was.tries >= store.MAX_TRIES:
        raise Refusal(409, "too_many_tries", f"{name} has tried {store.MAX_TRIES} times here: "
                      "show the solution.", limit=store.MAX_TRIES)  # fmt: skip
    try:
        entered = game.rules.read_action(dict(action), "action")
    except InvalidRecord as exc:
        raise record_refusal(exc) from None
    settings = game.review.settings(
        **{k: v for k, v in game.result["settings"].items() if k != "key"}
    )
    at = game.position(svc, step)
    if not _judging.acquire(timeout=JUDGE_WAIT):
        raise Refusal(503, "busy", f"This server judges {JUDGES} actions at once; try again.")
    try:
        verdict = game.review.judge(at, step, settings, entered)
    except IllegalAction as err:
        written = game.rules.write_action(entered)
        raise record_refusal(RecordError(step["index"], written, err.rule, err.message)) from None
    finally:
        _judging.release()
    try:
        with svc.writing():
            now = store.record_try(
                svc.library, name, game_id, step["index"], game.rules.write_action(entered),
                bool(verdict["accepted"]), by,
            )  # fmt: skip
    except store.PracticeFull as exc:
        raise Refusal(409, "too_many_tries", str(exc)) from None
    except store.PracticeContended as exc:
        raise Refusal(503, "busy", f"{exc}: try again.") from None
    if not (now.solved or now.revealed):
        verdict = {**verdict, "best": None, "best_label": None}
    return {"index": step["index"], **verdict, **_progress(now)}


def reveal(game_id: UUID, index: object, player: object, by: str | None,
           svc: Services | None = None) -> dict[str, Any]:  # fmt: skip
    """Show the solution at the flagged action ``index`` and keep that ``player`` saw it: the
    review's best action there, its label and win share, and the progress."""
    svc = _svc(svc)
    name = player_name(player)
    game = reviewed(game_id, svc)
    step = game.step(_index(index))
    best = step["best"]
    try:
        with svc.writing():
            now = store.record_reveal(svc.library, name, game_id, step["index"], by)
    except store.PracticeFull as exc:
        raise Refusal(409, "too_many_tries", str(exc)) from None
    except store.PracticeContended as exc:
        raise Refusal(503, "busy", f"{exc}: try again.") from None
    return {"index": step["index"], "best": best["action"], "best_label": best["label"],
            "win": best["win"], **_progress(now)}  # fmt: skip
