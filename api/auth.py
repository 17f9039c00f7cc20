"""Bearer tokens from ``HOWL_API_TOKENS``: who is asking, by the token's name."""

from __future__ import annotations

import hmac
from collections.abc import Mapping

from flask import request

from api.problems import Problem

CHALLENGE = {"WWW-Authenticate": 'Bearer realm="howl"'}


def token_name(tokens: Mapping[str, str], authorization: str | None) -> str | None:
    """The name of the token an ``Authorization`` header carries; None without one.

    Raises a 401 problem for a header that is not ``Bearer <token>`` and a 403 problem for
    a token the server does not know.

    >>> token_name({"ana": "s3cret"}, "Bearer s3cret"), token_name({"ana": "s3cret"}, None)
    ('ana', None)
    """
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Problem(401, "missing_token", "Use Authorization: Bearer <token>.", CHALLENGE)
    found = None
    for name, known in tokens.items():  # compare with every token, in constant time each
        if hmac.compare_digest(known.encode(), token.encode()):
            found = name
    if found is None:
        raise Problem(403, "unknown_token", "This token is not accepted here.")
    return found


def optional_user(tokens: Mapping[str, str]) -> str | None:
    """The requesting token's name, or None for an anonymous request."""
    return token_name(tokens, request.headers.get("Authorization"))


def required_user(tokens: Mapping[str, str]) -> str:
    """The requesting token's name; a 401 problem for an anonymous request."""
    name = optional_user(tokens)
    if name is None:
        raise Problem(401, "missing_token", "This needs Authorization: Bearer <token>.", CHALLENGE)
    return name
