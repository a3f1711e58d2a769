"""Home page: only "new game" and "import"; never a list of games."""


def test_home_offers_new_game_and_import_only(client, table):
    gid = table.new_game()
    page = client.get("/")
    assert page.status_code == 200
    assert 'href="/games/new"' in page.text
    assert 'action="/games/import"' in page.text
    assert gid not in page.text
    assert "Amy" not in page.text


def test_unknown_page_is_a_clear_404(client):
    resp = client.get("/no/such/page")
    assert resp.status_code == 404
    assert "<h1>Not Found</h1>" in resp.text


def test_static_files_are_served_locally(client):
    js = client.get("/static/htmx.min.js")
    assert js.status_code == 200 and b"htmx" in js.data
    js.close()
    css = client.get("/static/app.css")
    assert css.status_code == 200 and b"prefers-color-scheme" in css.data
    css.close()
