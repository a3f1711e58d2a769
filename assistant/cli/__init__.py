"""The command line's own work (``python -m assistant``, ``assistant/__main__.py``): replaying a
transcript (``replay.py``) and checking the scores of a final position (``score.py``)."""
