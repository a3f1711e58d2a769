"""Rendered components that are the same for every phone, kept per (game, seq, component).

Six phones at a table re-fetch the same components after every change; the parts that do not
depend on the phone's seat or session are rendered once.  A new seq is a new key, so nothing
stale is ever served.  One instance per app (in ``app.extensions``), never module-global.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

SIZE = 512


class RenderedCache:
    def __init__(self, size: int = SIZE):
        self.size = size
        self._items: OrderedDict[tuple, str] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_render(self, key: tuple, render: Callable[[], str]) -> str:
        with self._lock:
            html = self._items.get(key)
            if html is not None:
                self._items.move_to_end(key)
                return html
        html = render()
        with self._lock:
            self._items[key] = html
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return html

    def peek(self, key: tuple):
        """What is kept for ``key`` (None: nothing yet)."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def __len__(self) -> int:
        return len(self._items)
