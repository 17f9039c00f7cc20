"""Bearer tokens from ``HOWL_API_TOKENS``: who is asking, by the token's name."""

from __future__ import annotations

import hmac
from collections.abc import Mapping

from services.refusals import Refusal


def token_name(tokens: Mapping[str, str], authorization: str | None) -> str | None:
    """The name of the token an ``Authorization`` header carries; None without one.

    Raises a 401 :class:`Refusal` (``missing_token``) for a header that is not
    ``Bearer <token>`` and a 403 one (``unknown_token``) for a token the server does not know.

    >>> token_name({"ana": "s3cret"}, "Bearer s3cret"), token_name({"ana": "s3cret"}, None)
    ('ana', None)
    """
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Refusal(401, "missing_token", "Use Authorization: Bearer <token>.")
    found = None
    for name, known in tokens.items():  # compare with every token, in constant time each
        if hmac.compare_digest(known.encode(), token.encode()):
            found = name
    if found is None:
        raise Refusal(403, "unknown_token", "This token is not accepted here.")
    return found
