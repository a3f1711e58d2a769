"""Helpers available in every template."""

from __future__ import annotations

import secrets

from flask import Flask

from assistant.web.labels import COLOR_MARKS, company_color, current_ruleset


def color_mark(color: str) -> str:
    shape, letter = COLOR_MARKS.get(color, ("?", "?"))
    return f"{shape}{letter}"


def new_token() -> str:
    """A fresh idempotency token for one form (a double submit is applied once)."""
    return secrets.token_urlsafe(12)


def init_app(app: Flask) -> None:
    app.jinja_env.trim_blocks = True  # leaner HTML on the wire
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals.update(
        color_mark=color_mark, company_color=company_color, current_ruleset=current_ruleset, new_token=new_token
    )
