"""Rulesets: the registry, Rolling Stock v2.2 as Stars under other names (issue 10).

The v2.2 pairs are checked against the v2.2 rules text and the Stars card data (both in
../shared, skipped without it) and against the project's own data; a v2.2 game must be the
Stars game with the names mapped: snapshots, refusals and journal texts.
"""

from __future__ import annotations

import io
import json
import re

import pytest

from assistant.cli import replay
from assistant.rules import RuleError, registry
from assistant.rules.core import abilities as ab
from assistant.rules.registry import STARS
from assistant.rules.stars.cards import CARDS
from tests.project_games import played_game
from tests.renaming import name_map, rename_event, rename_text, rename_transcript, rename_value

from .conftest import CARDS_JSON, CONFORMANCE, SHARED, require

V22_RULES = SHARED / "seeds" / "rolling-stock-rules-v2.2.txt"

# Each charter: a phrase of its Stars ability text, and how the v2.2 rules state the same ability
# (the symbol name is the group).
ABILITY_PAIRS = [
    (ab.PER_COMPANY, "+1 per company it owns", r"\*(\w+)\* adds \\?\$1 per COMPANY it owns"),
    (
        ab.FOREIGN_FIRST,
        "pays only face value",
        r"\*(\w+)\* CORPORATION is considered to have the highest SHARE PRICE",
    ),
    (ab.TWO_STARS, "adds two stars", r"\*(\w+)\* CORPORATION adds additional two stars"),
    (ab.DOUBLES_BEST, "doubles the printed income", r"\*(\w+)\* doubles the printed income"),
    (ab.COST_RELIEF, "reduced by up to 10", r"\*(\w+)\* reduces its total COST OF OWNERSHIP by up to"),
    (ab.STEADY_ISSUE, "share price does not change", r"\*(\w+)\*, the SHARE PRICE does not change"),
    (ab.CLOSING_BONUS, "twice that company's printed income", r"\*(\w+)\* CORPORATION receives twice the printed"),
    (ab.SYNERGY_PAIRS, "every two synergy markers", r"\*(\w+)\* adds \\?\$1 for every two of its synergy markers"),
]

ISSUE_PAIRS = {
    "Jupiter": "Prussian Railway",
    "Saturn": "Doppler AG",
    "Horse": "Synergistic",
    "Bear": "Vintage Machinery",
    "Eagle": "Stock Masters",
    "Orion": "Overseas Trading",
    "Ship": "Junkyard Scrappers",
    "Star": "Stars, Inc.",
}


# ------------------------------------------------------------------ the registry
def test_registry_has_stars_first_and_v22():
    keys = list(registry.RULESETS)
    assert keys[0] == registry.DEFAULT == "rolling-stock-stars"
    assert "rolling-stock-v2.2" in keys
    for key, r in registry.RULESETS.items():
        assert r.key == key and r.title and r.differs and "\n" not in r.differs
        low, high = r.players
        assert 2 <= low <= high <= 6
        assert list(r.corporations) == list(r.corporation_names.values())
        assert set(r.corporation_short) <= set(r.corporations)
    assert registry.get("rolling-stock-v2.2") is registry.V22


def test_unknown_ruleset_is_refused_naming_the_known_ones():
    for bad in ("rolling-stock-v3", "", None, 7):
        with pytest.raises(RuleError) as err:
            registry.get(bad)
        assert "rolling-stock-stars" in err.value.message and "rolling-stock-v2.2" in err.value.message


def test_stars_and_v22_differ_in_names_players_variants_and_words_only():
    stars, v22 = registry.STARS, registry.V22
    assert stars.players == (2, 6) and v22.players == (3, 6)
    assert set(stars.variants) == {"open_companies", "two_handed"} and not v22.variants
    assert not stars.game_types and not v22.game_types
    assert stars.cards is v22.cards is CARDS  # v2.2 publishes no card data: the Stars cards
    assert stars.engine is v22.engine and list(stars.phase_names) == list(v22.phase_names)  # the same nine phases
    # v2.2 numbers its phases and names none: its names say what happens, in its words ("3. In ANY
    # ORDER, CORPORATIONS buy COMPANIES"); Stars names them ("Phase 3: Acquisition")
    assert (
        v22.phase_title(3) == "Phase 3 – corporations buy companies" and stars.phase_title(3) == "Phase 3 Acquisition"
    )
    assert list(stars.corporation_names) == list(v22.corporation_names) == list(CARDS.charters)
    for key in CARDS.charters:
        s, v = stars.corporations[stars.corporation_names[key]], v22.corporations[v22.corporation_names[key]]
        assert (s.key, s.shares) == (v.key, v.shares)
    # the abilities in each rulebook's words: Stars "Acquisition: ...", v2.2 "During the whole phase" 3
    ship, orion = v22.corporations["Ship"].ability, v22.corporations["Orion"].ability
    assert stars.corporations["Junkyard Scrappers"].ability.startswith("Closing:") and ship.startswith("Phase 4:")
    assert stars.corporations["Overseas Trading"].ability.startswith("Acquisition:") and orion.startswith("Phase 3:")
    assert not [v.ability for v in v22.corporations.values() if "Acquisition" in v.ability or "Closing" in v.ability]


