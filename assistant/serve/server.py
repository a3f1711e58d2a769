"""``python -m assistant serve``: the app behind granian (several worker processes), or waitress.

Why granian: its I/O layer (Rust, tokio/hyper) holds thousands of idle or slow connections for
next to nothing and hands a request to Python only once its head has arrived, so a client holding
1,100 slow connections open does not block the tables (waitress walks every connection in Python
at each turn of its loop, and stops accepting at its connection limit).  Several worker processes
use every core; SQLite in WAL mode is safe across processes, and the one-writer-per-game rule holds
across them because an event is appended in one ``BEGIN IMMEDIATE`` transaction that re-reads the
seq (see assistant/store/store.py).  Measured with benchmarks/load.py and benchmarks/slow_clients.py.

Settings (argument, else environment variable, else default):

* ``--workers`` / ``RSS_WORKERS``: worker processes (default: the number of CPUs, at most 4).
* ``--threads`` / ``RSS_THREADS``: threads per worker running the app (default 4).
* ``RSS_SERVER``: ``granian`` (default) or ``waitress`` (one process with threads; also used when
  granian is not installed).
* ``RSS_STREAMS``: ``on`` (default under granian: each page follows its game's event stream,
  assistant/serve/stream.py) or ``off`` (the pages poll once a second, as under waitress).
"""

from __future__ import annotations

import gc
import importlib.util
import ipaddress
import os
import socket
import sys
import threading
import time
from dataclasses import dataclass

from assistant.serve import clients, reaper, supervisor
from assistant.serve.front import BufferedBodies
from assistant.serve.hosts import HostCheck
from assistant.serve.poll import FastPoll
from assistant.store import DatabaseDamaged, backends, dburl, places
from assistant.store import settings as env_settings
from assistant.store.sqlite import ENV_IDENT
from assistant.web import MAX_BODY, create_app, limits, templating
from assistant.web.deadlines import Deadline
from assistant.web.lan import bound_to_loopback, lan_ip

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 5000
MAX_WORKERS = 4
THREADS = 4
# Connections one worker holds at once (idle keep-alive phones and slow clients included); each
# costs a file descriptor and a few kB.  Every phone keeps one or two connections open.
CONNECTIONS_PER_WORKER = 8192
BACKLOG = 2048
ENV_PORT = "RSS_SERVED_PORT"  # set for the workers: the port whose connections they look at


def head_timeout_ms() -> int:
    """granian's head deadline (``RSS_HEAD_SECONDS``, 30 s; 1 ms to 60 s): from a head's first byte
    to its end; a connection that sends nothing is closed by the reaper after as long."""
    return min(max(int(reaper.head_seconds() * 1000), 1), 60_000)


SHUTDOWN_SECONDS = 3  # on SIGTERM/Ctrl-C: requests under way may finish, then the workers stop
# waitress (the fallback): past this many connections it stops accepting
CONNECTION_LIMIT = 1000
ENV_DB = "RSS_DB"


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    db: str | None
    workers: int
    threads: int
    server: str


def _settings(host, port, db) -> tuple[str, int, str | None]:
    host = host or os.environ.get("RSS_HOST") or DEFAULT_HOST
    port = port if port is not None else env_settings.get("RSS_PORT")
    db = db or os.environ.get("RSS_DB") or None
    return host, port, db


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def settings(host=None, port=None, db=None, workers=None, threads=None, server=None) -> Settings:
    host, port, db = _settings(host, port, db)
    workers = workers or env_settings.get("RSS_WORKERS") or default_workers()
    threads = threads or env_settings.get("RSS_THREADS")
    server = server or env_settings.get("RSS_SERVER")
    if server not in ("granian", "waitress"):
        raise SystemExit(f"RSS_SERVER must be granian or waitress, not {server!r}")
    if server == "granian" and not _have_granian():
        server = "waitress"
    if workers < 1 or threads < 1:
        raise SystemExit("--workers and --threads must be at least 1")
    if db:
        try:
            dburl.check(db)
        except dburl.BadDatabase as err:
            raise SystemExit(err.message) from None
    return Settings(host, port, db, workers, threads, server)


def _have_granian() -> bool:
    try:
        import granian  # noqa: F401
    except ImportError:
        return False
    return True


