"""Mid-game positions for the worked examples, placed directly on a ``Game``.

The rulebook's examples start in the middle of a game ("Amy has 20, Brian 12, Crystal 9,
the offering contains the MHE, the WT and the MS ...").  Reaching such a position by real
events would take a long, fragile event list, so these helpers put the assets on the table
the way a person would lay out the cards, and then hand over to the engine's own code.

What a builder touches (and nothing else):

* players' ``cash``, ``companies`` and ``shares``; the player ``order``; ``turn``;
* the foreign investor's ``cash`` (its companies through the owner map);
* companies through the game's owner map (``Game._give_company``), the offering
  (``available`` / ``unavailable``) and the deck: every company put on the table is taken
  from the deck (``seen`` and ``deck_left`` are kept in step, see ``place``);
* corporations as ``assistant.rules.entities.Corporation`` objects in ``game.corps`` with
  their share price card in ``game.price_holder``.

Honesty rules, checked by ``check`` before the engine takes over:

* the deck is drawn from the top (all red cards before any orange, ...), the highest
  company of a colour is never drawn before the last card of that colour, and the number
  of cards off the deck matches the companies that were seen;
* share counts add up (players + bank = issued, issued <= the charter's shares), the
  president holds the most shares (or nobody holds any: receivership), no two
  corporations share a share price card (except 75), every corporation owns a company,
  nobody has negative money.

Play then starts with ``enter_phase``, which fills the offering up to one company per
player from the deck (as in a real game, see ``top_up_offering``) and runs the engine's own start of that phase
(``_start_<kind>`` of the phase) and its automatic flow (``_advance``) exactly as ``Game.apply`` does after
an event: the builders never decide anything the rules decide.
"""

from __future__ import annotations

from assistant.rules.core.entities import Corporation
from assistant.rules.core.game import Game
from assistant.rules.registry import STARS
from assistant.rules.stars.cards import CARDS

COLORS = CARDS.colors
SHARE_PRICE_CARDS = {  # price -> (IPO colours, maximum dividend per share, required stars by issued shares)
    p: (
        tuple(c for c in CARDS.colors if p in CARDS.ipo_prices[c]),
        CARDS.max_payout[p],
        (CARDS.required_stars or {}).get(p),
    )
    for p in CARDS.prices
}
COMPANIES = CARDS.companies
COMPANIES_BY_COLOR = CARDS.companies_by_color
CORPORATIONS = STARS.corporations
DECK_COUNTS = CARDS.deck_counts
HIGHEST_OF_COLOR = CARDS.highest_of_color

FI = "FI"  # ``place(..., to=FI)``: the foreign investor


def table(
    players, *, cash=None, order=None, turn=2, fi_cash=None, options=(), deck=None, persons=None, ruleset=STARS
) -> Game:
    """A game after its setup with nothing on the table yet: no offering, no card drawn.

    ``cash``: {player: money} (others keep their starting money); ``order``: current
    player order (default: the initial order); ``ruleset``: Stars, or v2.2 (its cards are Stars').
    """
    g = ruleset.create(players, options, deck=deck, persons=persons)
    g.pending_reveals = 0  # the setup reveals are replaced by ``place(..., "available")``
    g.setup = False
    g.turn = turn
    for name, money in (cash or {}).items():
        g.players[name].cash = money
    if order is not None:
        assert sorted(order) == sorted(g.order), "the order must name every player once"
        g.order = list(order)
    if fi_cash is not None:
        g.fi.cash = fi_cash
    return g


def _take_from_deck(g: Game, abbr: str) -> None:
    company = COMPANIES[abbr]
    assert abbr not in g.seen, f"{abbr} has already been drawn"
    assert g.deck_left[company.color] > 0, f"no {company.color} card is left in the deck for {abbr}"
    if g.open_deck is not None:
        assert abbr in g.open_deck, f"{abbr} is not in the declared (open) deck"
    g.seen.add(abbr)
    g.deck_left[company.color] -= 1


