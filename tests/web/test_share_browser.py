"""Sharing a finished game's result from a 360 px phone in Debian's chromium (issue 19): the final
scoring links the printable page; its image has the right size and its text is drawn; the page
is axe-clean light and dark and prints without its buttons."""

from __future__ import annotations

import json
import urllib.request

from .board_positions import finished
from .browser import ARTIFACTS, NEEDS_CHROMIUM, PHONE

pytestmark = NEEDS_CHROMIUM


def test_a_finished_game_is_shared_as_an_image_text_and_print(live, browser):
    from .test_accessibility import _problems, axe_sync

    req = urllib.request.Request(
        live + "/games/import", data=json.dumps(finished()).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        url = resp.url
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(url)
    page.locator("#c-scoring a", has_text="Text to copy, printable page").click()
    page.wait_for_url("**/result")
    text = page.locator("textarea.share-text").input_value()
    assert text.startswith("Rolling Stock Stars: final scoring") and "1. " in text
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
    page.emulate_media(media="print")
    assert page.locator(".share-ways").is_hidden(), "the buttons print"
    page.emulate_media(media="screen")
    image = page.evaluate(
        """async () => {
          const src = document.querySelector('.share-ways a[download]').href;
          const img = new Image(); img.src = src; await img.decode();
          const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
          const g = c.getContext('2d'); g.drawImage(img, 0, 0);
          const band = g.getImageData(0, 40, c.width, 50).data;  // the title's band
          let dark = 0; for (let i = 0; i < band.length; i += 4) { if (band[i] + band[i + 1] + band[i + 2] < 200) dark++; }
          return {width: img.naturalWidth, height: img.naturalHeight, dark};
        }"""
    )
    print(f"\nshared image: {image}")
    assert image["width"] == 1200 and image["height"] > 1000 and image["dark"] > 2000
    ARTIFACTS.mkdir(exist_ok=True)
    with urllib.request.urlopen(url + "/result.png", timeout=10) as resp:
        (ARTIFACTS / "shared-result.png").write_bytes(resp.read())
