"""What happened meanwhile, in words: the journal texts of log rows a phone did not see (a stale
post is answered with them, the Log's full history and the history export list them).

The log is a walk on a tree of effective-event lists: an event goes down to a child, an undo back
up to the parent, a redo down again to the node it came from; and the text of an event depends
only on the node it is applied at.  ``texts`` lays out the tree without the engine, from the
lowest node the rows reach (``walk.reach``: the effective events below it are untouched meanwhile);
then one replay from there gives the texts of the events after it and the states of the nodes
where the walk branches off, and each new node is computed once from its parent's state: undoing
and entering the same event again costs nothing, however often it happens.  A state is copied only
for a node with several new children (the last one takes the parent's state itself).

A correction or a going back jumps to another node: up to the entry it replaces, then down its new
events; an undo goes back to the node where the latest entry in effect started, whatever it was.
Those are walked from the game's start (the store's walk knows a log that holds one).
"""

from __future__ import annotations

import json

from assistant.log.walk import JUMPED, RESTORED, TAKEN_BACK, Walk, corrects, goes_back, kept_count
from assistant.rules.core.events import label


def entry_text(entry: dict) -> str:
    """A journal entry in words, with what the engine did by itself after it."""
    text = str(entry.get("text", ""))
    auto = [str(a) for a in entry.get("auto") or []]
    return text + (" (then: " + "; ".join(auto) + ")" if auto else "")


def event_words(event: dict) -> str:
    """An event the engine has no words for here (it does not fit), named by its label and fields."""
    fields = [str(v) for k, v in event.items() if k != "type"]
    return str(label(event.get("type", "?"))) + (": " + ", ".join(fields) if fields else "")


def jump_label(row: dict) -> str:
    """A correction or a going back, named as what an undo takes back or a redo brings back."""
    if goes_back(row):
        return f"going back to row {row.get('to')}"
    if corrects(row):
        return f"the correction of entry {int(row.get('index', 0)) + 1}"
    return str(label(row.get("type", "?")))


def texts(game, prefix: list[dict], rows: list[dict]) -> list[str]:
    """The texts of ``rows`` read after the effective events ``prefix`` played on ``game`` (the game
    at the lowest point the rows reach: ``walk.reach``, or the game's start with no prefix when a row
    before them corrects or goes back); ``game`` is played on.  An undo or a redo that changes
    nothing has no text.  RuleError if the engine refuses an event."""
    # pass 1: the tree, and the walk on it as (node before, node after or None, what: a new event,
    # "redo", "undo", "jump" or None, the words' subject: a node or a _Jump)
    chain = [_Node(None, 0)]
    for event in prefix:
        chain.append(chain[-1].child(_key(event), new=False))  # pragma: no mutate: more copies, none read
    walk: list[tuple] = []
    node = chain[-1]
    # the entries in effect: (from, to, subject)
    taken = [(a, b, b) for a, b in zip(chain, chain[1:], strict=False)]  # pragma: no mutate: strict=None is False
    back: list[tuple] = []  # the entries undone since the last new entry: what a redo brings back
    log = Walk.of_events(prefix)  # what each row does
    for event in rows:
        move = log.step(event)
        if move is None:  # an undo or a redo with nothing to do
            walk.append((node, None, None, None))
            continue
        if move == TAKEN_BACK:
            entry = taken.pop()
            back.append(entry)
            walk.append((node, entry[0], "undo", entry[2]))  # pragma: no mutate: its node after is only told from None
            node = entry[0]
            continue
        if move == RESTORED:
            entry = back.pop()
            taken.append(entry)
            walk.append((node, entry[1], "redo", entry[2]))  # pragma: no mutate: its node after is only told from None
            node = entry[1]
            continue
        back.clear()
        if move == JUMPED:
            target = node
            while target.depth > event["index"]:
                target = target.parent
            for new in log.out[event["index"] :]:
                key = _key(new)
                known = target.children.get(key)
                child = known or target.child(key, new=True)
                if not known:
                    walk.append((target, child, new, None))  # computed, no words of its own
                target = child
            jump = _Jump(event, target)
            walk.append((node, target, "jump", jump))
            taken.append((node, target, jump))
            node = target
            continue
        key = _key(event)
        known = node.children.get(key)
        child = known or node.child(key, new=True)
        walk.append((node, child, None if known else event, child))
        taken.append((node, child, child))
        node = child
    # pass 2: one replay of the prefix; the states where new events are applied
    for node, event in zip(chain, prefix, strict=False):  # pragma: no mutate: strict=None is False
        if node.fresh_children:
            node.state = game.fork()
        game.apply(event)
        node.children[_key(event)].text = entry_text(game.journal[-1])
    chain[-1].state = game
    # pass 3: the walk, each new node computed once from its parent's state
    out: list[str | None] = []
    for before, after, what, subject in walk:
        if after is None:  # an undo (or redo) with nothing left to take back changes nothing
            out.append(None)
            continue
        if isinstance(what, dict):  # a new node: its state from its parent's
            before.fresh_children -= 1
            state = before.state if not before.fresh_children else before.state.fork()
            if not before.fresh_children:
                before.state = None  # pragma: no mutate: never read again: its last new child took it over
            state.apply(what)
            after.state = state if after.fresh_children else None  # pragma: no mutate: read only by a new child
            after.text = entry_text(state.journal[-1])
            if subject is None:
                continue
        if what == "redo":
            out.append("Restored: " + subject.text)
        elif what == "undo":
            out.append("Undone: " + subject.text)
        elif what == "jump":
            out.append(subject.words())
        else:
            out.append(after.text)
    return out


class _Jump:
    """A correction or a going back, as the words name it once the nodes it reaches have their texts."""

    __slots__ = ("row", "target")

    def __init__(self, row: dict, target: _Node):
        self.row, self.target = row, target

    @property
    def text(self) -> str:
        return jump_label(self.row)

    def words(self) -> str:
        row = self.row
        if goes_back(row):
            return f"Went back to the game as it was after row {row.get('to')}"
        node = self.target
        while node.depth > row["index"] + 1:
            node = node.parent
        kept, aside = kept_count(row), len(row.get("set_aside") or [])
        tail = f" ({kept} later {_entries(kept)} kept" + (f", {aside} set aside)" if aside else ")")
        return f"Corrected entry {row['index'] + 1}: {node.text}{tail}"


def _entries(n: int) -> str:
    return "entry" if n == 1 else "entries"


def _key(event: dict) -> str:
    return json.dumps(event, sort_keys=True)


class _Node:
    """A list of effective events, as a node of the tree a log walks on."""

    __slots__ = ("parent", "depth", "children", "fresh_children", "state", "text")

    def __init__(self, parent: _Node | None, depth: int):
        self.parent, self.depth = parent, depth
        self.children: dict[str, _Node] = {}
        self.fresh_children = 0  # children the rows create (not on the prefix)
        # the engine game at this node, while a new child still needs it (set before it is read)
        self.state = None  # pragma: no mutate: set before it is read
        # the journal text of the event leading here (set before it is read: the root is nobody's subject)
        self.text: str | None = None  # pragma: no mutate: set before it is read

    def child(self, key: str, new: bool) -> _Node:
        node = self.children[key] = _Node(self, self.depth + 1)
        self.fresh_children += new
        return node
