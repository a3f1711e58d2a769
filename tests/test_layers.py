"""The folders of ``assistant/`` are layers (README, "Where the code is"): no module imports one of a
folder above its own, no two modules import each other in a cycle, every module is in a folder."""

from __future__ import annotations

import re

from tests import layers


def test_no_module_imports_one_of_a_folder_above_its_own():
    assert layers.upward_imports() == []


def test_no_import_cycles_between_modules():
    assert layers.cycles() == []


def test_every_module_is_in_a_layer():
    assert layers.unplaced() == []


def test_the_readme_lists_the_layers_in_their_order():
    text = (layers.ROOT / "README.md").read_text()
    section = text.split("## Where the code is", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)/` \|", section, flags=re.M)
    assert tuple(rows) == layers.LAYERS


def test_the_graph_sees_an_import_inside_a_function_and_a_relative_one():
    graph = layers.imports()
    # assistant/store/dbcheck.py imports the saved states' check inside a function
    assert "assistant.store.statecheck" in graph["assistant.store.dbcheck"]
    assert "assistant.store.statecheck" not in layers.imports(top_level_only=True)["assistant.store.dbcheck"]
    # the games' folders import the shared machinery relatively (from ..core.cards import load)
    assert "assistant.rules.core.cards" in graph["assistant.rules.stars.cards"]
