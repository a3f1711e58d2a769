"""One-off transcription helper: turn the rules chapters of the Rolling Stock Players Guide
(chapter 1 "Learning the game" and chapter 3 "Variants") into
``assistant/rules/classic/guide_rules.json``: sections with anchors, in the Guide's order.

Run by hand when the Guide changes:
``python tools/extract_guide_rules.py ../shared/seeds/rolling-stock-players-guide.txt``.
The app reads only the JSON it writes, never ../shared.

The Guide's text was extracted from a two-column PDF with card pictures: every paragraph is one
line, but the columns and figures interleave, so the plan below names each section's paragraphs
by line number (figures of cards are left out).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "assistant" / "rules" / "classic" / "guide_rules.json"

# (anchor, group, title, paragraph line numbers): each paragraph of the extracted text is one
# line; the two-column pages interleave, so the paragraphs of each section are listed by hand,
# in reading order.
PLAN = [
    (
        "setting-up",
        "Setting up",
        "1.3 Setting up the training game",
        [499, 529, 531, 535, 539, 543, 553, 561, 571, 533, 537, 541, 545],
    ),
    ("short-and-full-game", "Setting up", "1.9 Setting up the short game and the full game", [1651]),
    ("two-player-variant", "Setting up", "3.7 Two players", [1769]),
    ("six-player-variant", "Setting up", "3.8 Epic six-player variant", [1763, 1771, 1773]),
    ("the-turn", "The turn", "1.4 The ten phases", [551]),
    ("phase-1-issue-new-shares", "The turn", "Phase 1 – issue new shares", [559]),
    ("issuing-shares", "The turn", "1.6.1 Issuing a share", [1543, 1497, 1513, 1517]),
    ("phase-2-form-corporations", "The turn", "Phase 2 – form corporations", [567, 1243]),
    ("going-public", "The turn", "1.5.2 Going public", [1287, 1269, 1239, 1245, 1329]),
    ("going-public-with-more-shares", "The turn", "1.6.2 Going public with more shares", [1525, 1547]),
    (
        "phase-3-auctions-and-share-trading",
        "The turn",
        "Phase 3 – auctions and share trading",
        [575, 751, 1175, 1179, 1183],
    ),
    (
        "buying-and-selling-shares",
        "The turn",
        "1.5.3 Buying and selling shares",
        [1337, 1341, 1345, 1335, 1339, 1343, 1347],
    ),
    ("the-100-card-in-phase-3", "The turn", "1.6.3 $0 and $100 in phase 3", [1557, 1565]),
    ("phase-4-determine-new-player-order", "The turn", "Phase 4 – determine new player order", [1209, 1217]),
    ("phase-5-foreign-investor", "The turn", "Phase 5 – foreign investor", [1181]),
    ("buying-companies", "The turn", "Phase 6 – corporations buy companies (1.5.6)", [1369, 1385, 1351, 1355, 1371]),
    ("closing-companies", "The turn", "Phase 7 – close companies (1.6.7)", [1575]),
    ("phase-8-collect-income", "The turn", "Phase 8 – collect income", [1205, 1383, 1389, 1393]),
    ("cost-of-ownership", "The turn", "1.6.8 Cost of ownership", [1563, 1587, 1593, 1595, 1609, 1621, 1589]),
    ("dividends-and-share-price", "The turn", "Phase 9 – pay dividends (1.5.9)", [1391, 1463, 1479, 1483, 1481, 1519]),
    ("share-price-0-and-100", "The turn", "1.6.9 $0 and $100 in phase 9", [1599, 1605]),
    ("end-of-game-check", "The turn", "Phase 10 – end of game check (1.6.10)", [1615]),
    ("how-the-game-ends", "The end", "1.7 How the game ends", [1627, 1629, 1633, 1637]),
    ("who-has-won", "The end", "1.8 Who has won?", [1643]),
    (
        "easily-missed-rules",
        "The end",
        "1.10 Easily missed or misunderstood rules",
        [1659, 1661, 1663, 1631, 1665, 1669, 1673, 1635, 1649, 1655],  # 1663 goes on at 1631
    ),
    ("open-companies", "Variants", "3.4 Open companies", [1741]),
    ("share-redemption", "Variants", "3.6 Share redemption", [1755]),
]

CORRECTIONS = [
    {
        "anchor": "corrections",
        "group": "Corrections",
        "title": "Three slips in the Guide's text",
        "text": (
            "4.1.5 says dividends are paid in phase 8; they are paid in phase 9.\n\n"
            "4.2.4 adds the face values of all red and orange companies and the DR to $174; "
            "they sum to $175.\n\n"
            "4.2.5 gives an income of $97 for VP, MM and LHR; chapter 6 lists no VP–MM synergy, "
            "so it is $81 (25 + 25 + 15 + 8 for VP–LHR + 8 for MM–LHR)."
        ),
    }
]


def _continues(before: str, after: str) -> bool:
    """A paragraph cut by a column or page break: it stops mid-sentence and the next goes on in lower case."""
    return not re.search(r"[.:!?”)]$", before) and after[:1].islower()


def _joined(before: str, after: str) -> str:
    """The two halves as one paragraph: "auc-" + "tion", "cen6" (a page number inside a word) + "tral"."""
    if before.endswith("-"):
        return before[:-1] + after
    word = re.search(r"([a-z]+)\d+$", before)
    if word:
        return before[: word.end(1)] + after
    return before + " " + after


# The Guide's figures are not transcribed: a sentence pointing at one says so.
FIGURES = {
    "as shown in the figure above": "as the Guide shows in a figure (not transcribed here)",
    "(see figure above)": "(the Guide shows it in a figure, not transcribed here)",
    "The corporation in the figure above consists of": "The corporation in the Guide's figure (not transcribed here) consists of",
}


def _mended(text: str) -> str:
    """A hyphen lost at a line break ("threeplayer"), and the figures the text points at."""
    text = re.sub(r"\b(two|three|four|five|six)player\b", r"\1-player", text)
    for said, instead in FIGURES.items():
        text = text.replace(said, instead)
    return text


def main(path: str) -> int:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    out = []
    for anchor, group, title, numbers in PLAN:
        paras = []
        for n in numbers:
            text = re.sub(r"\s+", " ", lines[n - 1]).strip()
            text = re.sub(r"^1\.6\.9 ", "", text)
            text = re.sub(r" \d{1,2}$", "", text)  # a page number at the end of a column
            if paras and _continues(paras[-1], text):
                paras[-1] = _joined(paras[-1], text)
            else:
                paras.append(text)
        out.append({"anchor": anchor, "group": group, "title": title, "text": _mended("\n\n".join(paras))})
    OUT.write_text(json.dumps(out + CORRECTIONS, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(out) + len(CORRECTIONS)} sections to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "../shared/seeds/rolling-stock-players-guide.txt"))
