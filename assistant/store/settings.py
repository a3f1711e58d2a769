"""The server's settings in the environment (``RSS_*``), each read in one place, with what it accepts.

``serve`` checks every one once, at start (``check``): a value a setting does not accept stops the
start with one line naming the setting and what it accepts, before any worker starts (issue 38: a
bad ``RSS_GRACE_MS`` had the supervisor restart a crashing server for ever; a bad
``RSS_CREATE_LIMIT`` answered every import 500).  Elsewhere (tests, a plain ``create_app``),
``get`` answers the default for a value it does not accept.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Callable
from dataclasses import dataclass


class BadSetting(ValueError):
    pass


@dataclass(frozen=True)
class Setting:
    name: str
    default: object
    accepts: str  # what it accepts, in words
    parse: Callable[[str], object]


def _number(low: float, *, above: bool = False) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = float(text)
        if not math.isfinite(value) or value < low or (above and value == low):
            raise ValueError(text)  # pragma: no mutate: its words are never read (_parsed words its own)
        return value

    return parse


def _whole(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if value < low or (high is not None and value > high):
            raise ValueError(text)  # pragma: no mutate: its words are never read (_parsed words its own)
        return value

    return parse


def _choice(*words: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text.lower() not in words:
            raise ValueError(text)  # pragma: no mutate: its words are never read (_parsed words its own)
        return text.lower()

    return parse


def _rate(text: str) -> tuple[int, int]:
    count, slash, seconds = text.partition("/")
    out = int(count), int(seconds) if slash else 600
    if out[0] < 1 or out[1] < 1:
        raise ValueError(text)  # pragma: no mutate: its words are never read (_parsed words its own)
    return out


def _addresses(text: str) -> frozenset[str]:
    out = frozenset(a.strip() for a in text.split(",") if a.strip())
    for address in out:
        ipaddress.ip_address(address)  # ValueError: not an address
    return out


_SWITCH = ("on", "off", "1", "0", "yes", "no", "true", "false")

SETTINGS = {
    s.name: s
    for s in (
        Setting("RSS_PORT", 5000, "a port number from 1 to 65535", _whole(1, 65535)),
        Setting("RSS_WORKERS", 0, "a whole number of worker processes, at least 1", _whole(1)),
        Setting("RSS_THREADS", 4, "a whole number of threads, at least 1", _whole(1)),
        Setting("RSS_SERVER", "granian", "granian or waitress", _choice("granian", "waitress")),
        Setting("RSS_STREAMS", "on", "on or off", _choice(*_SWITCH)),
        Setting("RSS_GRACE_MS", 50.0, "a number of milliseconds, 0 or more (e.g. 50)", _number(0)),
        Setting("RSS_CREATE_LIMIT", (60, 600), "count/seconds, two whole numbers of at least 1 (e.g. 60/600)", _rate),
        Setting("RSS_DB_MAX_MB", 4096.0, "a number of megabytes above 0 (e.g. 4096)", _number(0, above=True)),
        Setting("RSS_GAME_MAX_MB", 8.0, "a number of megabytes above 0 (e.g. 8)", _number(0, above=True)),
        Setting("RSS_DISK_WARN_MB", 500.0, "a number of megabytes, 0 or more (e.g. 500)", _number(0)),
        Setting("RSS_BODY_SECONDS", 15.0, "a number of seconds above 0 (e.g. 15)", _number(0, above=True)),
        Setting("RSS_REQUEST_SECONDS", 10.0, "a number of seconds above 0 (e.g. 10)", _number(0, above=True)),
        Setting("RSS_TRIAL_MB", 512, "a whole number of megabytes, at least 64 (e.g. 512)", _whole(64)),
        Setting("RSS_PG_POOL", 8, "a whole number of connections, at least 1 (e.g. 8)", _whole(1)),
        Setting("RSS_CACHE_GAMES", 1024, "a whole number of games, at least 1 (e.g. 1024)", _whole(1)),
        Setting("RSS_SAVE_EVERY", 200, "a whole number of rows, 0 or more (0: never)", _whole(0)),
        Setting("RSS_CLIENT_QUEUE", 32, "a whole number of requests, at least 1 (e.g. 32)", _whole(1)),
        Setting("RSS_CLIENT_STREAMS", 1000, "a whole number of streams, at least 1 (e.g. 1000)", _whole(1)),
        Setting("RSS_CLIENT_CONNECTIONS", 2000, "a whole number of connections, at least 1 (e.g. 2000)", _whole(1)),
        Setting("RSS_HEAD_SECONDS", 30.0, "a number of seconds above 0 (e.g. 30)", _number(0, above=True)),
        Setting("RSS_ERROR_LOG_SECONDS", 60.0, "a number of seconds, 0 or more (e.g. 60)", _number(0)),
        Setting(
            "RSS_TRUSTED_PROXIES", frozenset(), "IP addresses separated by commas (e.g. 10.0.0.2,10.0.0.3)", _addresses
        ),
    )
}


def _parsed(name: str):
    """The setting's value (its default when unset or empty); BadSetting for one it does not accept."""
    setting = SETTINGS[name]
    text = os.environ.get(name, "").strip()
    if not text:
        return setting.default
    try:
        return setting.parse(text)
    except (ValueError, OverflowError):
        raise BadSetting(f"{name}={text!r} is not accepted: {name} takes {setting.accepts}.") from None


_UNSET = object()


def get(name: str, default=_UNSET):
    """The setting's value; the default (the setting's own, or ``default``) when it is unset, empty
    or not accepted (``serve`` never starts with a value it does not accept)."""
    default = SETTINGS[name].default if default is _UNSET else default
    if not os.environ.get(name, "").strip():
        return default
    try:
        return _parsed(name)
    except BadSetting:
        return default


def problems() -> list[str]:
    """One line for each setting whose value it does not accept."""
    out = []
    for name in SETTINGS:
        try:
            _parsed(name)
        except BadSetting as err:
            out.append(str(err))
    return out


def check() -> None:
    """At start: SystemExit with one line per setting that does not accept its value."""
    found = problems()
    if found:
        raise SystemExit("\n".join(found))
