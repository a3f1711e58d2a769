"""A small PNG reader for the tests (8-bit RGB or RGBA, not interlaced, as resvg writes them):
size and pixels, to check that a shared image shows its text."""

from __future__ import annotations

import struct
import zlib


def read(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGBA bytes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, "unexpected PNG kind"
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if channels == 3:  # RGB: add the alpha byte
            line = bytearray(b for i in range(0, stride, 3) for b in (*line[i : i + 3], 255))
        rows.append(bytes(line))
    return width, height, rows


def dark_pixels(rows: list[bytes], top: int, bottom: int, left: int = 0, right: int | None = None) -> int:
    """How many pixels of the band are dark (text, not the white or pale backgrounds)."""
    n = 0
    for row in rows[top:bottom]:
        end = len(row) // 4 if right is None else right
        for x in range(left, end):
            r, g, b = row[4 * x], row[4 * x + 1], row[4 * x + 2]
            n += r + g + b < 200
    return n
