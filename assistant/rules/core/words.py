"""English grammar for the sentences the app builds around names: the one place it lives.

Everything the engine (journal texts, refusals) and the screens say around a corporation's,
company's or player's name goes through these: the indefinite article ("an Eagle share", "a Union
share"), the possessive ("Amy's", "Stock Masters'"), a count with its noun ("1 share", "2 shares"),
a list of names ("Horse, Eagle and Ship") and the verb that agrees with it ("while Horse decides",
"while Horse and Eagle decide").

Pure functions of their arguments (no state, no imports beyond the standard library), so the rules
engine may use them too.  The ``inflect`` package knows articles as well, but importing it takes
seconds (typeguard instruments it), which every server worker and every engine import would pay.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

# Words that start with a vowel letter but a consonant sound ("a Union share", "a one-off"), and
# words that start with a consonant letter but a vowel sound ("an hour").
_CONSONANT_SOUND = re.compile(r"^(uni(?!mp|nc|nd|nf|nh|ns|nt|nv)|use|usu|ura|ure|uro|eu|ewe|one\b|once\b|ouija)", re.I)
_VOWEL_SOUND = re.compile(r"^(hour|honest|honou?r|heir)", re.I)
# Letters said with a vowel sound when an abbreviation is spelled out ("an FS", "an R&D"): A E F H I L M N O R S X
_SPELLED_VOWEL = set("AEFHILMNORSX")
# Numbers read with a vowel sound: 8, 11, 18, 80-89, 800..., 8000...
_NUMBER_VOWEL = re.compile(r"^(8|11(?!\d)|11\d{2}(?!\d)|18(?!\d)|18\d{2}(?!\d))")


@lru_cache(maxsize=4096)  # the same few names, again and again: a journal text each
def article(phrase: str) -> str:
    """ "a" or "an", as the first word of ``phrase`` sounds."""
    text = phrase.strip().lstrip("\"'“‘(")
    if not text:
        return "a"
    word = re.split(r"[\s\-,.]", text, maxsplit=1)[0]
    if word[0].isdigit():
        return "an" if _NUMBER_VOWEL.match(word) else "a"
    letters = word.replace("&", "")
    if 1 < len(letters) <= 3 and letters.isupper() and letters.isalpha():  # spelled out: "an FS", "a PRU"
        return "an" if letters[0] in _SPELLED_VOWEL else "a"
    if _VOWEL_SOUND.match(word):
        return "an"
    if _CONSONANT_SOUND.match(word):
        return "a"
    return "an" if word[0].lower() in "aeiou" else "a"


def a(phrase: str) -> str:
    """``phrase`` with its indefinite article: "an Eagle share", "a Horse share"."""
    return f"{article(phrase)} {phrase}"


def possessive(name: str) -> str:
    """ "Amy's", "Stock Masters'", "the KRS's": a name ending in a plain s takes the apostrophe alone
    (an abbreviation in capitals keeps 's)."""
    if not name:
        return name
    return f"{name}'" if name.endswith("s") and not name.endswith("'s") else f"{name}'s"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 share", "2 shares", "0 shares" (``plural``: when adding s is wrong)."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def plural(n: int, noun: str, plural: str | None = None) -> str:
    """The noun alone, as many as ``n`` ask for: "share" / "shares"."""
    return noun if n == 1 else (plural or noun + "s")


def and_list(names: Iterable[str], conjunction: str = "and") -> str:
    """ "Horse", "Horse and Eagle", "Horse, Eagle and Ship"."""
    items = [str(x) for x in names]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def agree(subjects, singular: str, plural: str) -> str:
    """The verb form that agrees with ``subjects`` (a count or the names): "decides" / "decide"."""
    n = subjects if isinstance(subjects, int) else len(list(subjects))
    return singular if n == 1 else plural


def they(names: Iterable[str], singular: str, plural: str) -> str:
    """The names and the verb that agrees with them: "Horse decides", "Horse and Eagle decide"."""
    items = list(names)
    return f"{and_list(items)} {agree(len(items), singular, plural)}"
