"""Each game in its own words (issue 28): the figures of classic and v2.2 were right, the words were
Stars'.  Through Flask's test client; the expected words are the rulebooks' own (../shared/seeds:
rolling-stock-rules-v2.2.txt, rolling-stock-players-guide.txt), written out here by hand."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from assistant.rules import events_of, registry
from assistant.rules.core import vocabulary
from assistant.web import action_forms as web_menu
from tests import rulesets

from . import own_words_crawl
from .conftest import CSRF_RE

STARS_NAMES = list(registry.STARS.corporations)


def _create(client, table, ruleset, players=("Amy", "Brian", "Crystal")) -> str:
    data = {"csrf_token": table.csrf(), "name": list(players), "ruleset": ruleset, f"game_type-{ruleset}": "full"}
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 303, resp.text
    return resp.headers["Location"].rsplit("/", 1)[1]


def _body(html: str) -> str:
    """The rules page's sections (without the note above them, which maps the names on purpose)."""
    return html[html.index("<h2>") :]


def test_the_v22_rules_page_is_v22s_own_text(client):
    """Issue 37: the v2.2 page serves v2.2's own rules (rolling-stock-rules-v2.2.txt), not the Stars
    text with the names swapped.  The sentences below are copied from that file by hand."""
    html = client.get("/rules?ruleset=rolling-stock-v2.2").text
    assert 'id="ruleset-note"' not in html and "Rolling Stock Stars" not in html
    body = _body(html)
    assert [n for n in STARS_NAMES if n in body] == []
    # Collect income: "*Jupiter* adds \$1 per COMPANY it owns"; Setup: "Each PLAYER receives \$30 from the BANK"
    assert "Jupiter adds $1 per COMPANY it owns" in body
    assert "Each PLAYER receives $30 from the BANK" in body
    # Setup: "the game end card at the bottom of the deck, the lower cost-of-ownership side up" and
    # "printed red or orange instead of black" (Stars: the "$7 side", "red or yellow")
    assert "the lower cost-of-ownership side up" in body and "$7 side" not in body
    assert "printed red or orange instead of black" in body and "red or yellow" not in body
    # its colour marks: "6 red (●), 8 orange (▲), 8 yellow (■), 7 green (◇), 7 blue (○)"
    assert "6 red (●), 8 orange (▲), 8 yellow (■), 7 green (◇), 7 blue (○)" in body
    # ranked by book value; Go bankrupt sets the receivership card aside
    assert "rank players according to their BOOK VALUE" in body and "total value" not in body
    assert "Set aside the receivership card if the CORPORATION was in RECEIVERSHIP." in body
    assert "symbol card" in body and "charter" not in body.lower()
    assert "on the circle" not in body and "★★" not in body
    assert "variant" not in body.lower()  # v2.2 has none
    # the Stars page keeps Stars' own words
    stars = _body(client.get("/rules").text)
    assert "Prussian Railway adds 1● per Company it owns" in stars and "charter card" in stars


def test_the_new_game_form_describes_v22_as_its_own_game(client):
    page = client.get("/games/new").text
    block = page[page.index('id="ruleset-rolling-stock-v2.2"') :].split('<div class="ruleset"', 1)[0]
    assert "Stars" not in block and "book value" in block


def test_a_v22_refusal_links_to_the_v22_rules(client, table):
    gid = _create(client, table, "rolling-stock-v2.2")
    table.reveal_all(gid)
    nxt = table.state(gid)["next"]
    resp = table.act(gid, {"type": "bid", "player": nxt["player"], "company": "BME", "price": 999})
    assert resp.status_code == 422
    href = re.search(r'class="rule-link" href="([^"]+)"', resp.text).group(1).replace("&amp;", "&")
    assert href.startswith(f"/rules?game={gid}#")
    page = client.get(href.split("#")[0]).text
    assert "<h1>Rules of Rolling Stock v2.2</h1>" in page and f'id="{href.split("#")[1]}"' in page
    assert "Prussian Railway" not in _body(page) and "charter" not in _body(page).lower()


def test_the_classic_rules_page_has_no_page_break_slips(client):
    body = _body(client.get("/rules?ruleset=rolling-stock").text)
    # Guide 1.3: "... easily reachable for everybody. This central area is the bank."
    assert "This central area is the bank" in body and "cen6" not in body
    assert "the player that takes the next action after the auction is the one" in body.lower()


