"""What ``--db`` / ``$RSS_DB`` names: an SQLite file (the default) or a PostgreSQL database.

``postgresql://user@host:port/dbname`` (or ``postgres://``) is PostgreSQL; anything else is the
path of an SQLite file.  A value that looks like a URL of another kind (``mysql://…``, ``sqlite://…``,
``http://…``) or like a misspelt PostgreSQL URL (``postgresql:/x``, ``postgresql:x``) is refused
with a clear message rather than taken as a file name: a folder called ``postgresql:`` full of
SQLite files would otherwise appear where the table expected its games.
"""

from __future__ import annotations

import importlib.util
import re

SCHEMES = ("postgresql", "postgres")
_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_SCHEME_ONLY = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]{2,}):")


class BadDatabase(ValueError):
    """``--db`` names neither an SQLite file nor a PostgreSQL database."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def is_postgres(target: str) -> bool:
    """True when ``target`` is a PostgreSQL URL (see ``check``)."""
    m = _URL.match(target)
    return bool(m) and m.group(1).lower() in SCHEMES


def check(target: str) -> str:
    """``target`` as given when it is usable; BadDatabase with the reason otherwise."""
    if not isinstance(target, str) or not target.strip():
        raise BadDatabase("--db needs an SQLite file path or a postgresql:// URL")
    m = _URL.match(target)
    if m:
        if m.group(1).lower() in SCHEMES:
            return _with_driver(target)
        raise BadDatabase(
            f"--db {target!r}: the {m.group(1)}:// kind of database is not supported; "
            "give an SQLite file path, or a postgresql://user@host:port/dbname URL"
        )
    m = _SCHEME_ONLY.match(target)
    if m and m.group(1).lower() in SCHEMES + ("sqlite", "mysql", "http", "https", "file"):
        raise BadDatabase(
            f"--db {target!r} looks like a URL but is not one; write postgresql://user@host:port/dbname "
            "for PostgreSQL, or a plain file path for SQLite"
        )
    return target


DRIVERS = ("psycopg", "psycopg_pool")  # what the package's ``postgresql`` extra installs


def _with_driver(target: str) -> str:
    """A PostgreSQL URL, once its driver is known to be installed (else BadDatabase saying how)."""
    for module in DRIVERS:
        if not _installed(module):
            raise BadDatabase(
                f"--db {redacted(target)}: PostgreSQL needs the package's postgresql extra ({module} is not "
                "installed): python -m pip install 'rolling-stock-stars-assistant[postgresql]' "
                "(from a checkout: python -m pip install '.[postgresql]')"
            )
    return target


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: a module in sys.modules without a spec
        return False


def redacted(target: str) -> str:
    """The URL without its password, for the log."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", target)
