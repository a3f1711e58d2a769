"""Putting the app on a home screen: the web app manifest (one for the app, one per game so that
the icon opens that game) and Apple's touch icon at its well-known address."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, send_from_directory, url_for

from assistant.rules import registry
from assistant.store import NotFound
from assistant.web.assets import static_url
from assistant.web.db import get_store

bp = Blueprint("install", __name__)

THEME = "#14233b"  # the icon's background (scripts/make_icons.py)


def _manifest(name: str, short_name: str, start_url: str):
    icons = [
        {"src": static_url("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static_url("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {"src": static_url("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        {"src": static_url("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    resp = jsonify(
        {
            "name": name,
            "short_name": short_name,
            "start_url": start_url,
            "scope": "/",
            "display": "standalone",
            "background_color": THEME,
            "theme_color": THEME,
            "icons": icons,
        }
    )
    resp.mimetype = "application/manifest+json"
    resp.headers["Cache-Control"] = "public, max-age=3600"
    return resp


@bp.get("/manifest.webmanifest")
def app_manifest():
    return _manifest("Rolling Stock table assistant", "Rolling Stock", url_for("home.index"))


@bp.get("/games/<gid>/manifest.webmanifest")
def game_manifest(gid: str):
    """From a game's page, "Add to Home Screen" gives an icon that opens this game."""
    try:
        info = get_store().get_game(gid)
    except NotFound:
        return app_manifest()
    title = registry.get(info.ruleset).title
    return _manifest(f"{title}: {', '.join(info.players)}", "Rolling Stock", url_for("table.page", gid=gid))


@bp.get("/apple-touch-icon.png")
@bp.get("/apple-touch-icon-precomposed.png")
def apple_touch_icon():
    """Where iPhones look for the icon when a page names none."""
    resp = send_from_directory(current_app.static_folder, "icons/apple-touch-icon.png", max_age=86400)
    return resp
