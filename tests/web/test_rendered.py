"""Components that look the same on every phone are rendered once per game and seq."""

import re

from assistant.web.decision_groups import CSRF_HERE, TOKEN_HERE
from assistant.web.views.table import SHARED

FORM = re.compile(r"<form\b[^>]*>(.*?)</form>", re.DOTALL)
FIELD = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


def test_shared_components_are_rendered_once_for_all_phones(app, table):
    gid = table.started_game()
    cache = app.extensions["rss_rendered"]
    phones = [app.test_client() for _ in range(3)]
    first = {name: phones[0].get(f"/games/{gid}/c/{name}").text for name in SHARED}
    assert len(cache) == len(SHARED)
    for phone in phones[1:]:
        for name in SHARED:
            assert phone.get(f"/games/{gid}/c/{name}").text == first[name]
    assert len(cache) == len(SHARED)  # nothing rendered again


def test_a_new_event_is_a_new_rendering(app, table):
    gid = table.started_game()
    before = app.test_client().get(f"/games/{gid}/c/history").text
    table.act(gid, {"type": "pass", "player": "Amy"})
    after = app.test_client().get(f"/games/{gid}/c/history").text
    assert "Amy passes" in after and "Amy passes" not in before


def test_seat_dependent_components_are_not_shared(app, table):
    gid = table.started_game()
    amy, other = app.test_client(), app.test_client()
    amy.post(f"/games/{gid}/seat", data={"player": "Amy", "csrf_token": _csrf(amy, gid)})
    assert "my-turn" in amy.get(f"/games/{gid}/c/banner").text
    assert "my-turn" not in other.get(f"/games/{gid}/c/banner").text
    assert not any(key[2] == "banner" for key in app.extensions["rss_rendered"]._items)


def _csrf(client, gid):
    import re

    page = client.get(f"/games/{gid}").text
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_six_phones_asking_at_once_wait_for_one_render():
    """A change's message reaches a table's six phones together; their fetches arrive together: one
    renders, the other five get its result (a render here takes 0.2 s, so all six overlap)."""
    import threading
    import time

    from assistant.web.rendered import RenderedCache

    cache, calls, start = RenderedCache(), [], threading.Barrier(6)

    def render():
        calls.append(1)
        time.sleep(0.2)
        return "<div>region</div>"

    got = []

    def phone():
        start.wait()
        got.append(cache.get_or_render(("g", 7, "history", False), render))

    threads = [threading.Thread(target=phone) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert got == ["<div>region</div>"] * 6 and len(calls) == 1


def test_a_render_that_fails_leaves_the_others_to_render_for_themselves():
    import threading

    import pytest

    from assistant.web.rendered import RenderedCache

    cache, started, release = RenderedCache(), threading.Event(), threading.Event()

    def failing():
        started.set()
        release.wait(5)
        raise RuntimeError("the template broke")

    def first():
        with pytest.raises(RuntimeError):
            cache.get_or_render(("g", 1, "deck", False), failing)

    t = threading.Thread(target=first)
    t.start()
    started.wait(5)
    answer = []
    waiter = threading.Thread(target=lambda: answer.append(cache.get_or_render(("g", 1, "deck", False), lambda: "ok")))
    waiter.start()
    release.set()
    t.join(5)
    waiter.join(5)
    assert answer == ["ok"]


def _seated(app, gid, player):
    phone = app.test_client()
    assert phone.post(f"/games/{gid}/seat", data={"player": player, "csrf_token": _csrf(phone, gid)}).status_code == 303
    return phone


def test_decision_groups_are_rendered_once_for_the_table_each_phone_with_its_own_tokens(app, table):
    """Three seated phones fetch their Play region after the same change.  Each decision group is
    rendered once per way it looks ("mine" or not), and every phone's forms carry that phone's
    CSRF token and a token of their own: a form taken from the third phone's region is accepted."""
    gid = table.started_game()
    cache = app.extensions["rss_rendered"]
    phones = {name: _seated(app, gid, name) for name in ("Amy", "Brian", "Crystal")}
    renders, before = cache.renders, set(cache._items)
    regions = {
        name: phone.get(f"/games/{gid}/r/play", headers={"HX-Request": "true"}).text for name, phone in phones.items()
    }
    groups = [key for key in cache._items if key[2] == "decision-group"]
    assert groups, "the regions have decisions"
    # rendered once per way it looks: a group shows on all three phones, "mine" on at most one
    assert len(groups) <= 2 * len({key[3:6] for key in groups})
    assert cache.renders - renders == len(set(cache._items) - before)  # nothing rendered twice
    # Amy decides first: her phone shows the group as hers, the others' do not
    assert 'class="group mine"' in regions["Amy"]
    assert 'class="group mine"' not in regions["Brian"] + regions["Crystal"]
    tokens, sessions = [], []
    for name, html in regions.items():
        assert CSRF_HERE not in html and TOKEN_HERE not in html
        fields = [dict(FIELD.findall(form)) for form in FORM.findall(html)]
        # the phone's own session token (a signed token's first part; its timestamp may differ)
        own = _csrf(phones[name], gid).split(".")[0]
        assert fields and all(f["csrf_token"].split(".")[0] == own for f in fields)
        sessions.append(own)
        tokens += [f["token"] for f in fields]
    assert len(set(tokens)) == len(tokens)  # one token per form, on every phone
    assert len(set(sessions)) == 3
    # the third phone taps the first decision of its panel: accepted (its CSRF token is its own)
    form = FORM.search(regions["Crystal"]).group(0)
    data = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    answer = phones["Crystal"].post(f"/games/{gid}/act", data=data)
    assert answer.status_code == 303, answer.text[:500]
    assert table.state(gid)["seq"] > int(data["seq"])