def place(g: Game, abbr: str, to: str) -> None:
    """Take ``abbr`` from the deck and put it where ``to`` says.

    ``to``: a player's name, ``FI``, the name of a corporation already created with
    ``corporation``, ``"available"`` / ``"unavailable"`` (the offering), ``"closed"``
    (drawn earlier and since removed from the game) or ``"nowhere"`` (drawn, for
    ``top_up_offering`` to put in the offering or leave closed).
    """
    _take_from_deck(g, abbr)
    if to == "available":
        g.available.append(abbr)
    elif to == "unavailable":
        g.unavailable.append(abbr)
    elif to in ("closed", "nowhere"):
        pass
    elif to == FI:
        g._give_company(abbr, g.fi)
    elif to in g.players:
        g._give_company(abbr, g.players[to])
    elif to in g.corps:
        g._give_company(abbr, g.corps[to])
    else:
        raise AssertionError(f"nowhere to place {abbr}: {to!r}")


def drawn_until(g: Game, color: str | None) -> None:
    """Draw (and count as closed) cards until the top of the deck is ``color``.

    ``None`` empties the deck (the game end card shows).  Companies already placed count
    as drawn; the rest of each colour is taken lowest face value first, the colour's
    highest company last (it is always in the deck).  The cards drawn here are placed
    nowhere: ``top_up_offering`` puts them in the offering (up to one per player), the
    others count as closed (bought and closed earlier in the game).
    """
    stop = COLORS.index(color) if color is not None else len(COLORS)
    for c in COLORS[:stop]:
        unseen = [a for a in COMPANIES_BY_COLOR[c] if a not in g.seen and (g.open_deck is None or a in g.open_deck)]
        highest = HIGHEST_OF_COLOR[c]
        others = [a for a in unseen if a != highest]
        need = g.deck_left[c]
        if not need:
            continue
        take = others[: need - 1] + ([highest] if highest in unseen else others[need - 1 : need])
        for abbr in take:
            place(g, abbr, "nowhere")
        assert g.deck_left[c] == 0


def top_up_offering(g: Game) -> None:
    """Fill the offering up to one company per player.

    In a real game the offering holds exactly one company per player for as long as the
    deck lasts (every company bought is replaced by a draw), so ``enter_phase`` calls this.
    It first takes companies that were drawn but placed nowhere (``drawn_until`` leaves the
    cards it draws there): nobody bought them, so they are still in the offering, the
    highest face value first.  Only then does it draw from the top of the deck (the lowest
    unseen company of the top colour, its highest company only as its last card).  Once
    the deck is empty nothing is added.  Tests that care about the offering place all of
    it themselves.
    """
    n = len(g.players)
    if not sum(g.deck_left.values()):
        return  # once the deck is empty the offering only shrinks: tests place what is left
    offered = lambda: len(g.available) + len(g.unavailable)  # noqa: E731
    nowhere = sorted(
        (a for a in g.seen if a not in g.owner and a not in g.available and a not in g.unavailable),
        key=lambda a: -COMPANIES[a].face_value,
    )
    while nowhere and offered() < n:
        g.available.append(nowhere.pop(0))
    while sum(g.deck_left.values()) and offered() < n:
        color = next(c for c in COLORS if g.deck_left[c])
        unseen = [a for a in COMPANIES_BY_COLOR[color] if a not in g.seen and (g.open_deck is None or a in g.open_deck)]
        highest = HIGHEST_OF_COLOR[color]
        others = [a for a in unseen if a != highest]
        pick = others[0] if others and (g.deck_left[color] > 1 or highest not in unseen) else highest
        place(g, pick, "available")


