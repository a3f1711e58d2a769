"""The entities that own things: players, the foreign investor and corporations."""

from __future__ import annotations


class Player:
    __slots__ = ("name", "cash", "companies", "shares")
    kind = "player"

    @property
    def label(self) -> str:
        return self.name

    def __init__(self, name: str, cash: int):
        self.name = name
        self.cash = cash
        self.companies: list[str] = []
        self.shares: dict[str, int] = {}

    def __repr__(self):
        return f"Player({self.name!r}, cash={self.cash})"


class ForeignInvestor:
    __slots__ = ("cash", "companies")
    kind = "foreign_investor"
    name = "the foreign investor"  # in sentences
    label = "Foreign investor"  # in the ledger of money movements

    def __init__(self, cash: int):
        self.cash = cash
        self.companies: list[str] = []


class Corporation:
    """A corporation in play (formed and not bankrupt)."""

    __slots__ = ("name", "cash", "companies", "price", "total_shares", "issued", "bank_shares", "president")
    kind = "corporation"

    @property
    def label(self) -> str:
        return self.name

    def __init__(self, name: str, price: int, shares: int):
        self.name = name
        self.cash = 0
        self.companies: list[str] = []
        self.price = price
        self.total_shares = shares
        self.issued = 0
        self.bank_shares = 0
        self.president: str | None = None

    @property
    def unissued(self) -> int:
        return self.total_shares - self.issued

    @property
    def receivership(self) -> bool:
        return self.president is None

    def __repr__(self):
        return f"Corporation({self.name!r}, price={self.price}, cash={self.cash})"
