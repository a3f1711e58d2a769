"""Games that did not start with the assistant (issue 16): resuming from the table as it lies at
the end of a turn, and the final scores of a game played on paper (FORMAT-position.md).

Positions are cut from seeded menu-driven games of all three rulesets at the end of random turns;
the resumed game must then give the same snapshot after every later event, and the same final
scores, as the game it was cut from."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest

from assistant.rules import RuleError, events_of, registry
from assistant.rules.core import final_score, position

from .conftest import CONFORMANCE, REPO

POSITIONS = CONFORMANCE.parent / "conformance" / "positions" if CONFORMANCE else None
PLAYERS = ["Amy", "Brian", "Crystal", "Dirk"]
RULESETS = [("rolling-stock-stars", []), ("rolling-stock-v2.2", []), ("rolling-stock", ["short"])]


def _play(ruleset, options, seed, players=PLAYERS, cap=2500):
    """A seeded game to its end (or ``cap`` events), and the position at the end of every turn."""
    rng = random.Random(seed)
    game = ruleset.create(players, options)
    ends: dict[int, dict] = {}

    def turn_end(g):
        if g.phase == len(g.PHASES) and not g.game_over:
            ends[g.turn] = cut(g)

    game.on_phase_end = turn_end
    marks: dict[int, int] = {}  # turn -> number of events entered before its end
    while not game.game_over and len(game.events) < cap:
        before = game.turn
        item = rng.choice(game.legal_actions())
        game.apply(events_of(item, lambda *a: rng.randint(*a) if len(a) == 2 else rng.choice(a[0])))
        for t in range(before, game.turn):
            marks.setdefault(t, len(game.events))
    return game, ends, marks


def same_table(resumed: dict, original: dict) -> bool:
    """Equal snapshots, but for the cards the deck may show: without the game's history a resumed
    game offers every company not accounted for, a superset of what the original game deduces."""
    a, b = copy.deepcopy(resumed), copy.deepcopy(original)
    if (a.get("next") or {}).get("for") == "reveal" and (b.get("next") or {}).get("for") == "reveal":
        if not set(b["next"].pop("choices")) <= set(a["next"].pop("choices")):
            return False
    return a == b


def cut(game) -> dict:
    """The table as it lies now (FORMAT-position.md section 1): what a table would enter."""
    state = game.snapshot()
    visible = set(game.owner) | set(game.available) | set(game.unavailable)
    return {
        "after": {"turn": game.turn, "phase": game.phase},
        "state": state,
        "deck": dict(game.deck_left),
        "out_of_game": sorted(game.seen - visible),
    }


@pytest.mark.parametrize(("key", "options"), RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_position_cut_at_the_end_of_a_random_turn_plays_on_like_the_game_it_was_cut_from(key, options, seed):
    ruleset = registry.get(key)
    game, ends, marks = _play(ruleset, options, seed)
    turns = [t for t in sorted(ends) if t in marks]
    assert turns, "the game ended no turn"
    rng = random.Random(seed)
    for turn in rng.sample(turns, min(3, len(turns))):
        resumed = position.resume(ruleset, PLAYERS, options, copy.deepcopy(ends[turn]))
        original = ruleset.replay(PLAYERS, options, game.events[: marks[turn]])
        assert same_table(resumed.snapshot(), original.snapshot()), (key, seed, turn)
        for event in game.events[marks[turn] :]:
            original.apply(event)
            try:
                resumed.apply(event)
            except RuleError as err:  # a reveal the resumed game cannot tell apart is allowed
                raise AssertionError(f"turn {turn}: {event} refused after resuming: {err.message}") from err
            assert same_table(resumed.snapshot(), original.snapshot()), (key, seed, turn, event)
        if game.game_over:
            assert resumed.final == game.final


def test_after_resuming_the_last_card_of_a_colour_may_be_any_company_not_accounted_for():
    """Stars deduces that the last card of a colour is its highest company, from the game's history;
    a resumed game has no history: any unseen company of the top colour may come off the deck."""
    ruleset = registry.STARS
    game = ruleset.create(PLAYERS)
    for _ in range(4):
        game.apply({"type": "reveal", "company": game.next["choices"][0]})
    pos = cut(game)
    pos["after"] = {"turn": 3, "phase": 9}
    pos["deck"]["red"] = 1  # one red card left: history would say the MHE (highest red)
    pos["state"]["deck_size"] = sum(pos["deck"].values())
    pos["state"]["turn"], pos["state"]["phase"] = 3, 9
    resumed = position.resume(ruleset, PLAYERS, [], pos)
    resumed.unavailable, resumed.available = [], list(resumed.available)
    resumed._draw(1)
    unseen = [a for a in ruleset.cards.companies_by_color["red"] if a not in resumed.seen]
    assert len(unseen) > 1 and resumed.reveal_choices() == unseen


def _a_position():
    """The end of a turn with a corporation run by a player and cards left in the deck under the top colour."""
    for seed in range(1, 60):
        _, ends, _ = _play(registry.STARS, [], seed)
        for turn in sorted(ends):
            pos = ends[turn]
            colors = [c for c, n in pos["deck"].items() if n]
            runs = [c for c in pos["state"]["corporations"].values() if c["president"]]
            if runs and len(colors) >= 2:
                return copy.deepcopy(pos)
    raise LookupError("no seeded game reaches such a position")


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda p, c: c.__setitem__("share_price", 17), "is not a card of the share price row"),
        (lambda p, c: c.__setitem__("issued", 99), "cannot be issued"),
        (lambda p, c: c.__setitem__("bank_shares", c["bank_shares"] + 1), "but"),
        # shares missing: one fewer in the bank than the issued count says (players + bank < issued)
        (lambda p, c: c.__setitem__("issued", c["issued"] + 1) or c.pop("unissued", None), "but"),
        (
            lambda p, c: p["state"]["players"][c["president"] or "Amy"]["companies"].append(c["companies"][0]),
            "two places",
        ),
        (lambda p, c: p["deck"].__setitem__(p["state"]["offering"]["available"][0][:0] or "red", 50), "cards"),
    ],
    ids=["price", "shares", "bank", "bank-short", "company-twice", "deck"],
)
def test_a_position_that_cannot_be_is_refused_naming_the_problem(spoil, message):
    pos = _a_position()
    name, corp = next((n, c) for n, c in pos["state"]["corporations"].items() if c["president"])
    spoil(pos, corp)
    with pytest.raises(RuleError) as err:
        position.resume(registry.STARS, PLAYERS, [], pos)
    assert message in err.value.message
    assert name in err.value.message or message in ("two places", "cards")


def test_a_president_with_fewer_shares_than_another_player_is_refused_a_tie_is_not():
    pos = _a_position()
    name, corp = next((n, c) for n, c in pos["state"]["corporations"].items() if c["president"])
    players = pos["state"]["players"]
    # the other player comes first in player order, so a president picked by order would be them
    order = pos["state"]["player_order"]
    other = next(p for p in order if p != corp["president"])
    if order.index(other) > order.index(corp["president"]):
        order.remove(other)
        order.insert(0, other)
    most = players[corp["president"]]["shares"][name]
    for count, refused in ((most + 1, True), (most, False)):
        trial = copy.deepcopy(pos)
        tp = trial["state"]["players"]
        tc = trial["state"]["corporations"][name]
        moved = count - tp[other]["shares"].get(name, 0)
        tp[other]["shares"][name] = count
        tc["issued"] += moved
        tc["unissued"] -= moved
        if tc["unissued"] < 0:
            pytest.skip("the charter has no share left to give")
        if refused:
            with pytest.raises(RuleError, match="fewer than another player"):
                position.resume(registry.STARS, PLAYERS, [], trial)
        else:  # a tie: the president is the one the position gives, not the first in player order
            resumed = position.resume(registry.STARS, PLAYERS, [], trial)
            assert resumed.corps[name].president == corp["president"] != other


def test_the_colours_under_the_top_one_must_be_complete():
    pos = _a_position()
    colors = registry.STARS.cards.colors
    top = next(c for c in colors if pos["deck"][c])
    under = colors[colors.index(top) + 1]
    pos["deck"][under] -= 1
    pos["state"]["deck_size"] -= 1
    with pytest.raises(RuleError, match=f"the {under} ones are all still in the deck"):
        position.resume(registry.STARS, PLAYERS, [], pos)


def test_open_companies_games_are_not_resumed_from_a_position():
    with pytest.raises(RuleError) as err:
        position.resume(registry.STARS, PLAYERS, ["open_companies"], _a_position())
    assert err.value.message == (
        "A game with the open companies variant cannot be resumed from a position: its deck is known card by "
        "card. Import its transcript instead."
    )


# -------------------------------------------------------------------------- final scores
def _score_file(tmp_path, key, state, players=PLAYERS, **more) -> str:
    path = tmp_path / "check.json"
    path.write_text(
        json.dumps({"format": "rss-score-check", "version": 1, "game": key, "players": players, "state": state, **more})
    )
    return str(path)


def _score(path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "assistant", "score", path],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.parametrize(("key", "options"), RULESETS)
def test_the_score_command_gives_the_engines_final_scoring_of_an_end_position(tmp_path, key, options):
    ruleset = registry.get(key)
    game, _, _ = _play(ruleset, options, 4, cap=20000)
    assert game.game_over
    state = game.snapshot()
    run = _score(_score_file(tmp_path, key, state))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[-1]) == {
        "scores": game.final["scores"],
        "ranking": game.final["ranking"],
        "winner": game.final["ranking"][0],
    }
    first = game.final["ranking"][0]  # its score as the game writes money ("$12" in v2.2 and classic)
    assert f"1. {first} {ruleset.cash(game.final['scores'][first])}: Money: {ruleset.cash(0)[:-1]}" in run.stdout


def test_a_tie_goes_to_the_player_earlier_in_the_final_player_order_and_is_said_in_words(tmp_path):
    state = {
        "player_order": ["Crystal", "Amy", "Brian", "Dirk"],
        "players": {p: {"cash": 50 if p in ("Amy", "Crystal") else 10, "companies": [], "shares": {}} for p in PLAYERS},
        "corporations": {},
    }
    result = final_score.final_scores(registry.STARS, PLAYERS, state)
    assert result["ranking"][:2] == ["Crystal", "Amy"]
    assert any("Crystal and Amy tie at 50: Crystal ranks higher" in line for line in result["lines"])


def test_several_corporations_at_the_top_price_are_legal_at_the_end_but_more_shares_than_a_charter_are_not(tmp_path):
    top = registry.STARS.cards.top_price
    state = {
        "player_order": PLAYERS,
        "players": {p: {"cash": 0, "companies": [], "shares": {}} for p in PLAYERS},
        "corporations": {"Prussian Railway": {"share_price": top}, "Doppler AG": {"share_price": top}},
    }
    state["players"]["Amy"]["shares"] = {"Prussian Railway": 2, "Doppler AG": 1}
    result = final_score.final_scores(registry.STARS, PLAYERS, state)
    assert result["scores"]["Amy"] == 3 * top
    state["players"]["Brian"]["shares"] = {"Prussian Railway": 4}
    run = _score(_score_file(tmp_path, "rolling-stock-stars", state))
    assert run.returncode == 1 and "The players hold 6 Prussian Railway shares; it has only 5." in run.stderr


@pytest.mark.parametrize("name", ["83092.score.json", "rolling-stock-108770.score.json"])
def test_the_shared_score_samples(name):
    path = POSITIONS / name if POSITIONS else None
    if path is None or not path.exists():
        pytest.skip(f"no score sample {name} (../shared is not beside the repository)")
    run = _score(str(path))
    assert run.returncode == 0, run.stderr
    expected = json.loads(path.read_text())["expected"]
    assert json.loads(run.stdout.splitlines()[-1]) == {**expected, "winner": expected["ranking"][0]}
    # each score and its make-up as the game writes money: the Guide "$387", Stars bare "272"
    first = expected["ranking"][0]
    money = "$" if json.loads(path.read_text()).get("game") == "rolling-stock" else ""
    assert run.stdout.startswith(f"1. {first} {money}{expected['scores'][first]}: Money: {money}"), run.stdout


# The two-handed variant (rulebook, "Two-player, two-handed variant"): the seats in their first
# player order, A's right hand 1st, B's left hand 2nd, B's right hand 3rd, A's left hand 4th.
SEATS = ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]


def _cash_only(cash: dict[str, int], order: list[str]) -> dict:
    return {
        "player_order": order,
        "players": {p: {"cash": n, "companies": [], "shares": {}} for p, n in cash.items()},
        "corporations": {},
    }


@pytest.mark.parametrize("key", [k for k, _ in RULESETS if "two_handed" in registry.get(k).variants])
def test_a_two_handed_score_check_names_the_person_whose_lower_ranked_seat_is_better(tmp_path, key):
    # The rulebook's example: Amy's right hand first by far, her left hand a close last; Brian's
    # seats 2nd and 3rd.  Brian wins.  The final player order (rotated) does not decide whose seat is whose.
    order = [SEATS[1], SEATS[2], SEATS[3], SEATS[0]]
    cash = dict(zip(SEATS, [200, 60, 55, 50], strict=True))
    path = _score_file(tmp_path, key, _cash_only(cash, order), SEATS, options=["two_handed"], persons=["Amy", "Brian"])
    run = _score(path)
    assert run.returncode == 0, run.stderr
    last = json.loads(run.stdout.splitlines()[-1])
    assert last == {"scores": cash, "ranking": SEATS[:3] + [SEATS[3]], "winner": "Brian"}
    assert "Amy's lower-ranked seat is 4th, Brian's is 3rd; Brian wins" in run.stdout
    # Amy's seats 1st and 2nd: Amy wins; without "persons" the people are A and B
    cash = dict(zip(SEATS, [100, 10, 90, 95], strict=True))
    run = _score(_score_file(tmp_path, key, _cash_only(cash, order), SEATS, options=["two_handed"]))
    assert json.loads(run.stdout.splitlines()[-1])["winner"] == "A", run.stderr


def test_a_two_handed_score_check_needs_four_seats_and_a_known_variant(tmp_path):
    run = _score(_score_file(tmp_path, "rolling-stock-stars", _cash_only({"Amy": 1, "Brian": 2}, ["Amy", "Brian"]),
                             ["Amy", "Brian"], options=["two_handed"]))  # fmt: skip
    assert run.returncode == 1 and "four seats" in run.stderr
    run = _score(_score_file(tmp_path, "rolling-stock-stars", _cash_only({p: 1 for p in PLAYERS}, PLAYERS),
                             options=["three_handed"]))  # fmt: skip
    assert run.returncode == 1 and "no variant 'three_handed'" in run.stderr


def test_a_score_check_without_the_final_player_order_is_refused_naming_the_field(tmp_path):
    state = _cash_only({p: 50 for p in PLAYERS}, PLAYERS)
    del state["player_order"]
    run = _score(_score_file(tmp_path, "rolling-stock-stars", state))
    assert run.returncode == 1 and run.stdout == ""
    assert "player_order" in run.stderr and "missing" in run.stderr
