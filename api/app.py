"""The Flask application factory: the JSON API under ``/api`` and the dashboard at ``/``."""

from __future__ import annotations

from functools import partial
from typing import NoReturn

from flask import Blueprint, Flask, current_app, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.wrappers import Response

from api import bodies, docs
from api.caching import CachedAnswers
from api.headers import SecurityHeaders, page_policy
from api.openapi import create_api
from api.problems import Problem, problem, problem_of
from api.routes import (
    branches,
    comments,
    games,
    meta,
    players,
    practice,
    ratings,
    stats,
    tables,
    variations,
)
from api.schemas import TEXT_RULE, text_errors
from api.uploads import SizedBodies
from dashboard.app import body_limit, create_dash
from domain.store import UnknownGame, WithdrawnGame
from projections import db
from services.config import Settings
from services.refusals import Refusal
from services.shared import SERVICES_KEY, Services, services

__all__ = ["create_app"]

bp = Blueprint("api", __name__, url_prefix="/api")
API_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]


@bp.route("/<path:_rest>", methods=API_METHODS)
def unknown(_rest: str) -> NoReturn:
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


def api_only() -> None:
    """Before a request under ``/api``: a path no API route has (``/api``, ``/api/``,
    ``/api//games``) is a 404 problem rather than the dashboard's page, and a path or query
    parameter that is not UTF-8 text or holds a NUL is a 400 ``invalid_parameters``."""
    if request.path != "/api" and not request.path.startswith("/api/"):
        return
    rule = request.url_rule  # None: routing failed, and says why itself
    if rule is not None and not rule.rule.startswith("/api"):
        raise NotFound()
    errors = text_errors(request.environ)
    if errors:
        names = ", ".join(name for where in errors.values() for name in where)
        raise Problem(400, "invalid_parameters", f"Invalid parameters: {names}: {TEXT_RULE}",
                      errors=errors)  # fmt: skip


def unknown_game(exc: UnknownGame) -> Response:
    """A 404 problem for a game id that names no stored game, a 410 for a withdrawn one."""
    if isinstance(exc, WithdrawnGame):
        return problem(Problem(410, "withdrawn_game", f"Game {exc.game_id} was withdrawn by "
                               "its uploader; it is no longer shown."))  # fmt: skip
    return problem(Problem(404, "unknown_game", f"No game {exc.game_id} is stored."))


def refused(exc: Refusal) -> Response:
    """The problem a refusal of the shared services means (``store_cannot_write``…)."""
    return problem(problem_of(exc))


def start_analysis() -> None:
    """Before a request: make sure the process's analysis worker runs (on the first request,
    so neither building the app nor the dev server's reloading parent starts one)."""
    services().ensure_worker()


def create_app(settings: Settings | None = None, analysis_worker: bool = True) -> Flask:
    """Build the Howl web app (API and dashboard) for ``settings`` (default: from the environment).

    The store is opened and, with ``analysis_worker``, the analysis worker started
    (``HOWL_ANALYSIS``) on first use, not here.

    >>> app = create_app(Settings("sqlite:///:memory:"))
    >>> app.test_client().get("/api/health").json["backend"]
    'sqlite'
    """
    settings = settings or Settings.from_env()
    db.backend_of(settings.database_url)  # fail fast on an unsupported URL
    app = Flask("howl")
    app.extensions[SERVICES_KEY] = svc = Services(settings, analysis_worker)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_upload_bytes
    json = DefaultJSONProvider(app)  # Flask's default, kept in the order written
    json.sort_keys = False
    app.json = json
    api = create_api(app)  # its HTTPException handler answers every error as a problem
    app.register_error_handler(UnknownGame, unknown_game)
    app.register_error_handler(Refusal, refused)
    app.before_request(start_analysis)
    app.before_request(api_only)
    blueprints = (
        meta, games, branches, stats, ratings, players, tables, variations, practice,
        comments,
    )  # fmt: skip
    for blueprint in (module.blp for module in blueprints):
        api.register_blueprint(blueprint)
    app.register_blueprint(docs.bp)
    app.register_blueprint(bp)
    dash = create_dash(app)
    app.after_request(SecurityHeaders(page_policy(dash.csp_hashes())))
    sized = SizedBodies(app.wsgi_app, partial(body_limit, limit=settings.max_upload_bytes))
    # Replacing wsgi_app is how Flask takes middleware; mypy sees a method assigned.
    app.wsgi_app = CachedAnswers(  # type: ignore[method-assign]
        sized, svc.bodies, svc.withdrawals.check
    )
    bodies.install(app)
    return app