def test_the_classic_rules_page_is_whole(client):
    """Issue 37: the Guide's text without the extraction's damage.  The sentences are the Guide's
    (rolling-stock-players-guide.txt), copied by hand."""
    body = _body(client.get("/rules?ruleset=rolling-stock").text)
    assert "threeplayer" not in body and "sixplayer" not in body
    assert "(In a three-player game, there are four orange companies, as usual.)" in body
    assert "the following epic six-player variant" in body
    # 1.10: a bullet cut by a page break, its end found again
    assert "Companies owned directly by a player or by the foreign investor never ever receive synergy bonuses." in body
    assert "figure above" not in body  # no figure is shown, so none is pointed at
    # the training game's set-up is said to be that, beside the set-up of the short and full game
    assert "1.3 Setting up the training game" in body
    assert "1.9 Setting up the short game and the full game" in body


def test_the_classic_phases_are_the_guides():
    """Guide 1.4: "Phase 1 – issue new shares" ... "Phase 10 – end of game check"."""
    titles = [registry.CLASSIC.phase_title(n) for n in range(1, 11)]
    assert titles == [
        "Phase 1 – issue new shares",
        "Phase 2 – form corporations",
        "Phase 3 – auctions and share trading",
        "Phase 4 – determine new player order",
        "Phase 5 – foreign investor",
        "Phase 6 – corporations buy companies",
        "Phase 7 – close companies",
        "Phase 8 – collect income",
        "Phase 9 – pay dividends",
        "Phase 10 – end of game check",
    ]


def test_classic_draws_wait_for_the_next_turn_not_the_wrap_up():
    """Guide 1.10: "Newly drawn companies are not available for auction in the same turn. They have
    to wait until next turn."  Stars' wrap-up is no classic phase."""
    rng = random.Random(3)
    game = registry.CLASSIC.create(["Amy", "Brian", "Crystal"])
    texts = []
    for _ in range(400):
        menu = game.legal_actions()
        if not menu or any("unavailable" in t for t in texts):
            break
        game.apply(events_of(rng.choice(menu), lambda *a: a[0] if len(a) == 2 else rng.choice(a[0])))
        texts = [e["text"] for e in game.journal]
    drawn = [t for t in texts if "unavailable" in t]
    assert drawn and all(t.endswith("drawn (unavailable until the next turn)") for t in drawn), drawn
    assert not [t for t in texts if "wrap-up" in t]


@pytest.mark.parametrize(
    ("key", "corporation", "word"),
    [
        ("rolling-stock-stars", "Doppler AG", "Charter"),
        ("rolling-stock-v2.2", "Eagle", "Symbol card"),
        ("rolling-stock", "Eagle", "Symbol card"),
    ],
)
def test_the_ipo_form_names_the_card_as_the_game_does(key, corporation, word):
    """Stars forms a corporation with a charter; v2.2 ("The PLAYER selects an unused symbol card") and
    the Guide ("Set the ten symbol cards aside") with a symbol card."""
    ruleset = registry.get(key)
    option = {"price": 10, "corporation": corporation, "owner_shares": 1, "bank_shares": 1, "payment": 0}
    item = {"type": "ipo", "player": "Amy", "company": "KME", "options": [dict(option, treasury=10)]}
    form = web_menu.build([item], {}, ruleset)[0].forms[0]
    assert [g.legend for g in form.radios] == ["1. Share price (and what it costs)", f"2. {word}"]
    item["options"].append(dict(option, price=12, treasury=12, owner_shares=2))  # not every price with every card
    item["options"].append(dict(option, price=14, treasury=14, corporation=list(ruleset.corporations)[0]))
    form = web_menu.build([item], {}, ruleset)[0].forms[0]
    assert [g.legend for g in form.radios] == [f"{word} and share price"]


def test_the_home_page_names_the_family_and_a_game_its_own_name(client, table):
    home = client.get("/").text
    assert "Mirrors your physical game of Rolling Stock:" in home
    assert '<a href="/" class="brand">Rolling Stock</a>' in home and "Rolling Stock Stars" not in home
    assert "<title>Rolling Stock</title>" in home
    gid = _create(client, table, "rolling-stock-v2.2")
    page = client.get(f"/games/{gid}").text
    assert "<title>Setup · Phase 1 · Rolling Stock v2.2</title>" in page and "Rolling Stock Stars" not in page
    helper = client.get(f"/games/{gid}/help/standings").text  # a whole page with the header
    assert 'class="brand">Rolling Stock v2.2</a>' in helper and "Rolling Stock Stars" not in helper
    missing = client.get(f"/games/{gid}/why/nonsense")  # a 404 inside the game: the game's own name
    assert missing.status_code == 404
    assert 'class="brand">Rolling Stock v2.2</a>' in missing.text and "· Rolling Stock v2.2</title>" in missing.text
    nowhere = client.get("/games/no-such-game")  # outside any game: the family
    assert nowhere.status_code == 404 and 'class="brand">Rolling Stock</a>' in nowhere.text
    classic = _create(client, table, "rolling-stock")
    assert 'class="brand">Rolling Stock</a>' in client.get(f"/games/{classic}/help/standings").text