# -- the WSGI app as served ---------------------------------------------------------------------
class BodyLimit:
    """Refuse a body announced larger than the app accepts (413) before reading any of it.

    The same constant as the app's MAX_CONTENT_LENGTH, so the server never buffers more than the
    app would take; the connection is closed (what the client sends after it is never read).
    A body without Content-Length (chunked) is cut off by Flask at the same size while it reads.
    """

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH") or ""
        if length.isdigit() and int(length) > self.limit:
            body = f"Request body too large: at most {self.limit} bytes.\n".encode()
            start_response(
                "413 Content Too Large",
                [
                    ("Content-Type", "text/plain; charset=utf-8"),
                    ("Content-Length", str(len(body))),
                    ("Connection", "close"),
                ],
            )
            return [body]
        return self.app(environ, start_response)


class WholeBody:
    """Hand the server the answer as one piece of bytes rather than an iterator.

    granian sends a list of bytes straight away, but pulls an iterator (what Flask returns) chunk
    by chunk, taking the GIL for each from its own I/O thread; our answers are small pages."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        result = self.app(environ, start_response)
        if isinstance(result, list):
            return result
        try:
            return [b"".join(result)]
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()


def below_flask(app):
    """What answers before Flask, in the app's own WSGI stack: a malformed Host is a 400 before
    Flask binds its URLs (hosts.py), the poll's "nothing new" is a 204 without Flask (poll.py)."""
    app.wsgi_app = app.extensions["rss_poll"] = FastPoll(app.wsgi_app, app.extensions["rss_store"])
    app.wsgi_app = HostCheck(app.wsgi_app)
    return app


FULL_COLLECTION_AFTER = 100  # collections of the middle generation before a full one (Python: 10)


def served_app(db: str | None = None, check: bool = False):
    """The Flask app (never in debug mode) behind the body limit.  ``check``: the database checks
    before start (done once, by the server process, before any worker starts)."""
    config = {"DATABASE_CHECK": True, "DATABASE_NAMED": bool(db)} if check else {}
    config["TRIAL_PROCESS"] = True  # imports and resumes are tried in a process of their own (trial.py)
    app = create_app(config | ({"DATABASE": db} if db else {}) or None)
    app.debug = False
    below_flask(app)
    templating.compile_all(app)  # not at first use, in the middle of a game (templating.py)
    # What the app made to start (the compiled templates too) (about 50,000 objects: modules, templates, the rules' cards) lives as
    # long as the process: Python's garbage collector need not look at it again in every full
    # collection (about 50 ms each on this machine, in which no request is answered).
    gc.collect()
    gc.freeze()
    # A full collection still looks at everything made since, the cached games' states among them:
    # 15 to 90 ms under 200 tables (growing with the games kept), in which the worker answers
    # nothing. Python starts one after every 10 collections of the middle generation, about every
    # 10 s per worker there (8 in 80 s); after every FULL_COLLECTION_AFTER (none in a 40 s run).
    # The price: cycles that outlived two younger collections wait longer to be freed (the full
    # collections measured freed 190 to 2,600 objects each).
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_AFTER)
    return Deadline(BodyLimit(WholeBody(app))), app


def worker_app():
    """Granian's factory, called in each worker process: the app on the database the parent chose,
    behind the front that reads bodies off the app's threads (assistant/serve/front.py)."""
    _exit_with_parent()
    wsgi, app = served_app(os.environ.get(ENV_DB) or None)
    if os.environ.get(ENV_PORT):  # the connections granian holds and the app never sees (reaper.py)
        reaper.Reaper(int(os.environ[ENV_PORT])).start()
    threads = env_settings.get("RSS_THREADS")
    poll = app.extensions["rss_poll"]  # the poll's 204, answered by the front itself
    if not streams_on():
        return BufferedBodies(wsgi, threads, MAX_BODY, poll=poll)
    app.config["LIVE_STREAMS"] = True  # the pages open the game's event stream (assistant/serve/stream.py)
    return BufferedBodies(wsgi, threads, MAX_BODY, app.extensions["rss_store"], poll=poll)


def streams_on() -> bool:
    """``RSS_STREAMS=off``: no event streams, the phones poll (as under waitress)."""
    return env_settings.get("RSS_STREAMS") not in ("off", "0", "no", "false")


