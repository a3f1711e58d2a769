"""Decision helpers, explanations ("Why?") and the rules page (issue 4).

Every route is a GET: it shows what the engine computes and changes nothing.  With htmx
(``HX-Request``) the answer is a partial that the page swaps in below the link that asked for
it; without JavaScript it is a normal page with a way back to the table.

Routes (``<gid>`` a game id; unknown games are 404):

* ``/rules``: the canonical rules, every section with ``id=<anchor>`` (refusals link here)
* ``/games/<gid>/help/dividend``: dividend chart of the corporation whose dividend is due
* ``/games/<gid>/help/ipo``: IPO calculator of the company whose owner decides in phase 9
* ``/games/<gid>/help/trade?player=&corporation=&side=buy|sell``: share buy / sell preview
* ``/games/<gid>/help/acquisition?corporation=&company=&price=``: acquisition what-if
* ``/games/<gid>/help/closing[?company=]``: closing what-if (without company: who must close)
* ``/games/<gid>/help/standings``: each player's value if the game ended now
* ``/games/<gid>/help/banker``: what to move on the real table for the latest entries
* ``/games/<gid>/help/outlook``: when the cost of ownership changes, and who then loses money
* ``/games/<gid>/help/close``: an empty partial (the "Close" link of a helper box)
* ``/games/<gid>/why/<kind>?…``: the derivation of one figure; kinds: income (entity),
  stars (corporation), price (corporation, amount), share_price (corporation, side),
  dividend_limit (corporation), score (player)
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request, url_for
from markupsafe import Markup

from assistant.rules import RuleError, registry
from assistant.web import helpers_context as hc
from assistant.web.charts import history_charts
from assistant.web.db import get_store
from assistant.web.views.table import table_page

bp = Blueprint("helpers", __name__)

HELPERS = {
    "dividend": "Dividend chart",
    "ipo": "IPO calculator",
    "trade": "Share trade preview",
    "acquisition": "Acquisition what-if",
    "closing": "Closing what-if",
    "standings": "Standings now",
    "banker": "Banker's sheet",
    "outlook": "Cost of ownership outlook",
}


def helper_title(name: str, ruleset) -> str:
    """A helper's name in the game's words (classic and v2.2 buy and close companies, Stars acquires)."""
    if name in ("acquisition", "closing"):
        return ruleset.word(f"{name}_helper")
    return HELPERS.get(name, "Why?")


def _is_partial() -> bool:
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def _render(name: str, v, **data):
    """The helper partial with htmx, else a whole page around it."""
    partial = _is_partial()
    body = render_template(f"helpers/{name}.html", v=v, partial=partial, **data)
    if partial:
        return body
    return render_template(
        "helpers/page.html", v=v, title=data.get("page_title") or helper_title(name, v.ruleset), body=Markup(body)
    )


def _fail(err: hc.HelperError):
    abort(err.status, description=err.message)


# ------------------------------------------------------------------ rules
@bp.get("/rules")
def rules():
    """The rules of a game's ruleset (``game=<gid>``), of a ruleset (``ruleset=<key>``), else of the default's."""
    gid = request.args.get("game") or ""
    back = None
    ruleset = registry.get(registry.DEFAULT)
    key = request.args.get("ruleset")
    if gid and get_store().game_exists(gid):
        back = url_for("table.page", gid=gid)
        key = get_store().get_game(gid).ruleset
    if key:
        try:
            ruleset = registry.get(key)
        except RuleError as err:
            abort(404, description=err.message)
    heading = "Rules" if ruleset.key == registry.DEFAULT else f"Rules of {ruleset.title}"  # the default's: just "Rules"
    return render_template("rules.html", groups=hc.rules_groups(ruleset), back=back, ruleset=ruleset, heading=heading)


# ------------------------------------------------------------------ helpers
@bp.get("/games/<gid>/help/close")
def close(gid: str):
    table_page(gid)  # 404 for an unknown game
    return ""


@bp.get("/games/<gid>/help/dividend")
def dividend(gid: str):
    v = table_page(gid)
    return _render("dividend", v, chart=hc.dividend(v.game))


@bp.get("/games/<gid>/help/ipo")
def ipo(gid: str):
    v = table_page(gid)
    return _render("ipo", v, calc=hc.ipo(v.game))


@bp.get("/games/<gid>/help/trade")
def trade(gid: str):
    v = table_page(gid)
    args = request.args
    try:
        player = hc.need_player(v.game, args.get("player"))
        corp = hc.need_corporation(v.game, args.get("corporation"))
        side = args.get("side", "buy")
        if side not in ("buy", "sell"):
            raise hc.HelperError("side must be buy or sell.", 400)
    except hc.HelperError as err:
        _fail(err)
    return _render("trade", v, t=hc.trade(v.game, player, corp, side == "buy"))


@bp.get("/games/<gid>/help/acquisition")
def acquisition(gid: str):
    v = table_page(gid)
    args = request.args
    choices = hc.acquisition_choices(v.game, v.menu)
    result = None
    if args.get("corporation") or args.get("company"):
        try:
            corp = hc.need_corporation(v.game, args.get("corporation"))
            company = hc.need_company(v.game, args.get("company"))
            raw = args.get("e.price") or args.get("price", "")  # e.price: typed beside the link
            if raw == "":  # no price yet: the lowest of the menu's range (or of the price span)
                lo_hi = choices["spans"].get((corp, company))
                raw = lo_hi[0] if lo_hi else hc.companies_of(v.game)[company].price_min
            price = hc.need_int(raw, "price", 0, 999)
        except hc.HelperError as err:
            _fail(err)
        result = hc.acquisition(v.game, corp, company, price)
    return _render("acquisition", v, a=result, choices=choices)


@bp.get("/games/<gid>/help/closing")
def closing(gid: str):
    v = table_page(gid)
    company = request.args.get("company")
    if company:
        try:
            hc.need_company(v.game, company)
        except hc.HelperError as err:
            _fail(err)
        return _render("closing", v, c=hc.closing(v.game, company), overview=None)
    return _render("closing", v, c=None, overview=hc.closing_overview(v.game, v.menu))


@bp.get("/games/<gid>/help/standings")
def standings(gid: str):
    v = table_page(gid)
    return _render("standings", v, rows=hc.standings(v.game), charts=history_charts(v.game))


@bp.get("/games/<gid>/help/banker")
def banker(gid: str):
    v = table_page(gid)
    return _render("banker", v, entries=hc.banker(v.game))


@bp.get("/games/<gid>/help/outlook")
def outlook(gid: str):
    v = table_page(gid)
    return _render("outlook", v, o=hc.outlook(v.game))


@bp.get("/games/<gid>/why/<kind>")
def why(gid: str, kind: str):
    v = table_page(gid)
    if kind not in hc.WHY_KINDS:
        abort(404, description=f"There is no explanation called {kind[:40]!r}.")
    try:
        ex = hc.why(v.game, kind, request.args)
    except hc.HelperError as err:
        _fail(err)
    return _render("why", v, ex=ex, page_title=ex["title"])


# ------------------------------------------------------------------ links for the table's templates
INFO = "i"  # the mark after a figure: an information sign, not a "?" that reads as doubt about it


@bp.app_template_global()
def why_link(v, kind: str, label: str = INFO, **params) -> Markup:
    """A "Why?" link for one figure (a round "i" after it unless ``label``), and the slot its
    explanation is swapped into."""
    params = {k: val for k, val in params.items() if val is not None}
    return Markup(render_template("helpers/_why_link.html", v=v, kind=kind, label=label, params=params, mark=INFO))


# The helpers that belong to one decision: open, they stay open only while the game waits for it.
DECISION_HELPERS = {"dividend", "ipo", "trade", "acquisition", "closing"}


@bp.app_template_global()
def helper_link(v, name: str, label: str | None = None, include: str | None = None, **params) -> Markup:
    """A one-tap link to a helper, with the slot the helper is swapped into; ``include``: the field
    (an htmx selector) whose typed value goes with the link (the price typed beside it)."""
    links = [(name, label or (helper_title(name, v.ruleset) if name in HELPERS else name), params)]
    decision = v.decision if name in DECISION_HELPERS else ""
    return Markup(render_template("helpers/_links.html", v=v, links=links, decision=decision, include=include))


@bp.app_template_global()
def decision_helpers(v, form, first: bool = True, close_link: bool = False) -> Markup:
    """The helpers of one form of the action panel (placed right after the form); ``close_link``:
    this closing is the panel's first, which also links "Who must close?"."""
    hidden = getattr(form, "hidden", None) or {}
    kind = hidden.get("type")
    links = []
    if kind == "dividend" and first:
        links.append(("dividend", "Dividend chart", {}))
    elif kind == "ipo":
        links.append(("ipo", "IPO calculator", {}))
    elif kind in ("buy_share", "sell_share"):
        links.append(
            (
                "trade",
                "What happens?",
                {
                    "player": hidden.get("player"),
                    "corporation": hidden.get("corporation"),
                    "side": "buy" if kind == "buy_share" else "sell",
                },
            )
        )
    elif kind == "acquire":
        if (v.next or {}).get("for") == "intervention":
            return Markup("")  # preview.acquisition takes no announced_by: it would refuse these
        price = hidden.get("price")
        if price is None and getattr(form, "number", None) is not None:
            price = form.number.value
        links.append(
            (
                "acquisition",
                "What if?",
                {"corporation": hidden.get("corporation"), "company": hidden.get("company"), "price": price},
            )
        )
    elif kind == "close":
        links.append(("closing", "What if?", {"company": hidden.get("company")}))
        if close_link:  # once per action panel
            links.append(("closing", "Who must close?", {}))
    if not links:
        return Markup("")
    typed = "previous input[name='e.price']" if kind == "acquire" and getattr(form, "number", None) else None
    return Markup(render_template("helpers/_links.html", v=v, links=links, decision=v.decision, include=typed))


@bp.app_template_global()
def banker_lines(v, n: int) -> Markup:
    """What to move on the real table for history entry ``n`` (only for the latest entries)."""
    lines = hc.banker_lines(v.game, n)
    if not lines:
        return Markup("")
    return Markup(render_template("helpers/_banker_lines.html", lines=lines))


@bp.app_template_global()
def rule_link(anchor: str | None, gid: str | None = None) -> Markup:
    """A link to the rule a refusal applies, on the rules page (empty without a known rule)."""
    ruleset = registry.get(get_store().get_game(gid).ruleset if gid else registry.DEFAULT)
    title = hc.rule_title(ruleset, anchor)
    if not title:
        return Markup("")
    return Markup(render_template("helpers/_rule_link.html", anchor=anchor, title=title, gid=gid))


def helper_url(v, name: str, **params) -> str:
    return url_for(f"helpers.{name}", gid=v.gid, **{k: val for k, val in params.items() if val is not None})


bp.add_app_template_global(helper_url, "helper_url")
