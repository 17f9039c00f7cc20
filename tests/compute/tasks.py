"""Tasks for the pools under test (one takes a known time and says where it ran, one fails
its first try), and a fault put into a cluster's workers."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from services import reviews
from services.reviews import Due

_REVIEW_DUE = reviews.review_due


def nap(index: int, seconds: float, log: str | None = None) -> tuple[int, int, float]:
    """Sleep ``seconds``; ``(index, this process's id, when it woke)``. With ``log`` the
    line ``index pid`` is first appended to that file, so that a task that was started and
    lost is seen."""
    if log is not None:
        with Path(log).open("a") as out:
            out.write(f"{index} {os.getpid()}\n")
    time.sleep(seconds)
    return index, os.getpid(), time.monotonic()


def flaky(index: int, folder: str) -> int:
    """``index``, once a first try has failed: each try leaves a file in ``folder``."""
    tries = Path(folder) / str(index)
    with tries.open("a") as out:
        out.write(f"{os.getpid()}\n")
    if len(tries.read_text().splitlines()) == 1:
        raise RuntimeError(f"task {index}: first try fails")
    return index


def break_reviews(game_ids: frozenset[str]) -> None:
    """Make this process's :func:`services.reviews.review_due` raise for ``game_ids`` (none:
    as it was), as a cluster's workers find it by name; run on them with ``Client.run``."""

    def review_due(game: Due, record: bytes) -> dict[str, Any]:
        if str(game.game_id) in game_ids:
            raise ValueError(f"game {game.game_id} cannot be reviewed")
        return _REVIEW_DUE(game, record)

    reviews.review_due = review_due if game_ids else _REVIEW_DUE
