"""Rendered components that are the same for every phone, kept per (game, seq, component).

Six phones at a table re-fetch the same components after every change; the parts that do not
depend on the phone's seat or session are rendered once.  A new seq is a new key, so nothing
stale is ever served.  One instance per app (in ``app.extensions``), never module-global.

Once per burst: a change's message reaches the six phones of a table in the same few milliseconds,
and their six fetches arrive together.  The first renders; the others wait for its result rather
than render the same thing five more times at once (on two cores, six renders side by side make
every phone wait for all six).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

SIZE = 512


class RenderedCache:
    WAIT_SECONDS = 10.0  # a render taking longer than this (it should not) is done again by the waiter

    def __init__(self, size: int = SIZE):
        self.size = size
        self._items: OrderedDict[tuple, str] = OrderedDict()
        self._lock = threading.Lock()
        self._rendering: dict[tuple, threading.Event] = {}  # key -> set when its first render is done
        self.renders = 0  # how many renders this cache asked for (the rest were served or waited for)

    def get_or_render(self, key: tuple, render: Callable[[], str]) -> str:
        with self._lock:
            html = self._items.get(key)
            if html is not None:
                self._items.move_to_end(key)
                return html
            busy = self._rendering.get(key)
            if busy is None:
                busy = self._rendering[key] = threading.Event()
                first = True
            else:
                first = False
        if not first:  # another request renders it right now: its result, once it has it
            busy.wait(self.WAIT_SECONDS)
            with self._lock:
                html = self._items.get(key)
            if html is not None:
                return html
            return render()  # its render failed (or took too long): this one renders for itself
        try:
            html = render()
            self.renders += 1
            with self._lock:
                self._items[key] = html
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
            return html
        finally:
            with self._lock:
                self._rendering.pop(key, None)
            busy.set()

    def peek(self, key: tuple):
        """What is kept for ``key`` (None: nothing yet)."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def __len__(self) -> int:
        return len(self._items)
