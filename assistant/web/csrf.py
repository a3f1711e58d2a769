"""CSRF protection: Flask-WTF's CSRFProtect, one secret per session, a signed token in every form.

Every POST needs the token (form field ``csrf_token`` or the ``X-CSRF-Token`` header), whatever
its content type, except JSON requests (``Content-Type: application/json``) to the views that
read JSON (the JSON door, transcript import): a browser cannot send them cross-site without a
CORS preflight, which this app never allows.  That exemption depends on the request, not only on
the view, so the check runs here (``WTF_CSRF_CHECK_DEFAULT`` off) and calls ``protect()``.

A token is bound to its game: the pages of a game (``/games/<gid>/…``) hand out tokens signed with
a key of that game's own (``secret_for``), and a post to a game checks that signature, so a token
taken from another game's page does not post to this one.
"""

from __future__ import annotations

from flask import Flask, abort, current_app, request
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf, validate_csrf
from wtforms import ValidationError

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
        gid = (request.view_args or {}).get("gid")
        if gid is None:
            current_app.extensions["csrf"].protect()
        else:  # a game's forms carry that game's token: one from another game's page is refused
            validate_csrf(_sent_token(), secret_key=secret_for(gid))
    except (CSRFError, ValidationError) as err:
        reason = (getattr(err, "description", None) or str(err) or "").rstrip(".")
        abort(
            400,
            description="This form has expired or did not come from this app "
            f"(CSRF check failed: {reason[:1].lower() + reason[1:]}). Reload the page and try again.",
        )


def secret_for(gid: str | None):
    """The key a game's tokens are signed with: the app's, bound to the game. The session keeps one
    secret for all games (the cookie does not grow with the games a phone has seen)."""
    key = current_app.secret_key
    return key if gid is None else f"{key}\x00game\x00{gid}"


def _sent_token() -> str | None:
    token = request.form.get("csrf_token")
    if token:
        return token
    for header in current_app.config["WTF_CSRF_HEADERS"]:
        if request.headers.get(header):
            return request.headers[header]
    return None


def csrf_token() -> str:
    """The template global: the token for the forms of this page's game (or of no game)."""
    return generate_csrf(secret_key=secret_for((request.view_args or {}).get("gid")))


def init_app(app: Flask) -> None:
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a table page stays open for a whole game
    app.config.setdefault("WTF_CSRF_HEADERS", ["X-CSRF-Token"])
    CSRFProtect(app)
    app.jinja_env.globals["csrf_token"] = csrf_token  # bound to the page's game
    app.context_processor(lambda: {"csrf_token": csrf_token})  # over Flask-WTF's own
    app.before_request(_check)
