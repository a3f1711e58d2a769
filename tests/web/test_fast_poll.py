"""The live-sync poll answered before Flask (assistant/serve/poll.py), in process: the real app on a
real SQLite file, wrapped as the server wraps it (``server.below_flask``), asked through werkzeug's
client (the app's own WSGI stack) and through ``FastPoll.answer`` (what the front asks on its loop).
The route's contract: for a query of just ``seq=N``, 204 exactly when the game exists and N is its
current seq; anything else is the view's. (With the streams' record of the seqs:
test_known_seqs.py; through the real server: tests/robustness/test_raw_http.py.)"""

from __future__ import annotations

import logging
import sqlite3
import sys

import pytest

from assistant.serve import poll as poll_module
from assistant.serve.hosts import valid_host
from assistant.serve.poll import FastPoll
from assistant.serve.server import below_flask

from .conftest import PLAYERS, make_app


@pytest.fixture
def served(tmp_path):
    """(app, store, poll, gid, flask_saw): a game at seq 0; ``flask_saw`` lists the requests Flask saw."""
    app = below_flask(make_app(tmp_path / "rss.sqlite3"))
    store, poll = app.extensions["rss_store"], app.extensions["rss_poll"]
    flask_saw: list[str] = []
    app.before_request(lambda: flask_saw.append("request"))
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    yield app, store, poll, gid, flask_saw
    store.close()


def _learned(app, gid):
    """A phone's first poll at the current seq: the view's 204, whose headers the poll learns."""
    first = app.test_client().get(f"/games/{gid}/version?seq=0")
    assert first.status_code == 204
    return first


def _change(store, gid, seq: int) -> None:
    _, game = store.state(gid)
    store.append(gid, seq, {"type": "reveal", "company": game.next["choices"][0]})


def test_nothing_is_answered_before_the_views_own_204_is_learned(served):
    app, store, poll, gid, flask_saw = served
    path = f"/games/{gid}/version"
    assert poll.answer(path, "seq=0", "localhost") is None
    # the view's 200 (a phone at another seq) teaches nothing: only a 204 has the 204's headers
    assert app.test_client().get(f"{path}?seq=3").status_code == 200
    assert poll.answer(path, "seq=0", "localhost") is None
    first = _learned(app, gid)
    status, headers, body = poll.answer(path, "seq=0", "localhost")
    assert (status, body) == (204, b"")
    # the view's headers, but not those of one answer (nor a session's), and the seq
    names = {name.lower() for name, _ in headers}
    assert not names & {"set-cookie", "vary", "date", "content-length", "content-type"}
    view = {name: value for name, value in first.headers.items() if name.lower() not in poll_module.PER_ANSWER}
    assert dict(headers) == view | {"X-RSS-Seq": "0"} and view["Cache-Control"] == "no-store"
    assert headers[-1] == ("X-RSS-Seq", "0")


@pytest.mark.parametrize(
    ("query", "answered"),
    [
        ("seq=0", True),
        ("seq=00", True),
        ("seq=" + "0" * 18, True),  # 18 digits, still a plain number
        ("seq=" + "0" * 19, False),  # 19: the view decides
        ("seq=5", False),  # a seq the game never reached: the view
        ("seq=", False),
        ("seq=x", False),
        ("seq=-0", False),
        ("seq=+0", False),
        ("seq=\uff10", False),  # a full-width zero: a digit, not ASCII
        ("seq=0&seq=0", False),
        ("seq=0&history=all", False),
        ("seq=0&history=", False),  # a blank parameter is a parameter
        ("history=&seq=0", False),
        ("other=0", False),
        ("", False),
    ],
)
def test_only_a_query_of_just_seq_at_the_current_seq_is_answered_here(served, query, answered):
    app, store, poll, gid, flask_saw = served
    _learned(app, gid)
    answer = poll.answer(f"/games/{gid}/version", query, "localhost")
    assert (answer is not None and answer[0] == 204) if answered else answer is None


