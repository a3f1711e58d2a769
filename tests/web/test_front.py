"""The front (assistant/serve/front.py) in process: ``BufferedBodies`` on a real event loop and real
threads, with the real app (or a plain WSGI function that shows what it was handed) behind it, and
in front of it what granian hands an RSGI app (the request's scope, and a protocol that gives the
body's chunks and takes the answer), stood in for by ``Scope`` and ``Wire``. Expected values come
from the module and PEP 3333. (Through the real server: test_server.py, tests/robustness.)"""

from __future__ import annotations

import asyncio
import io
import signal
import sys
import threading

import pytest

from assistant.serve import front
from assistant.serve.front import BufferedBodies, body_deadline
from assistant.serve.poll import FastPoll

from .conftest import PLAYERS, make_app


class Headers:
    """granian's request headers: lower-case names, a name may come twice."""

    def __init__(self, pairs=()):
        self.pairs = list(pairs)

    def get(self, name, default=None):
        return next((v for k, v in self.pairs if k == name), default)

    def items(self):
        return list(self.pairs)

    def __contains__(self, name):
        return any(k == name for k, _ in self.pairs)


class Scope:
    def __init__(self, path="/", method="GET", query="", headers=(), client="192.168.1.20:40000", **extra):
        self.proto, self.method, self.path, self.query_string = "http", method, path, query
        self.headers = Headers(headers)
        self.client, self.server, self.scheme, self.http_version = client, "10.0.0.1:5000", "http", "1.1"
        for name, value in extra.items():
            setattr(self, name, value)


class Wire:
    """The protocol of one request: the body's chunks as they come (``stall``: the rest never
    comes; ``drop``: the client goes away), and the one answer given."""

    def __init__(self, chunks=(), stall=False, drop=False):
        self.chunks, self.stall, self.drop = list(chunks), stall, drop
        self.answers: list[tuple[int, list, bytes]] = []

    def response_bytes(self, status, headers, body):
        self.answers.append((status, list(headers), body))

    def __aiter__(self):
        return self._chunks()

    async def _chunks(self):
        for chunk in self.chunks:
            yield chunk
        if self.drop:
            raise ConnectionResetError("the client went away")
        if self.stall:
            await asyncio.Event().wait()

    @property
    def answer(self):
        assert len(self.answers) == 1, self.answers
        return self.answers[0]


class Echo:
    """A WSGI app that answers what it was handed (and keeps the environ)."""

    def __init__(self):
        self.environs: list[dict] = []

    def __call__(self, environ, start_response):
        self.environs.append(environ)
        body = environ["wsgi.input"].read()
        start_response("201 Created", [("Content-Type", "text/plain"), ("X-Echo", "yes")])
        return [b"got:", body]


def serve(app, scope, wire, threads=2, max_body=100, **kwargs) -> BufferedBodies:
    bodies = BufferedBodies(app, threads=threads, max_body=max_body, **kwargs)
    try:
        asyncio.run(asyncio.wait_for(bodies.__rsgi__(scope, wire), 30))
    finally:
        bodies.pool.shutdown(wait=True)
    return bodies


def test_a_bodys_deadline_is_15_s_and_a_second_per_8_kb_announced(monkeypatch):
    monkeypatch.delenv("RSS_BODY_SECONDS", raising=False)
    assert body_deadline(0) == 15.0 and body_deadline(-10) == 15.0
    assert body_deadline(8192) == 16.0
    assert body_deadline(2 * 1024 * 1024) == 15.0 + 256.0  # a 2 MB transcript: about four minutes
    monkeypatch.setenv("RSS_BODY_SECONDS", "2")
    assert body_deadline(4096) == 2.5


