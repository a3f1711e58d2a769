"""Helpers available in every template."""

from __future__ import annotations

import secrets

from flask import Flask, has_request_context, request
from jinja2 import pass_context
from markupsafe import Markup, escape

from assistant.rules import registry
from assistant.rules.core import words
from assistant.web import labels

# What the pages about no game (home, new game, errors outside a game) call the games: the family.
FAMILY = "Rolling Stock"


def _ruleset_of(ctx) -> registry.Ruleset | None:
    """The ruleset of what a template shows: given to it as ``ruleset``, the table page's
    (``v.ruleset``), else that of the game the address names (an error page inside a game)."""
    ruleset = ctx.get("ruleset")
    if not isinstance(ruleset, registry.Ruleset):
        ruleset = getattr(ctx.get("v"), "ruleset", None)
    if isinstance(ruleset, registry.Ruleset):
        return ruleset
    gid = (request.view_args or {}).get("gid") if has_request_context() else None
    if isinstance(gid, str):
        from assistant.web.db import get_store

        try:
            return registry.get(get_store().get_game(gid).ruleset)
        except Exception:  # noqa: BLE001 - no such game (the 404 itself), or its store fails: the family
            return None
    return None


@pass_context
def page_ruleset(ctx) -> registry.Ruleset:
    """The ruleset of what a template shows (Rolling Stock Stars, the default, for no game)."""
    return _ruleset_of(ctx) or registry.get(registry.DEFAULT)


@pass_context
def page_title(ctx) -> str:
    """The name a page gives the game: the game's own inside a game, the family's elsewhere."""
    ruleset = _ruleset_of(ctx)
    return ruleset.title if ruleset else FAMILY


@pass_context
def cash(ctx, amount) -> str:
    """An amount in the game's own way: "$12" in v2.2 and classic (their rules write $), "12" in Stars."""
    return page_ruleset(ctx).cash(amount)


@pass_context
def signed_cash(ctx, amount) -> str:
    """A change of money with its sign: "+$3", "−$2", "±$0" in v2.2 and classic, "+3" in Stars."""
    shown = page_ruleset(ctx).cash(abs(amount))
    return ("+" if amount > 0 else "−" if amount < 0 else "±") + shown


@pass_context
def company_color(ctx, abbr: str) -> str:
    return labels.company_color(abbr, page_ruleset(ctx))


@pass_context
def color_mark(ctx, color: str) -> str:
    """The colour's mark: the game's own where its rulebook prints them (v2.2's ◇ green, ○ blue), else the app's."""
    return labels.color_mark(color, page_ruleset(ctx))


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
        color_mark=color_mark,
        company_color=company_color,
        current_ruleset=page_ruleset,
        page_title=page_title,
        family=FAMILY,
        new_token=new_token,
    )
    # grammar around names (assistant/rules/core/words.py): "an Eagle share", "Stock Masters'", "1 share", "Horse decides"
    app.jinja_env.filters["cash"] = cash
    app.jinja_env.filters["signed_cash"] = signed_cash
    app.jinja_env.filters.update(
        {name: _escaped(getattr(words, name)) for name in ("a", "possessive", "count", "and_list", "they")}
    )


RENDERED = (".html", ".svg")  # the app's templates (the folder holds nothing else it renders)


def compile_all(app: Flask) -> int:
    """Compile every template now; returns how many.  The server's workers do this at start
    (serve/server.py): compiling one takes up to 0.1 s, and a template first used in the middle of
    a game (a phase's form, the final scoring) was compiled by every thread that needed it at once,
    while the six phones of a table waited, and the other tables with them."""
    env = app.jinja_env
    names = [name for name in env.list_templates() if name.endswith(RENDERED)]
    for name in names:
        env.get_template(name)
    return len(names)