# ------------------------------------------------------------------ the v2.2 names
def test_v22_names_are_the_issue_pairs():
    pairs = name_map(registry.V22, registry.STARS)
    assert pairs == ISSUE_PAIRS


@pytest.mark.parametrize(("key", "stars_phrase", "v22_pattern"), ABILITY_PAIRS)
def test_v22_rules_text_states_each_ability_under_its_name(key, stars_phrase, v22_pattern):
    text = require(V22_RULES, "the Rolling Stock v2.2 rules").read_text(encoding="utf-8")
    assert stars_phrase in CARDS.charters[key].ability
    found = re.search(v22_pattern, text)
    assert found, v22_pattern
    assert found.group(1) == registry.V22.corporation_names[key]


def test_v22_rules_text_share_counts_match():
    text = require(V22_RULES, "the Rolling Stock v2.2 rules").read_text(encoding="utf-8")
    listing = re.search(r"44 SHARES for the 8 CORPORATIONS[^(]*\(([^)]*)\)", text).group(1)
    counts = {name: int(n) for n, name in re.findall(r"(\d+) \*(\w+)\*", listing)}
    assert counts == {name: c.shares for name, c in registry.V22.corporations.items()}
    assert sum(counts.values()) == 44
    assert "three to six players" in text and registry.V22.players == (3, 6)


def test_v22_pairs_match_the_stars_card_data():
    data = json.loads(require(CARDS_JSON, "the Stars card data").read_text(encoding="utf-8"))
    printed = {c["name"]: c for c in data["corporations"]}
    for v22_name, stars_name in ISSUE_PAIRS.items():
        ours = registry.V22.corporations[v22_name]
        assert printed[stars_name]["shares"] == ours.shares, v22_name
        assert printed[stars_name]["ability"] == STARS.corporations[stars_name].ability, stars_name  # word for word


# each v2.2 ability as its rules word it (rolling-stock-rules-v2.2.txt, copied by hand, lower case)
V22_ABILITIES = {
    "Jupiter": "adds $1 per company it owns",
    "Orion": "is considered to have the highest share price and pays only face value for companies bought from the foreign investor",
    "Star": "adds additional two stars to the result",
    "Bear": "reduces its total cost of ownership by up to $10 (the cost of ownership cannot become negative)",
    "Eagle": "simply receives the current share price for the share it issues",
    "Ship": "receives twice the printed income for each company it closes",
    "Horse": "adds $1 for every two of its synergy markers",
}


def test_v22_abilities_are_said_in_v22s_words():
    text = " ".join(require(V22_RULES, "the Rolling Stock v2.2 rules").read_text(encoding="utf-8").split())
    text = text.replace("\\$", "$").replace("*", "").lower()
    for name, said in V22_ABILITIES.items():
        assert said in text, name  # the hand copy is the rules' own
        assert said in registry.V22.corporations[name].ability.lower(), name
    # Saturn: the rules' "doubles the printed income if its best COMPANY", its slip mended
    assert "doubles the printed income of its best company" in registry.V22.corporations["Saturn"].ability


# ------------------------------------------------------------------ engine games of a ruleset
def test_v22_set_up_limits():
    with pytest.raises(RuleError, match="Rolling Stock v2.2 is for 3 to 6 players, not 2"):
        registry.V22.create(["Amy", "Brian"])
    for option in ("open_companies", "two_handed"):
        with pytest.raises(RuleError, match="no variant"):
            registry.V22.create(["Amy", "Brian", "Crystal", "Dirk"], [option])
    with pytest.raises(RuleError, match="name of a part of the game"):
        registry.V22.create(["Amy", "Jupiter", "Crystal"])
    game = registry.V22.create(["Amy", "Brian", "Crystal"])
    assert game.ruleset is registry.V22
    assert game.clone().ruleset is registry.V22 and game.fork().ruleset is registry.V22
    assert STARS.create(["Amy", "Brian"]).ruleset is registry.STARS  # the default


# what Stars says that v2.2 says in its own words (v2.2 numbers its phases, forms a corporation with
# a symbol card; a company drawn waits until the foreign investor is done in phase 2)
V22_SAYS = {
    "Acquisitions done": "Phase 3 done",
    "Closing done": "Phase 4 done",
    "until the wrap-up": "until the end of phase 2",
    "charter": "symbol card",
    "Income: ": "Collect income: ",
    **{f"({STARS.phase_name(n).lower()})": f"({registry.V22.phase_name(n)})" for n in STARS.phase_names},
}


def said_in_v22(text: str) -> str:
    for stars, v22 in V22_SAYS.items():
        text = text.replace(stars, v22)
    return text


def bare(text: str) -> str:
    """v2.2's text with its $ signs taken off (v2.2 writes "$12" where Stars writes "12")."""
    return re.sub(r"\$(?=\d)", "", text)


