"""The server's settings in the environment (assistant/store/settings.py): what each kind of value
accepts, the default for an unset, empty or (outside ``serve``) refused one, and the one line per
refused setting that stops ``serve``'s start (issue 38).  The kinds are called here, at test time:
the table of settings is built with them once, on import."""

from __future__ import annotations

import pytest

from assistant.store import settings
from assistant.store.settings import BadSetting, _addresses, _choice, _number, _rate, _whole


@pytest.fixture(autouse=True)
def no_settings(monkeypatch):
    for name in settings.SETTINGS:
        monkeypatch.delenv(name, raising=False)


def _refused(parse, text):
    with pytest.raises(ValueError):  # noqa: PT011 - the parsers say no with a plain ValueError
        parse(text)


def test_a_number_from_its_lowest_on():
    parse = _number(0)
    assert parse("0") == 0.0
    assert parse("2.5") == 2.5
    assert parse("1e3") == 1000.0
    for text in ("-0.5", "-1", "nan", "inf", "-inf", "1e999", "abc", ""):
        _refused(parse, text)
    at_five = _number(5)
    assert at_five("5") == 5.0
    _refused(at_five, "4.99")


def test_a_number_above_its_lowest():
    parse = _number(0, above=True)
    _refused(parse, "0")
    _refused(parse, "-0.0")
    assert parse("0.001") == 0.001
    assert parse("15") == 15.0
    _refused(_number(2, above=True), "2")
    assert _number(2, above=True)("2.5") == 2.5


def test_a_whole_number_between_its_bounds():
    port = _whole(1, 65535)
    assert port("1") == 1
    assert port("65535") == 65535
    for text in ("0", "65536", "-5", "1.5", "80x", ""):
        _refused(port, text)
    assert _whole(0)("0") == 0
    _refused(_whole(0), "-1")
    assert _whole(1)("99999999") == 99999999  # no highest
    _refused(_whole(64), "63")
    assert _whole(64)("64") == 64
    assert _whole(3, 3)("3") == 3


def test_a_choice_of_words_in_any_case():
    parse = _choice("granian", "waitress")
    assert parse("waitress") == "waitress"
    assert parse("Granian") == "granian"
    assert parse("WAITRESS") == "waitress"
    for text in ("gunicorn", "granian2", ""):
        _refused(parse, text)


def test_a_rate_is_a_count_per_seconds_ten_minutes_unless_said():
    assert _rate("60/600") == (60, 600)
    assert _rate("1/1") == (1, 1)
    assert _rate("5") == (5, 600)
    for text in ("0/600", "5/0", "0", "-1/600", "ten/600", "5/", "5/ten", "/600"):
        _refused(_rate, text)


def test_addresses_separated_by_commas():
    assert _addresses("10.0.0.2") == frozenset({"10.0.0.2"})
    assert _addresses(" 10.0.0.2 , ::1,,") == frozenset({"10.0.0.2", "::1"})
    assert _addresses(",") == frozenset()
    _refused(_addresses, "the-proxy")
    _refused(_addresses, "10.0.0.2,10.0.0.300")


def test_get_answers_the_setting_or_its_default(monkeypatch):
    assert settings.get("RSS_PORT") == 5000
    assert settings.get("RSS_CREATE_LIMIT") == (60, 600)
    assert settings.get("RSS_HEAD_SECONDS", 7.0) == 7.0
    monkeypatch.setenv("RSS_PORT", "   ")
    assert settings.get("RSS_PORT") == 5000
    assert settings.get("RSS_PORT", 81) == 81
    monkeypatch.setenv("RSS_PORT", " 7000 ")
    assert settings.get("RSS_PORT") == 7000
    assert settings.get("RSS_PORT", 81) == 7000
    monkeypatch.setenv("RSS_CREATE_LIMIT", "10/60")
    assert settings.get("RSS_CREATE_LIMIT") == (10, 60)
    monkeypatch.setenv("RSS_SERVER", "Waitress")
    assert settings.get("RSS_SERVER") == "waitress"
    # one it does not accept: the default, outside serve
    monkeypatch.setenv("RSS_PORT", "70000")
    assert settings.get("RSS_PORT") == 5000
    assert settings.get("RSS_PORT", 81) == 81
    monkeypatch.setenv("RSS_GRACE_MS", "1e999")
    assert settings.get("RSS_GRACE_MS") == 50.0


def test_a_refused_value_is_named_with_what_its_setting_takes(monkeypatch):
    assert settings.problems() == []
    assert settings.check() is None
    monkeypatch.setenv("RSS_PORT", " 0 ")
    monkeypatch.setenv("RSS_TRUSTED_PROXIES", "the-proxy")
    monkeypatch.setenv("RSS_THREADS", "4")  # accepted
    port = "RSS_PORT='0' is not accepted: RSS_PORT takes a port number from 1 to 65535."
    proxies = (
        "RSS_TRUSTED_PROXIES='the-proxy' is not accepted: RSS_TRUSTED_PROXIES takes IP addresses separated by"
        " commas (e.g. 10.0.0.2,10.0.0.3)."
    )
    assert settings.problems() == [port, proxies]  # in the table's order
    with pytest.raises(BadSetting) as refused:
        settings._parsed("RSS_PORT")
    assert str(refused.value) == port
    assert refused.value.__cause__ is None
    assert refused.value.__suppress_context__
    with pytest.raises(SystemExit) as stopped:
        settings.check()
    assert stopped.value.code == port + "\n" + proxies


def test_an_unset_or_empty_setting_is_its_default_even_to_parsed(monkeypatch):
    assert settings._parsed("RSS_TRUSTED_PROXIES") == frozenset()
    monkeypatch.setenv("RSS_WORKERS", "")
    assert settings._parsed("RSS_WORKERS") == 0  # its default, which it would not accept as a value
    monkeypatch.setenv("RSS_WORKERS", "0")
    with pytest.raises(BadSetting):
        settings._parsed("RSS_WORKERS")


def test_each_setting_in_the_operations_guide_has_the_default_the_server_uses():
    """docs/operations.md's table of settings, as a host reads it: each documented default, given
    as the setting's value, means what the server does with the setting unset (RSS_GAME_MAX_MB was
    documented as 4 while the server took 8)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(RSS_[A-Z_]+)` \| `?([^|`]+?)`? \|", text, flags=re.M)
    assert len(rows) >= 15
    for name, documented in rows:
        setting = settings.SETTINGS[name]
        if documented == "none":
            continue  # (RSS_TRUSTED_PROXIES: no value to give)
        assert setting.parse(documented) == setting.default, name
