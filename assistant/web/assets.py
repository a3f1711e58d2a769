"""Light on the wire: compressed responses and content-hashed, precompressed static files.

* Static files get content-hashed names (``app.css`` -> ``app.3f2a9c1b0d4e.css``), written once
  with their gzip and Brotli versions (``whitenoise.compress``) into ``ASSETS_DIR`` (default
  ``instance/static``).  WhiteNoise serves them in front of Flask: the precompressed file the
  browser accepts, ``Cache-Control: max-age=…, public, immutable``; no CPU per request.  A new file
  content is a new name, so a phone never keeps a stale copy.  Templates write
  ``static_url('app.css')`` (never ``url_for('static', …)``).
* Dynamic responses (pages, components, JSON) go through Flask-Compress: zstd first (a fifth of
  the CPU of gzip or Brotli at a similar size, see benchmarks/compression.py), Brotli for browsers
  without zstd, then gzip.  Answers without a body (the idle ``204`` poll) are left exactly alone.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile

import rcssmin
import rjsmin
from flask import Flask, current_app, url_for
from flask_compress import Compress
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

HASHED = re.compile(r"\.[0-9a-f]{12}\.[A-Za-z0-9]+$")
ALGORITHMS = ["zstd", "br", "gzip"]
MIMETYPES = ["text/html", "text/css", "application/javascript", "application/json", "image/svg+xml"]


def hashed_name(name: str, data: bytes) -> str:
    stem, ext = os.path.splitext(name)
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:12]}{ext}"


def _without_header_comment(name: str, data: bytes) -> bytes:
    """A script's or style sheet's opening comment (its documentation, for the reader of the
    repository) is not sent to phones: a few hundred bytes of every first load."""
    if name.endswith((".js", ".css")) and data.startswith(b"/*") and b"*/" in data:
        end = data.index(b"*/") + 2
        return data[end:].lstrip(b"\n")
    return data


def as_sent(name: str, data: bytes) -> bytes:
    """A file as phones get it: without its opening comment, and a script or style sheet of our own
    minified (its comments and spaces are for the reader of the repository; about 2 KB of every
    first load, compressed).  A vendored ``.min.`` file is sent as it came."""
    data = _without_header_comment(name, data)
    if ".min." in name:
        return data
    if name.endswith(".js"):
        return rjsmin.jsmin(data)
    if name.endswith(".css"):
        return rcssmin.cssmin(data)
    return data


def build(source: str, target: str) -> dict[str, str]:
    """Copy every file of ``source`` to ``target`` under its hashed name, with ``.gz`` and ``.br``
    beside it; skip the ones already there.  Returns name -> hashed name (``/`` separated)."""
    manifest = {}
    compressor = Compressor(quiet=True)
    for folder, _dirs, files in os.walk(source):
        for filename in sorted(files):
            path = os.path.join(folder, filename)
            name = os.path.relpath(path, source).replace(os.sep, "/")
            with open(path, "rb") as f:
                data = as_sent(name, f.read())
            hashed = hashed_name(name, data)
            manifest[name] = hashed
            dest = os.path.join(target, *hashed.split("/"))
            if os.path.exists(dest):
                continue
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            # another process may build the same file at the same time: each writes its own
            # temporary files and renames them, the file itself last (its presence means done)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dest), prefix=".build-")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            for written in compressor.compress(tmp):
                os.replace(written, dest + written[len(tmp) :])
            os.replace(tmp, dest)
    return manifest


def static_url(name: str) -> str:
    """The URL of a static file under its content-hashed name."""
    return url_for("static", filename=current_app.extensions["rss_assets"][name])


def _immutable(path: str, url: str) -> bool:
    return bool(HASHED.search(url))


def _headers(headers, path: str, url: str) -> None:
    headers["X-Content-Type-Options"] = "nosniff"


class WithoutValidators:
    """A content-hashed file is ``immutable`` and kept for years: the browser never asks again, so its
    ``Last-Modified`` and ``ETag`` (added by WhiteNoise) are about 70 bytes of every first load for
    nothing."""

    DROP = {"last-modified", "etag"}

    def __init__(self, app, prefix: str):
        self.app, self.prefix = app, prefix.rstrip("/") + "/"

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if not (path.startswith(self.prefix) and HASHED.search(path)):
            return self.app(environ, start_response)

        def without(status, headers, exc_info=None):
            headers = [(k, v) for k, v in headers if k.lower() not in self.DROP]
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        return self.app(environ, without)


def init_app(app: Flask) -> None:
    target = app.config.get("ASSETS_DIR") or os.path.join(app.instance_path, "static")
    app.extensions["rss_assets"] = build(app.static_folder, target)
    app.jinja_env.globals["static_url"] = static_url
    app.wsgi_app = WhiteNoise(
        app.wsgi_app,
        root=target,
        prefix=app.static_url_path,
        immutable_file_test=_immutable,
        add_headers_function=_headers,
        allow_all_origins=False,
    )
    app.wsgi_app = WithoutValidators(app.wsgi_app, app.static_url_path)

    app.config.setdefault("COMPRESS_ALGORITHM", ALGORITHMS)
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_REGISTER", False)  # registered below, to skip bodiless answers
    compress = Compress(app)

    @app.after_request
    def _compress(response):
        if response.status_code in (204, 304):
            return response
        return compress.after_request(response)
