"""Where the app's templates and static files are.

The repository keeps them at its top level (``templates/``, ``static/``), as the design card
says; a wheel carries them inside the package (``assistant/templates``, ``assistant/static``,
see ``pyproject.toml``).  One lookup serves a checkout, an editable install and a wheel.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # .../assistant


def resource_dir(name: str) -> str:
    """The folder ``name`` (``templates`` or ``static``): inside the installed package, else the checkout's top level."""
    for candidate in (PACKAGE / name, PACKAGE.parent / name):
        if candidate.is_dir():
            return str(candidate)
    raise RuntimeError(f"The app's {name}/ folder is missing (looked in {PACKAGE} and {PACKAGE.parent}).")


TEMPLATES = resource_dir("templates")
STATIC = resource_dir("static")
