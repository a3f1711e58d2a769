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
    # assistant/cli/checkdb.py imports the saved states' check inside a function
    assert "assistant.store.statecheck" in graph["assistant.cli.checkdb"]
    assert "assistant.store.statecheck" not in layers.imports(top_level_only=True)["assistant.cli.checkdb"]
    # the games' folders import the shared machinery relatively (from ..core.cards import load)
    assert "assistant.rules.core.cards" in graph["assistant.rules.stars.cards"]


def test_a_cycle_through_an_import_inside_a_function_is_a_cycle(tmp_path, monkeypatch):
    """A throw-away package: a imports b at its top, b imports a inside a function (as the store's
    dbcheck, dburl and backends did): one cycle."""
    pkg = tmp_path / "assistant"
    (pkg / "log").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "log" / "__init__.py").write_text("")
    (pkg / "log" / "a.py").write_text("from assistant.log import b\n")
    (pkg / "log" / "b.py").write_text("def f():\n    from assistant.log import a\n")
    monkeypatch.setattr(layers, "ROOT", tmp_path)
    monkeypatch.setattr(layers, "PACKAGE", pkg)
    assert layers.cycles() == [["assistant.log.a", "assistant.log.b"]]
