"""The store package's names are loaded on first use (assistant/store/__init__.py, PEP 562), each
from the module it lives in, and kept once loaded."""

from __future__ import annotations

import pytest

import assistant.store as store
from assistant.store import errors
from assistant.store import store as facade


def test_each_name_comes_from_its_module_on_first_use_and_is_kept():
    for name, module in (("Stale", errors), ("ImportRefused", errors), ("Store", facade), ("new_game_id", facade)):
        vars(store).pop(name, None)  # as before its first use
        assert getattr(store, name) is getattr(module, name)
        assert vars(store)[name] is getattr(module, name)  # kept: the next use does not ask again
    assert "Store" in store.__all__ and store.__all__ == sorted(store.__all__)


def test_a_name_the_package_does_not_offer():
    with pytest.raises(AttributeError) as err:
        store.Nope  # noqa: B018
    assert str(err.value) == "module 'assistant.store' has no attribute 'Nope'"
