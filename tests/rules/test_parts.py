"""core/parts.py: a game class made of its parts resolves every member as bases in that order
would, without the parts in its method resolution order; the flow's methods are found once per
class and called as functions of the game."""

from __future__ import annotations

import inspect

import pytest

from assistant.rules.core import parts
from assistant.rules.core.game import Game
from assistant.rules.stars.game import StarsGame


class First:
    """The first part."""

    LIMIT: int = 1

    def shared(self):
        return "first"

    def only_first(self):
        return "only first"


class Second:
    LIMIT = 2

    def shared(self):
        return "second"

    def only_second(self):
        return "only second"

    @property
    def figure(self):
        return 7


def made_class():
    """A class made of the two parts, made when a test runs (not at import)."""

    @parts.made_of(First, Second)
    class Made:
        LIMIT = 0

        def own(self):
            return "own"

    return Made


class AsBases(First, Second):  # the same parts as bases, to compare with
    LIMIT = 0

    def own(self):
        return "own"


def test_a_made_class_resolves_each_member_as_its_parts_as_bases_would_and_has_no_part_as_base():
    Made = made_class()
    for name in ("LIMIT", "shared", "only_first", "only_second", "figure"):
        assert inspect.getattr_static(Made, name) is inspect.getattr_static(AsBases, name), name
    made = Made()
    assert (made.LIMIT, made.shared(), made.only_first(), made.only_second(), made.figure, made.own()) == (
        0,
        "first",
        "only first",
        "only second",
        7,
        "own",
    )
    assert Made.__mro__ == (Made, object)


def test_a_made_class_keeps_its_own_name_module_docstring_and_annotations():
    Made = made_class()
    assert (Made.__name__, Made.__qualname__, Made.__module__, Made.__doc__) == (
        "Made",
        "made_class.<locals>.Made",
        __name__,
        None,
    )
    assert "__annotations__" not in vars(Made)  # none of its own: not the first part's


def test_every_game_class_has_its_own_class_game_and_object_as_its_whole_resolution_order():
    assert Game.__mro__ == (Game, object)
    assert StarsGame.__mro__ == (StarsGame, Game, object)


def test_no_part_of_a_game_calls_super_or_names_its_own_class():
    """A part's method gathered into Game keeps its own class in ``__class__`` (what a bare
    ``super()`` uses): there it would raise, since the part is not a base of the game.  So no
    method of Game's parts names it (each game's own class may: Game is its base)."""
    import types

    def functions(member):
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property):
            return [f for f in (member.fget, member.fset, member.fdel) if f is not None]
        return [member] if isinstance(member, types.FunctionType) else []

    gathered = [
        (name, f)
        for name, member in vars(Game).items()
        for f in functions(member)
        if f.__qualname__.split(".")[0] != "Game"
    ]
    assert len(gathered) > 100  # the parts' methods are there
    assert [name for name, f in gathered if "__class__" in f.__code__.co_freevars] == []


class Flow:
    def _start_a(self):
        return ("started", self.n)

    @staticmethod
    def _start_static():
        return "static"

    def __init__(self):
        self.n = 3


def test_the_flow_calls_a_plain_method_found_once_as_a_function_of_the_game():
    found = parts.function(Flow, "_start_a")
    assert found is Flow._start_a
    assert found(Flow()) == ("started", 3)


def test_no_name_or_a_missing_optional_name_is_no_function():
    assert parts.function(Flow, None) is None
    assert parts.function(Flow, "_finish_a", optional=True) is None
    assert parts.function(Flow, "_start_a", optional=True) is Flow._start_a


def test_a_member_that_is_no_plain_function_or_is_missing_is_looked_up_on_the_game_when_called():
    assert parts.function(Flow, "_start_static")(Flow()) == "static"
    missing = parts.function(Flow, "_start_b")
    with pytest.raises(AttributeError, match="_start_b"):
        missing(Flow())