def test_only_a_games_version_path_with_a_valid_or_no_host_is_answered_here(served):
    app, store, poll, gid, flask_saw = served
    _learned(app, gid)
    assert poll.answer(f"/games/{gid}/version", "seq=0", "")[0] == 204  # no Host: served as localhost
    assert poll.answer(f"/games/{gid}/version", "seq=0", "table.local:5000")[0] == 204
    assert poll.answer(f"/games/{gid}/version", "seq=0", " table.local ")[0] == 204  # spaces aside
    assert poll.answer(f"/games/{gid}/version", "seq=0", "bad host") is None  # HostCheck's 400
    assert poll.answer(f"/games/{gid}/version", "seq=0", "a" * 64) is None
    assert poll.answer(f"/games/{gid}/version/", "seq=0", "localhost") is None
    assert poll.answer(f"/games/{gid}/versions", "seq=0", "localhost") is None
    assert poll.answer(f"/x/games/{gid}/version", "seq=0", "localhost") is None
    assert poll.answer(f"/games/{gid}/state", "seq=0", "localhost") is None
    assert poll.answer("/games/no-such-game/version", "seq=0", "localhost") is None  # the view's 404


def test_the_hosts_checked_are_remembered_up_to_sixty_four(served):
    app, store, poll, gid, flask_saw = served
    _learned(app, gid)
    for i in range(70):
        assert poll.answer(f"/games/{gid}/version", "seq=0", f"phone{i}.local")[0] == 204
        assert poll.answer(f"/games/{gid}/version", "seq=0", f"bad host {i}") is None
    assert len(poll._hosts) == 64  # a bound: a client sending a new Host each time costs no memory
    assert poll._hosts["phone0.local"] is True and poll._hosts["bad host 0"] is False


def test_the_wsgi_poll_at_the_current_seq_skips_flask_and_everything_else_reaches_it(served):
    app, store, poll, gid, flask_saw = served
    client = app.test_client()
    path = f"/games/{gid}/version"
    _learned(app, gid)
    flask_saw.clear()
    fast = client.get(f"{path}?seq=0")
    assert (fast.status_code, fast.data, fast.headers["X-RSS-Seq"]) == (204, b"", "0") and flask_saw == []
    for method, url, status in (
        ("GET", f"{path}?seq=0&history=all", 204),  # not just seq: Flask
        ("GET", path, 200),
        ("GET", "/games/no-such-game/version?seq=0", 404),
        ("HEAD", f"{path}?seq=0", 204),  # not a GET
        ("POST", f"{path}?seq=0", 400),  # refused by Flask (no form token)
        ("GET", f"/games/{gid}/state", 200),
    ):
        flask_saw.clear()
        assert client.open(url, method=method).status_code == status, (method, url)
        assert flask_saw == ["request"] or method == "POST", (method, url)  # the token check comes first


def test_the_views_answer_to_a_change_is_kept_for_the_tables_other_phones_while_it_is_current(served):
    """Amy's poll at seq 0 sees the change: the view answers it (200, the new poller). Brian, also
    at 0, gets that same answer from the poll, with no Flask; at the new seq, 204. After the next
    change the kept answer (for seq 1) is never given again: the view answers."""
    app, store, poll, gid, flask_saw = served
    amy, brian = app.test_client(), app.test_client()
    path = f"/games/{gid}/version"
    _learned(app, gid)
    _change(store, gid, 0)
    seen = amy.get(f"{path}?seq=0")
    assert seen.status_code == 200 and seen.headers["X-RSS-Seq"] == "1"
    flask_saw.clear()
    kept = brian.get(f"{path}?seq=0")
    assert (kept.status_code, kept.get_data(), kept.headers["X-RSS-Seq"]) == (200, seen.get_data(), "1")
    assert kept.headers["HX-Trigger"] == seen.headers["HX-Trigger"] and flask_saw == []
    status, headers, body = poll.answer(path, "seq=0", "localhost")  # the front's way: the same answer
    assert (status, body, dict(headers)["X-RSS-Seq"]) == (200, seen.get_data(), "1")
    assert brian.get(f"{path}?seq=1").status_code == 204 and flask_saw == []
    assert poll.answer(path, "seq=2", "localhost") is None  # a seq not reached: the view
    _change(store, gid, 1)
    assert poll.answer(path, "seq=0", "localhost") is None and poll.answer(path, "seq=1", "localhost") is None
    flask_saw.clear()
    assert b'data-seq="2"' in brian.get(f"{path}?seq=0").get_data() and flask_saw == ["request"]


