"""CSRF protection: one random token per session, required in every form POST.

JSON requests (``Content-Type: application/json``) are exempt: a browser cannot send
them cross-site without a CORS preflight, which this app never allows.
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


def exempt(view):
    """Mark a view that enforces ``Content-Type: application/json`` itself."""
    view.csrf_exempt = True
    return view


def _check() -> None:
    if request.method in ("GET", "HEAD", "OPTIONS") or is_json_request():
        return
    if getattr(current_app.view_functions.get(request.endpoint), "csrf_exempt", False):
        return
    sent = request.form.get(FIELD, "") or request.headers.get("X-CSRF-Token", "")
    expected = session.get(SESSION_KEY, "")
    if not sent or not expected or not hmac.compare_digest(str(sent), str(expected)):
        abort(400, description="This form has expired or did not come from this app (CSRF check failed). "
                               "Reload the page and try again.")


def init_app(app: Flask) -> None:
    app.before_request(_check)
    app.jinja_env.globals["csrf_token"] = token