def _replay_lines(data: dict) -> list[dict]:
    out = io.StringIO()
    replay.run(data, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _assert_mapped_replay(data: dict) -> int:
    """Replaying ``data`` as v2.2 prints the Stars lines with the names mapped; returns the count."""
    names = name_map(registry.STARS, registry.V22)
    stars = _replay_lines(data)
    v22 = _replay_lines(rename_transcript(data, registry.V22))
    assert len(stars) == len(v22)
    for a, b in zip(stars, v22, strict=True):
        want = rename_value(a, names)
        if "error" in want:
            want["error"] = said_in_v22(rename_text(want["error"], names))
            b = dict(b, error=bare(b["error"]))  # the same figures, each in its game's way
        assert b == want
    return len(stars)


GAMES = sorted((CONFORMANCE / "games").glob("*.json")) if (CONFORMANCE / "games").is_dir() else []


@pytest.mark.parametrize("path", GAMES or [None], ids=[p.name for p in GAMES] or ["absent"])
def test_conformance_games_replay_as_v22_with_the_names_mapped(path):
    if path is None:
        pytest.skip(f"no transcripts at {CONFORMANCE / 'games'} (../shared is not beside the repository)")
    data = json.loads(path.read_text(encoding="utf-8"))
    if not registry.V22.players[0] <= len(data["players"]) <= registry.V22.players[1]:
        pytest.skip(f"{path.name} has {len(data['players'])} players; v2.2 is for 3 to 6")
    assert _assert_mapped_replay(data) > 100


def test_project_game_replays_as_v22_with_the_names_mapped():
    """The same check on a game the project owns, so it runs in a bare clone: a checkpoint after
    every event, and before each event naming a corporation a refused copy of it."""
    data = played_game()
    events = []
    for event in data["events"]:
        if "corporation" in event:
            events.append(dict(event, price=999, amount=999, reject=True))
        events += [event, {"type": "expect"}]
    lines = _replay_lines(dict(data, events=events))
    assert sum("error" in line for line in lines) > 20  # the refused copies were replayed too
    assert _assert_mapped_replay(dict(data, events=events)) > 200


def test_project_game_replays_as_v22_with_names_mapped_in_snapshots_and_journal():
    data = played_game()
    events = data["events"]
    stars = STARS.create(data["players"])
    v22 = registry.V22.create(data["players"])
    names = name_map(registry.STARS, registry.V22)
    ipos = 0
    for event in events:
        stars.apply(event)
        v22.apply(rename_event(event, names))
        ipos += event["type"] == "ipo"
        assert v22.snapshot() == rename_value(stars.snapshot(), names)
        assert v22.legal_actions() == rename_value(stars.legal_actions(), names)
    assert ipos >= 3 and len(events) > 200
    for a, b in zip(stars.journal, v22.journal, strict=True):
        # each edition in its own words too: v2.2 numbers the phase Stars calls the wrap-up
        # and money as each writes it: v2.2 "$12", Stars "12" (the same figures)
        assert bare(b["text"]) == said_in_v22(rename_text(a["text"], names))
        assert [bare(t) for t in b["auto"]] == [said_in_v22(rename_text(t, names)) for t in a["auto"]]
        # why money moved, in v2.2's words too: its phase 5 "collect income" (Stars: "income")
        assert [list(m) for m in b["moves"]] == [
            [
                *(rename_text(x, names) for x in m[:2]),
                m[2],
                "collect income" if m[3] == "income" else rename_text(m[3], names),
            ]
            for m in a["moves"]
        ]
    texts = " ".join(j["text"] + " ".join(j["auto"]) for j in v22.journal)
    assert "share for $" in texts and "$" not in " ".join(j["text"] + " ".join(j["auto"]) for j in stars.journal)
    assert not any(stars_name in texts for stars_name in names)
    assert any(v22_name in texts for v22_name in names.values())


def test_v22_refusals_name_v22_corporations():
    data = played_game()
    names = name_map(registry.STARS, registry.V22)
    stars = STARS.create(data["players"])
    v22 = registry.V22.create(data["players"])
    checked = priced = 0
    for event in data["events"]:
        if "corporation" in event and event.get("price") is not None and checked < 40:
            wrong = dict(event, price=event["price"] + 1000)
            with pytest.raises(RuleError) as a:
                stars.apply(wrong)
            with pytest.raises(RuleError) as b:
                v22.apply(rename_event(wrong, names))
            assert bare(b.value.message) == said_in_v22(rename_text(a.value.message, names))  # money: v2.2 "$1002"
            assert b.value.rule == a.value.rule
            priced += "$" in b.value.message
            checked += 1
        stars.apply(event)
        v22.apply(rename_event(event, names))
    assert checked >= 10 and priced >= 10, (checked, priced)
    # a Stars name is no corporation in v2.2
    game = registry.V22.create(data["players"])
    for event in data["events"]:
        if event["type"] == "ipo":
            with pytest.raises(
                RuleError, match="Prussian Railway|Overseas|Stars, Inc|Doppler|Vintage|Stock|Junk|Syner"
            ):
                game.apply(event)
            break
        game.apply(rename_event(event, names))