def corporation(
    g: Game, name: str, *, price: int, companies, cash: int, shares=None, bank: int = 0, president: str | None = None
) -> Corporation:
    """Put a formed corporation on the table.

    ``shares``: {player: shares held}; ``bank``: shares in the bank; issued = their sum.
    ``president`` defaults to the first player in player order with the most shares
    (None = receivership when no player holds a share).
    """
    shares = dict(shares or {})
    assert name in g.charters and name not in g.corps
    corp = Corporation(name, price, g.charters[name].shares)
    corp.cash = cash
    corp.issued = sum(shares.values()) + bank
    corp.bank_shares = bank
    if president is None and shares:
        most = max(shares.values())
        president = next(p for p in g.order if shares.get(p) == most)
    corp.president = president
    g.corps[name] = corp
    if price not in g.price_holder:
        g.price_holder[price] = name
    else:
        assert price == 75, f"the {price} share price card is held by {g.price_holder[price]}"
    for player, n in shares.items():
        if n:
            g.players[player].shares[name] = n
    for abbr in companies:
        place(g, abbr, name)
    return corp


def check(g: Game) -> None:
    """The position could occur in a real game (see the module docstring)."""
    # the deck: drawn from the top, the highest of each colour last, counts in step
    n = len(g.players)
    started = False
    for c in reversed(COLORS):  # from the bottom of the deck up
        full = DECK_COUNTS[n][c]
        drawn = full - g.deck_left[c]
        if started:
            assert g.deck_left[c] == 0, f"{c} cards are left above a drawn colour"
        if drawn:
            started = True
        seen = [a for a in g.seen if COMPANIES[a].color == c]
        assert len(seen) == drawn, f"{len(seen)} {c} companies seen but {drawn} drawn"
        if HIGHEST_OF_COLOR[c] not in g.seen:
            assert g.deck_left[c] >= 1, f"the {HIGHEST_OF_COLOR[c]} must still be in the deck"
    offering = len(g.available) + len(g.unavailable)
    if sum(g.deck_left.values()):
        assert offering == n, f"the offering holds {offering} companies, not one per player ({n})"
    else:
        assert offering <= n
    on_table = list(g.available) + list(g.unavailable) + list(g.owner)
    assert len(on_table) == len(set(on_table)), "a company is in two places"
    assert set(on_table) <= g.seen
    # money, shares, price cards, companies
    assert all(p.cash >= 0 for p in g.players.values()) and g.fi.cash >= 0
    cards = {}
    for name, corp in g.corps.items():
        held = {p: pl.shares.get(name, 0) for p, pl in g.players.items()}
        assert sum(held.values()) + corp.bank_shares == corp.issued, f"{name}: shares do not add up"
        assert 2 <= corp.issued <= corp.total_shares, f"{name}: {corp.issued} issued"
        assert corp.cash >= 0 and corp.companies, f"{name}: money or companies"
        if corp.president is None:
            assert not any(held.values()), f"{name}: players hold shares but nobody is president"
        else:
            assert held[corp.president] == max(held.values()), f"{name}: the president must hold the most shares"
        if corp.price != 75:
            assert corp.price not in cards, f"{name} and {cards.get(corp.price)} share a price card"
            cards[corp.price] = name
            assert g.price_holder.get(corp.price) == name
    for abbr, ent in g.owner.items():
        assert abbr in ent.companies


def enter_phase(g: Game, phase: int, *, actor: str | None = None) -> Game:
    """Start ``phase`` with the engine's own code and let it run until a decision is due.

    ``actor``: in phase 1, the player whose action it is (default: position 1).
    """
    top_up_offering(g)
    check(g)
    g.phase = phase
    getattr(g, f"_start_{g.phase_kind}")()
    if actor is not None:
        assert phase == 1
        g.actor = g.order.index(actor)
    g._advance()
    return g


def phase_ends(g: Game) -> dict:
    """Collect the snapshot at the end of every phase from now on: {(turn, phase): snapshot}."""
    ends: dict = {}
    g.on_phase_end = lambda game: ends.__setitem__((game.turn, game.phase), game.snapshot())
    return ends
