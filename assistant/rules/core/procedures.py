"""What every phase does the same way: the log and the banker's sheet, companies changing hands,
share prices set and moved, bankruptcy, the presidency, and whose turn it is in a phase that
takes the corporations (or companies) one after another."""

from __future__ import annotations

from . import words
from .entities import Corporation
from .errors import RuleError
from .market import move


class ProceduresMixin:
    def _log(self, text: str) -> None:
        self._auto.append(text)

    def _money(self, payer: str, payee: str, amount: int, why: str) -> None:
        """Record a money movement for the banker's sheet (the engine has already moved it)."""
        if amount < 0:
            payer, payee, amount = payee, payer, -amount
        if amount:
            self._moves.append((payer, payee, amount, why))

    def company_owner_name(self, abbr: str) -> str | None:
        ent = self.owner.get(abbr)
        return None if ent is None else ent.name

    def _give_company(self, abbr: str, entity) -> None:
        old = self.owner.get(abbr)
        if old is not None:
            old.companies.remove(abbr)
        entity.companies.append(abbr)
        self.owner[abbr] = entity

    def _remove_company(self, abbr: str) -> None:
        ent = self.owner.pop(abbr)
        ent.companies.remove(abbr)

    def in_use(self, corp_name: str | None = None) -> set[int]:
        """Share price cards held by corporations other than ``corp_name``."""
        return {p for p, c in self.price_holder.items() if c != corp_name}

    def _set_price(self, corp: Corporation, price: int) -> None:
        if self.price_holder.get(corp.price) == corp.name:
            del self.price_holder[corp.price]
        corp.price = price
        if price not in self.price_holder and price != 0:
            self.price_holder[price] = corp.name

    def price_move(self, corp: Corporation, steps: int):
        return move(corp.price, steps, self.in_use(corp.name), self.cards.prices, self.cards.price_index)

    def _go_bankrupt(self, corp: Corporation, why: str) -> None:
        for abbr in list(corp.companies):
            self._remove_company(abbr)
        for p in self.players.values():
            p.shares.pop(corp.name, None)
        if self.price_holder.get(corp.price) == corp.name:
            del self.price_holder[corp.price]
        self._money(corp.name, "Bank", corp.cash, "bankruptcy")
        corp.cash = 0
        del self.corps[corp.name]
        if corp.name in self.queue:
            self.queue.remove(corp.name)
        if corp.name in self.receivers:
            self.receivers.remove(corp.name)
        self._log(
            f"{corp.name} goes bankrupt ({why}): its companies leave the game, its shares are void, "
            f"its {self.ruleset.word('charter')} is free again"
        )

    def _check_presidency(self, corp: Corporation, acting: str | None = None) -> None:
        """Change of presidency: the first player after the president (or the acting seller)
        in player order holding more shares than the president, repeated until settled."""
        current = acting or corp.president
        holdings = {p: self.players[p].shares.get(corp.name, 0) for p in self.order}
        if not any(holdings.values()):
            if corp.president is not None:
                self._log(f"{corp.name} goes into receivership: the bank holds all its shares")
            corp.president = None
            return
        if current is None:
            return
        best = max(holdings.values())
        if holdings[current] >= best:
            if corp.president != current:
                corp.president = current
            return
        i = self.order.index(current)
        n = len(self.order)
        for k in range(1, n):
            cand = self.order[(i + k) % n]
            if holdings[cand] == best:
                if corp.president != cand:
                    self._log(f"{cand} becomes president of {corp.name} ({words.count(best, 'share')})")
                corp.president = cand
                return

    def _queue_head(self, ev, kind):
        """The corporation whose turn it is in the ``kind`` phase (dividends, issue), named by ``ev``."""
        if self.phase_kind != kind:
            raise RuleError(f"It is phase {self.phase}, not {self.ruleset.phase_said(self.phase_no(kind))}.")
        name = ev.get("corporation")
        head = self.queue[0]
        if name != head:
            raise RuleError(
                f"It is {words.possessive(head)} turn, not {words.possessive(name)}."
                if name in self.corps
                else f"It is {words.possessive(head)} turn; {name!r} is not a corporation in play."
            )
        return self.corps[head]

    def _corp_arg(self, ev):
        name = ev.get("corporation")
        corp = self.corps.get(name)
        if corp is None:
            raise RuleError(f"{name!r} is not a corporation in play.")
        return corp
