"""Errors: a clear message, JSON for the JSON door, HTML otherwise; never a stack trace."""

from __future__ import annotations

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, Conflict, HTTPException, InternalServerError, ServiceUnavailable

from assistant.store import Damaged, DatabaseUnavailable, Full, Unreplayable
from assistant.store import DatabaseDamaged as DatabaseDamaged_
from assistant.store.errors import ADVICE
from assistant.web import errorlog


def wants_json() -> bool:
    if request.mimetype == "application/json" or request.blueprint == "api":
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def _handle(err: HTTPException):
    message = err.description or err.name
    # the exception's own headers go along (e.g. Retry-After of a 429)
    headers = [(k, v) for k, v in err.get_headers() if k.lower() != "content-type"]
    if wants_json():
        return jsonify({"error": message, "status": err.code}), err.code, headers
    try:
        return render_template("error.html", code=err.code, title=err.name, message=message), err.code, headers
    except Exception:  # the error page itself cannot be built (e.g. no URL adapter): say it in plain text
        return Response(f"{err.code} {err.name}: {message}\n", err.code, headers, mimetype="text/plain")


def _unexpected(err: Exception):
    # Flask hands an unexpected error over as an InternalServerError around it (``original_exception``):
    # the player reads these words, not Werkzeug's; an ``abort(500, ...)`` keeps its own
    if isinstance(err, HTTPException) and getattr(err, "original_exception", None) is None:
        return _handle(err)
    return _handle(InternalServerError(description="Something went wrong on the server."))


def _too_deep(err: RecursionError):
    # The only way a request reaches Python's recursion limit is JSON nested thousands deep.
    return _handle(BadRequest(description="The data is nested too deeply to be a transcript or an event."))


def _unreplayable(err: Unreplayable):
    message = f"This game cannot be shown: {err.message}. Its transcript can still be exported."
    return _handle(Conflict(description=message))


class DatabaseDamaged(ServiceUnavailable):
    name = "The database is damaged"


def _damaged(err: DatabaseDamaged_ | Damaged):
    """The database is damaged, emptied or gone under a request (any backend): say so, 503."""
    current_app.logger.error("database damaged on %s %r: %s", request.method, request.path[:200], err.message)
    message = err.message
    if isinstance(err, Damaged):  # a stored row that does not read back
        message = (
            f"The database is damaged ({err.message}): the games cannot be read or saved until it is restored. "
            + ADVICE
        )
    return _handle(DatabaseDamaged(description=message))


def _unavailable(err: DatabaseUnavailable):
    """The database cannot be used right now (busy, restarting, unreachable): say so, 503."""
    current_app.logger.error("database error on %s %r: %s", request.method, request.path[:200], err.message)
    return _handle(ServiceUnavailable(description=err.message))


class InsufficientStorage(HTTPException):
    code = 507
    name = "Full"


def _full(err: Full):
    """A game's budget or the database's cap would be passed (assistant/store/budget.py): nothing was written."""
    current_app.logger.warning("write refused on %s %r: %s", request.method, request.path[:200], err.message)
    return _handle(InsufficientStorage(description=err.message))


def init_app(app: Flask) -> None:
    errorlog.init_app(app)  # an unexpected error's traceback: at most once a minute of each kind
    app.register_error_handler(Full, _full)
    app.register_error_handler(DatabaseDamaged_, _damaged)  # every backend's (assistant/store/errors.py)
    app.register_error_handler(Damaged, _damaged)
    app.register_error_handler(DatabaseUnavailable, _unavailable)
    app.register_error_handler(Unreplayable, _unreplayable)
    app.register_error_handler(RecursionError, _too_deep)
    app.register_error_handler(HTTPException, _handle)
    app.register_error_handler(InternalServerError, _unexpected)
