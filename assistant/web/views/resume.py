"""Start from the table as it lies (issue 16): a game that began on paper, or whose laptop died,
goes on with the app.  Step 1 names the game and the players in player order; step 2 is what
lies on the table; the engine checks the position and it becomes the game's first entry."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from assistant.rules import RuleError, registry
from assistant.store import ImportRefused
from assistant.web import get_store, limits, trial
from assistant.web.resume import FI, OFFER, OUT, UNAVAILABLE, ResumeForm
from assistant.web.scorecheck import MAX_PLAYERS, FormError
from assistant.web.seats import mark_host

bp = Blueprint("resume", __name__)
HOLDERS = {
    OFFER: "Offering: available",
    UNAVAILABLE: "Offering: unavailable",
    FI: "Foreign investor",
    OUT: "Out of the game",
}


def _start(error=None, status=200):
    return render_template(
        "resume/start.html",
        rulesets=list(registry.RULESETS.values()),
        slots=MAX_PLAYERS,
        chosen=request.values.get("game") or registry.DEFAULT,
        names=request.values.getlist("name"),
        error=error,
    ), status


@bp.get("/resume")
def start():
    return _start()


@bp.route("/resume/table", methods=["GET", "POST"])
def table():
    try:
        form = ResumeForm.read(request.values)
    except FormError as err:
        return _start(str(err), err.status)
    if request.method == "GET":
        return render_template("resume/table.html", form=form, ruleset=form.ruleset, holders=HOLDERS)
    limits.check_new_game(get_store())
    status = 422
    try:
        gid = trial.import_transcript(form.transcript())
    except FormError as err:
        error, status = str(err), err.status
    except RuleError as err:
        error = err.message
    except ImportRefused as err:
        error = err.reason
    else:
        mark_host(gid)
        return redirect(url_for("table.page", gid=gid), code=303)
    return render_template("resume/table.html", form=form, ruleset=form.ruleset, holders=HOLDERS, error=error), status
