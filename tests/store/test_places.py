"""Where the games are kept (assistant/store/places.py), on real folders of the test's own: the data
home ($XDG_DATA_HOME), $RSS_INSTANCE and the older default folders (``choose``'s ``earlier``, or the
environment's own folder under a ``sys.prefix`` of the test's).  tests/test_packaging.py runs the
same through real installs (slow); here each case of ``choose`` is one test, with the start line's
words written out."""

from __future__ import annotations

import os
import shlex
import sqlite3
import sys
from pathlib import Path

import pytest

from assistant.store import places
from assistant.store.places import Place


def _games(folder: Path, count: int) -> Path:
    """A database of ``count`` games in ``folder`` (only the table ``games_in`` counts)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "rss.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id)")
    conn.executemany("INSERT INTO games VALUES (?)", [(f"g{k}",) for k in range(count)])
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A data home of the test's own, no $RSS_INSTANCE: the standard folder is <home>/rss-assistant."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data home"))
    monkeypatch.delenv("RSS_INSTANCE", raising=False)
    return tmp_path / "data home"


# --- the folders -------------------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform != "linux", reason="the user's data folder as platformdirs names it on Linux")
def test_the_standard_folder_is_the_users_data_folder_for_the_app(home, monkeypatch):
    assert places.standard() == str(home / "rss-assistant")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", "/home/amy")
    assert places.standard() == "/home/amy/.local/share/rss-assistant"


def test_the_older_folders_are_the_checkouts_instance_and_the_environments(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    checkout = Path(places.__file__).resolve().parent.parent.parent  # assistant/store/places.py
    assert places.older() == [str(checkout / "instance"), str(tmp_path / "venv" / "var" / "assistant.web-instance")]


def test_a_place_names_its_database():
    assert Place("/srv/rss").database == os.path.join("/srv/rss", "rss.sqlite3")
    assert Place("/srv/rss").notes == []


def test_games_are_counted_read_only_with_nothing_or_an_empty_file_as_none(tmp_path):
    folder = tmp_path / "a folder?#with signs"  # (a file: URI quotes them)
    assert places.games_in(str(folder)) == 0  # no folder
    folder.mkdir()
    assert places.games_in(str(folder)) == 0  # no file
    (folder / "rss.sqlite3").touch()
    assert places.games_in(str(folder)) == 0  # an empty file: not opened
    assert (folder / "rss.sqlite3").stat().st_size == 0 and os.listdir(folder) == ["rss.sqlite3"]
    _games(folder, 0)
    assert places.games_in(str(folder)) == 0
    (folder / "rss.sqlite3").unlink()
    _games(folder, 3)
    assert places.games_in(str(folder)) == 3
    assert sorted(os.listdir(folder)) == ["rss.sqlite3"]


def test_a_file_that_is_not_a_database_of_games_counts_as_unreadable(tmp_path):
    (tmp_path / "rss.sqlite3").write_bytes(b"not a database, but long enough to be taken for one" * 100)
    assert places.games_in(str(tmp_path)) == -1
    other = tmp_path / "other"
    other.mkdir()
    conn = sqlite3.connect(other / "rss.sqlite3")
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    assert places.games_in(str(other)) == -1  # an SQLite file without games


def test_what_a_folder_holds_in_words():
    assert places._held(-1) == "a database that cannot be read"
    assert places._held(0) == "0 games"
    assert places._held(1) == "1 game"
    assert places._held(2) == "2 games"


def test_the_time_of_a_folder_without_a_database_is_zero(tmp_path):
    assert places._mtime(str(tmp_path)) == 0.0
    _games(tmp_path, 1)
    os.utime(tmp_path / "rss.sqlite3", (1_000_000, 1_234_567))
    assert places._mtime(str(tmp_path)) == 1_234_567


# --- choose ---------------------------------------------------------------------------------------------


def test_with_no_games_anywhere_the_standard_folder_is_used(home, tmp_path):
    empty = tmp_path / "older"
    empty.mkdir()
    (empty / "rss.sqlite3").touch()  # an older folder with an empty file: nothing to say
    assert places.choose(earlier=[str(empty), str(tmp_path / "none")]) == Place(str(home / "rss-assistant"))


def test_rss_instance_is_used_when_set_and_an_empty_one_is_not_set(home, tmp_path, monkeypatch):
    monkeypatch.setenv("RSS_INSTANCE", str(tmp_path / "mine"))
    assert places.choose(earlier=[]) == Place(str(tmp_path / "mine"))
    monkeypatch.setenv("RSS_INSTANCE", "")
    assert places.choose(earlier=[]) == Place(str(home / "rss-assistant"))


def _move(old, new) -> str:
    return f"mkdir -p {shlex.quote(str(new))} && mv {shlex.quote(str(old))}/* {shlex.quote(str(new))}/"


def test_an_older_folder_holding_the_games_is_used_when_the_standard_one_holds_none(home, tmp_path):
    older = tmp_path / "old venv" / "var" / "assistant.web-instance"
    _games(older, 2)
    standard = home / "rss-assistant"
    place = places.choose(earlier=[str(tmp_path / "none"), str(older)])
    assert place.folder == str(older) and place.database == str(older / "rss.sqlite3")
    assert place.notes == [
        f"Games: {older} holds 2 games, kept there by an earlier version; it is used. The standard "
        f"place is {standard}: to move them there, stop the server and run: "
        f"mkdir -p '{standard}' && mv '{older}'/* '{standard}'/"
    ]
    _games(standard, 0)  # a database without games yet: the same
    assert places.choose(earlier=[str(older)]).folder == str(older)


def test_the_move_it_names_moves_the_folder_as_a_shell_runs_it(home, tmp_path):
    import subprocess

    older = tmp_path / "old venv"
    _games(older, 1)
    (older / "secret_key").write_text("k" * 64)
    note = places.choose(earlier=[str(older)]).notes[0]
    subprocess.run(["sh", "-c", note.split("stop the server and run: ", 1)[1]], check=True)
    standard = home / "rss-assistant"
    assert sorted(os.listdir(standard)) == ["rss.sqlite3", "secret_key"] and os.listdir(older) == []
    assert places.choose(earlier=[str(older)]) == Place(str(standard))


def test_of_two_older_folders_with_games_the_latest_written_is_used_and_the_other_named(home, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    _games(first, 1)
    second.mkdir()
    (second / "rss.sqlite3").write_bytes(b"x" * 4096)  # garbage: a database that cannot be read
    os.utime(first / "rss.sqlite3", (2_000_000, 2_000_000))
    os.utime(second / "rss.sqlite3", (1_000_000, 1_000_000))
    standard = home / "rss-assistant"
    for earlier in ([str(first), str(second)], [str(second), str(first)]):
        place = places.choose(earlier=earlier)
        assert place.folder == str(first)
        assert place.notes == [
            f"Games: {first} holds 1 game, kept there by an earlier version; it is used. The standard "
            f"place is {standard}: to move them there, stop the server and run: {_move(first, standard)}",
            # into the database this server uses: the first folder's, not the standard one's
            f"Games elsewhere: {second / 'rss.sqlite3'} holds a database that cannot be read (an earlier "
            f"version's place) that this server does not show. To bring them here: rss-assistant copy-db "
            f"--from {second / 'rss.sqlite3'} --to {first / 'rss.sqlite3'}",
        ]
    os.utime(second / "rss.sqlite3", (3_000_000, 3_000_000))
    assert places.choose(earlier=[str(first), str(second)]).folder == str(second)


def _elsewhere(source: Path, held: str, used) -> str:
    return (
        f"Games elsewhere: {source} holds {held} (an earlier version's place) that this server does not show. "
        f"To bring them here: rss-assistant copy-db --from {shlex.quote(str(source))} --to {shlex.quote(str(used))}"
    )


def test_with_games_in_the_standard_folder_the_older_ones_are_only_named(home, tmp_path):
    older = tmp_path / "old venv"
    _games(older, 3)
    standard = home / "rss-assistant"
    _games(standard, 1)
    place = places.choose(earlier=[str(older)])
    assert place.folder == str(standard)
    assert place.notes == [_elsewhere(older / "rss.sqlite3", "3 games", standard / "rss.sqlite3")]


def test_a_named_database_is_where_the_games_are_brought(home, tmp_path):
    older = tmp_path / "older"
    _games(older, 1)
    place = places.choose(str(tmp_path / "named.sqlite3"), earlier=[str(older)])
    assert place.folder == str(home / "rss-assistant")  # not the older one: a database was named
    assert place.notes == [_elsewhere(older / "rss.sqlite3", "1 game", tmp_path / "named.sqlite3")]


def test_with_rss_instance_set_an_older_folder_is_only_named_unless_it_is_the_same(home, tmp_path, monkeypatch):
    older = tmp_path / "older"
    _games(older, 2)
    monkeypatch.setenv("RSS_INSTANCE", str(tmp_path / "mine"))
    place = places.choose(earlier=[str(older)])
    assert place.folder == str(tmp_path / "mine")
    assert place.notes == [_elsewhere(older / "rss.sqlite3", "2 games", tmp_path / "mine" / "rss.sqlite3")]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RSS_INSTANCE", "older")  # the same folder, named relative to the working folder
    assert places.choose(earlier=[str(older)]) == Place("older")
    monkeypatch.setenv("RSS_INSTANCE", str(older))
    assert places.choose(earlier=["older"]) == Place(str(older))


def test_without_a_list_the_older_folders_are_the_default_ones(home, tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    older = tmp_path / "venv" / "var" / "assistant.web-instance"
    _games(older, 1)
    _games(home / "rss-assistant", 1)
    notes = places.choose().notes
    assert _elsewhere(older / "rss.sqlite3", "1 game", home / "rss-assistant" / "rss.sqlite3") in notes
