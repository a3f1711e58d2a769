"""The table: full page, self-replacing components, the version poll, taking a seat."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from markupsafe import Markup

from assistant.store import NotFound
from assistant.web.context import TAB_KEYS, TablePage
from assistant.web.db import get_store
from assistant.web.seats import set_seat

bp = Blueprint("table", __name__, url_prefix="/games")

COMPONENTS = (
    "banner",
    "actions",
    "offering",
    "deck",
    "corporations",
    "players",
    "prices",
    "foreign",
    "history",
    "scoring",
    "join",
    "sync",
)
CHANGED_EVENT = "rss-changed"
# components that look the same on every phone (no seat, session or form token in them):
# rendered once per game and seq for the whole table
SHARED = ("offering", "deck", "corporations", "prices", "foreign", "history")


def table_page(gid: str, **kwargs) -> TablePage:
    kwargs.setdefault("corp", request.args.get("corp") or None)
    kwargs.setdefault("everything", request.args.get("history") == "everything")
    return TablePage(get_store(), gid, **kwargs)


def _tab_name(name: str) -> str:
    if name not in TAB_KEYS:
        abort(404, description=f"There is no tab called {name[:40]!r}.")
    return name


def tab_url(v: TablePage, name: str | None = None, region: bool = False, **params) -> str:
    """The address of one of the table page's tabs (``region``: just its part of the page, for htmx)."""
    name = name or v.tab
    if region:
        return url_for("table.region", gid=v.gid, name=name, **params)
    if name == "play":
        return url_for("table.page", gid=v.gid, **params)
    return url_for("table.tab_page", gid=v.gid, name=name, **params)


def render_region(v: TablePage, oob: bool = True) -> str:
    """A tab's region, with the turn bar and the poller out of band (one answer updates the phone)."""
    return render_template("region.html", v=v, oob=oob)


@bp.get("/<gid>")
def page(gid: str):
    v = table_page(gid, full_history=request.args.get("history") == "all")
    return render_template("table.html", v=v)


@bp.get("/<gid>/v/<name>")
def tab_page(gid: str, name: str):
    v = table_page(gid, full_history=request.args.get("history") == "all", tab=_tab_name(name))
    return render_template("table.html", v=v)


@bp.get("/<gid>/r/<name>")
def region(gid: str, name: str):
    """The current view's region: what a phone re-fetches once after a change made elsewhere."""
    v = table_page(gid, full_history=request.args.get("history") == "all", tab=_tab_name(name))
    resp = make_response(render_region(v))
    resp.headers["Vary"] = "HX-Request"
    return resp


def shared(v: TablePage, name: str) -> Markup:
    """A component that looks the same on every phone, rendered once per game and seq."""
    if name not in SHARED:
        raise ValueError(f"{name} is not a shared component")
    cache = current_app.extensions["rss_rendered"]
    html = cache.get_or_render(
        (v.gid, v.seq, name, v.full_history), lambda: render_template(f"components/{name}.html", v=v)
    )
    return Markup(html)


@bp.get("/<gid>/c/<name>")
def component(gid: str, name: str):
    if name not in COMPONENTS:
        abort(404, description=f"There is no component called {name!r}.")
    v = table_page(gid, full_history=request.args.get("history") == "all")
    if name not in SHARED:
        return render_template(f"components/{name}.html", v=v)
    return str(shared(v, name))


@bp.get("/<gid>/qr.svg")
def qr(gid: str):
    """The join link's QR code as an image: fetched once by a phone, not with every change."""
    v = table_page(gid)
    resp = make_response(str(v.qr))
    resp.mimetype = "image/svg+xml"
    resp.headers["Cache-Control"] = "private, max-age=86400"
    resp.headers["Vary"] = "Host"
    return resp


@bp.get("/<gid>/seats")
def seats(gid: str):
    """The host's poll while seats are free: 204 while ``taken`` seats are taken, else a change signal."""
    v = table_page(gid)
    taken = request.args.get("taken", type=int)
    if taken == v.seats_count[0]:
        resp = make_response("", 204)
    else:
        resp = make_response("", 200)
        resp.headers["HX-Trigger"] = CHANGED_EVENT  # the view re-fetches itself with the new count
    resp.headers["Cache-Control"] = "no-store"
    return resp


def nothing_new(seen: int | None, current: int) -> bool:
    """The poll's rule, in one place for the view below and the front's fast path
    (``serve/poll.py``): "nothing new" (204) exactly when the phone's seq is the game's current one."""
    return seen == current


@bp.get("/<gid>/version")
def version(gid: str):
    """Cheap poll: 204 while the client's seq is current, else the new poller + a trigger."""
    store = get_store()
    if not store.game_exists(gid):
        abort(404, description="There is no game at this address.")
    current = store.seq(gid)
    seen = request.args.get("seq", type=int)
    if nothing_new(seen, current):
        resp = make_response("", 204)
    else:
        resp = make_response(render_template("components/sync.html", gid=gid, seq=current))
        resp.headers["HX-Trigger"] = CHANGED_EVENT
    resp.headers["X-RSS-Seq"] = str(current)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/<gid>/stream")
def stream(gid: str):
    """The game's event stream is answered before Flask, by the front under granian
    (assistant/serve/stream.py); a server without it (waitress) has none: its pages poll."""
    abort(404, description="This server sends no event streams: the phones poll /version.")


@bp.post("/<gid>/seat")
def seat(gid: str):
    try:
        info = get_store().get_game(gid)
    except NotFound:
        abort(404, description="There is no game at this address.")
    player = request.form.get("player", "")
    persons = getattr(info, "persons", None) or []
    if player and player not in info.players and player not in persons:
        abort(400, description=f"{player[:40]!r} is not a player of this game.")
    set_seat(gid, player or None, get_store())
    return redirect(url_for("table.page", gid=gid), code=303)


bp.add_app_template_global(tab_url, "tab_url")
bp.add_app_template_global(shared, "shared")
