"""Games that did not start with the assistant: resuming from the table as it lies at the end of a
turn, and the final scoring of a game played on paper (../shared/conformance/FORMAT-position.md).

``resume(ruleset, players, options, position)`` checks the position and returns an engine game at
the start of the next turn; ``final_scores(ruleset, players, state)`` scores an end position.  A
position that cannot be is refused with a RuleError naming the problem; the game's own rules
(its card set, its price row, its charters) decide what can be.
"""

from __future__ import annotations

from assistant import words

from . import explain
from .entities import Corporation
from .errors import RuleError

RULE = None  # a refused position names no rule of play


def _fail(message: str):
    raise RuleError(message, RULE)


def _int(value, what: str, low: int = 0) -> int:
    if type(value) is not int or value < low:
        _fail(f"{what} must be a whole number of at least {low}, not {value!r}.")
    return value


def _names(value, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _fail(f"{what} must be a list of names.")
    return list(value)


def _players(game, state: dict, players: list[str]) -> None:
    """Each player's money, companies and shares (the shares checked with the corporations)."""
    given = state.get("players")
    if not isinstance(given, dict) or set(given) != set(players):
        _fail(f"The position must give every player: {', '.join(players)}.")
    for name in players:
        row = given[name] if isinstance(given[name], dict) else _fail(f"{name}: money, companies and shares.")
        p = game.players[name]
        p.cash = _int(row.get("cash"), f"{words.possessive(name)} money")
        p.companies = _names(row.get("companies") or [], f"{words.possessive(name)} companies")
        shares = row.get("shares") or {}
        if not isinstance(shares, dict):
            _fail(f"{words.possessive(name)} shares must be given per corporation.")
        p.shares = {c: _int(n, f"{words.possessive(name)} {c} shares", 1) for c, n in shares.items() if n}


def _check_prices(game, state: dict, final: bool) -> dict[str, int]:
    corps = state.get("corporations") or {}
    if not isinstance(corps, dict):
        _fail("The corporations must be given by name.")
    prices = {}
    row = game.cards.prices
    taken: dict[int, str] = {}
    for name, c in corps.items():
        if name not in game.charters:
            _fail(f"{name!r} is not a corporation of {game.ruleset.title}.")
        price = c.get("share_price") if isinstance(c, dict) else None
        if type(price) is not int or price not in row or price == 0:
            _fail(
                f"{words.possessive(name)} share price {price!r} is not a card of the share price row ({row[1]} to {row[-1]})."
            )
        if price in taken and price != game.cards.top_price:
            _fail(f"{taken[price]} and {name} both hold the {price} share price card.")
        taken[price] = name
        prices[name] = price
    for p in game.players.values():
        for cname in p.shares:
            if cname not in prices:
                _fail(f"{p.name} holds {cname} shares, but {cname} is not a corporation in play.")
    return prices


def _corporations(game, state: dict) -> None:
    prices = _check_prices(game, state, final=False)
    for name, c in state["corporations"].items():
        charter = game.charters[name]
        corp = Corporation(name, prices[name], charter.shares)
        corp.cash = _int(c.get("cash"), f"{words.possessive(name)} treasury")
        corp.companies = _names(c.get("companies") or [], f"{words.possessive(name)} companies")
        if not corp.companies:
            _fail(f"{name} owns no company; a corporation always owns at least one.")
        corp.issued = _int(c.get("issued"), f"{words.possessive(name)} issued shares", 1)
        corp.bank_shares = _int(c.get("bank_shares", 0), f"{words.possessive(name)} shares in the bank")
        if corp.issued > charter.shares:
            _fail(f"{name} has {charter.shares} shares; {corp.issued} cannot be issued.")
        unissued = c.get("unissued")
        if unissued is not None and unissued != charter.shares - corp.issued:
            _fail(f"{name}: {corp.issued} issued and {unissued} unissued do not make its {charter.shares} shares.")
        held = {p: game.players[p].shares.get(name, 0) for p in game.order}
        if sum(held.values()) + corp.bank_shares != corp.issued:
            _fail(
                f"{name}: the players hold {sum(held.values())} shares and the bank {corp.bank_shares}, "
                f"but {corp.issued} are issued."
            )
        president = c.get("president")
        most = max(held.values())
        if president is None:
            if most:
                _fail(f"{name} has no president, but players hold its shares.")
        elif president not in held:
            _fail(f"{words.possessive(name)} president {president!r} is not a player.")
        elif held[president] < most:
            _fail(
                f"{president} holds {words.count(held[president], name + ' share')}, fewer than another player: not its president."
            )
        elif held[president] == 0:
            _fail(f"{president} holds no {name} share and cannot be its president.")
        corp.president = president
        game.corps[name] = corp
        game._set_price(corp, corp.price)


def _place_companies(game, state: dict, out_of_game: list[str]) -> None:
    places: dict[str, str] = {}
    companies = game.cards.companies

    def place(abbr, where):
        if abbr not in companies:
            _fail(f"There is no company {abbr!r} in {game.ruleset.title}.")
        if abbr in places:
            _fail(f"The {abbr} is in two places: {places[abbr]} and {where}.")
        places[abbr] = where

    for p in game.players.values():
        for abbr in p.companies:
            place(abbr, p.name)
    fi = state.get("foreign_investor") or {}
    game.fi.cash = _int(fi.get("cash", 0), "The foreign investor's money")
    for abbr in _names(fi.get("companies") or [], "The foreign investor's companies"):
        place(abbr, "the foreign investor")
    for corp in game.corps.values():
        for abbr in corp.companies:
            place(abbr, corp.name)
    offering = state.get("offering") or {}
    game.available = _names(offering.get("available") or [], "The available companies")
    game.unavailable = _names(offering.get("unavailable") or [], "The unavailable companies")
    for abbr in game.available + game.unavailable:
        place(abbr, "the offering")
    for abbr in out_of_game:
        place(abbr, "out of the game")
    game.owner = {}
    for p in game.players.values():
        for abbr in p.companies:
            game.owner[abbr] = p
    game.fi.companies = list(fi.get("companies") or [])
    for abbr in game.fi.companies:
        game.owner[abbr] = game.fi
    for corp in game.corps.values():
        for abbr in corp.companies:
            game.owner[abbr] = corp
    game.seen = set(places)


def _deck(game, deck, state: dict) -> None:
    if not isinstance(deck, dict):
        _fail("The deck must be given as the number of cards left per colour.")
    counts = {color: _int(deck.get(color, 0), f"The {color} cards left") for color in game.colors}
    unknown = [c for c in deck if c not in game.colors]
    if unknown:
        _fail(f"{game.ruleset.title} has no {unknown[0]} company cards in this game.")
    size = state.get("deck_size")
    if size is not None and size != sum(counts.values()):
        _fail(f"The deck holds {sum(counts.values())} cards by colour, but its size is {size}.")
    full = dict(game.deck_left)  # the game's set-up: every colour complete
    top = next((c for c in game.colors if counts[c]), None)
    if top is not None:
        for color in game.colors[game.colors.index(top) + 1 :]:
            if counts[color] != full[color]:
                _fail(
                    f"Under the {top} cards the {color} ones are all still in the deck: "
                    f"{full[color]} with {len(game.players)} players, not {counts[color]}."
                )
    for color, n in counts.items():
        unseen = [a for a in game.cards.companies_by_color[color] if a not in game.seen]
        if n > len(unseen):
            _fail(
                f"{n} {color} cards cannot be left in the deck: only {len(unseen)} {color} companies are unaccounted for."
            )
        if n > full[color]:
            _fail(f"The deck holds at most {full[color]} {color} cards with {len(game.players)} players, not {n}.")
    game.deck_left = counts


def resume(ruleset, players, options, position: dict, persons=None):
    """The game at the start of the turn after ``position["after"]["turn"]``, the table as it lies."""
    if "open_companies" in (options or ()):
        _fail("A game with the open companies variant cannot be resumed from a position: its deck is known "
              "card by card. Import its transcript instead.")  # fmt: skip
    if not isinstance(position, dict) or not isinstance(position.get("state"), dict):
        _fail("A position needs the state of the table.")
    game = ruleset.create(list(players), list(options or ()), persons=persons)
    after = position.get("after") or {}
    turn = _int(after.get("turn"), "The turn the position is at the end of", 1)
    last = len(game.PHASES)
    if after.get("phase", last) != last:
        _fail(f"A game resumes at the end of a turn: after phase {last}, not {after.get('phase')!r}.")
    state = position["state"]
    if state.get("game_over"):
        _fail("The game is over; check its scores instead.")
    order = _names(state.get("player_order") or list(players), "The player order")
    if sorted(order) != sorted(players):
        _fail("The player order must name every player once.")
    game.order = order
    _players(game, state, list(players))
    _corporations(game, state)
    _place_companies(game, state, _names(position.get("out_of_game") or [], "The companies out of the game"))
    _deck(game, position.get("deck"), state)
    game.end_flipped = bool(state.get("end_card_flipped"))
    game.history_known = False  # deductions from the game's history (the highest card last) do not apply
    game.resumed_from = position
    game.pending_reveals = 0
    game.setup = False
    game.turn = turn + 1
    game.phase = 1
    getattr(game, f"_start_{game.phase_kind}")()
    game._advance()
    return game


def final_scores(ruleset, players, state: dict) -> dict:
    """``{"scores", "ranking", "lines"}`` of an end position (money, companies, shares, share prices)."""
    game = ruleset.create(list(players), [])
    order = _names(state.get("player_order") or list(players), "The final player order")
    if sorted(order) != sorted(players):
        _fail("The final player order must name every player once.")
    game.order = order
    _players(game, state, list(players))
    prices = _check_prices(game, state, final=True)
    seen: dict[str, str] = {}
    for p in game.players.values():
        for abbr in p.companies:
            if abbr not in game.cards.companies:
                _fail(f"There is no company {abbr!r} in {ruleset.title}.")
            if abbr in seen:
                _fail(f"The {abbr} is in two places: {seen[abbr]} and {p.name}.")
            seen[abbr] = p.name
    for name, price in prices.items():
        charter = game.charters[name]
        held = sum(p.shares.get(name, 0) for p in game.players.values())
        if held > charter.shares:
            _fail(f"The players hold {words.count(held, name + ' share')}; it has only {charter.shares}.")
        corp = Corporation(name, price, charter.shares)
        game.corps[name] = corp
    scores = game.scores()
    ranking = game.ranking(scores)
    lines = []
    for place, name in enumerate(ranking, 1):
        why = explain.score(game, name)
        lines.append(f"{place}. {name} {scores[name]}: " + " ".join(why["lines"]))
    lines += tie_breaks(scores, ranking, order)
    return {"scores": scores, "ranking": ranking, "lines": lines}


def tie_breaks(scores: dict[str, int], ranking: list[str], order: list[str]) -> list[str]:
    """The ties of a ranking, in words: the player earlier in the final player order ranks higher."""
    out = []
    for score in sorted({s for s in scores.values() if list(scores.values()).count(s) > 1}, reverse=True):
        tied = [p for p in ranking if scores[p] == score]
        out.append(
            f"{' and '.join(tied)} tie at {score}: {tied[0]} ranks higher, being earlier in the final player "
            f"order ({', '.join(order)})."
        )
    return out
