"""Sharing a result: the final scoring as a PNG image (scores, ranking and, for a game played with
the app, the wealth chart), as text to paste into a chat, and as a printable page.

The image is an SVG drawing (templates/share/result.svg) rendered on the server by resvg with the
bundled DejaVu Sans (assistant/web/fonts/, its licence beside it): no system font and no network."""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import resvg_py
from flask import render_template

FONTS = Path(__file__).resolve().parent / "fonts"
FONT_FILES = [str(FONTS / "DejaVuSans.ttf"), str(FONTS / "DejaVuSans-Bold.ttf")]
WIDTH = 1200
ROW, ROW_DETAIL = 76, 100  # a row's height without and with its line of detail
CHART_WIDTH = WIDTH - 96
NOTE_ROW, NOTE_CHARS = 34, 80  # a line of the notes under the ranking (24 px)
# the charts' line colours on white (helpers.css, light): 3:1 against the background
PALETTE = ["#1f5fbf", "#b3261e", "#2e7d32", "#8e24aa", "#a35200", "#00796b", "#5d4037", "#3949ab"]


@dataclass
class Result:
    """What a shared result shows: a title, the ranking (rank, name, total, detail) and its lines."""

    title: str
    subtitle: str
    rows: list[dict]
    lines: list[str] = field(default_factory=list)
    chart: dict | None = None  # charts.line_chart of the wealth (a game played with the app)
    notes: list[str] = field(default_factory=list)  # shown under the ranking on the image too (tie-breaks)

    @property
    def text(self) -> str:
        """The result as plain text, for a chat."""
        out = [self.title, self.subtitle, ""]
        out += [
            f"{r['rank']}. {r['name']}: {r['total']}" + (f" ({r['detail']})" if r.get("detail") else "")
            for r in self.rows
        ]
        if self.notes:
            out += ["", *self.notes]
        extra = [line for line in self.lines if line not in self.notes]
        if extra:
            out += ["", *extra]
        return "\n".join(out) + "\n"

    @property
    def note_lines(self) -> list[str]:
        """The notes wrapped to the image's width (DejaVu Sans at 24 px: about 80 characters)."""
        return [part for note in self.notes for part in textwrap.wrap(note, NOTE_CHARS)]

    def key(self) -> str:
        """What the result shows, as one text (two results that show the same draw the same image)."""
        shown = [self.title, self.subtitle, self.rows, self.lines, self.chart, self.notes]
        return json.dumps(shown, sort_keys=True, default=str)

    def layout(self) -> dict:
        """Sizes of the drawing: the rows, then the chart and its legend."""
        row = ROW_DETAIL if any(r.get("detail") for r in self.rows) else ROW
        top = 160
        notes_top = top + len(self.rows) * row
        chart_top = notes_top + len(self.note_lines) * NOTE_ROW + 40
        chart_h = round(CHART_WIDTH * self.chart["height"] / self.chart["width"]) if self.chart else 0
        legend_rows = (len(self.chart["series"]) + 1) // 2 if self.chart else 0
        legend_top = chart_top + 50 + chart_h + 20
        height = legend_top + legend_rows * 44 + 30 if self.chart else chart_top
        return {
            "width": WIDTH,
            "height": height,
            "row": row,
            "top": top,
            "notes_top": notes_top,
            "note_row": NOTE_ROW,
            "chart_top": chart_top,
            "chart_h": chart_h,
            "legend_top": legend_top,
        }

    def svg(self) -> str:
        return render_template("share/result.svg", r=self, box=self.layout(), palette=PALETTE, chart_w=CHART_WIDTH)

    def png(self) -> bytes:
        return svg_to_png(self.svg())


def svg_to_png(svg: str) -> bytes:
    """The drawing as a PNG image, with the bundled fonts only."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            skip_system_fonts=True,
            font_files=FONT_FILES,
            font_family="DejaVu Sans",
            sans_serif_family="DejaVu Sans",
        )
    )


def of_game(v) -> Result:
    """A finished game's result (``v``: its TablePage), money as the game writes it ("$20" in v2.2)."""
    m = v.ruleset.cash
    rows = [
        {
            "rank": r["rank"],
            "name": r["name"],
            "total": m(r["total"]),
            "detail": f"cash {m(r['cash'])} · companies {m(r['companies'])} · shares {m(r['shares'])}",
        }
        for r in v.final or []
    ]
    th = v.two_handed_result
    subtitle = f"{len(rows)} players · {v.snap.get('turn')} turns"
    if th:
        subtitle += f" · {th['winner']} wins the two-handed game"
    lines = [f"{r['name']}: " + " ".join(r["lines"]) for r in v.final or [] if r["lines"]]
    chart = (v.charts or {}).get("wealth")
    return Result(f"{v.ruleset.title}: final scoring", subtitle, rows, lines, chart)


def of_score_check(ruleset, result: dict) -> Result:
    """A score check's result (a game played on paper): the ranking, no chart."""
    m = ruleset.cash
    rows = [{"rank": r["place"], "name": r["player"], "total": m(r["score"]), "detail": None} for r in result["rows"]]
    subtitle = "checked with the table assistant"
    if result.get("two_handed"):
        subtitle += f" · {result['winner']} wins the two-handed game"
    return Result(
        f"{ruleset.title}: final scores",
        subtitle,
        rows,
        list(result["lines"]),
        notes=list(result.get("ties") or ()),
    )
