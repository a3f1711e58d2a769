"""Errors: a clear message, JSON for the JSON door, HTML otherwise; never a stack trace."""

from __future__ import annotations

import os
import sqlite3

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, Conflict, HTTPException, InternalServerError, ServiceUnavailable

from assistant.backends.sqlite import DatabaseVanished
from assistant.store import Damaged, Unreplayable
from assistant.web import db


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
    if isinstance(err, HTTPException):
        return _handle(err)
    return _handle(InternalServerError(description="Something went wrong on the server."))


def _too_deep(err: RecursionError):
    # The only way a request reaches Python's recursion limit is JSON nested thousands deep.
    return _handle(BadRequest(description="The data is nested too deeply to be a transcript or an event."))


def _unreplayable(err: Unreplayable):
    message = f"This game cannot be shown: {err.message}. Its transcript can still be exported."
    return _handle(Conflict(description=message))


DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}


class DatabaseDamaged(ServiceUnavailable):
    name = "The database is damaged"


def _emptied(path) -> bool:
    try:
        return bool(path) and os.path.getsize(path) == 0
    except OSError:
        return False


def _database(err: sqlite3.DatabaseError):
    """SQLite failed under a request: a damaged file says so (503), never "Something went wrong"."""
    if isinstance(err, DatabaseVanished):
        current_app.logger.error("database file gone under %s %r: %s", request.method, request.path[:200], err)
        return _handle(DatabaseDamaged(description=str(err)))
    damaged = (
        not isinstance(err, sqlite3.OperationalError)
        or getattr(err, "sqlite_errorname", "") in DAMAGED
        or str(err).startswith("no such table")  # the file was emptied or replaced under the server
        or str(err).startswith("Could not decode to UTF-8")  # garbage inside a row
    )
    detail = str(err)
    if _emptied(current_app.config.get("DATABASE")):  # a write to an emptied file waits, then "locked"
        damaged, detail = True, "the file is empty (0 bytes)"
    if damaged:
        message = (
            f"The database is damaged ({detail}): the games cannot be read or saved until it is restored. "
            'Stop the server, check the file with "python -m assistant check-db" and restore a backup '
            '(README: "A damaged database file").'
        )
    else:
        message = f"The database cannot be used right now ({err}). Try again in a moment."
    current_app.logger.error(
        "database %s on %s %r: %s", "damaged" if damaged else "error", request.method, request.path[:200], err
    )
    error = DatabaseDamaged(description=message) if damaged else ServiceUnavailable(description=message)
    return _handle(error)


def _damaged_row(err: Damaged):
    """A stored row the store cannot read (any backend): the database is damaged, 503."""
    return _database(sqlite3.DatabaseError(err.message))


def _postgres(err):
    """PostgreSQL failed under a request (down, restarting, unreachable): say so, 503."""
    current_app.logger.error("PostgreSQL error on %s %r: %s", request.method, request.path[:200], err)
    message = f"The table's database server cannot be reached right now ({type(err).__name__}). Try again in a moment."
    return _handle(ServiceUnavailable(description=message))


def init_app(app: Flask) -> None:
    app.register_error_handler(sqlite3.DatabaseError, _database)
    # the store's own "cannot reach the database server" errors (PostgreSQL's driver), from the store
    # itself: on SQLite the driver is never loaded (20 MB per worker)
    for error in app.extensions[db.KEY].tables.unreachable:
        app.register_error_handler(error, _postgres)
    app.register_error_handler(Unreplayable, _unreplayable)
    app.register_error_handler(Damaged, _damaged_row)
    app.register_error_handler(RecursionError, _too_deep)
    app.register_error_handler(HTTPException, _handle)
    app.register_error_handler(InternalServerError, _unexpected)
