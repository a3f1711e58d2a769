"""Components that look the same on every phone are rendered once per game and seq."""

from assistant.web.views.table import SHARED


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
