"""One-off transcription helper: turn the rules chapters of the Rolling Stock Players Guide
(chapter 1 "Learning the game" and chapter 3 "Variants") into
``assistant/rules/classic/guide_rules.json``: sections with anchors, in the Guide's order.

Run by hand when the Guide changes:
``python tools/extract_guide_rules.py ../shared/seeds/rolling-stock-players-guide.txt``.
The app reads only the JSON it writes, never ../shared.

The Guide's text was extracted from a two-column PDF with card pictures: section numbers stand
on lines of their own, followed by the title; lines that are figures of cards (many "$" amounts,
synergy boxes, dot leaders) are dropped.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "assistant" / "rules" / "classic" / "guide_rules.json"

# section number -> (anchor, title); the rules sections of chapters 1 and 3, and the three
# corrections the app applies to the Guide's text.
SECTIONS = {
    "1.1": ("overview", "Overview"),
    "1.2": ("components", "Components"),
    "1.3": ("setting-up", "Setting up the game"),
    "1.4": ("the-first-turn", "The first turn"),
    "1.4.1": ("phase-1-issue-new-shares", "Phase 1 – issue new shares"),
    "1.4.2": ("phase-2-form-corporations", "Phase 2 – form corporations"),
    "1.4.3": ("phase-3-auctions-and-share-trading", "Phase 3 – auctions and share trading"),
    "1.4.4": ("phase-4-determine-new-player-order", "Phase 4 – determine new player order"),
    "1.4.5": ("phase-5-foreign-investor", "Phase 5 – foreign investor"),
    "1.4.6": ("phase-6-corporations-buy-companies", "Phase 6 – corporations buy companies"),
    "1.4.7": ("phase-7-close-companies", "Phase 7 – close companies"),
    "1.4.8": ("phase-8-collect-income", "Phase 8 – collect income"),
    "1.4.9": ("phase-9-pay-dividends", "Phase 9 – pay dividends"),
    "1.4.10": ("phase-10-end-of-game-check", "Phase 10 – end of game check"),
    "1.5.2": ("going-public", "Going public (turn 2)"),
    "1.5.3": ("buying-and-selling-shares", "Buying and selling shares"),
    "1.5.6": ("buying-companies", "Corporations buy companies"),
    "1.5.8": ("income-and-synergies", "Income and synergies"),
    "1.5.9": ("dividends-and-share-price", "Dividends and the share price"),
    "1.6.1": ("issuing-shares", "Issuing shares"),
    "1.6.2": ("going-public-with-more-shares", "Going public with more than one share"),
    "1.6.3": ("the-100-card-in-phase-3", "Phase 3 in later turns"),
    "1.6.7": ("closing-companies", "Closing companies"),
    "1.6.8": ("cost-of-ownership", "Cost of ownership"),
    "1.6.9": ("share-price-0-and-100", "Dividends: $0 and $100"),
    "1.6.10": ("end-of-game-check", "End of game check"),
    "1.7": ("how-the-game-ends", "How the game ends"),
    "1.8": ("who-has-won", "Who has won?"),
    "1.9": ("short-and-full-game", "The short game and the full game"),
    "1.10": ("easily-missed-rules", "Easily missed or misunderstood rules"),
    "3.4": ("open-companies", "Open companies"),
    "3.6": ("share-redemption", "Share redemption"),
    "3.7": ("two-player-variant", "Two-player variant"),
    "3.8": ("six-player-variant", "Epic six-player variant"),
}

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

NOISE = re.compile(r"(\$[\d∞–-]+.*){3,}|\.\s\.\s\.|^[A-Z]{1,5}( [A-Z]{1,5})* ?\(\d+\)|^\(\d+\)|^\+\$\d+")


def clean(lines: list[str]) -> str:
    kept = []
    for line in lines:
        s = line.strip()
        if not s or NOISE.search(s) or len(s) < 4 or re.fullmatch(r"[\d\s$()+–-]+", s):
            kept.append("")
            continue
        kept.append(s)
    paras, cur = [], []
    for s in kept:
        if s:
            cur.append(s)
        elif cur:
            paras.append(" ".join(cur))
            cur = []
    if cur:
        paras.append(" ".join(cur))
    paras = [p for p in paras if len(p) > 40]
    return "\n\n".join(paras)


def main(path: str) -> int:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    start = next(i for i, s in enumerate(lines) if s.startswith("Chapter 1"))
    heads = []
    for i in range(start, len(lines)):
        m = re.match(r"^(\d\.\d+(?:\.\d+)?)(?:\s|$)", lines[i])
        if m and (lines[i].strip() == m.group(1) or m.group(1) == "1.6.9"):
            heads.append((i, m.group(1)))
    out = []
    for k, (i, num) in enumerate(heads):
        if num not in SECTIONS or any(s["number"] == num for s in out):
            continue
        end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        body = lines[i + 1 : end]
        if num == "1.6.9":
            body = [lines[i][len(num) :]] + body
        text = clean(body)
        title_line = SECTIONS[num][1]
        text = re.sub(r"^" + re.escape(title_line) + r"\s*", "", text)
        anchor, title = SECTIONS[num]
        group = "Variants" if num.startswith("3.") else "Learning the game"
        out.append({"anchor": anchor, "group": group, "title": f"{num} {title}", "number": num, "text": text})
    order = list(SECTIONS)
    out.sort(key=lambda s: order.index(s["number"]))
    missing = [n for n in SECTIONS if not any(s["number"] == n for s in out)]
    if missing:
        print("sections not found:", ", ".join(missing), file=sys.stderr)
    for s in out:
        del s["number"]
    OUT.write_text(json.dumps(out + CORRECTIONS, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(out) + len(CORRECTIONS)} sections to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "../shared/seeds/rolling-stock-players-guide.txt"))
