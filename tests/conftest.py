"""Settings for the whole test suite.

Hypothesis profiles.  On a developer's machine Hypothesis draws new examples on every run (and
keeps failing ones in its local database).  In continuous integration (the ``CI`` environment
variable is set, as GitHub Actions, GitLab CI and most others do) the ``ci`` profile is loaded:
``derandomize=True`` makes every run draw the same examples from a fixed seed, so a failure seen
in CI is reproduced by running the same test again with ``CI=1``, and ``print_blob=True`` prints
the failing example's reproduction blob (for ``@reproduce_failure``) in the report.
``HYPOTHESIS_PROFILE`` chooses a profile by name and wins over ``CI``.

This file is loaded before any test module, so the settings objects the test modules build
(``settings(max_examples=...)``) inherit from the profile chosen here.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)


def hypothesis_profile(environ) -> str:
    """The Hypothesis profile for an environment: HYPOTHESIS_PROFILE, else "ci" when CI is set."""
    chosen = environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    return "ci" if environ.get("CI", "").strip().lower() not in ("", "0", "false") else "default"


settings.load_profile(hypothesis_profile(os.environ))

# The tests make many games from one address (127.0.0.1), far more than a table: the rate limit of
# new games (assistant/web/limits.py) is raised for them, here and in the servers they start (which
# inherit the environment). tests/robustness/test_limits.py checks the limit itself.
os.environ.setdefault("RSS_CREATE_LIMIT", "1000000/600")

# The default data folder is the user's (assistant/store/places.py): no test may write games or a
# secret there, so the tests and the servers they start see a data home of their own.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="rss-tests-data-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], True)


# Kinds of tests, marked by what they use (so a new test is marked by writing it the usual way):
# ``browser`` tests drive a real Chromium, ``server`` tests start the real server in a process of
# its own; ``slow`` tests play many games.  ``bash scripts/test.sh --quick`` runs the rest: the rules
# engine, the web app through Flask's test client, the store (tests/store), the look-alike names
# (README, "Set-up").
BROWSER_FIXTURES = {"browser", "live", "live_server"}
SERVER_FIXTURES = {"server_factory"}
SERVER_MODULES = {"test_server", "test_restart", "test_packaging", "test_stream", "test_stop"}
# ``slow`` tests play many games through the engine (playouts, previews of every event, random logs):
# the full suite runs them, ``--quick`` does not
SLOW_MODULES = {"test_random_playouts"}
SLOW_TESTS = {
    "test_previews_equal_the_game_after_the_event",
    "test_every_event_form_is_accepted_by_the_engine",
    "test_two_ci_runs_draw_the_same_examples",
    "test_the_image_is_drawn_with_the_bundled_font",
    "test_a_store_starting_from_saved_states_answers_as_the_replay",
    # 1,500 generated positions, each imported through the app
    "test_no_generated_position_gets_a_5xx_and_a_refused_one_stores_nothing",
    # whole games played through the app or replayed with a checkpoint after every event (every
    # game is played through the app, briefly, by tests/web/test_every_game.py)
    "test_a_classic_game_is_played_through_the_json_door_and_every_page_shows_it",
    "test_a_v22_game_is_played_through_the_forms_with_v22_names",
    "test_final_scoring_appears_at_the_end",
    "test_project_game_replays_as_v22_with_the_names_mapped",
    # random logs of entries, undos, redos, corrections and going back; undo at every ninth entry
    # of a recorded game, each replayed
    "test_the_words_since_any_row_are_the_words_of_the_whole_log",
    "test_undo_on_transcript",
    # a whole game imported and its result drawn as an image with its chart (the score check's
    # image stays in the quick subset)
    "test_a_finished_game_shares_its_result_as_an_image_text_and_a_printable_page",
}


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives a real browser (Chromium via Playwright)")
    config.addinivalue_line("markers", "server: starts the real server (or a built wheel) in a process of its own")
    config.addinivalue_line("markers", "slow: plays many games through the engine (not in the quick subset)")


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if fixtures & SERVER_FIXTURES or item.module.__name__.rsplit(".", 1)[-1] in SERVER_MODULES:
            item.add_marker(pytest.mark.server)
        if item.module.__name__.rsplit(".", 1)[-1] in SLOW_MODULES or getattr(item, "originalname", "") in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


# A throw-away PostgreSQL cluster for the whole session (tests/pgcluster.py), started only when a
# test asks for it; each test gets a fresh database of its own.
_PG = {}


def _cluster():
    import pytest

    from tests import pgcluster

    if "cluster" not in _PG:
        why = pgcluster.why_not()
        if why:
            pytest.skip(why)
        _PG["cluster"] = pgcluster.Cluster().__enter__()
    return _PG["cluster"]


def pytest_sessionfinish(session, exitstatus):
    cluster = _PG.pop("cluster", None)
    if cluster is not None:
        cluster.__exit__(None, None, None)


def _fresh_pg_url(request) -> str:
    import re

    name = "t_" + re.sub(r"[^a-z0-9]", "_", request.node.name.lower())[:40] + f"_{len(_PG)}"
    _PG[name] = True
    return _cluster().fresh_database(name)


import pytest  # noqa: E402


@pytest.fixture
def pg_url(request) -> str:
    """A fresh, empty PostgreSQL database (skips with the reason where PostgreSQL cannot run)."""
    return _fresh_pg_url(request)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request, tmp_path) -> str:
    """Each store: an SQLite file, and a PostgreSQL database (the same contract)."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    return _fresh_pg_url(request)


# Every game the assistant plays: each registered ruleset and the example fourth game, registered
# for the test the way docs/rulesets.md says (tests/rulesets.py); a game added to the registry is
# tested with no test edit.
from tests import rulesets as _rulesets  # noqa: E402


@pytest.fixture(params=_rulesets.KEYS)
def every_ruleset(request, monkeypatch):
    """One ruleset of every game, in the registry while the test runs."""
    _rulesets.register_example(monkeypatch)
    from assistant.rules import registry

    return registry.get(request.param)
