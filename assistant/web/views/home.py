"""Home (new game or import only: no list of games), the new-game form, transcript import."""

from __future__ import annotations

import json
import secrets

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from assistant.rules.cards import COMPANIES, COMPANIES_BY_COLOR
from assistant.store import ImportRefused, Refused
from assistant.web import get_store
from assistant.web.context import mark_host
from assistant.web.csrf import is_json_request
from assistant.web.labels import COLORS, two_handed_seats

bp = Blueprint("home", __name__)

MAX_PLAYERS = 6
MAX_NAME = 30
OPTIONS = {  # variant: (name, how to enter it)
    "open_companies": ("Open companies", "the deck is open: tick below which companies are in it"),
    "two_handed": (
        "Two-handed",
        (
            "2 persons play 4 seats. Enter just the two persons as players 1 and 2 "
            "(person A first); the app seats A's right hand 1st, B's left hand 2nd, "
            "B's right hand 3rd and A's left hand 4th"
        ),
    ),
}


def _companies_by_color() -> list[tuple[str, list[str]]]:
    return [(color, list(COMPANIES_BY_COLOR[color])) for color in COLORS]


def _render_new(names=None, options=(), deck=(), error=None, status=200):
    names = list(names or [])
    names += [""] * (MAX_PLAYERS - len(names))
    return render_template(
        "new_game.html",
        names=names,
        options=OPTIONS,
        chosen=set(options),
        deck=set(deck),
        companies=_companies_by_color(),
        error=error,
    ), status


@bp.get("/")
def index():
    return render_template("home.html")


@bp.get("/games/new")
def new_game():
    return _render_new()


@bp.post("/games/new")
def create_game():
    form = request.form
    names = [n.strip() for n in form.getlist("name")][:MAX_PLAYERS]
    options = [o for o in form.getlist("option") if o in OPTIONS]
    deck = [c for c in form.getlist("deck") if c in COMPANIES]
    filled = [n for n in names if n]
    if "shuffle" in form:
        secrets.SystemRandom().shuffle(filled)
        return _render_new(filled, options, deck)
    error = _check_names(filled)
    if error:
        return _render_new(filled, options, deck, error, 422)
    if "open_companies" in options and not deck:
        return _render_new(filled, options, deck, "Tick the companies that are in the open deck.", 422)
    seats, persons = filled, None
    if "two_handed" in options:
        if len(filled) != 2:
            return _render_new(
                filled,
                options,
                deck,
                "The two-handed variant is for 2 persons: enter just their "
                "two names (players 1 and 2); the app makes the four seats.",
                422,
            )
        persons, seats = filled, two_handed_seats(*filled)
    try:
        gid = get_store().create_game(seats, options, deck if "open_companies" in options else None, persons=persons)
    except Refused as err:
        return _render_new(filled, options, deck, err.message, 422)
    mark_host(gid)  # this phone shows the join QR code until every seat is taken
    return redirect(url_for("table.page", gid=gid), code=303)


def _check_names(names: list[str]) -> str | None:
    if len(names) < 2:
        return "Enter at least 2 player names."
    if any(len(n) > MAX_NAME for n in names):
        return f"Names can have at most {MAX_NAME} characters."
    if len({n.casefold() for n in names}) != len(names):
        return "Every player needs a different name."
    return None


@bp.post("/games/import")
def import_game():
    as_json = is_json_request()
    if as_json:
        data = request.get_json(silent=True)
        if data is None:
            abort(400, description="The request body is not valid JSON.")
    else:
        upload = request.files.get("transcript")
        if upload is None or not upload.filename:
            return render_template("home.html", import_error="Choose a transcript file to import."), 400
        try:
            data = json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return render_template("home.html", import_error="That file is not a JSON transcript."), 400
    try:
        gid = get_store().import_transcript(data)
    except (ImportRefused, Refused) as err:
        if as_json:
            return jsonify({"error": err.message, "index": getattr(err, "index", None)}), 422
        return render_template("home.html", import_error=err.message), 422
    url = url_for("table.page", gid=gid)
    mark_host(gid)
    if as_json:
        resp = jsonify({"id": gid, "url": url})
        resp.status_code = 303
        resp.headers["Location"] = url
        return resp
    return redirect(url, code=303)