def test_the_app_gets_the_requests_environ_as_pep_3333_says():
    app = Echo()
    scope = Scope(
        "/games/\u00e9t\u00e9",
        method="POST",
        query="a=1&b=%20",
        headers=[
            ("content-type", "text/plain"),
            ("content-length", "5"),
            ("accept", "text/html"),
            ("accept", "*/*"),
            ("x-forwarded-for", "6.6.6.6"),
            ("user-agent", "phone"),
        ],
        scheme="https",
        http_version="2",
    )
    wire = Wire([b"he", b"llo"])
    serve(app, scope, wire)
    assert wire.answer == (201, [("Content-Type", "text/plain"), ("X-Echo", "yes")], b"got:hello")
    environ = app.environs[0]
    expected = {
        "REQUEST_METHOD": "POST",
        "SCRIPT_NAME": "",
        "PATH_INFO": "/games/\u00c3\u00a9t\u00c3\u00a9",  # the UTF-8 bytes as latin-1 text
        "QUERY_STRING": "a=1&b=%20",
        "SERVER_NAME": "10.0.0.1",
        "SERVER_PORT": "5000",
        "SERVER_PROTOCOL": "HTTP/2",
        "REMOTE_ADDR": "192.168.1.20",  # the peer: no trusted proxy, the header is ignored
        "REMOTE_PORT": "40000",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "https",
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "CONTENT_LENGTH": "5",
        "CONTENT_TYPE": "text/plain",
        "HTTP_ACCEPT": "text/html,*/*",  # a header given twice: one value, joined
        "HTTP_X_FORWARDED_FOR": "6.6.6.6",
        "HTTP_USER_AGENT": "phone",
    }
    assert {k: v for k, v in environ.items() if k not in ("wsgi.input", "wsgi.errors")} == expected
    assert isinstance(environ["wsgi.input"], io.BytesIO)


def test_without_a_body_nor_ports_the_environ_says_so():
    app = Echo()
    wire = Wire()
    serve(app, Scope("/", client="", server="table.local"), wire)
    environ = app.environs[0]
    assert (environ["SERVER_NAME"], environ["SERVER_PORT"]) == ("table.local", "80")
    assert (environ["REMOTE_ADDR"], environ["REMOTE_PORT"]) == ("", "")
    assert environ["CONTENT_LENGTH"] == "" and "CONTENT_TYPE" not in environ
    assert wire.answer[2] == b"got:"


def test_behind_a_trusted_proxy_the_remote_address_is_the_forwarded_one(monkeypatch):
    monkeypatch.setenv("RSS_TRUSTED_PROXIES", "10.0.0.5")
    app = Echo()
    serve(app, Scope("/", client="10.0.0.5:999", headers=[("x-forwarded-for", "192.168.1.44")]), Wire())
    assert (app.environs[0]["REMOTE_ADDR"], app.environs[0]["REMOTE_PORT"]) == ("192.168.1.44", "999")


def test_a_chunked_body_is_read_whole():
    app = Echo()
    wire = Wire([b"a", b"b", b"c"])
    serve(app, Scope("/", method="POST", headers=[("transfer-encoding", "chunked")]), wire)
    assert wire.answer[2] == b"got:abc" and app.environs[0]["CONTENT_LENGTH"] == "3"


def _plain(status: int, text: str, *extra) -> tuple:
    return (status, [("content-type", "text/plain; charset=utf-8"), ("connection", "close"), *extra], text.encode())


@pytest.mark.parametrize(
    ("headers", "chunks"),
    [
        ([("content-length", "101")], [b"x" * 101]),  # announced too large: refused before it is read
        ([("content-length", "10")], [b"x" * 60, b"x" * 41]),  # announced small, sent larger
        ([("transfer-encoding", "chunked")], [b"x" * 50, b"x" * 51]),
    ],
)
def test_a_body_past_the_apps_limit_is_a_413_and_never_reaches_it(headers, chunks):
    app = Echo()
    wire = Wire(chunks)
    serve(app, Scope("/", method="POST", headers=headers), wire, max_body=100)
    assert wire.answer == _plain(413, "Request body too large: at most 100 bytes.\n")
    assert app.environs == []


def test_a_body_of_exactly_the_limit_is_taken():
    app = Echo()
    wire = Wire([b"x" * 60, b"x" * 40])
    serve(app, Scope("/", method="POST", headers=[("content-length", "100")]), wire, max_body=100)
    assert wire.answer[0] == 201 and wire.answer[2] == b"got:" + b"x" * 100


