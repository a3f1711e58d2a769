"""The JSON door: state and events for programs, and the transcript export."""

from __future__ import annotations

import json

from flask import Blueprint, abort, jsonify, make_response, request

from assistant.log import saved, transcript, walk
from assistant.store import NotFound, Refused, Stale, check_token
from assistant.web import ahead
from assistant.web.csrf import exempt, is_json_request
from assistant.web.db import get_store

bp = Blueprint("api", __name__, url_prefix="/games")

MAX_TOKEN = 200


def _game_or_404(gid: str):
    try:
        return get_store().get_game(gid)
    except NotFound:
        abort(404, description="There is no game with this id.")


@bp.get("/<gid>/state")
def state(gid: str):
    _game_or_404(gid)
    seq, game = get_store().state(gid)
    body = dict(game.snapshot())
    body["seq"] = seq
    bankrupt = ahead.bankrupt_ahead(game)  # the closing phase: who goes bankrupt at income, what avoids it
    if bankrupt:
        body["bankrupt_ahead"] = bankrupt
    resp = jsonify(body)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _envelope_problem(seq, token, event) -> str | None:
    """What is wrong with a posted seq, token and event (None: they are well formed)."""
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        return "seq must be a whole number: the seq of the state you saw."
    if token is not None and (not isinstance(token, str) or not token or len(token) > MAX_TOKEN):
        return f"token must be a non-empty string of at most {MAX_TOKEN} characters."
    try:
        check_token(token)
    except Refused:
        return "token must be valid Unicode text."
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        return "event must be an object with a type."
    return None


def _not_written(store, gid: str, seq: int, err):
    """409 with what happened meanwhile (a stale post), or 422 with the rule (refused)."""
    if isinstance(err, Stale):
        changes = store.changes_since(gid, err.expected)
        return jsonify({"error": err.message, "seq": err.current, "changes": changes}), 409
    return jsonify({"error": err.message, "rule": err.rule, "seq": seq}), 422


def _bad(message: str, code: int = 400):
    return jsonify({"error": message, "status": code}), code


@bp.post("/<gid>/events")
@exempt
def post_event(gid: str):
    """``{"seq": n, "token": "…", "event": {…}}`` → 200 {"seq"}, 409 stale, 422 refused, 400 malformed."""
    _game_or_404(gid)
    if not is_json_request():
        return _bad("Send the event as JSON (Content-Type: application/json).", 415)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return _bad('The body must be a JSON object {"seq": n, "token": "…", "event": {…}}.')
    seq, token, event = body.get("seq"), body.get("token"), body.get("event")
    problem = _envelope_problem(seq, token, event)
    if problem:
        return _bad(problem)
    store = get_store()
    if body.get("confirm") is not True and store.asks_confirm(gid, event):
        return _bad(
            f"{walk.UNDOS_WITHOUT_CONFIRM} entries have just been undone in a row: to undo another, send "
            '"confirm": true with it (undone entries can be restored with {"type": "redo"}).',
            422,
        )
    try:
        new_seq = store.append(gid, seq, event, token=token)
    except (Stale, Refused) as err:
        return _not_written(store, gid, seq, err)
    return jsonify({"seq": new_seq})


@bp.post("/<gid>/amend")
@exempt
def amend(gid: str):
    """``{"seq": n, "token": "…", "index": k, "event": {…}}``: correct the k-th table event of the
    export (from 0).  200 {"seq", "kept", "set_aside"}, 409 stale, 422 refused, 400 malformed."""
    _game_or_404(gid)
    if not is_json_request():
        return _bad("Send the correction as JSON (Content-Type: application/json).", 415)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return _bad('The body must be a JSON object {"seq": n, "token": "…", "index": k, "event": {…}}.')
    seq, token, index, event = body.get("seq"), body.get("token"), body.get("index"), body.get("event")
    problem = _envelope_problem(seq, token, event)
    if not problem and (not isinstance(index, int) or isinstance(index, bool) or index < 0):
        problem = "index must be a whole number: the entry's place in the export's events, from 0."
    if problem:
        return _bad(problem)
    store = get_store()
    try:
        out = store.amend(gid, seq, index, event, token=token)
    except (Stale, Refused) as err:
        return _not_written(store, gid, seq, err)
    return jsonify(out)


@bp.get("/<gid>/export")
def export(gid: str):
    """The transcript; a download that is already up to date (If-None-Match) is a 304, not built again."""
    info = _game_or_404(gid)
    store = get_store()
    tag = f"{store.seq(gid)}-{saved.version()[:8]}"  # the log's length, and the rules' version
    if request.if_none_match.contains(tag):
        resp = make_response("", 304)
    else:
        resp = make_response(transcript.dumps(store.export(gid)))
        resp.mimetype = "application/json"
    day = info.created[:10]
    resp.headers["Content-Disposition"] = f'attachment; filename="{info.ruleset}-{day}-{gid[:6]}.json"'
    resp.headers["Cache-Control"] = "private, no-cache"  # kept, but asked again each time: the game goes on
    resp.set_etag(tag)
    return resp


@bp.get("/<gid>/history")
def history(gid: str):
    """Every log row ever written, undone entries, restorations and corrections included, with its
    words: for the record (a going back as stored: the row it goes back to, not the events it brings back). The transcript export stays as it is; import reads only transcripts."""
    info = _game_or_404(gid)
    store = get_store()
    rows = store.rows(gid)
    texts = store.timeline(gid, rows[-1].seq if rows else 0).row_words(0)  # one per row
    data = {
        "format": "rss-table-history",
        "version": 1,
        "game": info.ruleset,
        "id": gid,
        "players": info.players,
        "rows": [
            {"seq": r.seq, "event": walk.compact(r.event), "created": r.created, "text": t}
            for r, t in zip(rows, texts if len(texts) == len(rows) else [None] * len(rows), strict=True)
        ],
    }
    resp = make_response(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    resp.mimetype = "application/json"
    resp.headers["Content-Disposition"] = f'attachment; filename="history-{info.created[:10]}-{gid[:6]}.json"'
    return resp
