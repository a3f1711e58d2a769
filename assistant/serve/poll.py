"""The live-sync poll's "nothing new" (204) answered before Flask: no request object, no session.

Every phone polls ``GET /games/<id>/version?seq=N`` once a second, and nearly every answer is
"nothing new".  Through Flask that answer costs a request context, the session cookie checked
(and signed again for the reply), hooks and a response object; here it costs a cached game
lookup and one primary-key query.  Anything else (a new seq, an unknown game, an odd query) goes
to the Flask view, which stays the one definition of the route; the headers of the fast 204 are
those of the view's own 204 (learned from the first one, per process), without the cookie.
Under granian the front asks ``answer`` first, on the worker's event loop, before any WSGI request
is made (``front.py``): a poll then costs no environ, no middleware and no thread; and, with the
streams' waker running, no database call either (``known.py``).
The route's contract this relies on: for a query of just ``seq=N``, the answer is 204 exactly
when the game exists and N is its current seq (``nothing_new``, the one rule both answer by).

A change: the first phone of a table whose poll sees it gets the view's answer (the new poller
and the trigger that refreshes the page); that answer depends on the game and its new seq only,
so it is kept, and the table's other phones polling from an older seq get it from here, without
the app.  It is kept while the seq is the game's current one (as the waker heard it, or as the
database says), never for a phone that names a seq the game has not reached.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from urllib.parse import parse_qsl

from assistant.serve.hosts import valid_host
from assistant.store import Store
from assistant.web.views.table import nothing_new

log = logging.getLogger("assistant.serve.poll")
LOG_EVERY = 60.0  # seconds between two log lines about the same kind of trouble
PROBLEM = "The table's server has a problem with its database; the games are kept. Retrying.\n"
PATH = re.compile(r"^/games/([A-Za-z0-9_-]{1,64})/version$")
# not copied from the view's 204: they belong to one answer (or to the session)
PER_ANSWER = {"set-cookie", "vary", "date", "x-rss-seq", "content-length", "content-type"}
# not kept with the view's answer to a change: they belong to the phone that asked
PER_CLIENT = {"set-cookie", "date"}
STATUS = {200: "200 OK", 204: "204 No Content", 503: "503 Service Unavailable"}
KNOWN_HOSTS = 64  # Host headers remembered as valid or not (the phones of a server send one or two)
KEPT_CHANGES = 4096  # the view's answers to a poll that saw a change, kept by (game, new seq)


class FastPoll:
    def __init__(self, wsgi_app, store: Store):
        self.wsgi_app, self.store = wsgi_app, store
        self._headers: list[tuple[str, str]] | None = None
        self._lock = threading.Lock()
        self._logged = -LOG_EVERY  # when a database error under the polls was last logged
        self._hosts: dict[str, bool] = {}  # Host header -> valid (hosts.py), for the front's answers
        # the games' seqs as the worker's stream waker heard them (known.KnownSeqs; the front sets it
        # under granian with streams): a poll answered from it makes no database call
        self.known = None
        # (game, seq) -> (headers, body): the view's answer to a poll from an older seq
        self._changed: dict[tuple[str, int], tuple[list[tuple[str, str]], bytes]] = {}

    def __call__(self, environ, start_response):
        match = PATH.match(environ.get("PATH_INFO", "")) if environ.get("REQUEST_METHOD") == "GET" else None
        if match is None:
            return self.wsgi_app(environ, start_response)
        if self._headers is None:
            return self.wsgi_app(environ, self._learn(start_response))
        gid, query = match.group(1), environ.get("QUERY_STRING", "")
        answer = self._quick(gid, query)
        if answer is None:
            if _seq_param(query) is None:
                return self.wsgi_app(environ, start_response)
            return self._keep(gid, environ, start_response)
        status, headers, body = answer
        start_response(STATUS[status], headers)
        return [body] if body else []

    def answer(self, path: str, query: str, host: str) -> tuple[int, list[tuple[str, str]], bytes] | None:
        """The poll's answer straight from the front, with no WSGI request at all (``front.py``, on
        the worker's event loop): (status, headers, body), or None when the app answers (any other
        request, a new seq, a Host the app refuses, the view's headers not learned yet)."""
        match = PATH.match(path) if self._headers is not None else None
        if match is None or (host and not self._host_ok(host)):
            return None
        return self._quick(match.group(1), query)

    def _host_ok(self, host: str) -> bool:
        """``valid_host`` (what ``HostCheck`` asks), remembered for the few Host headers a server's
        phones send."""
        known = self._hosts.get(host)
        if known is None:
            known = valid_host(host.strip())
            if len(self._hosts) < KNOWN_HOSTS:
                self._hosts[host] = known
        return known

    def _quick(self, gid: str, query: str) -> tuple[int, list[tuple[str, str]], bytes] | None:
        """204 when the query is just ``seq=N`` and N is the game's current seq; 503 when the
        database fails; None otherwise (the view answers)."""
        seen = _seq_param(query)
        known = self.known.get(gid) if self.known is not None and seen is not None else None
        if known is not None:  # as the worker's waker last heard it (known.py): no database call
            if not nothing_new(seen, known):
                return self._kept(gid, seen, known)
            return 204, [*self._headers, ("X-RSS-Seq", str(known))], b""
        try:
            if seen is None or not self.store.game_exists(gid):
                return None
            current = self.store.seq(gid)
        except Exception as err:  # noqa: BLE001 - any database error: a short 503, said once a minute
            return self._problem(err)
        if not nothing_new(seen, current):
            return self._kept(gid, seen, current)
        return 204, [*self._headers, ("X-RSS-Seq", str(current))], b""

    def _kept(self, gid: str, seen: int, current: int) -> tuple[int, list[tuple[str, str]], bytes] | None:
        """The view's answer at ``current`` for a phone still at an older seq, if one was kept."""
        kept = self._changed.get((gid, current)) if seen < current else None
        return None if kept is None else (200, kept[0], kept[1])

    def _keep(self, gid: str, environ, start_response):
        """The view answers a poll that saw a change; its 200 is kept for the table's other phones."""
        answer: dict = {}

        def keeping(status, headers, exc_info=None):
            answer["status"], answer["headers"] = status, headers
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        result = self.wsgi_app(environ, keeping)
        headers = answer.get("headers") or []
        names = {n.lower(): v for n, v in headers}
        seq = names.get("x-rss-seq", "")
        if not (answer.get("status", "").startswith("200") and seq.isdigit() and "content-encoding" not in names):
            return result
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        if len(self._changed) >= KEPT_CHANGES:
            self._changed = {}
        self._changed[(gid, int(seq))] = ([(n, v) for n, v in headers if n.lower() not in PER_CLIENT], body)
        return [body]

    def _problem(self, err: Exception) -> tuple[int, list[tuple[str, str]], bytes]:
        """The database failed under a poll: every phone polls once a second, so the answer is a
        short 503 (the phones say "the table's server has a problem") and the log gets one line a
        minute, not one per poll per phone."""
        now = time.monotonic()
        with self._lock:
            quiet = now - self._logged < LOG_EVERY
            if not quiet:
                self._logged = now
        if not quiet:
            log.error("database error under the live-sync polls (said once a minute): %s: %s", type(err).__name__, err)
        body = PROBLEM.encode()
        headers = [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(body))),
            ("Retry-After", "5"),
        ]
        return 503, headers, body

    def _learn(self, start_response):
        def learning(status, headers, exc_info=None):
            if status.startswith("204"):
                with self._lock:
                    self._headers = [(n, v) for n, v in headers if n.lower() not in PER_ANSWER]
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        return learning


def _seq_param(query: str) -> int | None:
    """N if the query is just ``seq=N`` with N a plain number (anything else: the view decides)."""
    params = parse_qsl(query, keep_blank_values=True)
    if len(params) != 1 or params[0][0] != "seq":
        return None
    value = params[0][1]
    return int(value) if value.isascii() and value.isdigit() and len(value) < 19 else None
