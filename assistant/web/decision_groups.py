"""The action panel's decision groups, rendered once per game, seq and group for the whole table.

After a change, every phone of a table fetches its Play region.  Each phone sees the same groups of
decisions (its own first, the others' folded), and a group looks the same on every phone but for
three things: whether it is this phone's own ("mine"), the phone's CSRF token, and each form's
idempotency token.  So a group is rendered once, with a placeholder standing for each token, kept
in the app's ``RenderedCache`` under (game, seq, group, mine, close link), and every phone fills
in its own tokens.  A new seq is a new key: nothing stale is served.

A phone's own refusal (shown at the form it tapped) is that phone's alone: such an answer renders
its groups itself.
"""

from __future__ import annotations

import re

from flask import current_app, render_template
from markupsafe import Markup

from assistant.web.csrf import csrf_token
from assistant.web.templating import new_token

# placeholders: letters only (nothing a template escapes), and nothing a game's text could contain
CSRF_HERE = "rsscsrftokenplaceholderq7"
TOKEN_HERE = "rssformtokenplaceholderq7"
_TOKEN = re.compile(TOKEN_HERE)


def decision_group(v, group, mine) -> Markup:
    """One group of ``v``'s action panel (``mine``: this phone decides it)."""
    mine = bool(mine)
    close_link = v.decisions.get("close_link")
    holds_link = any(f is close_link for f in group.forms)
    if v.error:  # this phone's refusal, at its form
        return Markup(_render(v, group, mine, close_link))
    key = (
        v.gid,
        v.seq,
        "decision-group",
        group.title,
        group.actor,
        tuple(f.key for f in group.forms),
        mine,
        holds_link,
    )
    cache = current_app.extensions["rss_rendered"]
    html = cache.get_or_render(
        key, lambda: _render(v, group, mine, close_link, csrf_token=lambda: CSRF_HERE, new_token=lambda: TOKEN_HERE)
    )
    if CSRF_HERE in html:
        html = html.replace(CSRF_HERE, csrf_token())
    return Markup(_TOKEN.sub(lambda _: new_token(), html))


def _render(v, group, mine: bool, close_link, **tokens) -> str:
    return render_template("components/_group.html", v=v, group=group, mine=mine, close_link=close_link, **tokens)


def init_app(app) -> None:
    app.jinja_env.globals["decision_group"] = decision_group
