"""Command line: ``python -m assistant serve|check-db|copy-db|replay|score``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assistant", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the table app (production WSGI server)")
    serve.add_argument("--host", default=None, help="address to listen on (default 0.0.0.0, or $RSS_HOST)")
    serve.add_argument("--port", type=int, default=None, help="port (default 5000, or $RSS_PORT)")
    serve.add_argument(
        "--db",
        default=None,
        help="SQLite file or postgresql:// URL (default: rss.sqlite3 in the data folder, or $RSS_DB)",
    )
    serve.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: CPUs, at most 4, or $RSS_WORKERS)"
    )
    serve.add_argument("--threads", type=int, default=None, help="threads per worker (default 4, or $RSS_THREADS)")
    serve.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # the supervised server itself
    serve.add_argument("--supervise", action="store_true", help=argparse.SUPPRESS)  # serve, once set up

    check = sub.add_parser("check-db", help="check the database file's integrity (exit code 0: whole)")
    check.add_argument("--db", default=None, help="SQLite file or postgresql:// URL (default: the one serve uses)")

    replay = sub.add_parser("replay", help="replay a table transcript, printing checkpoints as JSON lines")
    replay.add_argument("file")

    copy = sub.add_parser("copy-db", help="copy every game to another store (e.g. PostgreSQL) and check the exports")
    copy.add_argument("--from", dest="source", required=True)
    copy.add_argument("--to", dest="target", required=True)

    score = sub.add_parser("score", help="the final scores of a game played on paper (a score-check file)")
    score.add_argument("file")

    args = parser.parse_args(argv)
    from assistant.store import dburl

    try:
        return _run(args)
    except dburl.BadDatabase as err:  # e.g. a postgresql:// URL without the postgresql extra installed
        print(err.message, file=sys.stderr)
        return 2


def _run(args) -> int:
    if args.command == "replay":
        from assistant.cli.replay import main as replay_main

        return replay_main(args.file)
    if args.command == "copy-db":
        from assistant.store.copydb import main as copy_main

        return copy_main(["--from", args.source, "--to", args.target])
    if args.command == "score":
        from assistant.cli.score import main as score_main

        return score_main(args.file)
    if args.command == "check-db":
        from assistant.cli.checkdb import main as check_main
        from assistant.store import dburl

        if args.db:
            dburl.check(args.db)

        return check_main(["--db", args.db] if args.db else [])
    if args.supervise:
        return _supervisor().run_plan()
    if args.child:
        from assistant.serve.server import run_child

        return run_child(args.host, args.port, args.db, args.workers, args.threads)
    from assistant.serve.server import main as serve_main

    return serve_main(host=args.host, port=args.port, db=args.db, workers=args.workers, threads=args.threads)


def _supervisor():
    """``assistant/serve/supervisor.py``: it imports nothing of the Flask app (about 40 MB) nor of the
    store or the rules engine, which the supervisor never uses (``assistant.serve`` and
    ``assistant.store`` import their modules on first use)."""
    from assistant.serve import supervisor

    return supervisor


if __name__ == "__main__":
    sys.exit(main())
