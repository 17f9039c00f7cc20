"""flask-smorest wired to Howl: problem+json errors, 400 for bad parameters, OpenAPI 3.1."""

from __future__ import annotations

import http
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask
from flask_smorest import Api, Blueprint
from flask_smorest.utils import prepare_response
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from api import __version__
from api.problems import PROBLEM_JSON, problem
from api.schemas import DateOrDateTime, ProblemSchema

OPENAPI_VERSION = "3.1.0"


class ParameterParser(FlaskParser):
    """webargs' Flask parser answering malformed parameters with 400 (422 is for records)."""

    DEFAULT_VALIDATION_STATUS = 400


F = TypeVar("F", bound=Callable[..., Any])


class ApiBlueprint(Blueprint):
    """A flask-smorest blueprint using :class:`ParameterParser`."""

    ARGUMENTS_PARSER = ParameterParser()

    def problems(self, *statuses: int) -> Callable[[F], F]:
        """Document the problem answers a route may give, by HTTP status (each the
        component response of its status's name, as ``alt_response`` would)."""

        def document(view: F) -> F:
            for status in reversed(statuses):
                view = self.alt_response(status, response=http.HTTPStatus(status).name)(view)
            return view

        return document


class HowlApi(Api):
    """flask-smorest's ``Api`` whose errors, and their documentation, are problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        return problem(error)

    def _register_responses(self) -> None:
        """The documented error responses (one per status, and the default) are problems."""
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        default = {"description": "Any error, as a problem", "schema": self.ERROR_SCHEMA}
        prepare_response(default, self.spec, PROBLEM_JSON)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, default, lazy=True)


def create_api(app: Flask) -> HowlApi:
    """Attach the API documentation machinery to ``app``: the spec at ``/api/openapi.json``."""
    app.config.update(
        API_TITLE="Howl API",
        API_VERSION=__version__,
        OPENAPI_VERSION=OPENAPI_VERSION,
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {
                "description": "Upload, browse, replay and compare board games. "
                "Errors are RFC 9457 problems (application/problem+json)."
            },
            "components": {
                "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            },
        },
    )
    api = HowlApi(app)
    api.register_field(DateOrDateTime, "string", None)  # a date or a date-time
    return api
