"""Is this checkout installed as scripts/test.sh would install it?  Exit 0 when the package is
installed editable from this very folder, at its pyproject.toml's version, and every requirement
of it and of its ``test`` extra (with their own extras) is installed at a version they accept;
exit 1 with the reason otherwise.  scripts/test.sh then skips ``pip install -e '.[test]'``, which
takes ten seconds even when it changes nothing.

    python scripts/installed.py [CHECKOUT]     (default: the checkout this script is in)
"""

from __future__ import annotations

import json
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

EXTRA = "test"


def problem(root: Path) -> str | None:
    """Why this checkout is not installed as wanted (None: it is)."""
    try:
        from packaging.requirements import Requirement
    except ImportError:
        return "the packaging library is not installed"
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    try:
        dist = metadata.distribution(project["name"])
    except metadata.PackageNotFoundError:
        return f"{project['name']} is not installed"
    origin = json.loads(dist.read_text("direct_url.json") or "{}")
    where = urlparse(origin.get("url", ""))
    if not origin.get("dir_info", {}).get("editable") or where.scheme != "file":
        return f"{project['name']} is not installed editable"
    if Path(unquote(where.path)).resolve() != root:
        return f"{project['name']} is installed from {unquote(where.path)}, not from {root}"
    if dist.version != project["version"]:
        return f"{project['name']} {dist.version} is installed, the checkout is {project['version']}"
    wanted = [Requirement(r) for r in [*project["dependencies"], *project["optional-dependencies"][EXTRA]]]
    seen: set[tuple[str, str]] = set()
    while wanted:
        req = wanted.pop()
        try:
            version = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            return f"{req.name} is not installed"
        if not req.specifier.contains(version, prereleases=True):
            return f"{req.name} {version} is installed, {req} is wanted"
        for extra in req.extras:  # e.g. psycopg[binary]: what its extra brings, too
            if (req.name, extra) in seen:
                continue
            seen.add((req.name, extra))
            for text in metadata.requires(req.name) or ():
                sub = Requirement(text)
                if sub.marker is not None and sub.marker.evaluate({"extra": extra}):
                    wanted.append(sub)
    return None


if __name__ == "__main__":
    why = problem(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parents[1]).resolve())
    if why:
        print(f"installing: {why}", file=sys.stderr)
    sys.exit(1 if why else 0)
