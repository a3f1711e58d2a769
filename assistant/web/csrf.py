"""CSRF protection: one random token per session, required in every form POST.

JSON requests (``Content-Type: application/json``) to the views that read JSON (the JSON
door, transcript import) are exempt: a browser cannot send them cross-site without a CORS
preflight, which this app never allows.  Every other POST needs the token, whatever its
content type.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, current_app, request, session

FIELD = "csrf_token"
SESSION_KEY = "csrf"


def token() -> str:
    value = session.get(SESSION_KEY)
    if not value:
        value = secrets.token_urlsafe(32)
        session[SESSION_KEY] = value
        session.permanent = True
    return value


def is_json_request() -> bool:
    return request.mimetype == "application/json"


# Views that take a JSON body besides forms (they check the token of their form posts).
JSON_VIEWS = ("home.import_game",)


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
    sent = request.form.get(FIELD, "") or request.headers.get("X-CSRF-Token", "")
    expected = session.get(SESSION_KEY, "")
    if not sent or not expected or not hmac.compare_digest(str(sent), str(expected)):
        abort(
            400,
            description="This form has expired or did not come from this app (CSRF check failed). "
            "Reload the page and try again.",
        )


def init_app(app: Flask) -> None:
    app.before_request(_check)
    app.jinja_env.globals["csrf_token"] = token
