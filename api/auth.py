"""Who asks an API request, by the name of its bearer token (:mod:`services.tokens`)."""

from __future__ import annotations

from collections.abc import Mapping

from flask import request

from api.problems import CHALLENGE, Problem
from services.tokens import token_name


def optional_user(tokens: Mapping[str, str]) -> str | None:
    """The requesting token's name, or None for an anonymous request (a 401 or 403
    :class:`~services.refusals.Refusal` for a malformed header or an unknown token)."""
    return token_name(tokens, request.headers.get("Authorization"))


def required_user(tokens: Mapping[str, str]) -> str:
    """The requesting token's name; a 401 problem for an anonymous request."""
    name = optional_user(tokens)
    if name is None:
        raise Problem(401, "missing_token", "This needs Authorization: Bearer <token>.", CHALLENGE)
    return name
