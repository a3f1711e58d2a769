"""Classic Rolling Stock: the shared engine with the Guide's card data, phase order and rules.

The mechanisms are shared with Rolling Stock Stars (``assistant/rules``): auctions and share
trading, the new player order and the foreign investor's purchases, acquisitions with
interventions, closing, income with synergies, dividends, issuing shares, IPOs, the menu,
snapshots and undo by replay.  What this class changes is all here, each with the Guide's
section:

* data: 45 companies in six colours, 10 corporations of 10 shares without abilities, the
  32-card share price row up to $100, cost of ownership and deck per game type (``cards.json``);
* the turn (1.4): ten phases, issuing and IPOs first, player order and the foreign investor
  as phases of their own, the end check last; turn 1 starts with phase 3;
* 1.3, 1.9, 3.8: the deck per game type (full, short, training) and player count, drawn at
  random (no company is always in it); 3.4: the open companies variant declares it;
* 1.5.3: the bank may never own all issued shares (the last share players hold is not sold),
  so there is no receivership;
* 1.5.6: the foreign investor sells at the maximum of the span; priority by share price;
* 1.5.8: corporations earn synergies and have no special abilities;
* 1.5.9: dividends up to a third of the share price, then the price moves by the book value
  (the table on the share price card);
* 1.6.1: a share is issued at the next lower free card;
* 1.6.2: going public takes the fewest of 1-4 shares worth the face value;
* 3.6 (variant ``share_redemption``): in phase 1 a corporation may instead redeem a share from
  the bank, as a player buys one: at the next higher free card, with at least 3 shares issued;
* 1.6.10: the game ends in phase 10 when a corporation holds $100 or the end card was flipped
  (it flips when the offering is empty), or at once when a share bought in phase 3 reaches $100.
"""

from __future__ import annotations

from ..core import events, words
from ..core.errors import RuleError
from ..core.game import Game
from . import rules

# The Guide's section each kind of event is judged by (anchors in guide_rules.json).
EVENT_RULES = {
    "reveal": "setting-up",
    "pass": "phase-3-auctions-and-share-trading",
    "bid": "phase-3-auctions-and-share-trading",
    "leave": "phase-3-auctions-and-share-trading",
    "buy_share": "buying-and-selling-shares",
    "sell_share": "buying-and-selling-shares",
    "acquire": "buying-companies",
    "announce": "buying-companies",
    "no_intervention": "buying-companies",
    "done": "buying-companies",
    "player_done": "buying-companies",
    "close": "closing-companies",
    "dividend": "dividends-and-share-price",
    "issue": "issuing-shares",
    "skip_issue": "issuing-shares",
    "redeem": "share-redemption",
    "ipo": "going-public-with-more-shares",
    "skip_ipo": "going-public",
}

# The Guide's names of its ten phases (1.4: "Phase 6 – corporations buy companies").
PHASE_NAMES = {
    1: "issue new shares",
    2: "form corporations",
    3: "auctions and share trading",
    4: "determine new player order",
    5: "foreign investor",
    6: "corporations buy companies",
    7: "close companies",
    8: "collect income",
    9: "pay dividends",
    10: "end of game check",
}