def test_only_a_200_with_its_seq_is_kept_and_at_most_4096_of_them(served):
    app, store, poll, gid, flask_saw = served
    client = app.test_client()
    path = f"/games/{gid}/version"
    _learned(app, gid)
    assert client.get("/games/no-such-game/version?seq=3").status_code == 404
    assert poll._changed == {}  # a 404 is not kept
    _change(store, gid, 0)
    poll._changed = {(f"old{i}", 1): ([], b"") for i in range(4096)}  # as many as are kept
    assert client.get(f"{path}?seq=0").status_code == 200
    assert list(poll._changed) == [(gid, 1)]  # the old ones were let go
    _change(store, gid, 1)
    poll._changed = {(f"old{i}", 1): ([], b"") for i in range(4095)}
    assert client.get(f"{path}?seq=1").status_code == 200
    assert len(poll._changed) == 4096 and (gid, 2) in poll._changed


def test_a_database_error_under_the_polls_is_a_short_503_logged_once_a_minute(served, monkeypatch, caplog):
    """The clock of a server started 10 s after its machine booted: the first error is logged at
    once, the next ones are not until 60 s have gone by since."""
    app, store, poll, gid, flask_saw = served
    _learned(app, gid)
    with sqlite3.connect(app.config["DATABASE"]) as db:
        db.execute("DROP TABLE events")  # the polls' table gone: every seq lookup fails
    now = [10.0]
    monkeypatch.setattr(poll_module.time, "monotonic", lambda: now[0])
    logged = []
    for now[0] in (10.0, 40.0, 69.9, 70.0, 75.0):
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="assistant.serve.poll"):
            status, headers, body = poll.answer(f"/games/{gid}/version", "seq=0", "localhost")
        assert status == 503 and body.decode() == poll_module.PROBLEM and body.endswith(b"Retrying.\n")
        assert dict(headers) == {
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Length": str(len(body)),
            "Retry-After": "5",
        }
        if caplog.records:
            assert (
                caplog.records[0]
                .getMessage()
                .startswith("database error under the live-sync polls (said once a minute): DatabaseDamaged: ")
            )
            assert (
                len(caplog.records) == 1
                and "DatabaseDamaged: " in caplog.text
                and "no such table: events" in caplog.text
            )
            logged.append(now[0])
    assert logged == [10.0, 70.0]
    answer = app.test_client().get(f"/games/{gid}/version?seq=0")  # through WSGI: the same 503
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"


# -- the view's answer to a change, kept or not: a plain WSGI app in the view's place ---------------
class View:
    """In the view's place behind the poll: answers a poll with ``status``, ``headers`` and
    ``chunks`` (a result with close(), noted), optionally through start_response's exc_info, or
    only once its result is iterated (as a generator app does)."""

    def __init__(self, status="200 OK", headers=(("X-RSS-Seq", "1"),), chunks=(b"<div>", b"new</div>"), **how):
        self.status, self.headers, self.chunks, self.how = status, list(headers), list(chunks), how
        self.calls = self.closed = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        if self.how.get("lazy"):
            return self._lazy(start_response)
        if self.how.get("error"):
            try:
                raise ValueError("the view failed")
            except ValueError:
                start_response(self.status, self.headers, sys.exc_info())
        else:
            start_response(self.status, self.headers)
        view = self

        class Result(list):
            def close(self):
                view.closed += 1

        return Result(self.chunks) if self.how.get("closing", True) else list(self.chunks)

    def _lazy(self, start_response):
        start_response(self.status, self.headers)
        yield from self.chunks


class Server:
    """The server's start_response: what it was given."""

    def __init__(self):
        self.calls: list[tuple] = []

    def __call__(self, *args):
        self.calls.append(args)


@pytest.fixture
def behind(tmp_path):
    """(store, gid): a game at seq 1, for a poll at seq 0 (a phone that has not seen the change)."""
    from assistant.store import Store

    store = Store(str(tmp_path / "games.sqlite3"))
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    _change(store, gid, 0)
    yield store, gid
    store.close()


def _poll_at_0(poll, gid, server=None):
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": f"/games/{gid}/version", "QUERY_STRING": "seq=0"}
    server = server or Server()
    return b"".join(poll(environ, server)), server


def _poll(view, store) -> FastPoll:
    poll = FastPoll(view, store)
    poll._headers = [("Cache-Control", "no-store")]  # the view's 204 learned
    return poll


