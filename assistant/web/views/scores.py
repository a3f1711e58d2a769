"""Checking the final scores of a game played on paper: the players in final order, then only
what scoring needs; the result to share.  Every step is a GET (nothing is stored): the result's
address is the result."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from assistant.rules import RuleError, registry
from assistant.web.scorecheck import MAX_PLAYERS, FormError, ScoreForm

bp = Blueprint("scores", __name__)


@bp.get("/scores")
def start():
    """Step 1: which game, and the players in their final player order (it breaks ties)."""
    return render_template(
        "scores/start.html", rulesets=list(registry.RULESETS.values()), slots=MAX_PLAYERS, chosen=registry.DEFAULT
    )


@bp.get("/scores/check")
def check():
    """Step 2 (and the result once the figures are in): money, companies, shares, share prices."""
    try:
        form = ScoreForm.read(request.args)
    except FormError as err:
        return render_template(
            "scores/start.html",
            rulesets=list(registry.RULESETS.values()),
            slots=MAX_PLAYERS,
            chosen=request.args.get("game") or registry.DEFAULT,
            names=request.args.getlist("name"),
            options=request.args.getlist("option"),
            error=str(err),
        ), err.status
    result, error, status = None, None, 200
    if form.filled:
        try:
            result = form.checked()
        except FormError as err:
            error, status = str(err), err.status
        except RuleError as err:
            error, status = err.message, 422
    return render_template("scores/check.html", form=form, ruleset=form.ruleset, result=result, error=error), status
