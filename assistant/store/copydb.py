"""``python -m assistant copy-db --from SQLITE_FILE --to postgresql://...``: move a table's games to
PostgreSQL (or between any two stores), then check that every game exports identically.

Every game is copied with its whole log as stored (undo rows, tokens and times included), so undo,
idempotent retries and the meanwhile lists work on the new store exactly as on the old one.  A game
already in the target is left alone when it exports the same, and reported otherwise.  The source
is only read.  A saved state of the source whose signature does not hold, or that cannot be loaded
(``assistant/log/saved.py``), is treated as absent, with a warning: the game is replayed from its
log.  The target saves states of its own as it replays the games to check them, signed with the key
of the secret of the environment copy-db runs in (``$RSS_SECRET_KEY``, else the instance folder's
``secret_key``): run it with the target servers' secret.
"""

from __future__ import annotations

import argparse
import sys

from assistant.log import saved
from assistant.store import Store

GAME_COLUMNS = ("id", "players", "options", "deck", "created", "persons", "game", "position", "edition")


def copy(source: Store, target: Store, out=None) -> tuple[int, int, list[str]]:
    """(games copied, games already there, problems)."""
    out = out or sys.stdout
    copied, present, problems = 0, 0, []
    for warning in saved.untrusted(source.backend.saved_states_of(saved.version()), source.state_key):
        print(f"warning: {warning}", file=out)  # (the store does not load it: the log is replayed)
    for gid in source.backend.game_ids():
        if target.backend.game_row(gid) is not None:
            if target.export(gid) == source.export(gid):
                present += 1
            else:
                problems.append(f"game {gid} is already in the target, with another log")
            continue
        row = source.backend.game_row(gid)
        events = [
            {"game_id": gid, "seq": seq, "event": event, "token": token, "created": created}
            for seq, event, token, created in source.backend.rows(gid)
        ]
        target.backend.insert_game({k: row.get(k) for k in GAME_COLUMNS}, events)
        if target.export(gid) != source.export(gid):
            problems.append(f"game {gid} does not export the same after the copy")
        copied += 1
        print(f"copied {gid}: {len(events)} log rows", file=out)
    return copied, present, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assistant copy-db", description=__doc__)
    parser.add_argument("--from", dest="source", required=True, help="the store to copy from (an SQLite file)")
    parser.add_argument("--to", dest="target", required=True, help="the store to copy to (a postgresql:// URL)")
    args = parser.parse_args(argv)
    from assistant.store.statecheck import server_key

    key = server_key()  # the source's states are checked, and the target's signed, with the servers' key
    source, target = Store(args.source, key=key), Store(args.target, key=key)
    try:
        copied, present, problems = copy(source, target)
    finally:
        source.close()
        target.close()
    print(f"{copied} games copied, {present} already there and the same; every copied game exports identically"
          if not problems else "\n".join(problems))  # fmt: skip
    return 1 if problems else 0
