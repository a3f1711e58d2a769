"""assistant/log/saved.py's bounds and signatures, exactly: pickles written here opcode by opcode,
whose charges are counted by hand from the loader's rule (every call charged 1 + the sizes of
its arguments, every filling 1 + the sizes of each part of its state, a size being a length or
1), against its budget (WORK items per byte of the state, plus 4096): spent to the last item
it loads, one item more it is refused.  And a real game's state saved and loaded back."""

from __future__ import annotations

import struct

import pytest

from assistant.log import saved
from assistant.log.walk import Walk
from assistant.rules import registry
from tests import corrected_game as hand

CALLS = 65  # one more than WORK: the state's own bytes cannot pay for them
SIGNING = saved.key_from_secret("the loaders' test")


@pytest.fixture(params=["unsigned", "signed"])
def load(request):
    """Each loader: ``loads`` (bounded: a state whose signature is not checked) and ``load_signed``
    (the C loader, for a state whose signature holds: signed here for game "g" at its row)."""
    if request.param == "unsigned":
        return saved.loads
    return lambda seq, data: saved.load_signed(SIGNING, "g", seq, saved.sign(SIGNING, "g", seq, data))


def _text(n: int) -> bytes:
    return b"X" + struct.pack("<I", n) + b"x" * n  # BINUNICODE: a text of n characters


RECORD = b"}(X\x04\x00\x00\x00gameNX\x04\x00\x00\x00walkNu."  # {"game": None, "walk": None}, STOP


def lists(n: int) -> bytes:
    """list(the text of n x) CALLS times, then int(7): charged CALLS * (1 + n) + (1 + 1)."""
    out = b"\x80\x02cbuiltins\nlist\nq\x00" + _text(n) + b"q\x01\x85R0"  # list(text), popped
    out += b"h\x00h\x01\x85R0" * (CALLS - 1)  # the same call again, from the memo
    out += b"cbuiltins\nint\nK\x07\x85R0"  # int(7): 7 has no length, it counts 1
    return out + RECORD


def walks(n: int) -> bytes:
    """CALLS walks, each made (NEWOBJ, no arguments: 1) and filled (BUILD with (None, {"out": the
    text}): 1 + 1 for None, 1 + n for the slots): charged CALLS * (n + 4)."""
    out = b"\x80\x02cassistant.log.walk\nWalk\nq\x00" + _text(n) + b"q\x01"
    out += b"0"  # the text, memoized, off the stack
    one = b"h\x00)\x81N}X\x03\x00\x00\x00outh\x01s\x86b0"  # Walk.__new__(Walk); (None, {"out": text}); BUILD; pop
    return out + one * CALLS + RECORD


def errors(n: int) -> bytes:
    """CALLS RuleErrors, each made (NEWOBJ: 1) and filled with a dict ({"why": the text}: 1 + n)."""
    out = b"\x80\x02cassistant.rules.core.errors\nRuleError\nq\x00" + _text(n) + b"q\x010"
    one = b"h\x00)\x81}X\x03\x00\x00\x00whyh\x01sb0"  # RuleError.__new__(RuleError); {"why": text}; BUILD; pop
    return out + one * CALLS + RECORD


def keywords(n: int) -> bytes:
    """CALLS walks made with keywords (NEWOBJ_EX, protocol 4: () charged 1, {"x": the text} 1 + n)."""
    out = b"\x80\x04cassistant.log.walk\nWalk\nq\x000" + _text(n) + b"q\x010"  # both memoized, off the stack
    one = b"h\x00)}X\x01\x00\x00\x00xh\x01s\x920"  # Walk.__new__(Walk, x=text); pop
    return out + one * CALLS + RECORD


def _spent_exactly(build, charge_of) -> int:
    """The length n whose state's charges are exactly its budget: WORK * len + 4096 == charge_of(n)."""
    fixed = len(build(0))  # the bytes besides the text's n
    for n in range(0, 200_000):
        if saved.WORK * (fixed + n) + 4096 == charge_of(n):
            return n
    raise AssertionError("no length spends the budget exactly")


@pytest.mark.parametrize(
    ("build", "charge_of"),
    [
        (lists, lambda n: CALLS * (1 + n) + 2),
        (walks, lambda n: CALLS * (n + 4)),
        (errors, lambda n: CALLS * (n + 2)),
        (keywords, lambda n: CALLS * (n + 2)),
    ],
    ids=["calls", "slot fillings", "dict fillings", "keyword calls"],
)
def test_a_state_may_spend_its_budget_to_the_last_item_and_not_one_more(build, charge_of):
    n = _spent_exactly(build, charge_of)
    loaded = saved.loads(7, build(n))
    assert (loaded.seq, loaded.game, loaded.walk) == (7, None, None)
    with pytest.raises(saved.Untrusted) as err:  # one character more: CALLS more items, 64 more allowed
        saved.loads(7, build(n + 1))
    assert str(err.value) == "loading this saved state would build far more than it holds: it is not loaded"