def test_a_body_that_does_not_arrive_in_time_is_a_408_and_never_reaches_the_app(monkeypatch):
    monkeypatch.setenv("RSS_BODY_SECONDS", "0.2")
    app = Echo()
    wire = Wire([b"he"], stall=True)
    serve(app, Scope("/", method="POST", headers=[("content-length", "5")]), wire)
    assert wire.answer == _plain(408, "The request's body did not arrive in time.\n")
    assert app.environs == []


def test_a_client_gone_while_its_body_comes_gets_nothing_and_the_app_never_sees_it():
    app = Echo()
    wire = Wire([b"he"], drop=True)
    serve(app, Scope("/", method="POST", headers=[("content-length", "5")]), wire)
    assert wire.answers == [] and app.environs == []


def test_what_is_not_http_gets_nothing():
    app = Echo()
    wire = Wire()
    serve(app, Scope("/", proto="websocket"), wire)
    assert wire.answers == [] and app.environs == []


def test_an_address_with_its_line_full_gets_a_503_at_once(monkeypatch):
    """RSS_CLIENT_QUEUE=1, one thread: the address's first request holds it, its second waits, its
    third is refused (503, Retry-After 1) before it waits; the first two are answered."""
    monkeypatch.setenv("RSS_CLIENT_QUEUE", "1")
    release = threading.Event()

    def app(environ, start_response):
        release.wait(20)
        start_response("200 OK", [])
        return [environ["PATH_INFO"].encode()]

    bodies = BufferedBodies(app, threads=1, max_body=100)
    wires = [Wire(), Wire(), Wire()]

    async def table():
        held = [asyncio.create_task(bodies.__rsgi__(Scope(f"/{i}"), wires[i])) for i in range(2)]
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        await asyncio.wait_for(bodies.__rsgi__(Scope("/2"), wires[2]), 10)
        refused = list(wires[2].answers)
        release.set()
        await asyncio.wait_for(asyncio.gather(*held), 20)
        return refused

    try:
        refused = asyncio.run(table())
    finally:
        release.set()
        bodies.pool.shutdown(wait=True)
    assert refused == [_plain(503, front.CROWDED, ("retry-after", "1"))]
    assert [w.answer[2] for w in wires[:2]] == [b"/0", b"/1"]


def test_the_wsgi_apps_written_chunks_come_first_and_its_result_is_closed():
    closed = []

    class Result(list):
        def close(self):
            closed.append(True)

    def app(environ, start_response):
        write = start_response("200 OK", [("X-A", "1")])
        write(b"written ")
        return Result([b"returned", bytearray(b"!")])

    wire = Wire()
    serve(app, Scope("/"), wire)
    assert wire.answer == (200, [("X-A", "1")], b"written returned!") and closed == [True]


def test_an_app_may_start_its_response_again_on_an_error_before_it_wrote_anything():
    """PEP 3333: start_response called again with the error (exc_info) replaces the status and
    headers while nothing was sent (the front sends nothing before the app returns)."""

    def app(environ, start_response):
        start_response("200 OK", [])
        try:
            raise ValueError("while rendering")
        except ValueError:
            start_response("500 Internal Server Error", [("X-Error", "1")], sys.exc_info())
        return [b"sorry"]

    wire = Wire()
    serve(app, Scope("/"), wire)
    assert wire.answer == (500, [("X-Error", "1")], b"sorry")


def test_after_the_app_wrote_a_chunk_its_error_is_raised_again():
    """PEP 3333: once the body has begun, start_response with exc_info raises that error."""

    def app(environ, start_response):
        write = start_response("200 OK", [])
        write(b"half a page")
        try:
            raise ValueError("while rendering")
        except ValueError:
            start_response("500 Internal Server Error", [], sys.exc_info())
        return [b"never"]

    with pytest.raises(ValueError, match="while rendering"):
        serve(app, Scope("/"), Wire())