def test_the_new_game_form_shows_each_games_own_variants(client):
    page = client.get("/games/new").text
    blocks = {
        key: page[page.index(f'id="ruleset-{key}"') :].split('<div class="ruleset"', 1)[0] for key in registry.RULESETS
    }
    # Stars: "Two-handed"; classic (Guide 3.7): "Two players", the app's "Two-player variant"
    assert "<strong>Two-handed</strong>" in blocks["rolling-stock-stars"]
    assert "<strong>Two-player variant</strong>" in blocks["rolling-stock"]
    assert "Two-handed" not in blocks["rolling-stock"]
    assert 'name="option"' not in blocks["rolling-stock-v2.2"]
    # and only the chosen game's show: a style sheet of the form's own hides the others'
    css = re.search(r'<link rel="stylesheet" href="(/static/new_game\.[0-9a-f]{12}\.css)">', page).group(1)
    sheet = client.get(css).get_data(as_text=True)
    assert ":has(>label input[name=ruleset]:not(:checked)) fieldset" in sheet.replace("> ", ">")  # sent minified
    assert CSRF_RE.search(page)


def test_every_game_brings_its_own_words():
    for ruleset in registry.RULESETS.values():
        assert set(vocabulary.WORD_KEYS) <= set(ruleset.words) <= {*vocabulary.WORD_KEYS, *vocabulary.OWN_LISTS}
    assert registry.STARS.money(4) == "4●" and registry.V22.money(4) == "$4" and registry.CLASSIC.money(4) == "$4"
    with pytest.raises(ValueError, match="no words for"):
        vocabulary.load("assistant.rules.classic", "rolling-stock-stars")


# ---------------------------------------------------------------- every page in its own words (issue 37)
SHARED_SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
RULEBOOKS = {
    "rolling-stock-stars": "rolling-stock-stars-rulebook.txt",
    "rolling-stock-v2.2": "rolling-stock-rules-v2.2.txt",
    "rolling-stock": "rolling-stock-players-guide.txt",
}
# The words the issue names beside the names, phases, money and marks each game's data gives.
TERMS = ("charter", "leapfrog", "acquisition", "Rolling Stock Stars", "symbol card", "book value", "total value")
# Colour marks: v2.2 prints its own ("6 red (●), 8 orange (▲), 8 yellow (■), 7 green (◇), 7 blue (○)");
# the Stars rulebook and the Guide print none, so theirs are the app's (assistant/web/labels.py).
MARKS = "●▲■◆★◇○✚"
V22_MARKS = "●▲■◇○"
# An amount of money written bare (v2.2 and the Guide write "$12"): a figure after the words that say
# money ("buys an Eagle share for 12", "Cash 30", "pays 2 per share", "treasury 8", "worth 24", "income 3"; not the phase "collect income" before the next phase's number).
BARE_MONEY = re.compile(
    r"(?<![\w-])(?<!collect )(?:for|pays?|paid|bids?|at|cash|treasury|money|worth|costs?|payment|value|receives|income|earns"
    r"|above|bonus of|fell to|price to|with)"
    r"\s+(?!\$)[−-]?\d+(?![\d%×.★]|\s*(?:shares?|players?|seats?|compan|cards?|turns?|times|×|★|px|required|issu))",
    re.I,
)
# A change of money written bare after whose it is ("Collect income: Amy +2, Wheel −1"), and the final
# scores the log ends with ("The game ends. Amy 112, Brian 98"), and the end card's costs of ownership.
BARE_SIGNED = re.compile(r"(?<=[\w:] )[+−]\d+(?![\d%×.★]|\s*(?:shares?|★|synerg|compan))")
BARE_SCORES = re.compile(r"The game ends\. [^\n]*?(?<![$\w])\d")
BARE_COSTS = re.compile(
    r"cost of ownership (?:per company: )?(?:(?:red|orange|yellow|green|blue) )?\d|− \d+ cost of ownership", re.I
)
# A dividend per share ("Pay 3 per share", "(0–3 per share)"); the share price card's rows in a Why?
# ("The 10 card with 2 shares: below 18 (×9) ...", "17 is in the row 0–17: down to 8"); a chart's
# description ("Amy: 30 at the start, 41 now"; not "it is phase 9 now").
BARE_PER_SHARE = re.compile(r"(?<![$\w])\d+ per share")
BARE_PRICE_ROW = re.compile(
    r"(?m)\bThe \d+ card(?!s)|\bbelow \d|\(×\d|^\d+ is in the row|\brow \d+–|\b(?:up|down) to \d+(?!\s*(?:shares?|players?))"
)
BARE_MOVE = re.compile(r"\bfrom \d+ to the next|free card: \d|new price, \d|\d+ is in use|(?<!\$)\d+ card means")
BARE_CHART = re.compile(r"(?<![$\w])(?<!phase )(?<!turn )\d+ (?:at the start|at the end|now\b)")
# The banker's sheet: "Bank pays Amy 3; Crystal 3", "Bank → Amy: 3 (income)".
BARE_SHEET = re.compile(r"(?:→ [^:\n]+:|\bpays [A-Z][^\n;$]*?) \d")


