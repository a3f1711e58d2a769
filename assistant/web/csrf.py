"""CSRF protection: Flask-WTF's CSRFProtect, one secret per session, a signed token in every form.

Every POST needs the token (form field ``csrf_token`` or the ``X-CSRF-Token`` header), whatever
its content type, except JSON requests (``Content-Type: application/json``) to the views that
read JSON (the JSON door, transcript import): a browser cannot send them cross-site without a
CORS preflight, which this app never allows.  That exemption depends on the request, not only on
the view, so the check runs here (``WTF_CSRF_CHECK_DEFAULT`` off) and calls ``protect()``.
"""

from __future__ import annotations

from flask import Flask, abort, current_app, request
from flask_wtf.csrf import CSRFError, CSRFProtect

# Views that take a JSON body besides forms (they check the token of their form posts).
JSON_VIEWS = ("home.import_game",)


def is_json_request() -> bool:
    return request.mimetype == "application/json"


def exempt(view):
    """Mark a view that enforces ``Content-Type: application/json`` itself."""
    view.csrf_exempt = True
    return view


def _check() -> None:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    view = current_app.view_functions.get(request.endpoint)
    if getattr(view, "csrf_exempt", False):
        return
    if is_json_request() and request.endpoint in JSON_VIEWS:
        return
    try:
        current_app.extensions["csrf"].protect()
    except CSRFError as err:
        reason = (err.description or "").rstrip(".")
        abort(
            400,
            description="This form has expired or did not come from this app "
            f"(CSRF check failed: {reason[:1].lower() + reason[1:]}). Reload the page and try again.",
        )


def init_app(app: Flask) -> None:
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a table page stays open for a whole game
    app.config.setdefault("WTF_CSRF_HEADERS", ["X-CSRF-Token"])
    CSRFProtect(app)  # also the template global csrf_token()
    app.before_request(_check)
