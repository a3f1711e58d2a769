"""Games that did not start with the assistant: resuming from the table as it lies at the end of a
turn, and the final scoring of a game played on paper (../shared/conformance/FORMAT-position.md).

``resume(ruleset, players, options, position)`` checks the position and returns an engine game at
the start of the next turn (``final_score.final_scores`` scores an end position with the same
checks).  A
position that cannot be is refused with one RuleError naming every problem at once: its
``problems`` list each one as ``(field, message)``, the field a path into the position
("players.Amy.cash", "corporations.Doppler AG.issued", "offering", "deck.green", ...), so that a
form can show each next to what it is about.  The game's own rules (its card set, its price row,
its charters) decide what can be.

What no table can reach at the end of a turn is refused as well (``_reachable``): the offering is
refilled after every purchase while the deck has cards, drawn cards become available after the
foreign investor's phase, colours come off the deck in order, going public issues at least two
shares, a corporation at the top price ends the game at the end check, the end card flips only
once the deck and the offering are empty, and where the bank never holds every issued share
(classic) every corporation has a president.
"""

from __future__ import annotations

from . import words
from .entities import Corporation
from .errors import RuleError
from .position_deck import _deck, _reachable
from .position_problems import _int, _names, _Problems


def _players(game, state: dict, players: list[str], problems: _Problems) -> None:
    """Each player's money, companies and shares (the shares checked with the corporations)."""
    given = state.get("players")
    if not isinstance(given, dict) or set(given) != set(players):
        problems.fail("players", f"The position must give every player: {', '.join(players)}.")
    for name in players:
        with problems.part():
            row = given[name]
            if not isinstance(row, dict):
                problems.fail(f"players.{name}", f"{name}: money, companies and shares.")
            p = game.players[name]
            with problems.part():
                p.cash = _int(problems, f"players.{name}.cash", row.get("cash"), f"{words.possessive(name)} money")
            with problems.part():
                p.companies = _names(
                    problems,
                    f"players.{name}.companies",
                    row.get("companies") or [],
                    f"{words.possessive(name)} companies",
                )
            shares = row.get("shares") or {}
            if not isinstance(shares, dict):
                problems.fail(
                    f"players.{name}.shares", f"{words.possessive(name)} shares must be given per corporation."
                )
            held = {}
            for c, n in shares.items():
                with problems.part():
                    if n:
                        held[c] = _int(
                            problems, f"players.{name}.shares.{c}", n, f"{words.possessive(name)} {c} shares", 1
                        )
            p.shares = held


def _order_and_players(game, state: dict, players, problems: _Problems, what: str) -> None:
    """The player order (``what``: which one it is) and each player's money, companies and shares."""
    with problems.part():
        order = _names(problems, "player_order", state.get("player_order") or list(players), what)
        if sorted(order) != sorted(players):
            problems.fail("player_order", f"{what} must name every player once.")
        game.order = order
    with problems.part():
        _players(game, state, list(players), problems)


def _check_prices(game, state: dict, problems: _Problems) -> dict[str, int]:
    """The share price of every corporation in play (those with a problem left out)."""
    corps = state.get("corporations") or {}
    if not isinstance(corps, dict):
        problems.fail("corporations", "The corporations must be given by name.")
    prices = {}
    row = game.cards.prices
    taken: dict[int, str] = {}
    for name, c in corps.items():
        with problems.part():
            if name not in game.charters:
                problems.fail("corporations", f"{name!r} is not a corporation of {game.ruleset.title}.")
            price = c.get("share_price") if isinstance(c, dict) else None
            field = f"corporations.{name}.share_price"
            if type(price) is not int or price not in row or price == 0:
                problems.fail(
                    field,
                    f"{words.possessive(name)} share price {price!r} is not a card of the share price row ({row[1]} to {row[-1]}).",
                )
            if price in taken and price != game.cards.top_price:
                problems.fail(field, f"{taken[price]} and {name} both hold the {price} share price card.")
            taken[price] = name
            prices[name] = price
    names = set(corps)  # a dict: refused above otherwise
    for p in game.players.values():
        for cname in p.shares:
            if cname not in names:
                with problems.part():
                    problems.fail(
                        f"players.{p.name}.shares.{cname}",
                        f"{p.name} holds {cname} shares, but {cname} is not a corporation in play.",
                    )
    return prices


def _corporations(game, state: dict, problems: _Problems) -> dict[str, int]:
    """Each corporation in play; its share price by name (also of those with another problem)."""
    prices = _check_prices(game, state, problems)
    for name, price in prices.items():
        with problems.part():
            _corporation(game, name, price, state["corporations"][name], problems)
    return prices


