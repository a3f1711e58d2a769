"""One-off transcription helper: turn the Rolling Stock v2.2 rules into
``assistant/rules/stars/v22_rules.json``: sections with anchors, in the rules' own order and words.

Run by hand when the rules change:
``python tools/extract_v22_rules.py ../shared/seeds/rolling-stock-rules-v2.2.txt``.
The app reads only the JSON it writes, never ../shared.

The text keeps the rules' own words (its SMALL CAPS, its $ amounts); only the Markdown escapes and
emphasis marks go, and a paragraph cut by a page break is joined again.  v2.2 plays by the engine
of Rolling Stock Stars, so a section a refusal names is anchored as the Stars section it matches
(phase 3 is ``phase-3-acquisition``): a refusal links to the same rule in either game.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "assistant" / "rules" / "stars" / "v22_rules.json"

# the numbered phases of "Game Sequence": their anchors (the Stars sections they match)
PHASE_ANCHORS = {
    1: "phase-1-investment",
    2: "phase-2-wrap-up",
    3: "phase-3-acquisition",
    4: "phase-4-closing",
    5: "phase-5-income",
    6: "phase-6-dividends",
    7: "phase-7-end-card",
    8: "phase-8-issue-share",
    9: "phase-9-ipo",
}
HEADINGS = ("Components", "Setup", "Game Sequence", "Glossary", "Procedures")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\\$", "$").replace("*", "")).strip()


def paragraphs(raw: str) -> list[str]:
    """The text's paragraphs, a paragraph cut by a page break (it stops mid-sentence) joined again."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", raw):
        text = block.strip()
        if not text:
            continue
        if out and not re.search(r"[.:!?)”]$", out[-1]) and out[-1] not in HEADINGS and text[:1].islower():
            out[-1] = out[-1] + " " + text
        else:
            out.append(text)
    return out


def _entries(paras: list[str], group: str, terms: list[str]) -> list[dict]:
    """Glossary or procedure entries: each paragraph starts with its term."""
    out = []
    for para in paras:
        term = next((t for t in sorted(terms, key=len, reverse=True) if para.startswith(t + " ")), None)
        if term is None:
            out.append({"anchor": slug(group), "group": group, "title": group, "text": _clean(para)})
            continue
        out.append({"anchor": slug(term), "group": group, "title": term, "text": _clean(para[len(term) + 1 :])})
    return out


GLOSSARY = ["Any order", "Bank", "Book value", "Company", "Corporation", "Cost of ownership", "Deck", "Entity",
            "Face value", "Face value order", "Foreign investor", "Money", "Player", "Player order", "President",
            "Receivership", "Row", "Share", "Share price", "Share price order", "Synergy"]  # fmt: skip
PROCEDURES = ["Adjust share price", "Auction", "Buy one share", "Change of presidency", "Collect income",
              "Form corporation", "Go bankrupt", "Issue one share", "Pay dividends", "Sell one share"]  # fmt: skip


def main(path: str) -> int:
    paras = paragraphs(Path(path).read_text(encoding="utf-8"))
    parts: dict[str, list[str]] = {"Introduction": []}
    current = "Introduction"
    for para in paras:
        if para in HEADINGS:
            current = para
            parts[current] = []
        elif para != "Rolling Stock":
            parts[current].append(para)
    out = [
        {
            "anchor": "rules",
            "group": "Introduction",
            "title": "Rules v2.2",
            "text": "\n".join(map(_clean, parts["Introduction"])),
        }
    ]
    components = [p for para in parts["Components"] for p in re.split(r"\n(?=- )", para)]  # one line a kind of card
    out.append(
        {
            "anchor": "components",
            "group": "Introduction",
            "title": "Components",
            "text": "\n".join(map(_clean, components)),
        }
    )
    out.append({"anchor": "setup", "group": "Setup", "title": "Setup", "text": "\n".join(map(_clean, parts["Setup"]))})
    sequence = [p for para in parts["Game Sequence"] for p in re.split(r"\n(?=\d\. )", para)]
    out.append(
        {"anchor": "game-sequence", "group": "Game sequence", "title": "Game sequence", "text": _clean(sequence[0])}
    )
    for para in sequence[1:]:
        number = re.match(r"(\d)\. ", para)
        if number:
            no = int(number.group(1))
            out.append(
                {
                    "anchor": PHASE_ANCHORS[no],
                    "group": "Game sequence",
                    "title": f"Phase {no}",
                    "text": _clean(para[3:]),
                }
            )
        else:
            out.append({"anchor": "game-end", "group": "Game sequence", "title": "Game end", "text": _clean(para)})
    out += _entries(parts["Glossary"], "Glossary", GLOSSARY)
    out += _entries(parts["Procedures"], "Procedures", PROCEDURES)
    deck = next(s for s in out if s["anchor"] == "deck")
    assert deck and len({s["anchor"] for s in out}) == len(out), "an anchor twice"
    OUT.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(out)} sections to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "../shared/seeds/rolling-stock-rules-v2.2.txt"))
