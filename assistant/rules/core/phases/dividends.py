"""Dividends (Stars: phase 6; classic: 9): in share price order each president chooses the dividend
per share (a receiver pays none), then the share price moves by the ruleset's price mechanism
(``core/pricing.py``); and what the table sees before choosing: the dividend chart and its Why?s."""

from __future__ import annotations

from .. import words
from ..errors import RuleError


class DividendsMixin:
    def _start_dividends(self):
        self.queue = self.share_order()

    def max_payout(self, corp) -> int:
        """Maximum payout per share printed on the share price card (none on the 0 and top cards)."""
        return self.cards.max_payout.get(corp.price) or 0

    def dividend_max(self, corp) -> int:
        return min(self.max_payout(corp), corp.cash // corp.issued)

    def _receivers_pay_no_dividend(self) -> bool:
        """Automatic steps of the dividends phase: a corporation in receivership pays a dividend of 0
        (its share price still adjusts).  True when a president must choose a dividend."""
        while self.queue:
            corp = self.corps[self.queue[0]]
            if corp.president is not None:
                return True
            self.queue.pop(0)
            self._log(self._pay_dividend(corp, 0, "(in receivership)"))
        return False

    def _menu_dividends(self) -> list[dict]:
        corp = self.corps[self.queue[0]]
        return [
            {
                "type": "dividend",
                "player": corp.president,
                "corporation": corp.name,
                "min": 0,
                "max": self.dividend_max(corp),
            }
        ]

    def _ev_dividend(self, ev) -> str:
        corp = self._queue_head(ev, "dividends")
        amount = ev.get("amount")
        if type(amount) is not int or amount < 0:
            raise RuleError("The dividend is a whole number of coins per share, 0 or more.")
        top = self.dividend_max(corp)
        if amount > top:
            raise RuleError(
                f"{corp.name} can pay at most {self.ruleset.cash(top)} per share (share price {self.ruleset.cash(corp.price)} allows "
                f"{self.ruleset.cash(self.max_payout(corp))}; {self.ruleset.cash(corp.cash)} cash for {words.count(corp.issued, 'share')})."
            )
        self.queue.pop(0)
        return self._pay_dividend(corp, amount, "")  # pragma: no mutate: None, like "", adds no note

    def _pay_dividend(self, corp, amount, note) -> str:
        if amount:
            for p in self.players.values():
                n = p.shares.get(corp.name)
                if n:
                    p.cash += amount * n
                    self._money(corp.name, p.name, amount * n, "dividend")
            corp.cash -= amount * corp.issued
            self._money(corp.name, "Bank", amount * corp.bank_shares, "dividend on bank shares")
        text = f"{corp.name}{' ' + note if note else ''} pays {self.ruleset.cash(amount)} per share"
        move, why = self.dividend_move(corp)
        text += f"; {why}"
        if move.new == 0:
            self._go_bankrupt(corp, f"its share price fell to {self.ruleset.cash(0)}")
        elif move.steps:
            self._set_price(corp, move.new)
        return text

    def adjustment(self, corp, cash: int):
        """Where the share price moves after the dividend with ``cash`` left in the treasury:
        (the move, the figures it depends on, a sentence), by the ruleset's price mechanism."""
        return self.pricing.adjustment(self, corp, cash)

    def dividend_move(self, corp):
        """The share price move after the dividend is paid (cash already paid out), and why."""
        move, _facts, why = self.adjustment(corp, corp.cash)
        return move, why


# ---------------------------------------------------------------------- before the decision
def dividend_chart(game) -> dict | None:
    """For the corporation whose dividend is due: one row per allowed amount per share."""
    nxt = game.next
    if not nxt or nxt.get("for") != "dividend":
        return None
    name = nxt["corporation"]
    corp = game.corps[name]
    top = game.cards.top_price
    rows = []
    for amount in range(game.dividend_max(corp) + 1):
        after = game.preview({"type": "dividend", "corporation": name, "amount": amount})
        cash_left = corp.cash - amount * corp.issued
        # Stars: "stars" and "required"; classic: "book_value" and the card's "table_row"
        move, facts, _why = game.adjustment(corp, cash_left)
        new = after.corps[name].price if name in after.corps else 0
        payouts = {p.name: amount * p.shares[name] for p in game.players.values() if p.shares.get(name)}
        if corp.bank_shares:
            payouts["Bank"] = amount * corp.bank_shares
        rows.append(
            {
                "amount": amount,
                "cash_left": cash_left,
                **facts,
                "target": move.target,
                "new_price": new,
                "skipped": list(move.skipped),
                "effect": "bankrupt"
                if new == 0
                else str(top)
                if new == top
                else "keep"
                if new == corp.price
                else "raise"
                if new > corp.price  # pragma: no mutate: new == corp.price is "keep" above
                else "drop",
                "payouts": payouts,
            }
        )
    return {"corporation": name, "price": corp.price, "issued": corp.issued, "cash": corp.cash, "rows": rows}


def explain_price_after_dividend(game, corp_name: str, amount: int) -> dict:
    """Where the share price goes if the corporation pays ``amount`` per share now."""
    corp = game.corps[corp_name]
    cash = corp.cash - amount * corp.issued
    move, facts, _why = game.adjustment(corp, cash)
    m = game.ruleset.cash  # money as the game writes it: "$12" in v2.2 and classic, "12" in Stars
    lines = [
        f"Pays {m(amount)} × {words.count(corp.issued, 'share')} = {m(amount * corp.issued)}; {m(cash)} cash left."
    ]
    lines += game.pricing.dividend_lines(game, corp, cash, facts, move)
    if move.skipped:
        lines.append(
            f"{', '.join(map(m, move.skipped))} {'is' if len(move.skipped) == 1 else 'are'} in use, "
            f"so it {game.ruleset.word('skipped')} to {m(move.new)}."
        )
    if move.new == 0:
        lines.append(f"The {m(0)} card means bankruptcy.")
    return {
        "title": f"{corp_name} share price",
        "total": move.new,
        "target": move.target,
        "skipped": list(move.skipped),
        "lines": lines,
    }


def explain_dividend_limit(game, corp_name: str) -> dict:
    corp = game.corps[corp_name]
    card = game.max_payout(corp)
    by_cash = corp.cash // corp.issued
    m = game.ruleset.cash
    return {
        "title": f"{corp_name} dividend",
        "total": min(card, by_cash),
        "lines": [
            f"The {m(corp.price)} card allows up to {m(card)} per share.",
            f"{m(corp.cash)} cash for {words.count(corp.issued, 'issued share')} allows {m(by_cash)} per share.",
        ],
    }
