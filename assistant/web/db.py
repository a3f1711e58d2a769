"""The web app's store, set up once per app (``init_app``, as Flask's tutorial does) and found by
the views with ``get_store``: the database named by the app's config (an SQLite file, checked
before a server starts on it, or a ``postgresql://`` URL)."""

from __future__ import annotations

from flask import Flask, current_app

from assistant.store import Store, backends, dburl

KEY = "rss_store"  # app.extensions[KEY]: the app's one Store (it owns the cache of timelines)


def init_app(app: Flask) -> Store:
    """Check the database (``serve``: refuse a damaged or unexpectedly empty file) and open the store."""
    target = app.config["DATABASE"] = dburl.check(str(app.config["DATABASE"]))  # a file, or a postgresql:// URL
    backend = backends.backend(target)  # what differs between an SQLite file and PostgreSQL is the backend's
    backend.prepare(target)
    if app.config.get("DATABASE_CHECK"):  # serve: refuse a damaged or unexpectedly empty file (DatabaseDamaged)
        app.extensions["rss_db_report"] = backend.check_before_start(
            target, app.instance_path, bool(app.config.get("DATABASE_NAMED"))
        )
    store = app.extensions[KEY] = Store(target, save_every=max(1, int(app.config["SAVE_EVERY"])))
    if app.config.get("DATABASE_CHECK"):
        backend.remember(target, app.instance_path)  # (a file: it now exists)
    return store


def get_store_of(app: Flask) -> Store:
    return app.extensions[KEY]


def get_store() -> Store:
    return current_app.extensions[KEY]
