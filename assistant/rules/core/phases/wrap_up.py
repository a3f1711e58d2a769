"""The wrap-up (Stars: phase 2): the new player order, then the foreign investor's purchases
(``player_order.py``, ``foreign_investor.py``: classic plays them as two phases); at its end the
companies drawn this turn join the offering."""

from __future__ import annotations


class WrapUpMixin:
    def _start_wrap_up(self):
        self._new_player_order()
        self._foreign_investor_buys()

    def _finish_wrap_up(self):
        self._offering_available()
