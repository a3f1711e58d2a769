"""SECRET_KEY: from the config, from $RSS_SECRET_KEY, or generated once and kept in the data folder beside the
games (assistant/store/places.py: the folder moves as one, so seats and signed links survive a reinstall)."""

from __future__ import annotations

import os
import secrets

from flask import Flask

KEY_FILE = "secret_key"


def configure(app: Flask) -> None:
    if app.config.get("SECRET_KEY"):
        return
    env = os.environ.get("RSS_SECRET_KEY")
    if env:
        app.config["SECRET_KEY"] = env
        return
    path = os.path.join(app.instance_path, KEY_FILE)
    try:
        with open(path, encoding="ascii") as fh:
            key = fh.read().strip()
    except FileNotFoundError:
        key = ""
    if not key:
        key = secrets.token_hex(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(key)
    app.config["SECRET_KEY"] = key