def _corporation(game, name: str, price: int, c: dict, problems: _Problems) -> None:
    """One corporation: each of its figures is checked, whatever the others' problems; it enters
    the game only without any."""
    charter = game.charters[name]
    corp = Corporation(name, price, charter.shares)
    at = f"corporations.{name}"
    before = len(problems.items)
    with problems.part():
        corp.cash = _int(problems, f"{at}.cash", c.get("cash"), f"{words.possessive(name)} treasury")
    with problems.part():
        corp.companies = _names(
            problems, f"{at}.companies", c.get("companies") or [], f"{words.possessive(name)} companies"
        )
        if not corp.companies:
            problems.fail(f"{at}.companies", f"{name} owns no company; a corporation always owns at least one.")
    before_counts = len(problems.items)
    with problems.part():
        corp.issued = _int(problems, f"{at}.issued", c.get("issued"), f"{words.possessive(name)} issued shares", 1)
        if corp.issued > charter.shares:
            problems.fail(f"{at}.issued", f"{name} has {charter.shares} shares; {corp.issued} cannot be issued.")
        if corp.issued < 2:
            problems.fail(
                f"{at}.issued",
                f"{name} has {words.count(corp.issued, 'share')} issued, but going public puts at least one share "
                f"with the founder and as many in the bank: at least 2 are issued.",
            )
        unissued = c.get("unissued")
        if unissued is not None and unissued != charter.shares - corp.issued:
            problems.fail(
                f"{at}.issued",
                f"{name}: {corp.issued} issued and {unissued} unissued do not make its {charter.shares} shares.",
            )
    with problems.part():
        corp.bank_shares = _int(
            problems, f"{at}.bank_shares", c.get("bank_shares", 0), f"{words.possessive(name)} shares in the bank"
        )
    counts = len(problems.items) == before_counts  # the issued and the bank's shares could be read
    held = {p: game.players[p].shares.get(name, 0) for p in game.order if p in game.players}
    with problems.part():
        if counts and sum(held.values()) + corp.bank_shares != corp.issued:
            problems.fail(
                f"{at}.bank_shares",
                f"{name}: the players hold {words.count(sum(held.values()), 'share')} and the bank {corp.bank_shares}, "
                f"but {corp.issued} are issued.",
            )
    with problems.part():
        corp.president = _president(game, name, c.get("president"), held, problems)
    if len(problems.items) == before:
        game.corps[name] = corp
        game._set_price(corp, corp.price)


def _president(game, name: str, president, held: dict[str, int], problems: _Problems):
    at = f"corporations.{name}"
    most = max(held.values(), default=0)  # pragma: no mutate: held names every player (two at least): never empty
    if president is None:
        if most:
            problems.fail(f"{at}.president", f"{name} has no president, but players hold its shares.")
        if not game.RECEIVERSHIP:
            problems.fail(
                f"{at}.president",
                f"{name} has no president: in {game.ruleset.title} the bank never owns all issued shares "
                f"(there is no receivership), so some player holds one.",
            )
    elif president not in held:
        problems.fail(f"{at}.president", f"{words.possessive(name)} president {president!r} is not a player.")
    elif held[president] < most:
        problems.fail(
            f"{at}.president",
            f"{president} holds {words.count(held[president], name + ' share')}, fewer than another player: not its president.",
        )
    elif held[president] == 0:
        problems.fail(f"{at}.president", f"{president} holds no {name} share and cannot be its president.")
    return president


