"""What happened meanwhile, in words: the journal texts of log rows a phone did not see (a stale
post is answered with them, the Log's full history and the history export list them).

The log is a walk on a tree of effective-event lists: an event goes down to a child, an undo back
up to the parent, a redo down again to the node it came from; and the text of an event depends
only on the node it is applied at.  ``texts`` lays out the tree without the engine, from the
lowest node the rows reach (``lowest``: the effective events below it are untouched meanwhile);
then one replay from there gives the texts of the events after it and the states of the nodes
where the walk branches off, and each new node is computed once from its parent's state: undoing
and entering the same event again costs nothing, however often it happens.  A state is copied only
for a node with several new children (the last one takes the parent's state itself).
"""

from __future__ import annotations

import json

from assistant.rules.core.events import REDO, UNDO


def entry_text(entry: dict) -> str:
    """A journal entry in words, with what the engine did by itself after it."""
    text = str(entry.get("text", ""))
    auto = [str(a) for a in entry.get("auto") or []]
    return text + (" (then: " + "; ".join(auto) + ")" if auto else "")


def lowest(count: int, rows: list[dict]) -> int:
    """The fewest effective events there are while ``rows`` (plain events, undos and redos) are
    read after a log with ``count`` of them."""
    depth, top, back = count, count, 0
    for event in rows:
        kind = event.get("type")
        if kind == UNDO:
            back += depth > 0
            depth = max(0, depth - 1)
        elif kind == REDO:
            depth, back = (depth + 1, back - 1) if back else (depth, back)
        else:
            depth, back = depth + 1, 0
        top = min(top, depth)
    return top


def texts(game, prefix: list[dict], rows: list[dict]) -> list[str]:
    """The texts of ``rows`` read after the effective events ``prefix`` played on ``game`` (the game
    at the lowest point the rows reach: ``lowest``); ``game`` is played on.  RuleError if the engine
    refuses an event."""
    # pass 1: the tree, and the walk on it as (node before, node after or None, new event or None)
    chain = [_Node(None)]
    for event in prefix:
        chain.append(chain[-1].child(_key(event), new=False))
    walk: list[tuple[_Node, _Node | None, dict | str | None]] = []
    node = chain[-1]
    back: list[_Node] = []  # the nodes undone since the last new entry: where a redo goes back down
    for event in rows:
        if event.get("type") == UNDO:
            walk.append((node, node.parent, None))
            if node.parent is not None:
                back.append(node)
            node = node.parent or node
            continue
        if event.get("type") == REDO:
            again = back.pop() if back else None
            walk.append((node, again, "redo"))
            node = again or node
            continue
        back.clear()
        key = _key(event)
        known = node.children.get(key)
        child = known or node.child(key, new=True)
        walk.append((node, child, None if known else event))
        node = child
    # pass 2: one replay of the prefix; the states where new events are applied
    for node, event in zip(chain, prefix, strict=False):
        if node.fresh_children:
            node.state = game.fork()
        game.apply(event)
        node.children[_key(event)].text = entry_text(game.journal[-1])
    chain[-1].state = game
    # pass 3: the walk, each new node computed once from its parent's state
    out: list[str] = []
    for before, after, event in walk:
        if after is None:  # an undo (or redo) with nothing left to take back changes nothing
            continue
        if event == "redo":
            out.append("Restored: " + after.text)
            continue
        if after is before.parent:
            out.append("Undone: " + before.text)
            continue
        if event is not None:
            before.fresh_children -= 1
            state = before.state if not before.fresh_children else before.state.fork()
            if not before.fresh_children:
                before.state = None  # its last new child takes it over
            state.apply(event)
            after.state = state if after.fresh_children else None
            after.text = entry_text(state.journal[-1])
        out.append(after.text)
    return out


def _key(event: dict) -> str:
    return json.dumps(event, sort_keys=True)


class _Node:
    """A list of effective events, as a node of the tree a log walks on."""

    __slots__ = ("parent", "children", "fresh_children", "state", "text")

    def __init__(self, parent: _Node | None):
        self.parent = parent
        self.children: dict[str, _Node] = {}
        self.fresh_children = 0  # children the rows create (not on the prefix)
        self.state = None  # the engine game at this node, while a new child still needs it
        self.text: str | None = None  # the journal text of the event leading here

    def child(self, key: str, new: bool) -> _Node:
        node = self.children[key] = _Node(self)
        self.fresh_children += new
        return node
