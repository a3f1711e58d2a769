"""Line charts of the game turn by turn, as plain numbers for the SVG templates (templates/charts/).

The figures come from the engine (``assistant.rules.history``); this module only scales them to
the SVG's coordinates.  Each line has its own colour class (``s1`` …, colours from CSS custom
properties, light and dark), dash pattern and marker shape, so it can be told apart without colour.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from assistant.rules.core.history import history

WIDTH, HEIGHT = 320, 200
LEFT, RIGHT, TOP, BOTTOM = 34, 14, 10, 30  # the plot area's margins (axis labels live there)
CHAR_WIDTH, GAP = 8.2, 6  # an x axis label's width per character (14 px text), the least space between two
# (dash pattern, marker shape, hollow marker); index i goes with colour class s{i+1}
STYLES = [
    (None, "circle", False),
    ("6 3", "square", False),
    ("2 3", "triangle", False),
    ("8 3 2 3", "diamond", False),
    (None, "triangle-down", True),
    ("6 3", "circle", True),
    ("2 3", "square", True),
    ("8 3 2 3", "triangle", True),
]
R = 3.5  # marker radius


def nice_ticks(hi: float, most: int = 5) -> list[int]:
    """0, step, 2·step, … up to the first tick at or above ``hi``; step 1, 2 or 5 × 10^k."""
    hi = max(hi, 1)
    raw = hi / (most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    step = max(int(step), 1)
    return list(range(0, int(math.ceil(hi / step)) * step + 1, step))


def marker(shape: str, x: float, y: float, r: float = R) -> str:
    """An SVG path for one marker centred on (x, y)."""
    if shape == "circle":
        return f"M{x - r:.1f},{y:.1f}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z"
    if shape == "square":
        s = r * 0.9
        return f"M{x - s:.1f},{y - s:.1f}h{2 * s:.1f}v{2 * s:.1f}h{-2 * s:.1f}Z"
    if shape == "triangle":
        return f"M{x:.1f},{y - r * 1.2:.1f}L{x + r * 1.1:.1f},{y + r * 0.8:.1f}L{x - r * 1.1:.1f},{y + r * 0.8:.1f}Z"
    if shape == "triangle-down":
        return f"M{x:.1f},{y + r * 1.2:.1f}L{x + r * 1.1:.1f},{y - r * 0.8:.1f}L{x - r * 1.1:.1f},{y - r * 0.8:.1f}Z"
    if shape == "diamond":
        s = r * 1.25
        return f"M{x:.1f},{y - s:.1f}L{x + s:.1f},{y:.1f}L{x:.1f},{y + s:.1f}L{x - s:.1f},{y:.1f}Z"
    raise ValueError(shape)


def _x_ticks(points: list[tuple[float, str]]) -> list[dict]:
    """Labels along the x axis: the first, every k-th and the last point, with the smallest k
    (1, 2, 5, 10, …) for which no two labels touch; a label too close to the last one gives way."""
    n = len(points)

    def span(i: int) -> tuple[float, float]:
        x, label = points[i]
        width = CHAR_WIDTH * len(label)
        return (x, x + width) if i == 0 and n > 1 else (x - width / 2, x + width / 2)

    def clear(a: int, b: int) -> bool:
        return span(a)[1] + GAP <= span(b)[0]

    for k in (1, 2, 5, 10, 20, 50, 100, n):
        kept = [i for i in range(n - 1) if i % k == 0]
        while kept and not clear(kept[-1], n - 1):
            kept.pop()
        kept.append(n - 1)
        if all(clear(a, b) for a, b in zip(kept, kept[1:], strict=False)):
            break
    return [
        {"x": points[i][0], "label": points[i][1], "anchor": "start" if i == 0 and n > 1 else "middle"} for i in kept
    ]


def line_chart(
    title: str, unit: str, labels: list[str], series: dict[str, list[int | None]], money: Callable[[int], str] = str
) -> dict:
    """Coordinates for one chart: axes with ticks, one line per series, a legend and a description
    (its figures as ``money`` writes them: the ruleset's ``cash``, "$40" in v2.2 and classic)."""
    n = len(labels)
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP
    values = [v for vs in series.values() for v in vs if v is not None]
    yticks = nice_ticks(max(values, default=1))
    top = yticks[-1]

    def sx(i: int) -> float:
        return (x0 + x1) / 2 if n == 1 else x0 + i * (x1 - x0) / (n - 1)

    def sy(v: float) -> float:
        return y0 - (y0 - y1) * v / top

    xticks = _x_ticks([(round(sx(i), 1), label) for i, label in enumerate(labels)])
    lines = []
    for k, (name, vs) in enumerate(series.items()):
        dash, shape, hollow = STYLES[k % len(STYLES)]
        path, pen_down, marks = [], False, []
        for i, v in enumerate(vs):
            if v is None:
                pen_down = False
                continue
            x, y = sx(i), sy(v)
            path.append(f"{'L' if pen_down else 'M'}{x:.1f},{y:.1f}")
            pen_down = True
            marks.append(marker(shape, x, y))
        present = [(labels[i], v) for i, v in enumerate(vs) if v is not None]
        lines.append(
            {
                "name": name,
                "cls": f"s{k % len(STYLES) + 1}",
                "dash": dash,
                "hollow": hollow,
                "path": "".join(path),
                "markers": "".join(marks),
                "sample_line": "M2,7H34",
                "sample_marker": marker(shape, 18, 7),
                "values": list(vs),
                "first": present[0] if present else None,
                "last": present[-1] if present else None,
                "last_said": money(present[-1][1]) if present else None,
            }
        )
    desc = "; ".join(_described(line, money) for line in lines if line["first"])
    return {
        "title": title,
        "unit": unit,
        "desc": desc,
        "width": WIDTH,
        "height": HEIGHT,
        "x0": x0,
        "x1": x1,
        "y0": y0,
        "y1": y1,
        "yticks": [{"y": round(sy(t), 1), "label": t} for t in yticks],
        "xticks": xticks,
        "labels": labels,
        "series": lines,
    }


def _described(line: dict, money: Callable[[int], str] = str) -> str:
    """ "Jupiter: 40 at the end of turn 3, 60 at the end"; one point once ("Jupiter: 60 at the end")."""
    (first_at, first), (last_at, last) = line["first"], line["last"]
    if first_at == last_at:
        return f"{line['name']}: {money(first)} {_when(first_at)}"
    return f"{line['name']}: {money(first)} {_when(first_at)}, {money(last)} {_when(last_at)}"


def _when(label: str) -> str:
    return {"start": "at the start", "now": "now", "end": "at the end"}.get(label, f"at the end of turn {label}")


def history_charts(game) -> dict | None:
    """The two charts of the standings and the final scoring, or None before anything happened."""
    h = history(game)
    if len(h["labels"]) < 2:
        return None
    charts = {
        "wealth": line_chart(
            "Each player's wealth by turn",
            "money + face values + shares at their price",
            h["labels"],
            h["players"],
            game.ruleset.cash,
        ),
        "prices": None,
    }
    if h["corporations"]:
        charts["prices"] = line_chart(
            "Share price by turn", "share price", h["labels"], h["corporations"], game.ruleset.cash
        )
    return charts