class ClassicGame(Game):
    """One game of classic Rolling Stock, from setup to final scoring."""

    GAME = "rolling-stock"
    PHASES = (
        "issue",
        "ipo",
        "investment",
        "player_order",
        "foreign_investor",
        "acquisition",
        "closing",
        "income",
        "dividends",
        "end_check",
    )
    PHASE_NAMES = PHASE_NAMES
    FIRST_PHASE = 3  # phases 1 and 2 have nothing to do in turn 1
    END_PHASE = "end_check"
    EVENT_RULES = EVENT_RULES
    EVENT_TYPES = (*events.COMMON, "redeem")  # 3.6, the share redemption variant
    RECEIVERSHIP = False  # 1.5.3: the bank may never own all issued shares

    # ------------------------------------------------------------------ set-up (1.3, 1.9, 3.8)
    def _configure(self, options, deck, persons) -> None:
        types = [o for o in options if o in rules.GAME_TYPE_OPTIONS]
        if len(types) > 1:
            raise RuleError("Choose one game type: the full game, the short game or the training game.")
        self._seat_persons(options, persons)  # 3.7: the two-player variant, four simulated players
        self.game_type = rules.game_type(options)
        self.colors = rules.colors_in_play(self.game_type)
        n = len(self.players)
        self.deck_left = rules.deck_counts(self.game_type, n)
        self.open_deck = None
        if "open_companies" in options:  # 3.4: the deck, built as usual, is declared open
            self.open_deck = self._check_open_deck(deck, self.deck_left)
        elif deck:
            raise RuleError("A deck list is only given in the open companies variant.")

    def cost_shown_by(self, top: str) -> dict[str, int]:
        return self.cards.cost_by_top[self.game_type][top]

    # ------------------------------------------------------------------ 1.5.3 share trading
    def sale_refusal(self, name: str, corp) -> str | None:
        after = {p: self.players[p].shares.get(corp.name, 0) for p in self.order}
        after[name] -= 1
        if not rules.players_keep_a_share(after):
            return (
                f"{name} holds the last {corp.name} share players own; the bank may never own all "
                f"issued shares, so it cannot be sold."
            )
        return None

    # ------------------------------------------------------------------ 1.5.6 the foreign investor
    def fi_price(self, corp_name: str, abbr: str) -> int:
        return self.cards.companies[abbr].price_max

    @staticmethod
    def fi_priority(corp) -> tuple:
        """Priority with the foreign investor: the higher share price first."""
        return (-corp.price,)

    # ------------------------------------------------------------------ 1.5.8 income, 1.5.9 dividends
    # Corporations earn synergies and have no special abilities (their charter keys are symbols):
    # the shared income applies.  The share price moves by the book value (``pricing.py``); the
    # maximum payout is printed on the card (``cards.json``).
    def book_value(self, name: str) -> int:
        corp = self.corps[name]
        return rules.book_value(corp.cash, corp.companies)

    # ------------------------------------------------------------------ 1.6.1 issuing a share
    def issue_price(self, corp) -> int:
        return self.price_move(corp, -1).new

    # ------------------------------------------------------------------ 3.6 share redemption (variant)
    def _start_issue(self) -> None:
        redeeming = "share_redemption" in self.options
        self.queue = [
            c for c in self.share_order() if self.corps[c].unissued or (redeeming and self.can_redeem(self.corps[c]))
        ]

    def redemption_refusal(self, corp) -> str | None:
        """Why the corporation cannot redeem a share now (None: it can)."""
        if "share_redemption" not in self.options:
            return "Shares are redeemed only in the share redemption variant."
        if corp.issued < 3:
            return f"{corp.name} has {words.count(corp.issued, 'share')} issued; it redeems only with at least 3."
        if not corp.bank_shares:
            return f"The bank holds no {corp.name} share to redeem."
        price = self.price_move(corp, 1).new
        if price > corp.cash:
            return f"Redeeming {words.a(corp.name)} share costs {self.ruleset.cash(price)}; its treasury has {self.ruleset.cash(corp.cash)}."
        return None

    def can_redeem(self, corp) -> bool:
        return self.redemption_refusal(corp) is None

    def _ev_redeem(self, ev) -> str:
        corp = self._queue_head(ev, "issue")
        why = self.redemption_refusal(corp)
        if why:
            raise RuleError(why)
        price = self.price_move(corp, 1).new
        self.queue.pop(0)
        self._set_price(corp, price)
        corp.cash -= price
        self._money(corp.name, "Bank", price, "redeems a share")
        corp.bank_shares -= 1
        corp.issued -= 1
        return f"{corp.name} redeems a share from the bank for {self.ruleset.cash(price)}"

    def _menu_issue(self) -> list[dict]:
        out = super()._menu_issue()
        corp = self.corps[self.queue[0]]
        if "share_redemption" in self.options and self.can_redeem(corp):
            base = {"player": corp.president, "corporation": corp.name}
            out.append({"type": "redeem", **base, "price": self.price_move(corp, 1).new})
        return out

    # ------------------------------------------------------------------ 1.6.2 going public
    def ipo_terms(self, abbr: str, price: int) -> tuple[int, int, int]:
        return rules.ipo_terms(self.cards.companies[abbr].face_value, price)
