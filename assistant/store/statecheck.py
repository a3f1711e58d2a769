"""``check-db``'s look at the saved states (issue 38 §4; only there, not in ``serve``'s start check):

* every saved state of this version whose signature does not hold for the servers' key, or that
  cannot be loaded, is said (a warning: the store never uses it, it replays the log instead);
* each game's latest saved state is compared with a replay of its log up to its row, and where they
  differ is said, one line a difference ("players.Amy.cash: 10 in the replay, 60 in the state").
  A state that differs and whose signature holds would be used: that is a fault, and check-db
  fails; one whose signature does not hold is only a warning (it is not used).

The servers' key (``server_key``) comes from the secret they share: ``$RSS_SECRET_KEY``, else the
``secret_key`` file of the instance folder (``$RSS_INSTANCE``, else the app's default one).
"""

from __future__ import annotations

import os
import secrets

from assistant.log import saved
from assistant.log.saved import Untrusted
from assistant.log.timeline import replay

MAX_LINES = 10  # differences said per state


def server_key() -> bytes | None:
    """The key the servers sign saved states with, or None when no secret is found."""
    secret = os.environ.get("RSS_SECRET_KEY")
    if not secret:
        from flask import Flask

        from assistant.store.dbcheck import SECRET_KEY_FILE as KEY_FILE  # (the web app's secret key file)

        instance = os.environ.get("RSS_INSTANCE") or Flask("assistant.web").instance_path
        try:
            with open(os.path.join(instance, KEY_FILE), encoding="ascii") as fh:
                secret = fh.read().strip()
        except OSError:
            secret = ""  # pragma: no mutate: read as a truth value only (None is as false)
    return saved.key_from_secret(secret) if secret else None


def differences(replayed, state, path: str = "") -> list[str]:
    """Where two snapshots differ, one line each: the path, the replay's value, the state's."""
    if isinstance(replayed, dict) and isinstance(state, dict):
        out = []
        for key in dict.fromkeys([*replayed, *state]):
            out += differences(replayed.get(key), state.get(key), f"{path}.{key}" if path else str(key))
        return out
    if isinstance(replayed, list) and isinstance(state, list) and len(replayed) == len(state):
        out = []
        for n, (a, b) in enumerate(zip(replayed, state, strict=True)):  # pragma: no mutate: same lengths
            out += differences(a, b, f"{path}[{n}]")
        return out
    return [] if replayed == state else [f"{path or 'the game'}: {replayed!r} in the replay, {state!r} in the state"]


def check(target: str) -> tuple[list[str], list[str]]:
    """(warnings, differences) of the saved states of the store ``target`` (nothing is written)."""
    from assistant.store import Store

    key = server_key()
    # (without the servers' secret, no state is trusted: a key nobody has)
    store = Store(
        target,
        save_every=10**9,  # pragma: no mutate: it saves no state at any rate (the replays keep none)
        key=key or secrets.token_bytes(32),  # pragma: no mutate: any key nobody has trusts nothing alike
        migrate=False,  # pragma: no mutate: read as a truth value only (nothing is written, not even the schema)
    )
    warnings: list[str] = (
        [] if key else ["no secret key found ($RSS_SECRET_KEY, the instance folder): no state can be trusted"]
    )
    differ: list[str] = []
    try:
        if "saved_states" not in _tables(store):
            return warnings, differ
        latest: dict[str, tuple[int, bytes, bool]] = {}
        for gid, seq, data in store.backend.saved_states_of(saved.version()):  # by game, then row
            signed = True
            try:
                saved.opened(store.state_key, gid, seq, data)
            except Untrusted as err:
                signed = False  # pragma: no mutate: read as a truth value only (None is as false)
                warnings.append(
                    f"game {gid}: the state saved at row {seq} is not used ({err}): it is treated as absent"
                )
            latest[gid] = (seq, data, signed)
        for gid, (seq, data, signed) in latest.items():
            lines = _compare(store, gid, seq, data)
            if lines and signed:
                differ += [f"game {gid}, the state saved at row {seq}: {line}" for line in lines]
            elif lines:
                warnings.append(
                    f"game {gid}: the state saved at row {seq} differs from a replay of its log: " + "; ".join(lines)
                )
    finally:
        store.close()
    return warnings, differ


def _tables(store) -> set[str]:
    if store.kind == "sqlite":
        tables = "SELECT name FROM sqlite_master WHERE type = 'table'"  # pragma: no mutate: SQL reads any case
        return {r[0] for r in store.backend._db().conn.execute(tables)}
    with store.backend.pool.connection() as conn:
        tables = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"  # pragma: no mutate: any case
        return {r[0] for r in conn.execute(tables)}


def _compare(store, gid: str, seq: int, data: bytes) -> list[str]:
    """Where the state saved at row ``seq`` differs from the replay of the log's first ``seq`` rows."""
    try:
        state = saved.loads(seq, saved.unsigned(data))  # pragma: no mutate: the state's own row is not read here
    except Exception as err:  # noqa: BLE001 - whatever it is, it cannot be compared (nor used)
        return [f"it cannot be loaded ({err})"]
    info = store.get_game(gid)
    rows = store.rows(gid, 0, seq)
    try:
        # pragma below: ``written`` only has the replay pickle states besides, which [0] leaves out
        reference = replay(store, info, [r.event for r in rows], written=0)[0]  # pragma: no mutate
    except Exception as err:  # noqa: BLE001 - the log itself no longer replays: said, not compared
        return [f"its log no longer replays ({err})"]
    walk, whole = state.walk, reference.walk
    lines = differences(reference.game.snapshot(), state.game.snapshot())
    if walk.count != whole.count or walk.out != whole.out[walk.base :]:
        lines.append(f"the entries in effect: {whole.count} in the replay, {walk.count} in the state")
    return lines[:MAX_LINES] + ([f"... and {len(lines) - MAX_LINES} more"] if len(lines) > MAX_LINES else [])
