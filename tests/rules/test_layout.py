"""The shape of the rules engine: shared machinery in ``core/``, each game an equal folder, a registry
that nothing in the engine imports, no import cycle (imports inside functions counted), and the card
figures in data files rather than in code."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import assistant
from assistant.rules import registry

ROOT = Path(assistant.__file__).parent
RULES = ROOT / "rules"
GAME_FOLDERS = ("stars", "classic")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at module level or inside functions, as absolute names."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            for alias in node.names:  # "from . import cards" imports a module too
                found.add(f"{target}.{alias.name}")
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in RULES.rglob("*.py")}
    return {name: {m for m in _imports(path) if m in modules} - {name} for name, path in modules.items()}


def test_the_rules_engine_has_no_import_cycle_counting_imports_inside_functions():
    graph = _graph()
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt) :] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_nothing_in_the_engine_imports_the_registry():
    importers = [m for m, deps in _graph().items() if "assistant.rules.registry" in deps]
    assert importers == []


def test_the_shared_machinery_imports_no_game_and_the_games_not_each_other():
    for module, deps in _graph().items():
        if module.startswith("assistant.rules.core"):
            assert not {d for d in deps if not d.startswith("assistant.rules.core")}, module
        for game in GAME_FOLDERS:
            if module.startswith(f"assistant.rules.{game}"):
                others = [f"assistant.rules.{g}" for g in GAME_FOLDERS if g != game]
                assert not [d for d in deps if d.startswith(tuple(others))], module


def test_each_game_folder_holds_its_card_data_rules_text_hooks_and_ruleset():
    for game in GAME_FOLDERS:
        names = {p.name for p in (RULES / game).iterdir()}
        assert {"cards.json", "game.py", "ruleset.py", "rulebook.py", "pricing.py"} <= names, game


def test_every_company_of_both_games_is_in_a_data_file_and_in_no_python_file():
    data = {game: json.loads((RULES / game / "cards.json").read_text(encoding="utf-8")) for game in GAME_FOLDERS}
    sources = "\n".join(p.read_text(encoding="utf-8") for p in ROOT.rglob("*.py"))
    for game, cards in data.items():
        ruleset = next(r for r in registry.RULESETS.values() if r.cards.game == cards["game"])
        assert [c["abbr"] for c in cards["companies"]] == list(ruleset.cards.companies), game
        for company in cards["companies"]:
            assert company["name"] not in sources, f"{company['name']} is written in code ({game})"