def _place_companies(game, position: dict, problems: _Problems) -> None:
    state = position["state"]
    places: dict[str, str] = {}
    companies = game.cards.companies

    def place(abbr, where, field):
        if abbr not in companies:
            problems.fail(field, f"There is no company {abbr!r} in {game.ruleset.title}.")
        if abbr in places:
            problems.fail(field, f"The {abbr} is in two places: {places[abbr]} and {where}.")
        places[abbr] = where

    def place_all(abbrs, where, field):
        kept = []
        for abbr in abbrs:
            with problems.part():
                place(abbr, where, field)
                kept.append(abbr)
        return kept

    for p in game.players.values():
        p.companies = place_all(p.companies, p.name, f"players.{p.name}.companies")
    fi = state.get("foreign_investor") or {}
    if not isinstance(fi, dict):
        with problems.part():
            problems.fail("foreign_investor", "The foreign investor's money and companies.")
        fi = {}
    with problems.part():
        game.fi.cash = _int(problems, "foreign_investor.cash", fi.get("cash", 0), "The foreign investor's money")
    fi_companies = []
    with problems.part():
        fi_companies = _names(
            problems, "foreign_investor.companies", fi.get("companies") or [], "The foreign investor's companies"
        )
    game.fi.companies = place_all(fi_companies, "the foreign investor", "foreign_investor.companies")
    given = state.get("corporations") if isinstance(state.get("corporations"), dict) else {}
    for name, c in given.items():  # also a corporation with another problem: its companies are on the table
        listed = c.get("companies") if isinstance(c, dict) else None
        if name not in game.charters or not isinstance(listed, list) or not all(isinstance(a, str) for a in listed):
            continue
        kept = place_all(listed, name, f"corporations.{name}.companies")
        if name in game.corps:
            game.corps[name].companies = kept
    offering = state.get("offering") or {}
    if not isinstance(offering, dict):
        with problems.part():
            problems.fail("offering", "The offering must give its available and unavailable companies.")
        offering = {}
    for key, what, attr in (
        ("available", "The available companies", "available"),
        ("unavailable", "The unavailable companies", "unavailable"),
    ):
        abbrs = []
        with problems.part():
            abbrs = _names(problems, f"offering.{key}", offering.get(key) or [], what)
        setattr(game, attr, place_all(abbrs, "the offering", f"offering.{key}"))
    out = []
    with problems.part():
        out = _names(problems, "out_of_game", position.get("out_of_game") or [], "The companies out of the game")
    place_all(out, "out of the game", "out_of_game")
    game.owner = {}
    for p in game.players.values():
        for abbr in p.companies:
            game.owner[abbr] = p
    for abbr in game.fi.companies:
        game.owner[abbr] = game.fi
    for corp in game.corps.values():
        for abbr in corp.companies:
            game.owner[abbr] = corp
    game.seen = set(places)


def resume(ruleset, players, options, position: dict, persons=None, prepare=None, edition=None):
    """The game at the start of the turn after ``position["after"]["turn"]``, the table as it lies.

    ``prepare(game)``, if given, runs once the position is checked and before the next turn starts
    (the replay sets its phase-end hook there, so a phase that ends without a decision right
    after the position is reported too).  ``edition``: that of a stored game (``Game.EDITION``);
    a game stored under edition 1 resumes from a position those checks would now refuse."""
    if "open_companies" in (options or ()):
        raise RuleError("A game with the open companies variant cannot be resumed from a position: its deck is "
                        "known card by card. Import its transcript instead.")  # fmt: skip
    if not isinstance(position, dict) or not isinstance(position.get("state"), dict):
        raise RuleError("A position needs the state of the table.")
    game = ruleset.create(list(players), list(options or ()), persons=persons)
    if edition is not None:
        game.edition = edition
    problems = _Problems()
    state = position["state"]
    after = position.get("after") or {}
    turn = 1  # pragma: no mutate: read only once the turn could be read (a problem raises before)
    with problems.part():
        if not isinstance(after, dict):
            problems.fail("turn", "The position must say the turn it is at the end of.")
        turn = _int(problems, "turn", after.get("turn"), "The turn the position is at the end of", 1)
    last = len(game.PHASES)
    with problems.part():
        if isinstance(after, dict) and after.get("phase", last) != last:  # (not a dict: refused above)
            problems.fail(
                "turn", f"A game resumes at the end of a turn: after phase {last}, not {after.get('phase')!r}."
            )
    if state.get("game_over"):
        raise RuleError("The game is over; check its scores instead.")
    _order_and_players(game, state, players, problems, "The player order")
    prices: dict[str, int] = {}
    with problems.part():
        prices = _corporations(game, state, problems)
    _place_companies(game, position, problems)
    deck_read, full = False, dict(game.deck_left)  # the set-up's deck: every colour complete
    with problems.part():
        deck_read = _deck(game, position.get("deck"), state, problems)
    game.end_flipped = bool(state.get("end_card_flipped"))
    if game.edition >= 2:
        _reachable(game, problems, deck_read, full, prices)
    problems.raise_all()
    # deductions from the game's history (the highest card last) do not apply
    game.history_known = False  # pragma: no mutate: read as a truth value only (None is as false)
    game.resumed_from = position
    game.pending_reveals = 0
    game.setup = False  # pragma: no mutate: read as a truth value only (None is as false)
    game.turn = turn + 1
    game.phase = 1
    if prepare is not None:
        prepare(game)
    game._written = []  # what the automatic steps write belongs to no entry: the position is the first
    getattr(game, f"_start_{game.phase_kind}")()
    game._advance()
    return game