def _exit_with_parent() -> None:
    """A worker ends as soon as the server process is gone (even after a kill -9 of it)."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: the kernel kills us with our parent
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:  # everywhere else (and as a second line): look every half second
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="rss-parent-watch", daemon=True).start()


# -- running it -----------------------------------------------------------------------------------
PROCESS_NAME = "rss-assistant server"


def _raise_file_limit(wanted: int) -> int | None:
    """Each connection is a file descriptor: lift the soft limit towards the hard one (Unix).
    The soft limit the process has then (None: no such limit here, or unlimited)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def cannot_listen(s: Settings) -> str | None:
    """Why the server could not listen where it is asked to, in one line; None when it can.  Checked
    once at start: granian failing to bind raised in every start of the server, and the supervisor
    started it again for ever (a host name, an address of another machine, a port in use)."""
    if s.server == "granian":
        try:
            ipaddress.ip_address(s.host)
        except ValueError:
            return (
                f"--host / RSS_HOST {s.host!r} is not accepted: it takes an IP address of this machine "
                "(0.0.0.0: every network, so that phones can join; 127.0.0.1: this machine only)."
            )
    family = socket.AF_INET6 if ":" in s.host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers bind
            probe.bind((s.host, s.port))
    except OSError as err:  # (a name waitress cannot resolve is an OSError too)
        return (
            f"Cannot listen on {s.host} port {s.port}: {err.strerror or err}. Is another server on that port "
            "(choose another with --port), or is the address not this machine's (--host)?"
        )
    return None


def connections_line(s: Settings) -> str:
    """The start line on connections: the open-file limit the server got (raised here, inherited by
    the workers) against what its workers may hold."""
    wanted = s.workers * CONNECTIONS_PER_WORKER + 256 if s.server == "granian" else CONNECTION_LIMIT + 256
    got = _raise_file_limit(wanted)
    line = f"Connections: open-file limit {'unlimited' if got is None else got}"
    line += f" (wanted {wanted}); one address holds at most {clients.client_streams()} streams per worker"
    if got is not None and got < wanted:
        line += f". WARNING: about {max(got - 256, 0)} connections in all, fewer than the workers could hold"
    return line + "."


def run_granian(s: Settings) -> None:
    from granian import Granian
    from granian.constants import Interfaces
    from granian.http import HTTP1Settings

    if s.db:
        os.environ[ENV_DB] = backends.backend(s.db).where(s.db)
    os.environ["RSS_THREADS"] = str(s.threads)  # the app's threads in each worker (front.BufferedBodies)
    os.environ[ENV_PORT] = str(s.port)  # each worker looks at its own connections on it (reaper.py)
    _raise_file_limit(s.workers * CONNECTIONS_PER_WORKER + 256)
    Granian(
        "assistant.serve.server:worker_app",
        factory=True,
        address=s.host,
        port=s.port,
        interface=Interfaces.RSGI,  # bodies are read on the event loop, not on the app's threads
        workers=s.workers,
        backlog=BACKLOG,
        backpressure=CONNECTIONS_PER_WORKER,
        http1_settings=HTTP1Settings(header_read_timeout=head_timeout_ms(), keep_alive=True),
        respawn_failed_workers=True,
        workers_kill_timeout=SHUTDOWN_SECONDS,  # idle keep-alive phones must not hold up a stop
        log_level="warning",
        # the processes' title where setproctitle is installed (granian renames them then, and
        # refuses a name without it): the master "rss-assistant server", the workers "… worker-N"
        process_name=PROCESS_NAME if importlib.util.find_spec("setproctitle") else None,
    ).serve()


def run_waitress(s: Settings, wsgi) -> None:
    from waitress import serve

    keep_alive_without_body()
    _raise_file_limit(CONNECTION_LIMIT + 256)
    serve(
        wsgi,
        host=s.host,
        port=s.port,
        threads=max(s.threads, 8),
        ident="rss-table",
        connection_limit=CONNECTION_LIMIT,
        max_request_body_size=MAX_BODY,
        asyncore_use_poll=True,  # poll(): select() cannot watch more than 1024 sockets
    )


