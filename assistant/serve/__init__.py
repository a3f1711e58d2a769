"""Serving the web app: everything between the socket and Flask.

``server.py`` is ``python -m assistant serve`` (granian's worker processes, or waitress) and
``supervisor.py`` starts it again when it stops; in each worker the RSGI front (``front.py``) reads
request bodies off the app's threads and answers the fast paths on the event loop: the game's event
streams (``stream.py``), the live-sync poll's "nothing new" (``poll.py``) and a malformed Host
(``hosts.py``).  The Flask app itself is ``assistant/web/``; nothing there imports this package."""
