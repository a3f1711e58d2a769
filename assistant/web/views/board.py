"""The board page (``/games/<id>/board``): the table's shared screen, and its region that
re-fetches itself after every change; no controls."""

from __future__ import annotations

from flask import Blueprint, make_response, render_template

from assistant.web import lan
from assistant.web.db import get_store
from assistant.web.screen import BoardScreen

bp = Blueprint("board", __name__, url_prefix="/games")


def _board(gid: str) -> BoardScreen:
    return BoardScreen(get_store(), gid, tab="table")


@bp.get("/<gid>/board")
def page(gid: str):
    return render_template("board.html", v=_board(gid))


@bp.get("/<gid>/board/r")
def region(gid: str):
    """What the board re-fetches once after a change made on any phone (with its poller, out of band)."""
    resp = make_response(render_template("board/region.html", v=_board(gid), oob=True))
    resp.headers["Vary"] = "HX-Request"
    return resp


@bp.get("/<gid>/board/qr.svg")
def qr(gid: str):
    """The board's link as a QR code, for the tablet to scan from the host's More view."""
    resp = make_response(str(lan.qr_svg(lan.external_url("board.page", gid=gid))))
    resp.mimetype = "image/svg+xml"
    resp.headers["Cache-Control"] = "private, max-age=86400"
    resp.headers["Vary"] = "Host"
    return resp