def test_an_error_given_to_the_first_start_response_is_not_raised():
    def app(environ, start_response):
        try:
            raise ValueError("before anything")
        except ValueError:
            start_response("500 Internal Server Error", [], sys.exc_info())
        return [b"sorry"]

    wire = Wire()
    serve(app, Scope("/"), wire)
    assert wire.answer == (500, [], b"sorry")


# -- the real app: the poll's fast answer and the streams -------------------------------------------
@pytest.fixture
def served(tmp_path):
    from assistant.serve.server import below_flask

    app = below_flask(make_app(tmp_path / "rss.sqlite3"))
    store = app.extensions["rss_store"]
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    yield app, store, gid
    store.close()


def test_the_polls_nothing_new_is_answered_before_any_thread_and_the_waker_starts(served):
    app, store, gid = served
    poll: FastPoll = app.extensions["rss_poll"]
    assert app.test_client().get(f"/games/{gid}/version?seq=0").status_code == 204  # the view's, learned
    taken = []

    def wsgi(environ, start_response):
        taken.append(environ["PATH_INFO"])
        return app.wsgi_app(environ, start_response)

    bodies = BufferedBodies(wsgi, threads=1, max_body=100, store=store, poll=poll)
    assert poll.known is bodies.streams.known  # on SQLite the polls are answered from the waker's record

    async def table():
        fast, body, slow, version = Wire(), Wire(), Wire(), Wire()
        await bodies.__rsgi__(Scope(f"/games/{gid}/version", query="seq=0", headers=[("host", "x")]), fast)
        started = bodies.streams.loop is not None
        # a request with a body is never a poll; another seq is the view's
        await bodies.__rsgi__(Scope(f"/games/{gid}/version", query="seq=0", headers=[("content-length", "0")]), body)
        await bodies.__rsgi__(Scope(f"/games/{gid}/version", query="seq=3"), slow)
        await bodies.__rsgi__(Scope(f"/games/{gid}/version", method="HEAD", query="seq=0"), version)
        return fast, body, slow, version, started

    try:
        fast, body, slow, version, started = asyncio.run(table())
    finally:
        bodies.streams.end_all()
        bodies.pool.shutdown(wait=True)
    assert fast.answer[0] == 204 and dict(fast.answer[1])["X-RSS-Seq"] == "0" and started
    assert body.answer[0] == 204 and slow.answer[0] == 200 and version.answer[0] == 204
    assert taken == [f"/games/{gid}/version"] * 3  # all but the first reached the app


def test_a_games_stream_is_served_on_the_loop_and_without_a_store_there_is_none(served):
    app, store, gid = served

    class StreamWire(Wire):
        def __init__(self):
            super().__init__()
            self.sent: list[str] = []

        def response_stream(self, status, headers):
            self.status = status
            return self

        async def send_str(self, text):
            self.sent.append(text)

    bodies = BufferedBodies(app.wsgi_app, threads=1, max_body=100, store=store)
    wire = StreamWire()

    async def table():
        task = asyncio.create_task(bodies.__rsgi__(Scope(f"/games/{gid}/stream", query="seq=0"), wire))
        for _ in range(1000):
            if wire.sent:
                break
            await asyncio.sleep(0.01)
        held = dict(bodies.streams.by_client)
        bodies.streams.end_all()
        await asyncio.wait_for(task, 10)
        return held

    try:
        held = asyncio.run(table())
    finally:
        bodies.pool.shutdown(wait=True)
    assert wire.status == 200 and wire.sent == ["retry: 2000\n: open\n\n"] and held == {"192.168.1.20": 1}
    # no store (waitress, or streams off): the path is the app's, which says it sends no streams
    plain = Wire()
    serve(app.wsgi_app, Scope(f"/games/{gid}/stream"), plain)
    assert plain.answer[0] == 404
    # a POST to a stream's path is the app's too
    posted = Wire()
    bodies = serve(app.wsgi_app, Scope(f"/games/{gid}/stream", method="POST"), posted, store=store)
    assert posted.answer[0] in (400, 404, 405) and len(bodies.streams) == 0


