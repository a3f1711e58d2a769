"""Draw the app's icons (static/icons/): the home-screen icons of the web app manifest, Apple's
touch icon and the favicon, from one SVG drawing, rendered with resvg (``pip install resvg-py``).

Run it after changing the drawing: ``python scripts/make_icons.py``.  The PNGs are kept in the
repository, so the app needs nothing at run time to serve them."""

from __future__ import annotations

import math
from pathlib import Path

import resvg_py

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
COLORS = ["#c62828", "#e07000", "#f2c200", "#2e7d32", "#1e5fb4"]  # the company colours


def star(cx: float, cy: float, outer: float, inner: float) -> str:
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        points.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(points)


def drawing(padding: float = 0) -> str:
    """The icon on a 512 x 512 canvas: a rising row of company cards under a star (``padding``:
    the safe margin of a maskable icon, where the background fills the whole square)."""
    s = 512
    inner = s - 2 * padding
    scale = inner / s
    cards = []
    for i, color in enumerate(COLORS):
        h = 90 + 32 * i
        cards.append(
            f'<rect x="{70 + 76 * i}" y="{440 - h}" width="64" height="{h}" rx="10" fill="{color}" '
            f'stroke="#ffffff" stroke-width="6"/>'
        )
    radius = 0 if padding else 96
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {s} {s}" width="{s}" height="{s}">'
        f'<rect width="{s}" height="{s}" rx="{radius}" fill="#14233b"/>'
        f'<g transform="translate({padding} {padding}) scale({scale:.4f})">'
        f'<polygon points="{star(256, 150, 96, 40)}" fill="#f2c200" stroke="#ffffff" stroke-width="6"/>'
        + "".join(cards)
        + "</g></svg>"
    )


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    (ICONS / "icon.svg").write_text(drawing() + "\n", encoding="utf-8")
    for name, size, padding in (
        ("icon-192.png", 192, 0),
        ("icon-512.png", 512, 0),
        ("maskable-512.png", 512, 52),
        ("apple-touch-icon.png", 180, 0),
    ):
        png = resvg_py.svg_to_bytes(svg_string=drawing(padding), width=size, height=size)
        (ICONS / name).write_bytes(bytes(png))
        print(f"{name}: {size} x {size}")


if __name__ == "__main__":
    main()
