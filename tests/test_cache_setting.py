"""RSS_CACHE_GAMES: how many games' states a worker keeps in memory (README, settings)."""

from __future__ import annotations

from assistant.store import Store
from assistant.store import store as store_module


def _states_kept(tmp_path, monkeypatch, setting: str | None, games: int) -> int:
    if setting is None:
        monkeypatch.delenv("RSS_CACHE_GAMES", raising=False)
    else:
        monkeypatch.setenv("RSS_CACHE_GAMES", setting)
    s = Store(str(tmp_path / f"c{setting}.sqlite3"))
    for _ in range(games):
        gid = s.create_game(["Amy", "Brian", "Crystal"], ruleset="rolling-stock-stars")
        s.append(gid, 0, {"type": "reveal", "company": "BME"})
    kept = len(s._cache)
    s.close()
    return kept


def test_the_setting_says_how_many_games_stay_in_memory(tmp_path, monkeypatch):
    assert _states_kept(tmp_path, monkeypatch, "3", 5) == 3
    assert _states_kept(tmp_path, monkeypatch, "8", 5) == 5


def test_without_a_usable_setting_the_default_holds(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "CACHE_SIZE", 2)  # the default, made small to see it hold
    for setting in (None, "", "0", "lots", "-5"):
        assert _states_kept(tmp_path, monkeypatch, setting, 4) == 2, setting
