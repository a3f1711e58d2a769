"""Flask app: the table web app (phone first, htmx, no JavaScript needed to play)."""

from __future__ import annotations

import os

from flask import Flask

from assistant.log import saved
from assistant.store import places, settings
from assistant.web import assets, costly, csrf, db, deadlines, decision_groups, errors, headers, secret, templating
from assistant.web.db import get_store  # noqa: F401 - the views' way to the store (web/db.py)
from assistant.web.paths import STATIC, TEMPLATES
from assistant.web.rendered import RenderedCache

# The largest request body taken (a transcript import is the biggest): the app's MAX_CONTENT_LENGTH
# and the server's own limit (assistant/serve/server.py refuses a larger announced body unread).
MAX_BODY = 2 * 1024 * 1024


def create_app(test_config: dict | None = None) -> Flask:
    given = test_config or {}
    # the data folder (store/places.py): the same whatever the install mode, or an older one holding the games
    place = None if given.get("INSTANCE_PATH") else places.choose(given.get("DATABASE") or os.environ.get("RSS_DB"))
    instance = given.get("INSTANCE_PATH") or place.folder
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=instance,
        template_folder=TEMPLATES,
        static_folder=STATIC,
    )
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "rss.sqlite3"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 30,
        SESSION_REFRESH_EACH_REQUEST=False,  # no Set-Cookie on every poll: the cookie is sent when it changes
        LAN_IP=None,  # override the detected LAN address used for the join link / QR code
        BIND_HOST=os.environ.get("RSS_HOST") or None,  # where serve listens (127.0.0.1: phones cannot join)
        SAVE_EVERY=saved.EVERY,  # a long game's state is saved in the database every N rows
    )
    if os.environ.get("RSS_DB"):
        app.config["DATABASE"] = os.environ["RSS_DB"]
    if os.environ.get("RSS_SAVE_EVERY", "").strip():
        app.config["SAVE_EVERY"] = settings.get("RSS_SAVE_EVERY") or 10**9  # 0: never
    if test_config:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    app.extensions["rss_place_notes"] = place.notes if place else []  # said on serve's start line
    db.init_app(app)  # the store (web/db.py): the database checked, then opened
    secret.configure(app)
    # the saved states are signed with a key from the secret the servers on one database share
    db.get_store_of(app).state_key = saved.key_from_secret(app.config["SECRET_KEY"])
    app.extensions["rss_rendered"] = RenderedCache()
    costly.init_app(app)  # costly work takes turns, its results kept (issue 26)

    from assistant.web.views import api, board, correct, helpers, home, install, play, resume, scores, share, table

    app.register_blueprint(home.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(helpers.bp)  # decision helpers, Why?, /rules
    app.register_blueprint(scores.bp)  # checking the final scores of a game played on paper
    app.register_blueprint(resume.bp)  # starting from the table as it lies
    app.register_blueprint(correct.bp)  # correcting an entry made long ago
    app.register_blueprint(board.bp)  # the table's shared screen (tablet or TV)
    app.register_blueprint(install.bp)  # the web app manifest and icons (Add to Home Screen)
    app.register_blueprint(share.bp)  # a final result as an image, text and a printable page
    csrf.init_app(app)
    templating.init_app(app)
    decision_groups.init_app(app)  # the action panel's groups, rendered once for the table
    assets.init_app(app)  # hashed static files (WhiteNoise) and compressed responses
    headers.init_app(app)
    errors.init_app(app)
    deadlines.init_app(app)  # a request past RSS_REQUEST_SECONDS: 503 (issue 26)
    return app