def test_the_stop_signal_ends_the_open_streams_and_ctrl_c_is_left_to_the_master(served):
    """SIGTERM (granian's master stopping the worker) ends every open stream; SIGINT (Ctrl-C, sent
    to the whole process group) is ignored by a worker, with streams or without."""
    app, store, gid = served
    signals = (signal.SIGINT, signal.SIGTERM)
    before = {s: signal.getsignal(s) for s in signals}
    bodies = BufferedBodies(app.wsgi_app, threads=1, max_body=100, store=store)
    without = BufferedBodies(app.wsgi_app, threads=1, max_body=100)  # no streams

    async def table():
        loop = asyncio.get_running_loop()
        without.__rsgi_init__(loop)
        alone = {s: signal.getsignal(s) for s in signals}
        bodies.__rsgi_init__(loop)
        ignored = signal.getsignal(signal.SIGINT)
        signal.raise_signal(signal.SIGTERM)
        for _ in range(1000):
            if bodies.streams.closing:
                break
            await asyncio.sleep(0.01)
        return alone, ignored, bodies.streams.closing

    try:
        alone, ignored, closing = asyncio.run(table())
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        bodies.pool.shutdown(wait=True)
        without.pool.shutdown(wait=True)
    assert alone == {signal.SIGINT: signal.SIG_IGN, signal.SIGTERM: before[signal.SIGTERM]}
    assert ignored == signal.SIG_IGN and closing


def test_an_app_silent_past_the_request_seconds_is_answered_503_with_retry_after(monkeypatch):
    from assistant.web.deadlines import RETRY_AFTER

    monkeypatch.setenv("RSS_REQUEST_SECONDS", "0.3")
    release = threading.Event()

    def app(environ, start_response):
        release.wait(20)
        start_response("200 OK", [])
        return [b"too late"]

    wire = Wire()
    bodies = BufferedBodies(app, threads=1, max_body=100)
    try:
        asyncio.run(asyncio.wait_for(bodies.__rsgi__(Scope("/"), wire), 30))
    finally:
        release.set()  # the app's thread goes on, and ends now
        bodies.pool.shutdown(wait=True)
    assert wire.answer == _plain(503, front.OVERDUE, ("retry-after", str(RETRY_AFTER)))


def test_the_app_runs_on_the_fronts_own_named_threads():
    names = []

    def app(environ, start_response):
        names.append(threading.current_thread().name)
        start_response("200 OK", [])
        return []

    serve(app, Scope("/"), Wire())
    assert names[0].startswith("rss-app")  # what a thread dump shows


def test_a_chunked_request_to_a_version_path_is_never_the_polls(served):
    app, store, gid = served
    poll: FastPoll = app.extensions["rss_poll"]
    assert app.test_client().get(f"/games/{gid}/version?seq=0").status_code == 204  # learned
    taken = []

    def wsgi(environ, start_response):
        taken.append(environ["PATH_INFO"])
        return app.wsgi_app(environ, start_response)

    wire = Wire([b""])
    headers = [("transfer-encoding", "chunked")]
    serve(wsgi, Scope(f"/games/{gid}/version", query="seq=0", headers=headers), wire, poll=poll)
    assert wire.answer[0] == 204 and taken == [f"/games/{gid}/version"]


def test_ipv6_addresses_keep_their_colons():
    app = Echo()
    serve(app, Scope("/", client="[::1]:40000", server="[::1]:5000"), Wire())
    environ = app.environs[0]
    assert (environ["SERVER_NAME"], environ["SERVER_PORT"]) == ("[::1]", "5000")
    assert (environ["REMOTE_ADDR"], environ["REMOTE_PORT"]) == ("::1", "40000")


