"""The import graph of ``assistant/``: which module imports which (read from the source with ``ast``,
nothing imported), and the layers the README's "Where the code is" table gives the folders.

Run it to print the graph's upward imports and its cycles: ``python -m tests.layers``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "assistant"

# Lowest first: a module may import its own folder's modules and those of folders before it.
LAYERS = ("rules", "log", "store", "web", "serve", "cli")
# the command line (assistant/__main__.py) sits on top of every folder
TOP = "__main__"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = current.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(top_level_only: bool = False) -> dict[str, set[str]]:
    """module -> the modules of ``assistant`` it imports (``top_level_only``: those imported when it is
    imported, not inside functions: the ones that can make an import cycle)."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(), str(path))
        nodes = tree.body if top_level_only else list(ast.walk(tree))
        if top_level_only:  # also under `if TYPE_CHECKING:` / try: at the top level? those are not run: skip
            nodes = [n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))]
        out: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mod = _resolve(name, path.name == "__init__.py", node)
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target.startswith("assistant") and target != name:
                    out.add(target)
        graph[name] = out
    return graph


def folder(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def rank(module: str) -> int | None:
    f = folder(module)
    if f == TOP:
        return len(LAYERS)
    return LAYERS.index(f) if f in LAYERS else None


def upward_imports() -> list[tuple[str, str]]:
    """(importer, imported) where the imported module's folder is above the importer's."""
    out = []
    for importer, targets in imports().items():
        r = rank(importer)
        for target in sorted(targets):
            t = rank(target)
            if r is not None and t is not None and t > r:
                out.append((importer, target))
    return out


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module in the import graph, imports
    inside functions included (an import put off until a call still ties the two modules)."""
    graph = imports()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def unplaced() -> list[str]:
    """Modules of ``assistant`` in no folder of the layers (besides the package itself and the command line)."""
    return [m for m in modules() if m not in ("assistant", f"assistant.{TOP}") and folder(m) not in LAYERS]


if __name__ == "__main__":
    graph = imports()
    print(f"{len(graph)} modules, {sum(len(v) for v in graph.values())} imports between them")
    print("upward imports:", upward_imports() or "none")
    print("import cycles (imports inside functions included):", cycles() or "none")
    print("modules in no layer:", unplaced() or "none")
