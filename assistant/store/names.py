"""Which player and person names the app accepts: the one place the rule lives.

A name is refused when it is empty, too long, not valid Unicode, holds a control character (line
feeds and carriage returns among them), a line or paragraph separator or an invisible character
(bidi overrides among them), or looks the same as another name of the game.  Every name a person
types goes through these rules: new games, imports, resumed games and the score check (issue 26:
a name must not add lines such as "1. Mallory: 412" to a shared result):

* invisible: every Unicode format character (category Cf: zero-width space and joiners, word joiner,
  byte order mark, soft hyphen, bidi controls, ...) and the other default-ignorable code points
  (combining grapheme joiner, Hangul fillers, ...), which display as nothing or as a blank.
  Variation selectors are let through (a phone keyboard adds U+FE0F to many emoji); the skeleton
  ignores them.
* looks the same: equal confusable skeletons (Unicode Technical Standard #39, section 4), computed
  ignoring case, so Cyrillic "Аmy" and Latin "Amy", "AMY" and "АМY", "Il" and "ll", "Mary Ann" with
  an em space and with a space are one name.  Names equal after NFKC case folding ("amy", "AMY") are
  refused as the same name.

The skeleton comes from ``disarm`` (``skeleton_key``: the UTS #39 skeleton, lower-cased, whitespace
collapsed; digits mapped like letters with ``digit_policy="tr39"``).  The kept library
``confusable-homoglyphs`` has no skeleton (it finds confusable characters inside one string), and
``confusables`` installs a top-level ``tests`` package that shadows ours.  disarm deliberately
leaves out the multi-letter mappings such as "m" -> "rn", so "Tom" and "Torn" stay two names.
"""

from __future__ import annotations

import unicodedata

from disarm import skeleton_key

NAME_MAX = 60  # characters in a stored name (the form allows 30; two-handed seats add " (right hand)")

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt) as code point ranges.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Variation selectors: default-ignorable, but typed by phone keyboards after emoji; kept, skipped by the skeleton.
_VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


def _in(ch: str, ranges) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_invisible(ch: str) -> bool:
    """A character that displays as nothing (or a blank) and so can make two names look alike."""
    if _in(ch, _VARIATION_SELECTORS):
        return False
    return unicodedata.category(ch) == "Cf" or _in(ch, _DEFAULT_IGNORABLE)


def _char_label(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip()


def skeleton(text: str) -> str:
    """The confusable skeleton (UTS #39, case-insensitive): two names with equal skeletons look alike."""
    return skeleton_key(text, digit_policy="tr39")


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().strip()


def _has_surrogate(name: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in name)


def check_names(names, what: str = "player") -> str | None:
    """Why these names cannot be stored together (None if they can)."""
    if not isinstance(names, (list, tuple)):
        return f"the {what} names must be a list"
    for name in names:
        if not isinstance(name, str) or not name.strip():
            return f"every {what} needs a name"
        if len(name) > NAME_MAX:
            return f"a {what} name can have at most {NAME_MAX} characters"
        if _has_surrogate(name):
            return f"a {what} name is not valid Unicode text"
        if any(unicodedata.category(ch) == "Cc" for ch in name):
            return f"a {what} name contains a control character"
        if any(unicodedata.category(ch) in ("Zl", "Zp") for ch in name):  # U+2028, U+2029
            return f"a {what} name contains a line break"
        hidden = next((ch for ch in name if is_invisible(ch)), None)
        if hidden is not None:
            return f"a {what} name contains an invisible character ({_char_label(hidden)}); type the name again"
    seen: set[str] = set()
    for name in names:
        if _fold(name) in seen:
            return f"every {what} needs a different name"
        seen.add(_fold(name))
    looks: dict[str, str] = {}
    for name in names:
        other = looks.setdefault(skeleton(name), name)
        if other is not name:
            return (
                f"the {what} name “{name.strip()}” looks the same as “{other.strip()}” "
                "(letters from another alphabet or look-alike characters): choose a different name"
            )
    return None