def test_a_poll_with_a_host_the_app_refuses_is_the_apps_400_and_without_streams_the_poll_still_answers(served):
    """The fast answer never bypasses the Host check (hosts.py); and a front with no streams (no
    store given) still answers the polls itself."""
    app, store, gid = served
    poll: FastPoll = app.extensions["rss_poll"]
    assert app.test_client().get(f"/games/{gid}/version?seq=0").status_code == 204  # learned
    bodies = BufferedBodies(app.wsgi_app, threads=1, max_body=100, poll=poll)
    assert bodies.streams is None
    good, bad = Wire(), Wire()

    async def table():
        await bodies.__rsgi__(Scope(f"/games/{gid}/version", query="seq=0", headers=[("host", "table.local")]), good)
        await bodies.__rsgi__(Scope(f"/games/{gid}/version", query="seq=0", headers=[("host", "bad host")]), bad)

    try:
        asyncio.run(asyncio.wait_for(table(), 30))
    finally:
        bodies.pool.shutdown(wait=True)
    assert good.answer[0] == 204 and dict(good.answer[1])["X-RSS-Seq"] == "0"
    assert bad.answer[0] == 400 and b"Host header" in bad.answer[2]


def test_the_streams_read_their_seq_on_the_apps_own_threads(served):
    """One thread: while an app request holds it, a new stream waits for its seq; then it opens."""
    app, store, gid = served
    release = threading.Event()

    def wsgi(environ, start_response):
        release.wait(20)
        return app.wsgi_app(environ, start_response)

    bodies = BufferedBodies(wsgi, threads=1, max_body=100, store=store)

    class StreamWire(Wire):
        def __init__(self):
            super().__init__()
            self.sent: list[str] = []

        def response_stream(self, status, headers):
            return self

        async def send_str(self, text):
            self.sent.append(text)

    phone = StreamWire()

    async def table():
        page = asyncio.create_task(bodies.__rsgi__(Scope(f"/games/{gid}"), Wire()))
        await asyncio.sleep(0.2)  # the app's thread has taken it
        stream = asyncio.create_task(bodies.__rsgi__(Scope(f"/games/{gid}/stream", query="seq=0"), phone))
        await asyncio.sleep(1.0)
        before = list(phone.sent)
        release.set()
        for _ in range(1000):
            if phone.sent:
                break
            await asyncio.sleep(0.01)
        bodies.streams.end_all()
        await asyncio.wait_for(asyncio.gather(page, stream), 20)
        return before

    try:
        before = asyncio.run(asyncio.wait_for(table(), 60))
    finally:
        release.set()
        bodies.pool.shutdown(wait=True)
    # it opens (with a heartbeat when one came due while it waited)
    assert before == [] and phone.sent[0] in ("retry: 2000\n: open\n\n", "retry: 2000\n: beat\nevent: beat\ndata:\n\n")


def test_each_request_answered_for_a_silent_app_counts_as_overdue_until_it_ends(monkeypatch):
    monkeypatch.setenv("RSS_REQUEST_SECONDS", "0.3")
    release = threading.Event()

    def app(environ, start_response):
        release.wait(20)
        start_response("200 OK", [])
        return [b"late"]

    bodies = BufferedBodies(app, threads=2, max_body=100)
    wires = [Wire(), Wire()]

    async def table():
        await asyncio.gather(
            *(bodies.__rsgi__(Scope("/", client=f"127.0.0.{i + 2}:1"), w) for i, w in enumerate(wires))
        )
        overdue = bodies.overdue
        release.set()
        for _ in range(2000):
            if bodies.overdue == 0:
                break
            await asyncio.sleep(0.01)
        return overdue, bodies.overdue

    try:
        overdue, after = asyncio.run(asyncio.wait_for(table(), 60))
    finally:
        release.set()
        bodies.pool.shutdown(wait=True)
    assert [w.answer[0] for w in wires] == [503, 503] and (overdue, after) == (2, 0)


def test_an_error_raised_again_keeps_where_the_app_raised_it():
    def app(environ, start_response):
        write = start_response("200 OK", [])
        write(b"half")
        try:
            raise ValueError("while rendering")
        except ValueError:
            start_response("500 Internal Server Error", [], sys.exc_info())
        return []

    with pytest.raises(ValueError) as raised:
        serve(app, Scope("/"), Wire())
    assert any('raise ValueError("while rendering")' in str(entry.statement) for entry in raised.traceback)
