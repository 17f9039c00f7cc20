"""Security headers on every answer: no MIME sniffing, no framing, no cross-site referrers,
and a Content-Security-Policy.

Pages (HTML: the dashboard, ``/api/docs``) get :func:`page_policy`: scripts only from this
origin plus the Dash index page's own inline scripts by hash, styles from this origin and
inline (Dash and Plotly set them), nothing from elsewhere. Every other answer (JSON, assets)
gets :data:`API_POLICY`, which lets it run nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from werkzeug.wrappers import Response

API_POLICY = "default-src 'none'; frame-ancestors 'none'"
"""The CSP of answers that are not pages."""
STATIC = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
)
"""Headers every answer carries, whatever it is."""
HEADERS = (*STATIC, ("Content-Security-Policy", API_POLICY))
"""The security headers of an answer that is not a page."""


def page_policy(script_hashes: Iterable[str]) -> str:
    """The CSP of HTML pages, allowing the inline scripts of ``script_hashes``
    (``'sha256-…'``, as ``Dash.csp_hashes`` gives them).

    >>> page_policy(["'sha256-x'"]).split("; ")[1]
    "script-src 'self' 'sha256-x'"
    """
    scripts = " ".join(["'self'", *script_hashes])
    return "; ".join([
        "default-src 'self'",
        f"script-src {scripts}",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])  # fmt: skip


class SecurityHeaders:
    """Adds the security headers to a Flask answer (``after_request``): ``policy`` for
    pages, :data:`API_POLICY` for the rest; headers an answer set itself are kept."""

    def __init__(self, policy: str) -> None:
        self.policy = policy

    def __call__(self, response: Response) -> Response:
        page = response.mimetype == "text/html"
        csp = self.policy if page else API_POLICY
        for name, value in (*STATIC, ("Content-Security-Policy", csp)):
            response.headers.setdefault(name, value)
        return response