def _rulebook_text(ruleset) -> str:
    """The game's own text: its rulebook in ../shared/seeds, else (a game of a folder only, like the
    example) its rules page, its names and its words."""
    name = RULEBOOKS.get(ruleset.key)
    if name is not None:
        path = SHARED_SEEDS / name
        if not path.exists():
            pytest.skip(f"{path} not found (the read-only ../shared folder is not beside the repository)")
        return " ".join(path.read_text(encoding="utf-8").replace("\\$", "$").split())
    own = [s["title"] + " " + s["text"] for s in ruleset.rules_sections()]
    return "\n".join([*own, *ruleset.corporations, *ruleset.phase_names.values(), *ruleset.words.values()])


def _own_marks(ruleset) -> str:
    from assistant.web import labels

    marks = getattr(ruleset, "marks", None)
    if marks:
        return "".join(shape for shape, _ in marks.values())
    if ruleset.key == "rolling-stock-v2.2":
        return V22_MARKS
    return "".join(shape for shape, _ in labels.COLOR_MARKS.values())


def _pattern(term: str, name: bool) -> re.Pattern:
    """A corporation name as written (word by word); any other term in any case, plural too."""
    if name:
        return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")
    return re.compile(rf"(?<![\w-]){re.escape(term)}s?(?![\w-])", re.I)


def foreign_words(ruleset, every) -> dict[str, re.Pattern]:
    """what -> pattern: the words other games use that this game's rulebook does not: corporation
    names, phase titles, the card a corporation is formed with, the issue's terms, money, colour marks."""
    own = _rulebook_text(ruleset)
    # a game's own names, titles and words are looked for too: its rulebook must say them
    names = {n for other in every for n in other.corporations}
    terms = {t for other in every for t in (*other.phase_names.values(), other.word("charter"))} | set(TERMS)
    found = {}
    terms = {t.lower(): t for t in sorted(terms - names, reverse=True)}.values()  # "Acquisition" is "acquisition"
    for term, name in sorted([(n, True) for n in names] + [(t, False) for t in terms]):
        pattern = _pattern(term, name)
        if not pattern.search(own):
            found[term] = pattern
    money = ruleset.word("money")
    for other in every:
        sign = other.word("money").replace("{}", "").strip()
        if sign not in money:
            found[f"a figure with {sign}"] = re.compile(
                rf"\d ?{re.escape(sign)}" if other.word("money").startswith("{}") else rf"{re.escape(sign)} ?\d"
            )
    if ruleset.cash(1) != "1":  # the game writes money with its sign: a bare amount is another game's way
        found["a bare money figure"] = BARE_MONEY
        found["a bare change of money"] = BARE_SIGNED
        found["bare final scores"] = BARE_SCORES
        found["bare costs of ownership"] = BARE_COSTS
        found["a bare amount on the banker's sheet"] = BARE_SHEET
        found["a bare amount per share"] = BARE_PER_SHARE
        found["a bare share price row"] = BARE_PRICE_ROW
        found["a chart's bare figures"] = BARE_CHART
        found["a share price moved bare"] = BARE_MOVE
        # an income's parts: "AKE: 2" (a company's printed income)
        abbrs = "|".join(sorted(map(re.escape, ruleset.cards.companies), key=len, reverse=True))
        found["a company's bare income"] = re.compile(rf"(?m)^(?:{abbrs}): \d+(?![\d★])")  # not "SBB: 3★"
    own_marks = _own_marks(ruleset)
    for mark in MARKS:
        if mark not in own_marks and mark != "●":  # ● is money too: a figure with ● is looked for above
            found[f"the colour mark {mark}"] = re.compile(re.escape(mark) + "(?=[A-Z])")  # "★B", not "3★"
    return found


