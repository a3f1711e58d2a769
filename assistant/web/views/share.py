"""Sharing a final result (issue 19): a finished game's scoring as an image, as text and as a
printable page; a score check's result as an image and as text (its page prints as it is)."""

from __future__ import annotations

from flask import Blueprint, abort, make_response, render_template, request

from assistant.rules import RuleError
from assistant.web import costly, share
from assistant.web.context import TablePage
from assistant.web.db import get_store
from assistant.web.scorecheck import FormError, ScoreForm

bp = Blueprint("share", __name__)


def _finished(gid: str) -> TablePage:
    v = TablePage(get_store(), gid, tab="players")
    if not v.final:
        abort(404, description="The game is not over yet: its result is shared once the final scoring is done.")
    return v


def _png(result: share.Result, name: str):
    """The image, drawn at most once per worker for what it shows, one drawing at a time (costly.py)."""
    cache = costly.cache()
    key = ("result.png", result.key())
    png = cache.peek(key)
    if png is None:
        with costly.turn("render"):
            svg = result.svg()  # the drawing here, its pixels in a child process (costly.paint)
            png = cache.get_or_render(key, lambda: costly.paint(svg))
    resp = make_response(png)
    resp.mimetype = "image/png"
    resp.headers["Content-Disposition"] = f'inline; filename="{name}.png"'
    resp.headers["Cache-Control"] = "private, max-age=300"
    return resp


def _text(result: share.Result):
    resp = make_response(result.text)
    resp.mimetype = "text/plain"
    resp.headers["Cache-Control"] = "private, max-age=300"
    return resp


@bp.get("/games/<gid>/result")
def page(gid: str):
    """The printable page: ranking, how each score adds up, the charts, and the ways to share."""
    v = _finished(gid)
    return render_template("share/page.html", v=v, result=share.of_game(v))


@bp.get("/games/<gid>/result.png")
def game_png(gid: str):
    return _png(share.of_game(_finished(gid)), "final-scoring")


@bp.get("/games/<gid>/result.txt")
def game_text(gid: str):
    return _text(share.of_game(_finished(gid)))


def _score_check() -> share.Result:
    try:
        form = ScoreForm.read(request.args)
        if not form.filled:
            raise FormError("The figures are not all in yet.")
        return share.of_score_check(form.ruleset, form.checked())
    except FormError as err:
        abort(err.status, description=str(err))
    except RuleError as err:
        abort(422, description=err.message)


@bp.get("/scores/check.png")
def check_png():
    return _png(_score_check(), "final-scores")


@bp.get("/scores/check.txt")
def check_text():
    return _text(_score_check())
