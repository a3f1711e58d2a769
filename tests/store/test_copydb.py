"""copy-db (assistant/store/copydb.py) between two SQLite files: every game with its whole log as
stored, a game already there and the same left alone, one with another log reported; the command
says what it did and fails on a problem."""

from __future__ import annotations

import io

from assistant.store import Store, copydb
from tests.store.test_saved_states import _long_game


def _two_games(path) -> tuple[Store, list[str]]:
    source = Store(str(path))
    source.import_transcript(_long_game(5))
    source.import_transcript(_long_game(3))
    return source, source.backend.game_ids()  # in the order they were made


def test_every_game_is_copied_with_its_log_as_stored_and_once(tmp_path):
    source, gids = _two_games(tmp_path / "from.sqlite3")
    target = Store(str(tmp_path / "to.sqlite3"))
    try:
        out = io.StringIO()
        assert copydb.copy(source, target, out) == (2, 0, [])
        rows = {gid: source.backend.rows(gid) for gid in gids}
        assert out.getvalue().splitlines() == [f"copied {gid}: {len(rows[gid])} log rows" for gid in gids]
        for gid in gids:  # every row as stored: its seq, event, token and time
            assert target.backend.rows(gid) == rows[gid] and len(rows[gid]) > 1
        out = io.StringIO()
        assert copydb.copy(source, target, out) == (0, 2, [])  # already there and the same
        assert out.getvalue() == ""
    finally:
        source.close()
        target.close()


def test_a_game_already_in_the_target_with_another_log_is_reported_and_the_others_copied(tmp_path):
    source, (first, second) = _two_games(tmp_path / "from.sqlite3")
    target = Store(str(tmp_path / "to.sqlite3"))
    try:
        shorter = [
            {"game_id": first, "seq": seq, "event": event, "token": token, "created": created}
            for seq, event, token, created in source.backend.rows(first)[:-1]
        ]
        target.backend.insert_game({k: source.backend.game_row(first).get(k) for k in copydb.GAME_COLUMNS}, shorter)
        assert copydb.copy(source, target, io.StringIO()) == (
            1,
            0,
            [f"game {first} is already in the target, with another log"],
        )
        assert target.backend.rows(second) == source.backend.rows(second)
    finally:
        source.close()
        target.close()


def test_the_command_says_what_it_copied_and_fails_on_a_problem(tmp_path, capsys):
    source, (first, _) = _two_games(tmp_path / "from.sqlite3")
    source.close()
    to = str(tmp_path / "to.sqlite3")
    capsys.readouterr()
    assert copydb.main(["--from", str(tmp_path / "from.sqlite3"), "--to", to]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[-1] == "2 games copied, 0 already there and the same; every copied game exports identically"
    assert copydb.main(["--from", str(tmp_path / "from.sqlite3"), "--to", to]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "0 games copied, 2 already there and the same; every copied game exports identically"
    ]
    # a third file holding the first game with its last row missing: refused, named, exit status 1
    source = Store(str(tmp_path / "from.sqlite3"))
    third = Store(str(tmp_path / "third.sqlite3"))
    shorter = [
        {"game_id": first, "seq": seq, "event": event, "token": token, "created": created}
        for seq, event, token, created in source.backend.rows(first)[:-1]
    ]
    third.backend.insert_game({k: source.backend.game_row(first).get(k) for k in copydb.GAME_COLUMNS}, shorter)
    source.close()
    third.close()
    assert copydb.main(["--from", str(tmp_path / "from.sqlite3"), "--to", str(tmp_path / "third.sqlite3")]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == f"game {first} is already in the target, with another log"


def test_the_command_names_itself_and_both_stores_are_needed(capsys):
    import pytest

    with pytest.raises(SystemExit) as done:
        copydb.main(["--help"])
    assert done.value.code == 0
    said = capsys.readouterr().out
    assert said.startswith("usage: python -m assistant copy-db [-h] --from SOURCE --to TARGET")
    assert "move a table's games to PostgreSQL" in " ".join(said.split())  # the module's own description
    assert "the store to copy from (an SQLite file)" in said and "the store to copy to (a postgresql:// URL)" in said
    for given, missing in ((["--from", "a.sqlite3"], "--to"), (["--to", "b.sqlite3"], "--from")):
        with pytest.raises(SystemExit) as done:
            copydb.main(given)
        assert done.value.code == 2 and f"the following arguments are required: {missing}" in capsys.readouterr().err