def test_a_kept_answer_is_the_views_200_whole_without_the_phones_own_headers(behind):
    store, gid = behind
    view = View(headers=[("X-RSS-Seq", "1"), ("Set-Cookie", "session=amy"), ("Date", "today"), ("HX-Trigger", "x")])
    poll = _poll(view, store)
    body, amy = _poll_at_0(poll, gid)
    assert body == b"<div>new</div>" and view.closed == 1  # read whole, and the view's result closed
    assert amy.calls == [("200 OK", view.headers)]  # Amy gets the view's answer as it was
    assert poll._changed[(gid, 1)] == ([("X-RSS-Seq", "1"), ("HX-Trigger", "x")], b"<div>new</div>")
    body, brian = _poll_at_0(poll, gid)  # Brian, also at 0: from the poll
    assert body == b"<div>new</div>" and view.calls == 1
    assert brian.calls == [("200 OK", [("X-RSS-Seq", "1"), ("HX-Trigger", "x")])]


def test_a_result_without_close_is_kept_too(behind):
    store, gid = behind
    poll = _poll(View(closing=False), store)
    assert _poll_at_0(poll, gid)[0] == b"<div>new</div>" and (gid, 1) in poll._changed


@pytest.mark.parametrize(
    "view",
    [
        View(status="404 NOT FOUND", headers=[("X-RSS-Seq", "1")]),  # not a 200
        View(status="204 NO CONTENT", headers=[("X-RSS-Seq", "1")], chunks=[]),
        View(headers=[]),  # no seq said
        View(headers=[("X-RSS-Seq", "one")]),
        View(headers=[("X-RSS-Seq", "1"), ("Content-Encoding", "gzip")]),  # compressed for one phone
        View(lazy=True),  # start_response only once iterated: nothing known when it returns
    ],
    ids=["404", "204", "no seq", "odd seq", "gzip", "lazy"],
)
def test_any_other_answer_goes_to_the_phone_as_the_view_gave_it_and_is_not_kept(behind, view):
    store, gid = behind
    poll = _poll(view, store)
    body, server = _poll_at_0(poll, gid)
    assert body == b"".join(view.chunks) and server.calls == [(view.status, view.headers)]
    assert poll._changed == {}
    _poll_at_0(poll, gid)
    assert view.calls == 2  # the next phone asks the view again


def test_the_views_error_reaches_the_server_with_its_exc_info(behind):
    store, gid = behind
    view = View(status="500 INTERNAL SERVER ERROR", headers=[("X-RSS-Seq", "1")], error=True)
    poll = _poll(view, store)
    _, server = _poll_at_0(poll, gid)
    ((status, headers, exc_info),) = server.calls
    assert (status, headers) == (view.status, view.headers) and exc_info[0] is ValueError
    assert poll._changed == {}


def test_a_host_is_checked_once_then_remembered(served, monkeypatch):
    app, store, poll, gid, flask_saw = served
    _learned(app, gid)
    checked = []

    def counted(host):
        checked.append(host)
        return valid_host(host)

    monkeypatch.setattr(poll_module, "valid_host", counted)
    for _ in range(3):
        assert poll.answer(f"/games/{gid}/version", "seq=0", "table.local")[0] == 204
        assert poll.answer(f"/games/{gid}/version", "seq=0", "bad host") is None
    assert checked == ["table.local", "bad host"]


def test_before_the_204_is_learned_the_views_answers_reach_the_server_as_given(behind):
    store, gid = behind
    view = View(status="500 INTERNAL SERVER ERROR", headers=[("X-RSS-Seq", "1")], error=True)
    poll = FastPoll(view, store)
    _, server = _poll_at_0(poll, gid)
    ((status, headers, exc_info),) = server.calls
    assert (status, headers) == (view.status, view.headers) and exc_info[0] is ValueError
    assert poll._headers is None  # a 500 teaches nothing
    poll.wsgi_app = View(
        status="204 NO CONTENT", headers=[("Cache-Control", "no-store"), ("Vary", "Cookie")], chunks=[]
    )
    _, server = _poll_at_0(poll, gid)
    assert server.calls == [("204 NO CONTENT", [("Cache-Control", "no-store"), ("Vary", "Cookie")])]
    assert poll._headers == [("Cache-Control", "no-store")]


def test_an_environ_without_a_path_or_a_query_is_the_views(behind):
    """PEP 3333: PATH_INFO and QUERY_STRING may be absent."""
    store, gid = behind
    view = View()
    poll = _poll(view, store)
    server = Server()
    assert b"".join(poll({"REQUEST_METHOD": "GET"}, server)) == b"<div>new</div>" and view.calls == 1
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": f"/games/{gid}/version"}
    assert b"".join(poll(environ, server)) == b"<div>new</div>" and view.calls == 2
    assert poll._changed == {}  # not a poll of just seq=N: not kept
