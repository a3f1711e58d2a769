"""Every page a table reads, fetched and reduced to what a person reads: the words test of issue 37
(tests/web/test_own_words.py) walks a game's pages with it.

A page's words are its visible text, its ``<title>``, and its ``title``, ``aria-label`` and ``alt``
attributes; never URLs, ids, classes, scripts, styles or JSON.  The pages are found by following
the links a page gives, from the table's page and the rules page, inside the one game.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

ATTRS = ("title", "aria-label", "alt")
SKIP = re.compile(r"/(export|history|state|stream|version|seats|events|qr\.svg|result\.png|manifest\.webmanifest|c/)")


class _Words(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.links: list[str] = []
        self._hidden = 0  # inside <script>, <style> or <template>

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if name in ATTRS and value:
                self.parts.append(value)
            if name in ("href", "hx-get") and value and tag in ("a", "link") and name == "href":
                self.links.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.parts.append(data)


def words_of(body: str, mimetype: str = "text/html") -> tuple[str, list[str]]:
    """What a person reads on a page (one line per piece), and the links it gives."""
    if mimetype != "text/html":
        return body, []
    parser = _Words()
    parser.feed(body)
    return "\n".join(" ".join(p.split()) for p in parser.parts), parser.links


def _shape(url: str) -> str:
    """The kind of a page: its path with numbers and query values left out."""
    parts = urlsplit(url)
    keys = ",".join(sorted(k.split("=")[0] for k in parts.query.split("&") if k))
    return re.sub(r"\d+", "N", parts.path) + "?" + keys


def crawl(client, gid: str, extra: tuple[str, ...] = (), per_kind: int = 3, limit: int = 90) -> dict[str, str]:
    """url -> the words of every page of game ``gid`` reached by links from its table page and its
    rules page (at most ``per_kind`` pages of one kind, e.g. three correction pages)."""
    todo = [f"/games/{gid}", f"/rules?game={gid}", *extra]
    seen, kinds, pages = set(todo), {}, {}
    inside = re.compile(rf"^/(games/{re.escape(gid)}(/|$|\?)|rules\?game={re.escape(gid)})")
    while todo and len(pages) < limit:
        url = todo.pop(0)
        resp = client.get(url)
        assert resp.status_code == 200, (url, resp.status_code)
        text, links = words_of(resp.get_data(as_text=True), resp.mimetype)
        pages[url] = text
        for link in links:
            link = link.replace("&amp;", "&").split("#")[0]
            if not inside.match(link) or SKIP.search(link) or link in seen:
                continue
            kind = _shape(link)
            if kinds.get(kind, 0) >= per_kind:
                continue
            kinds[kind] = kinds.get(kind, 0) + 1
            seen.add(link)
            todo.append(link)
    return pages
