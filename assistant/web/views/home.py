"""Home (new game or import only: no list of games), the new-game form, transcript import."""

from __future__ import annotations

import json
import secrets

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from assistant.rules import registry
from assistant.store import ImportRefused, Refused
from assistant.web import card_figures, limits, trial
from assistant.web.csrf import is_json_request
from assistant.web.db import get_store
from assistant.web.labels import colors, two_handed_seats
from assistant.web.seats import mark_host

bp = Blueprint("home", __name__)

MAX_PLAYERS = max(r.players[1] for r in registry.RULESETS.values())
MAX_NAME = 30
OPTIONS = {  # variant: (name, how to enter it); a ruleset offers some of them (Ruleset.variants)
    "open_companies": ("Open companies", "the deck is open: tick below which companies are in it"),
    "share_redemption": (
        "Share redemption",
        "in phase 1 a corporation with at least 3 shares issued may instead buy back a share from the bank "
        "at the next higher free share price (Players Guide 3.6)",
    ),
    "two_handed": (
        "Two-handed",
        (
            "2 persons play 4 seats, as a four-player game. Enter just the two persons as players 1 and 2 "
            "(person A first); the app seats A's right hand 1st, B's left hand 2nd, "
            "B's right hand 3rd and A's left hand 4th. A person wins when their lower-ranked seat "
            "beats the other's"
        ),
    ),
}


def deck_field(ruleset: registry.Ruleset) -> str:
    """The form field of the open deck's companies (each ruleset picks from its own cards)."""
    return "deck" if ruleset.key == registry.DEFAULT else f"deck-{ruleset.key}"


def _companies_by_color(ruleset: registry.Ruleset) -> list[tuple[str, list[dict]]]:
    """The ruleset's company cards by colour (abbreviation, name, colour, face value)."""
    by_color = ruleset.cards.companies_by_color
    return [(color, [card_figures.company(a, ruleset) for a in by_color[color]]) for color in colors(ruleset)]


def _choices() -> list[dict]:
    """Each ruleset as the form offers it: title, what differs, players, game types, variants."""
    return [
        {
            "ruleset": r,
            "game_types": [t for t in r.game_types if t.offered],
            "variants": [(key, r.variants[key], OPTIONS[key][1]) for key in r.variants if key in OPTIONS],
            "deck_field": deck_field(r),
            "companies": _companies_by_color(r) if "open_companies" in r.variants else [],
        }
        for r in registry.RULESETS.values()
    ]


def _render(names=None, options=(), deck=(), error=None, status=200, ruleset=registry.DEFAULT, game_types=None):
    names = list(names or [])
    names += [""] * (MAX_PLAYERS - len(names))
    return render_template(
        "new_game.html",
        names=names,
        choices=_choices(),
        ruleset=ruleset,
        game_types=game_types or {},
        chosen=set(options),
        deck=set(deck),
        error=error,
    ), status


@bp.get("/")
def index():
    return render_template("home.html")


@bp.get("/games/new")
def new_game():
    return _render()


@bp.post("/games/new")
def create_game():
    form = request.form
    key = form.get("ruleset") or registry.DEFAULT
    names = [n.strip() for n in form.getlist("name")][:MAX_PLAYERS]
    options = [o for o in form.getlist("option") if o in OPTIONS]
    filled = [n for n in names if n]
    deck: list[str] = []
    type_key = form.get(f"game_type-{key}") or None

    def again(error=None, status=422):
        return _render(filled, options, deck, error, status if error else 200, key, {key: type_key})

    if key not in registry.RULESETS:
        key = registry.DEFAULT
        return again("Choose one of the games offered.")
    ruleset = registry.get(key)
    deck[:] = [c for c in form.getlist(deck_field(ruleset)) if c in ruleset.cards.companies]
    if "shuffle" in form:
        secrets.SystemRandom().shuffle(filled)
        return again()
    error = _check_names(filled)
    if error:
        return again(error)
    not_offered = [OPTIONS[o][0] for o in options if o not in ruleset.variants]
    if not_offered:
        return again(f"{ruleset.title} has no variant “{not_offered[0]}”: untick it, or choose another game.")
    offered = [t for t in ruleset.game_types if t.offered]
    game_type = next((t for t in offered if t.key == type_key), None)
    if offered and game_type is None:
        return again(f"Choose the game type of {ruleset.title}: {'; '.join(t.title for t in offered)}.")
    if "open_companies" in options and not deck:
        return again("Tick the companies that are in the open deck.")
    seats, persons = filled, None
    if "two_handed" in options:
        if len(filled) != 2:
            return again(
                "The two-handed variant is for 2 persons: enter just their "
                "two names (players 1 and 2); the app makes the four seats."
            )
        persons, seats = filled, two_handed_seats(*filled)
    else:
        problem = ruleset.player_problem(len(filled))
        if problem:
            return again(problem)
    limits.check_new_game(get_store())  # 429 past the rate of new games, 507 past the size cap
    try:
        gid = get_store().create_game(
            seats,
            options + list(game_type.options if game_type else ()),
            deck if "open_companies" in options else None,
            persons=persons,
            ruleset=ruleset.key,
        )
    except Refused as err:
        return again(_sentence(err.message))
    mark_host(gid)  # this phone shows the join QR code until every seat is taken
    return redirect(url_for("table.page", gid=gid), code=303)


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:].rstrip(".") + "."


def _check_names(names: list[str]) -> str | None:
    if len(names) < 2:
        return "Enter at least 2 player names."
    if any(len(n) > MAX_NAME for n in names):
        return f"Names can have at most {MAX_NAME} characters."
    return None  # the rest (invisible characters, duplicates, look-alikes) is assistant.store.names' rule


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
            # bytes: json detects UTF-8 with or without a byte order mark (and UTF-16/32), as for the JSON body
            data = json.loads(upload.read())
        except (UnicodeDecodeError, ValueError):
            return render_template("home.html", import_error="That file is not a JSON transcript."), 400
    limits.check_new_game(get_store())
    try:
        gid = trial.import_transcript(data)  # tried first in a process of its own (trial.py)
    except (ImportRefused, Refused) as err:
        if as_json:
            body = {"error": err.message, "index": getattr(err, "index", None)}
            problems = getattr(err, "problems", None)  # a position that cannot be: each problem
            if problems:
                body["problems"] = [{"field": f, "message": m} for f, m in problems]
            return jsonify(body), 422
        return render_template("home.html", import_error=err.message), 422
    url = url_for("table.page", gid=gid)
    mark_host(gid)
    if as_json:
        resp = jsonify({"id": gid, "url": url})
        resp.status_code = 303
        resp.headers["Location"] = url
        return resp
    return redirect(url, code=303)