def _varied_playout(ruleset, players):
    """The seeded random game (tests/rulesets.py) that meets the most kinds of events, to its end."""
    games = [rulesets.playout(ruleset, players, 3000, seed=seed) for seed in range(1, 9)]
    return max(games, key=lambda events: (len({e["type"] for e in events}), len(events)))


def _post(table, gid, events, seq):
    for event in events:
        answer = table.post_json(gid, {"seq": seq, "token": f"w{seq}", "event": event})
        assert answer.status_code == 200, (event, answer.get_json())
        seq += 1
    return seq


def _seen(text, pattern, count=3) -> list[str]:
    """The first few places a foreign word is read, with a little text around it."""
    return [text[max(0, m.start() - 25) : m.end() + 5].replace("\n", " ") for m in pattern.finditer(text)][:count]


def _read(pages, foreign):
    """{(what, url): count} of the foreign words on the pages."""
    hits = {}
    for url, text in pages.items():
        for what, pattern in foreign.items():
            n = len(pattern.findall(text))
            if n:
                hits[(what, url)] = n
    return hits


def test_every_page_of_a_game_speaks_its_own_rulebook(client, table, store, every_ruleset):
    """Issue 37: every page of a game in progress (in its acquisitions, with a refusal) and of a
    finished one holds no word another game uses and this game's rulebook does not (corporation
    names, phase titles, the card a corporation is formed with, "leapfrog", "acquisition", money
    and colour marks), in visible text, titles and aria-labels."""
    ruleset = every_ruleset
    # the words of the games offered (the example's plain "Buy", "Pay", "Earn" name no other game's thing)
    foreign = foreign_words(ruleset, [r for r in registry.RULESETS.values() if r is not rulesets.EXAMPLE])
    players = rulesets.players_for(ruleset, 4)
    events = _varied_playout(ruleset, players)
    data = {"csrf_token": table.csrf(), "name": players, "ruleset": ruleset.key}
    offered = [t for t in ruleset.game_types if t.offered]
    if offered:
        data[f"game_type-{ruleset.key}"] = offered[0].key
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 303, resp.text
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    # the helpers a decision opens (the IPO calculator, the dividend chart), read when it is due
    pages, seq, done = {}, 0, 0
    for kind in ("ipo", "dividend"):
        at = next((i for i, e in enumerate(events) if e["type"] == kind and i >= done), None)
        if at is None:
            continue
        seq, done = _post(table, gid, events[done:at], seq), at
        resp = client.get(f"/games/{gid}/help/{kind}")
        assert resp.status_code == 200, (kind, resp.text)
        pages[f"due /help/{kind}"] = own_words_crawl.words_of(resp.text)[0]
        pages[f"due {kind}: /v/play"] = own_words_crawl.words_of(client.get(f"/games/{gid}/v/play").text)[0]
    # in progress: stopped at its first acquisition (or half way), so a corporation is in play
    cut = next((i for i, e in enumerate(events) if e["type"] == "acquire"), len(events) // 2)
    if cut < done:  # the helpers came later: the acquisition is read first in another game
        cut = done
    seq = _post(table, gid, events[done:cut], seq)
    corp = next(iter(table.state(gid).get("corporations") or {}), "")
    helpers = (
        f"/games/{gid}/help/standings",
        f"/games/{gid}/help/closing",
        f"/games/{gid}/help/trade?player={players[0]}&corporation={corp}&side=buy",
        f"/games/{gid}/help/trade?player={players[0]}&corporation={corp}&side=sell",
        f"/games/{gid}/help/acquisition",
        f"/games/{gid}/why/share_price?corporation={corp}&side=buy",
        f"/games/{gid}/why/dividend_limit?corporation={corp}",
        f"/games/{gid}/why/stars?corporation={corp}",
        f"/games/{gid}/why/income?entity=foreign_investor",
    )
    buying = events[cut] if cut < len(events) and events[cut]["type"] == "acquire" else None
    if buying:  # the what-if of the purchase the table makes next, and the closing of what it buys
        what_if = f"corporation={buying['corporation']}&company={buying['company']}&price={buying['price']}"
        helpers += (
            f"/games/{gid}/help/acquisition?{what_if}",
            f"/games/{gid}/help/closing?company={buying['company']}",
        )
    pages |= {f"in progress {u}": t for u, t in own_words_crawl.crawl(client, gid, extra=helpers).items()}
    nxt = table.state(gid)["next"] or {}
    refused = table.act(gid, {"type": "close", "player": nxt.get("player") or players[0], "company": "NOPE"})
    assert refused.status_code == 422, refused.text
    pages["a refusal"] = own_words_crawl.words_of(refused.text)[0]
    _post(table, gid, events[cut:], seq)
    assert store.state(gid)[1].game_over
    pages |= {
        f"finished {u}": t for u, t in own_words_crawl.crawl(client, gid, extra=(f"/games/{gid}/result.txt",)).items()
    }
    hits = _read(pages, foreign)
    total = sum(hits.values())
    by_word = {}
    for (what, _), n in hits.items():
        by_word[what] = by_word.get(what, 0) + n
    report = f"{ruleset.key}: {len(pages)} pages, {total} foreign words on {len({u for _, u in hits})} pages: {by_word}"
    print(report)
    assert not hits, (
        report
        + "\n"
        + "\n".join(
            f"{n}× {what!r} on {url}: {_seen(pages[url], foreign[what])}" for (what, url), n in sorted(hits.items())
        )
    )


@pytest.mark.parametrize(
    ("key", "cash"), [("rolling-stock-v2.2", "$30"), ("rolling-stock", "$30"), ("rolling-stock-stars", "30")]
)
def test_money_on_the_play_screens_is_written_as_the_rules_write_it(client, table, key, cash):
    """Issue 37: v2.2 ("Each PLAYER receives \\$30 from the BANK") and the Guide ("Give each player $30
    from the bank") write money with $; the play screens did not.  Stars keeps its bare figures."""
    gid = _create(client, table, key)
    table.reveal_all(gid)
    players = client.get(f"/games/{gid}/v/players").text
    assert players.count(f"Cash <strong>{cash}</strong>") == 3
    board = client.get(f"/games/{gid}/board").text  # the shared screen too
    assert board.count(f'<span class="cash">{cash}</span>') == 3
    play = client.get(f"/games/{gid}/v/play").text
    low = min(c.face_value for c in registry.get(key).cards.companies.values())
    bids = re.findall(r"Bid \((\S+?)–(\S+?)\)", play)
    assert bids and all(b[1] == cash for b in bids), bids  # up to the bidder's money
    assert all(b[0].startswith("$") == cash.startswith("$") and int(b[0].lstrip("$")) >= low for b in bids)


@pytest.mark.parametrize(
    ("key", "word", "sign"),
    [("rolling-stock", "skips", "$"), ("rolling-stock-v2.2", "skips", "$"), ("rolling-stock-stars", "leapfrogs", "")],
)
def test_a_card_in_use_is_skipped_in_the_games_own_word(key, word, sign):
    """Issue 37: the Guide's word is "skip" ("cards that are already in use are skipped"), as v2.2's
    ("take the next available share price card"); "leapfrog" is the Stars rulebook's.  The prices
    are money as each writes it ("$13" in v2.2 and the Guide)."""
    from assistant.rules.core import position
    from assistant.rules.core.phases.dividends import explain_price_after_dividend

    from .board_positions import SIX, crowded

    game = position.resume(registry.get(key), SIX, [], crowded(key)["position"])  # every other card in use
    lines = [
        line
        for name in game.corps
        for amount in range(0, 1 + min(5, game.corps[name].cash // game.corps[name].issued))  # what it can pay
        for line in explain_price_after_dividend(game, name, amount)["lines"]
        if " in use, so it " in line
    ]
    s = re.escape(sign)
    assert lines and all(re.fullmatch(rf"{s}\d+ is in use, so it {word} to {s}\d+\.", line) for line in lines), lines[
        :3
    ]


MONEY_CELLS = re.compile(
    r'<t[dh] (?:scope="row"|class="(?:payment|treasury|book-value|value|cash|new-price)")>(?:<strong>)?([^<]*)'
)


@pytest.mark.parametrize(
    ("key", "sign"), [("rolling-stock-v2.2", "$"), ("rolling-stock", "$"), ("rolling-stock-stars", "")]
)
def test_the_helpers_tables_write_money_as_the_rules_do(client, table, key, sign):
    """Issue 37: a table's cells hold a figure without the words around it (the words test above reads
    money by them): the IPO calculator's prices, payments, treasuries, book values and values, and the
    dividend chart's cash left and new prices carry $ in v2.2 and classic ("Each PLAYER receives $30",
    "Give each player $30"), none in Stars."""
    ruleset = registry.get(key)
    players = rulesets.players_for(ruleset, 4)
    events = _varied_playout(ruleset, players)
    data = {"csrf_token": table.csrf(), "name": players, "ruleset": key}
    offered = [t for t in ruleset.game_types if t.offered]
    if offered:
        data[f"game_type-{key}"] = offered[0].key
    gid = client.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[1]
    seq, done, cells = 0, 0, {}
    for kind in ("ipo", "dividend"):
        at = next(i for i, e in enumerate(events) if e["type"] == kind and i >= done)
        seq, done = _post(table, gid, events[done:at], seq), at
        cells[kind] = MONEY_CELLS.findall(client.get(f"/games/{gid}/help/{kind}").text)
    assert len(cells["ipo"]) >= 5 and len(cells["dividend"]) >= 2, cells
    bare = [c for figures in cells.values() for c in figures if not re.fullmatch(rf"{re.escape(sign)}\d+", c.strip())]
    assert bare == [], cells


def test_classic_names_its_phases_and_collect_income_as_the_guide_does(client, table):
    """Issue 37: a classic player could not find "collect income": the log and the banker's sheet
    said "Acquisitions done" and "Closing done" and listed phase 8's income under the latter, and a
    phase 3 decision was headed "Alice: investment".  The Guide (1.4) names the phases "Phase 3 –
    auctions and share trading", "Phase 6 – corporations buy companies", "Phase 7 – close companies",
    "Phase 8 – collect income", and writes money with $.  (The words test above cannot tell: the
    Guide says "investment", "closing" and "income" elsewhere.)"""
    players = rulesets.players_for(registry.CLASSIC, 4)
    gid = _create(client, table, "rolling-stock", players)
    # the seeded game to its first phase 6 and phase 7 ended, and phase 8's income collected
    events = rulesets.playout(registry.CLASSIC, players, 3000, seed=1)
    game = registry.CLASSIC.create(players)
    upto = 0
    for event in events:
        game.apply(event)
        upto += 1
        texts = [t for e in game.journal for t in (e["text"], *e["auto"])]
        if any(t.endswith("Phase 6 – corporations buy companies: done") for t in texts) and game.phase > 8:
            break
    first = next(i for i, e in enumerate(events) if e["type"] not in ("reveal",))  # a player's first decision
    seq = _post(table, gid, events[:first], 0)
    state = table.state(gid)
    assert state["phase"] == 3 and state["next"]["player"] == events[first]["player"]
    play = own_words_crawl.words_of(client.get(f"/games/{gid}/v/play").text)[0]
    assert f"{state['next']['player']}: auctions and share trading" in play, play
    assert ": investment" not in play
    _post(table, gid, events[first:upto], seq)
    log = own_words_crawl.words_of(client.get(f"/games/{gid}/v/log").text)[0]
    banker = own_words_crawl.words_of(client.get(f"/games/{gid}/help/banker").text)[0]
    assert "Phase 6 – corporations buy companies: done" in log  # (no money moves: not on the banker's sheet)
    assert re.search(r"Collect income: \w+ \+\$\d+", log), log
    assert re.search(r"Bank → \w+: \$\d+ \(collect income\)", banker), banker  # the sheet says why as the Guide does
    for page in (log, banker):
        assert "Phase 7 – close companies: done" in page
        assert "Acquisitions done" not in page and "Closing done" not in page
        assert not re.search(r"(?<!Collect )[Ii]ncome: |\(income\)", page)


@pytest.mark.parametrize(
    ("key", "sign"), [("rolling-stock-v2.2", "$"), ("rolling-stock", "$"), ("rolling-stock-stars", "")]
)
def test_a_whys_figure_and_a_charts_legend_write_money_as_the_rules_do(client, table, key, sign):
    """Issue 37: the figure a Why? explains (an income, a player's value, a corporation's rating)
    and the standings charts' legend stand apart from their words (the words test cannot read them
    as money): $ in v2.2 and classic, bare in Stars, whose rating is a count of stars, not money."""
    ruleset = registry.get(key)
    players = rulesets.players_for(ruleset, 4)
    events = _varied_playout(ruleset, players)
    gid = _create(client, table, key, players)
    at = next(i for i, e in enumerate(events) if e["type"] == "dividend")  # a corporation in play, turns gone by
    _post(table, gid, events[:at], 0)
    corp = next(iter(table.state(gid)["corporations"]))
    title = re.compile(r'<span class="why-title">[^<]*: <strong>([^<]*)</strong>')
    for url in (f"why/income?entity={players[0]}", f"why/score?player={players[0]}", f"why/income?entity={corp}"):
        (figure,) = title.findall(client.get(f"/games/{gid}/{url}").text)
        assert re.fullmatch(rf"{re.escape(sign)}\d+", figure), (url, figure)
    (rating,) = title.findall(client.get(f"/games/{gid}/why/stars?corporation={corp}").text)
    assert re.fullmatch(r"\$\d+" if key == "rolling-stock" else r"\d+", rating)  # classic: its book value
    legend = re.findall(
        r"<li><svg [^>]*>.*?</svg>\s*<span>[^<:]+: <strong>([^<]*)</strong>",
        client.get(f"/games/{gid}/help/standings").text,
        re.S,
    )
    assert len(legend) >= len(players) + 1, legend  # each player's wealth and a corporation's share price
    assert all(re.fullmatch(rf"{re.escape(sign)}\d+", figure) for figure in legend), legend


# figures that stand apart from their words (in their own cell, badge or strong): the words test
# above cannot read them as money
FIGURES = {
    "trade": re.compile(r'<strong class="price">([^<]*)</strong>|Share price (\S+) → <strong>([^<]*)</strong>'),
    "money": re.compile(r"money (\S+) → (\S+)</li>"),
    "what-if cash": re.compile(r'<tr class="cash"><th scope="row">Cash</th><td>([^<]*)</td><td>([^<]*)</td>'),
    "what-if book value": re.compile(
        r'<tr class="book-value"><th scope="row">Book value</th><td>([^<]*)</td><td><strong>([^<]*)</strong>'
    ),
    "what-if price": re.compile(r"<td>(\S+) → (\S+)</td><td>(\S+) → <strong>([^<]*)</strong>"),
    "share price badge": re.compile(r'<span class="price" title="share price">([^<]*)</span>'),
    "score table": re.compile(
        r"<tr[^>]*><td>\d+</td><td>[^<]+</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td[^>]*><strong>([^<]*)</strong>"
    ),
    "score list": re.compile(r'<li><strong>[^<:]+: ([^<]*)</strong><ul class="why">'),
}


@pytest.mark.parametrize(
    ("key", "sign"), [("rolling-stock-v2.2", "$"), ("rolling-stock", "$"), ("rolling-stock-stars", "")]
)
def test_previews_badges_and_score_tables_write_money_as_the_rules_do(client, table, key, sign):
    """Issue 37: the share trade preview, the acquisition and closing what-ifs, a corporation's share
    price badge (table and board), the standings and the final scoring (table, board) write money
    with $ in v2.2 and classic ("Each PLAYER receives $30", "Give each player $30"), bare in Stars."""
    ruleset = registry.get(key)
    players = rulesets.players_for(ruleset, 4)
    events = _varied_playout(ruleset, players)
    gid = _create(client, table, key, players)
    # a share trade is previewed in the investment phase, once a corporation is in play
    first = next(i for i, e in enumerate(events) if e["type"] == "ipo")
    trading = next(i for i, e in enumerate(events) if i > first and e["type"] in ("buy_share", "sell_share"))
    _post(table, gid, events[:trading], 0)
    corp = events[trading]["corporation"]
    trades = [f"help/trade?player={p}&corporation={corp}&side={side}" for p in players for side in ("buy", "sell")]
    pages = {u: client.get(f"/games/{gid}/{u}").text for u in trades}
    cut = next(i for i, e in enumerate(events) if i > trading and e["type"] == "acquire")
    _post(table, gid, events[trading:cut], trading)
    buying = events[cut]
    what_if = f"corporation={buying['corporation']}&company={buying['company']}&price={buying['price']}"
    in_progress = [f"help/acquisition?{what_if}", "help/standings", "v/corporations", "board"]
    pages |= {u: client.get(f"/games/{gid}/{u}").text for u in in_progress}
    closing = next(i for i, e in enumerate(events) if i > cut and e["type"] == "close")  # its what-if, in its phase
    _post(table, gid, events[cut:closing], cut)
    pages[f"help/closing?company={events[closing]['company']}"] = client.get(
        f"/games/{gid}/help/closing?company={events[closing]['company']}"
    ).text
    _post(table, gid, events[closing:], closing)
    assert table.state(gid)["game_over"]
    pages |= {f"over {u}": client.get(f"/games/{gid}/{u}").text for u in ("v/players", "board", "help/standings")}
    found = {}
    for url, page in pages.items():
        for what, pattern in FIGURES.items():
            for match in pattern.findall(page):
                for figure in match if isinstance(match, tuple) else (match,):
                    if figure:
                        found.setdefault(what, []).append((url, figure))
    kinds = set(FIGURES) - (set() if key == "rolling-stock" else {"what-if book value"})  # classic rates by it
    assert set(found) == kinds, sorted(found)  # each kind read somewhere
    bare = [
        (what, url, f)
        for what, seen in found.items()
        for url, f in seen
        if not re.fullmatch(rf"{re.escape(sign)}\d+", f)
    ]
    assert bare == [], bare
