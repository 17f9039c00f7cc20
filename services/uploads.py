"""An uploaded record within the limits every face applies: its size (``HOWL_MAX_UPLOAD_BYTES``),
its actions (``HOWL_MAX_ACTIONS``) and the CPU time checking it may take
(``HOWL_MAX_CHECK_SECONDS``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from domain.documents import parse
from services.refusals import Refusal


def mebibytes(size: int) -> str:
    """``size`` bytes in MiB (of 2^20 bytes), to three significant digits.

    >>> mebibytes(2 * 1024 * 1024), mebibytes(7_340_032 + 1), mebibytes(4096), mebibytes(100)
    ('2', '7', '0.00391', '0.0000954')
    """
    text = f"{size / 2**20:.3g}"
    return text if "e" not in text else f"{size / 2**20:.7f}".rstrip("0")


def too_large(limit: int, what: str = "The request body", size: int | None = None) -> str:
    """Why a body over the size limit (``HOWL_MAX_UPLOAD_BYTES``) is refused, naming the limit
    in MiB and bytes.

    >>> print(too_large(2 * 1024 * 1024, "game.json", 7_340_032))
    game.json is 7 MiB (7340032 bytes): too large: the limit is 2 MiB (2097152 bytes, ...).
    >>> print(too_large(4096))
    The request body is too large: the limit is 0.00391 MiB (4096 bytes, HOWL_MAX_UPLOAD_BYTES).
    """
    has = f" is {mebibytes(size)} MiB ({size} bytes):" if size is not None else " is"
    return (
        f"{what}{has} too large: the limit is {mebibytes(limit)} MiB "
        f"({limit} bytes, HOWL_MAX_UPLOAD_BYTES)."
    )


def read_upload(body: bytes, max_actions: int) -> Mapping[str, Any]:
    """The record's JSON object in an upload's ``body``, with at most ``max_actions`` actions.

    Raises ``InvalidRecord`` for bytes that are not a bounded JSON object
    (:func:`domain.documents.parse`) and a 422 :class:`Refusal` ``too_many_actions`` (with its
    ``limit``) for more actions.

    >>> read_upload(b'{"actions": [1, 2, 3]}', 3)["actions"]
    [1, 2, 3]
    >>> read_upload(b'{"actions": [1, 2, 3]}', 2)
    Traceback (most recent call last):
    services.refusals.Refusal: A record may have at most 2 actions; this one has 3.
    """
    doc = parse(body)
    actions = doc.get("actions")
    if isinstance(actions, list) and len(actions) > max_actions:
        raise Refusal(422, "too_many_actions", f"A record may have at most {max_actions} "
                      f"actions; this one has {len(actions)}.", limit=max_actions)  # fmt: skip
    return doc


def work_budget(seconds: int) -> Callable[[], None]:
    """A replay's ``check``: a 422 :class:`Refusal` ``too_costly`` (with its ``limit``) once this
    thread has spent more than ``seconds`` of CPU time since the budget was made.

    >>> work_budget(5)() is None
    True
    """
    deadline = time.thread_time() + seconds

    def check() -> None:
        if time.thread_time() > deadline:
            detail = f"Checking the record took over {seconds} s of CPU time, its limit."
            raise Refusal(422, "too_costly", detail, limit=seconds)

    return check
