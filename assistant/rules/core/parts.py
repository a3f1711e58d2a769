"""What ``Game`` is made of: the classes of the per-phase files (``phases/``) and of the shared parts
(deck, figures, procedures, snapshot), gathered into the game class itself (``made_of``), and the
methods its flow calls at every step, found once per game class (``function``)."""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType

# What every class has of its own: never taken from a part.
_BOOKKEEPING = frozenset(
    {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__annotations__", "__firstlineno__",
     "__static_attributes__"}
)  # fmt: skip


def made_of(*parts: type):
    """A class decorator: the class gets the members of ``parts`` as if they were its bases in this
    order (its own members first, then the first part's, the second's, ...), copied into its own
    namespace; the parts are not its bases.

    Why not bases: an attribute that CPython's type cache (4,096 slots shared by every class of the
    process) does not hold at the moment is looked for in every class of the method resolution order
    in turn, and a game's methods are called on an instance whose attributes are in a dict (more than
    30 of them), the case where every such call asks that cache.  With the eighteen parts as bases the
    order is 21 classes long and a replay of transcript 83092 took 2 % more machine instructions
    (``benchmarks/side_by_side.py --what instructions``); a game class is now three (its ruleset's,
    ``Game``, ``object``)."""

    def gather(cls: type) -> type:
        own = set(vars(cls))
        for part in reversed(parts):  # the last first: an earlier part's member replaces a later one's
            for name, member in vars(part).items():
                if name not in own and name not in _BOOKKEEPING:
                    setattr(cls, name, member)
        return cls

    return gather


def function(cls: type, name: str | None, optional: bool = False) -> Callable | None:
    """What ``getattr(game, name)()`` calls on a game of class ``cls``, as a function of the game:
    ``function(cls, name)(game, ...)``, found once for the flow's tables (``Game.__init_subclass__``)
    rather than looked up by name at every step (a look-up on a game is not cached by CPython 3.11:
    its attributes are in a dict).  None for no name, or for a name ``cls`` lacks when ``optional``;
    a member that is not a plain function where the class defines it (a static method, ...) or is
    missing is looked up on the game when called, as before."""
    if name is None or (optional and not hasattr(cls, name)):
        return None
    member = next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)  # as defined, not bound
    if type(member) is FunctionType:
        return member
    return lambda game, *args: getattr(game, name)(*args)
