"""Helpers available in every template."""

from __future__ import annotations

import secrets

from flask import Flask
from jinja2 import pass_context
from markupsafe import Markup, escape

from assistant import words
from assistant.rules import registry
from assistant.web import labels
from assistant.web.labels import COLOR_MARKS


@pass_context
def page_ruleset(ctx) -> registry.Ruleset:
    """The ruleset of what a template shows: given to it as ``ruleset``, or the table view's
    (``v.ruleset``); pages about no game (home, errors) say Rolling Stock Stars, the default."""
    ruleset = ctx.get("ruleset")
    if not isinstance(ruleset, registry.Ruleset):
        ruleset = getattr(ctx.get("v"), "ruleset", None)
    return ruleset if isinstance(ruleset, registry.Ruleset) else registry.get(registry.DEFAULT)


@pass_context
def company_color(ctx, abbr: str) -> str:
    return labels.company_color(abbr, page_ruleset(ctx))


def color_mark(color: str) -> str:
    shape, letter = COLOR_MARKS.get(color, ("?", "?"))
    return f"{shape}{letter}"


def new_token() -> str:
    """A fresh idempotency token for one form (a double submit is applied once)."""
    return secrets.token_urlsafe(12)


def _escaped(fn):
    """A grammar helper as a filter: the names escaped, its own apostrophes not ("Amy's", not "Amy&#39;s")."""

    def filter_(value, *args):
        if isinstance(value, (list, tuple)):
            value = [escape(v) for v in value]
        elif isinstance(value, str):
            value = escape(value)
        return Markup(fn(value, *args))

    return filter_


def init_app(app: Flask) -> None:
    app.jinja_env.trim_blocks = True  # leaner HTML on the wire
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals.update(
        color_mark=color_mark, company_color=company_color, current_ruleset=page_ruleset, new_token=new_token
    )
    # grammar around names (assistant/words.py): "an Eagle share", "Stock Masters'", "1 share", "Horse decides"
    app.jinja_env.filters.update(
        {name: _escaped(getattr(words, name)) for name in ("a", "possessive", "count", "and_list", "they")}
    )
