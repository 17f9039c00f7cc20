"""The Flask application factory: the JSON API under ``/api`` and the dashboard at ``/``."""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Flask, current_app, json, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, ServiceUnavailable
from werkzeug.wrappers import Response

from api import __version__
from api.config import Settings
from dashboard.app import create_dash
from projections import db

PROBLEM_JSON = "application/problem+json"
SETTINGS_KEY = "howl.settings"

log = logging.getLogger(__name__)
bp = Blueprint("api", __name__, url_prefix="/api")


def settings_of(app: Flask) -> Settings:
    """The :class:`Settings` an app was created with."""
    return app.extensions[SETTINGS_KEY]


@bp.get("/health")
def health() -> dict[str, Any]:
    """Report that the service and its store answer: ``{"status": "ok", "backend": …}``."""
    url = settings_of(current_app).database_url
    backend = db.backend_of(url)
    try:
        db.ping(url)
    except Exception as exc:
        log.warning("health check failed on the %s store: %s", backend, exc)
        raise ServiceUnavailable(f"The {backend} store does not answer.") from exc
    return {"status": "ok", "backend": backend, "version": __version__}


API_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]


@bp.route("/<path:_rest>", methods=API_METHODS)
def unknown(_rest: str) -> None:
    """Answer an unknown API path with a 404 problem rather than the dashboard's page, and a
    known path asked with the wrong method with a 405 problem."""
    adapter = current_app.url_map.bind_to_environ(request.environ)
    allowed = []
    for method in API_METHODS:
        try:
            endpoint, _ = adapter.match(request.path, method=method)
        except HTTPException:
            continue
        if endpoint != request.endpoint:
            allowed.append(method)
    if allowed:
        raise MethodNotAllowed(allowed)
    raise NotFound()


def problem(exc: HTTPException) -> Response:
    """Render an HTTP error as RFC 9457 ``application/problem+json``, keeping its headers."""
    response = exc.get_response()
    status = exc.code or 500
    detail = exc.description if status < 500 or status == 503 else "An unexpected error occurred."
    body = {"type": "about:blank", "title": exc.name, "status": status, "detail": detail}
    response.set_data(json.dumps(body))
    response.content_type = PROBLEM_JSON
    return response


def create_app(settings: Settings | None = None) -> Flask:
    """Build the Howl web app (API and dashboard) for ``settings`` (default: from the environment).

    >>> app = create_app(Settings("sqlite:///:memory:"))
    >>> app.test_client().get("/api/health").json["backend"]
    'sqlite'
    """
    settings = settings or Settings.from_env()
    db.backend_of(settings.database_url)  # fail fast on an unsupported URL
    app = Flask("howl")
    app.extensions[SETTINGS_KEY] = settings
    app.config["MAX_CONTENT_LENGTH"] = settings.max_upload_bytes
    app.json.sort_keys = False
    app.register_error_handler(HTTPException, problem)
    app.register_blueprint(bp)
    create_dash(app)
    return app
