"""The web app's store, set up once per app (``init_app``, as Flask's tutorial does) and found by
the views with ``get_store``: the database named by the app's config (an SQLite file, checked
before a server starts on it, or a ``postgresql://`` URL)."""

from __future__ import annotations

import os

from flask import Flask, current_app

from assistant.store import Store, dbcheck, dburl

KEY = "rss_store"  # app.extensions[KEY]: the app's one Store (it owns the cache of timelines)


def init_app(app: Flask) -> Store:
    """Check the database (``serve``: refuse a damaged or unexpectedly empty file) and open the store."""
    app.config["DATABASE"] = dburl.check(str(app.config["DATABASE"]))  # a file, or a postgresql:// URL
    if not dburl.is_postgres(app.config["DATABASE"]):
        os.makedirs(os.path.dirname(os.path.abspath(app.config["DATABASE"])), exist_ok=True)
    if app.config.get("DATABASE_CHECK"):  # serve: refuse a damaged or unexpectedly empty file (DamagedDatabase)
        app.extensions["rss_db_report"] = dbcheck.check_before_start(
            app.config["DATABASE"], app.instance_path, named=bool(app.config.get("DATABASE_NAMED"))
        )
    store = app.extensions[KEY] = Store(app.config["DATABASE"], save_every=max(1, int(app.config["SAVE_EVERY"])))
    if app.config.get("DATABASE_CHECK") and not dburl.is_postgres(app.config["DATABASE"]):
        dbcheck.remember(app.config["DATABASE"], app.instance_path)  # its file now exists
    return store


def get_store() -> Store:
    return current_app.extensions[KEY]