def keep_alive_without_body(task_class=None) -> None:
    """waitress only: keep the connection open after a 204 (the live-sync poll's "nothing new").

    waitress closes an HTTP/1.1 connection after any response without Content-Length, and a
    204 may not carry one (RFC 9110): every phone's poll, once a second, would then cost a new
    TCP connection.  A 204/304 has no body by definition, so the client knows where it ends: keep
    the connection unless the client or the app asked to close it.  (granian keeps it by itself.)
    """
    if task_class is None:
        from waitress.task import WSGITask as task_class
    build = task_class.build_response_header
    if getattr(build, "keeps_alive_without_body", False):
        return

    def build_response_header(self):
        keep = (
            self.version == "1.1"
            and not self.has_body
            and not self.close_on_finish
            and self.request.headers.get("CONNECTION", "").lower() != "close"
            and not any(name.lower() == "connection" for name, _ in self.response_headers)
        )
        head = build(self)
        if keep and self.close_on_finish:
            self.close_on_finish = False
            self.response_headers = [(n, v) for n, v in self.response_headers if n.lower() != "connection"]
            head = head.replace(b"\r\nConnection: close", b"", 1)
        return head

    build_response_header.keeps_alive_without_body = True
    task_class.build_response_header = build_response_header


def main(
    host: str | None = None,
    port: int | None = None,
    db: str | None = None,
    workers: int | None = None,
    threads: int | None = None,
) -> int:
    env_settings.check()  # every setting once, at start: a bad one stops it in one line (issue 38)
    s = settings(host, port, db, workers, threads)
    problem = cannot_listen(s)  # before anything is set up: in one line, not a server restarted for ever
    if problem:
        print(problem, file=sys.stderr, flush=True)
        return 2
    os.environ["RSS_HOST"] = s.host  # the app (and each worker's) says so when phones cannot reach it
    # Set up once here (database checks, schema, WAL, the secret key file) before any worker starts.
    try:
        wsgi, app = served_app(s.db, check=True)
    except DatabaseDamaged as err:
        print(err.message, file=sys.stderr, flush=True)
        return 2
    except OSError as err:  # a data folder (RSS_INSTANCE) or a database's folder it cannot make or write
        where = f": {err.filename}" if err.filename else ""
        print(
            f"Cannot start: {err.strerror or err}{where}. The data folder ({places.ENV}, else {places.standard()}) "
            "and the database's folder must be folders this user may write.",
            file=sys.stderr,
            flush=True,
        )
        return 2
    database = app.config["DATABASE"]
    shown = lan_ip() if s.host in ("0.0.0.0", "::", "") else s.host
    where = "on a phone in the same network"
    if bound_to_loopback(s.host):
        where = "on this machine (phones cannot reach it: start with --host 0.0.0.0 to let them join)"
    print(f"Rolling Stock table assistant: open http://{shown or 'localhost'}:{s.port}/ {where}", flush=True)
    where = f"{s.workers} worker process(es) x {s.threads} threads" if s.server == "granian" else "one process"
    print(f"Database: {app.extensions['rss_db_report'].summary()}  ({s.server}, {where})", flush=True)
    for note in app.extensions["rss_place_notes"]:  # games in an older default place (store/places.py)
        print(note, flush=True)
    os.environ[places.ENV] = app.instance_path  # the workers (and restarts) use the same folder and secret
    backend = backends.backend(database)
    if backend.on_disk:
        free, low = limits.disk_report(database)
        cap = limits.db_max_bytes() >> 20
        warning = " WARNING: the disk is nearly full; when it is, no entry can be saved." if low else ""
        print(f"Disk: {free}; new games stop past {cap} MB of database (RSS_DB_MAX_MB).{warning}", flush=True)
    print(connections_line(s), flush=True)
    if s.server == "waitress":
        run_waitress(s, wsgi)
        return 0
    app.extensions["rss_store"].close()  # the workers open their own connections
    os.environ[ENV_IDENT] = backend.start_ident(database) or ""  # the workers check the file stays the one started on
    os.environ[ENV_DB] = backend.where(database)
    child = ["serve", "--child", "--host", s.host, "--port", str(s.port), "--workers", str(s.workers)]
    child += ["--threads", str(s.threads), "--db", os.environ[ENV_DB]]
    # This process holds the whole app (about 60 MB) that it needs no more: it becomes the supervisor
    # afresh, the same process (its pid, what stops it), holding only the supervisor (supervisor.py).
    os.environ[supervisor.ENV_PLAN] = supervisor.plan(child, database, app.instance_path, bool(db))
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", "assistant", "serve", "--supervise"])
    return 2  # not reached


def run_child(host, port, db, workers, threads) -> int:
    """``serve --child``: granian's master and its workers, under the supervisor (supervisor.py)."""
    _exit_with_parent()  # ends with the supervisor, even after a kill -9 of it
    s = settings(host, port, db, workers, threads)
    run_granian(s)
    return 0