def test_a_state_of_the_largest_size_is_read_one_byte_more_is_not(load):
    with pytest.raises(Exception) as err:  # read (and found no pickle: it is not one)
        load(1, b"\x80\x04" + b"N" * (saved.MAX_BYTES - 2))
    assert "larger than" not in str(err.value)
    with pytest.raises(saved.Untrusted) as err:
        load(1, b"N" * (saved.MAX_BYTES + 1))
    assert str(err.value) == "a saved state of 4194305 bytes is larger than the 4194304 a state may be"


def _game():
    game = registry.STARS.create(hand.PLAYERS)
    for event in hand.EVENTS:
        game.apply(event)
    return game


def test_a_real_state_is_loaded_back_as_it_was_saved(load):
    game, walk = _game(), Walk.of_events(hand.EVENTS)
    data = saved.dumps(game, walk)
    assert len(data) * saved.WORK > 4096  # its budget is its size's, not the 4096 alone
    loaded = load(52, data)
    assert loaded.seq == 52 and loaded.game.snapshot() == game.snapshot()
    assert loaded.game.on_phase_end is None, "no callback saved (the store sets its own)"
    assert loaded.walk.out == hand.EVENTS and loaded.walk.taken_count == 52
    key = saved.key_from_secret("s3cret")
    assert saved.untrusted([("g", 52, saved.sign(key, "g", 52, data))], key) == []
    warned = saved.untrusted([("g", 52, saved.sign(key, "g", 51, data))], key)
    assert warned == [
        "game g: the state saved at row 52 is not used (its signature does not hold: it was not written by "
        "a server with this database's secret key for this game and row): it is treated as absent"
    ]


def test_a_secret_given_as_text_or_bytes_is_the_same_key():
    assert saved.key_from_secret("s3cret") == saved.key_from_secret(b"s3cret") != saved.key_from_secret("other")


def test_a_signed_empty_state_is_opened_to_nothing():
    key = saved.key_from_secret("k")
    stored = saved.sign(key, "g", 3, b"")
    assert len(stored) == saved.MAC_BYTES and saved.opened(key, "g", 3, stored) == b""
    with pytest.raises(saved.Untrusted):
        saved.opened(key, "g", 3, stored[:-1])


@pytest.mark.parametrize(
    "pid",
    [("ruleset", "rolling-stock-stars", "deck"), ("other", "rolling-stock-stars", None), ("ruleset", "x"), "ruleset"],
)
def test_a_reference_to_anything_but_a_rulesets_shared_parts_is_refused(pid, load):
    import io
    import pickle

    class Refers(pickle.Pickler):
        def persistent_id(self, obj):
            return pid if obj == "here" else None

    buffer = io.BytesIO()
    Refers(buffer, protocol=2).dump({"game": "here", "walk": None})
    with pytest.raises(saved.Untrusted) as err:
        load(1, buffer.getvalue())
    assert str(err.value) == f"unknown reference {pid!r} in a saved state"


def test_the_rulesets_shared_parts_are_found_again(load):
    import io
    import pickle

    ruleset = registry.get("rolling-stock-stars")

    class Refers(pickle.Pickler):
        def persistent_id(self, obj):
            refs = {"R!": ("ruleset", ruleset.key, None), "C!": ("ruleset", ruleset.key, "cards")}
            return refs.get(obj) if isinstance(obj, str) else None

    buffer = io.BytesIO()
    Refers(buffer, protocol=2).dump({"game": "R!", "walk": "C!"})
    loaded = load(1, buffer.getvalue())
    assert loaded.game is ruleset and loaded.walk is ruleset.cards


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("assistant.rules.core.game", "Journal"),  # a class the engine imports, not one it defines
        ("assistant.rules.core.words", "possessive"),  # a function the engine defines
        ("assistant.rules.core.game", "__loader__"),
        ("assistant.store.store", "Store"),
    ],
)
def test_the_loader_names_only_the_classes_the_engine_defines(module, name, load):
    data = b"\x80\x02c" + module.encode() + b"\n" + name.encode() + b"\n."
    with pytest.raises(saved.Untrusted) as err:
        load(1, data)
    assert str(err.value) == f"a saved state names {module}.{name}, which the loader does not build"


def test_a_signed_state_is_read_only_for_its_game_and_row_and_with_its_key():
    game, walk = _game(), Walk.of_events(hand.EVENTS)
    stored = saved.sign(SIGNING, "g", 52, saved.dumps(game, walk))
    assert saved.load_signed(SIGNING, "g", 52, stored).game.snapshot() == game.snapshot()
    for key, gid, seq, data in [
        (SIGNING, "h", 52, stored),  # another game's
        (SIGNING, "g", 51, stored),  # another row's
        (saved.key_from_secret("another server"), "g", 52, stored),
        (SIGNING, "g", 52, stored[:40] + bytes([stored[40] ^ 1]) + stored[41:]),  # one bit edited
    ]:
        with pytest.raises(saved.Untrusted) as err:
            saved.load_signed(key, gid, seq, data)
        assert str(err.value).startswith("its signature does not hold")
