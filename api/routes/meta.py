"""``/api/health``: is the service up, and does its store answer."""

from __future__ import annotations

import logging
from typing import Any

from werkzeug.exceptions import ServiceUnavailable

from api import __version__
from api.openapi import ApiBlueprint
from api.schemas import Health
from projections import db
from services.shared import services

blp = ApiBlueprint("service", __name__, url_prefix="/api", description="The service itself")
log = logging.getLogger(__name__)


@blp.route("/health")
@blp.response(200, Health)
@blp.problems(503)
def health() -> dict[str, Any]:
    """Report that the service and its store answer (`SELECT 1`).

    `status` is `degraded` (still 200) when some games could not be projected: `failures`
    counts them; or when this process's last write failed because the store is full or
    read-only: `store` says so (until a write succeeds).
    """
    url = services().settings.database_url
    backend = db.backend_of(url)
    try:
        db.ping(url)
    except Exception as exc:
        log.warning("health check failed on the %s store: %s", backend, exc)
        raise ServiceUnavailable(f"The {backend} store does not answer.") from exc
    failures = _failures()
    cannot_write = services().write_failure
    status = "degraded" if failures or cannot_write else "ok"
    answer = {"status": status, "backend": backend, "version": __version__}
    if cannot_write:
        answer["store"] = f"cannot write ({cannot_write})"
    return answer if failures is None else {**answer, "failures": failures}


def _failures() -> int | None:
    """How many games could not be projected (None when the read models do not answer)."""
    try:
        return services().read_models.failure_count()
    except Exception as exc:
        log.warning("health could not count the projection failures: %s", exc)
        return None
