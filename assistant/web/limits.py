"""Limits that protect the disk from a careless or hostile network (issue 18): new games and imports
per client are rate-limited, counted in the database so that every worker process (and every server
on one PostgreSQL) shares the count; past a size cap the database takes no new game, nor any new row
of a game under way (``assistant/store/budget.py``: every write counts, and each game has a budget
of its own far below the cap).  Defaults a real table never meets; settings in the environment:

* ``RSS_CREATE_LIMIT``: new games and imports per client per window, as ``count/seconds``
  (default ``60/600``: sixty in ten minutes);
* ``RSS_DB_MAX_MB``: the database's size past which nothing more is written (default 4096);
* ``RSS_DISK_WARN_MB``: ``serve`` warns at start when the disk has less free space (default 500).
"""

from __future__ import annotations

import os
import shutil
import time

from flask import current_app, request
from werkzeug.exceptions import HTTPException, TooManyRequests

from assistant.store import settings

DEFAULT_CREATE_LIMIT = "60/600"
DEFAULT_DB_MAX_MB = 4096
DEFAULT_DISK_WARN_MB = 500


class InsufficientStorage(HTTPException):
    code = 507
    name = "The database is full"


def create_limit() -> tuple[int, int]:
    return settings.get("RSS_CREATE_LIMIT")


def db_max_bytes() -> int:
    return int(settings.get("RSS_DB_MAX_MB") * 1024 * 1024)


def check_new_game(store) -> None:
    """Before a new game or an import: 507 past the size cap, 429 (with Retry-After) past the rate."""
    size = store.backend.used()
    if size > db_max_bytes():
        current_app.logger.warning(
            "new game refused: the database holds %d MB, the cap is %d MB", size >> 20, db_max_bytes() >> 20
        )
        raise InsufficientStorage(
            description=(
                f"The table's database is full ({size >> 20} MB, the cap is {db_max_bytes() >> 20} MB): no new game "
                "can be started or imported, and the games under way can save nothing more. Whoever runs the server can raise "
                "RSS_DB_MAX_MB or move finished games away (README: settings)."
            )
        )
    count, seconds = create_limit()
    now = time.time()
    client = request.remote_addr or "unknown"
    made = store.backend.count_action(client, "new_game", int(now // seconds))
    if made > count:
        wait = int(seconds - now % seconds) + 1
        current_app.logger.warning("new games from %s refused: %d in this window (limit %d)", client, made, count)
        raise TooManyRequests(
            description=(
                f"Too many new games from this device: {count} in {seconds // 60} minutes at most. "
                f"Try again in {wait} seconds."
            ),
            retry_after=wait,
        )


def disk_report(path: str) -> tuple[str, bool]:
    """Free space on the database's disk, in words, and whether it is below the warning threshold."""
    folder = os.path.dirname(os.path.abspath(path)) or "."
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return "free disk space unknown", False
    warn = settings.get("RSS_DISK_WARN_MB") * 1024 * 1024
    return f"{free >> 20} MB free on the database's disk", free < warn
