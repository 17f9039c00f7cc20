"""A request the services refuse, in the words of an HTTP problem but without HTTP: each face
shows it its own way (the API as ``application/problem+json``, the dashboard on the page)."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A refused request: the HTTP ``status`` it means, the problem ``kind``, a ``detail`` for
    people and extension members (``limit``…) for programs.

    >>> err = Refusal(422, "too_many_actions", "At most 5 actions.", limit=5)
    >>> err.status, err.kind, err.detail, err.extra
    (422, 'too_many_actions', 'At most 5 actions.', {'limit': 5})
    """

    def __init__(self, status: int, kind: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.kind = kind
        self.detail = detail
        self.extra = extra
