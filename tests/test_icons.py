"""The icon and the web app manifest: every page names them, and each one is there (no 404 for
the favicon a browser asks for), the right size and kind, the manifest in the page's language."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from app.keys import Keys

KEYS = Keys.for_tests("icons")


@pytest.mark.parametrize("path", ["/", "/rules/ludo", "/whats-new"])
def test_every_page_names_its_icon_and_manifest_and_both_are_there(client, path):
    page = client.get(path)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for rel in ("icon", "apple-touch-icon", "manifest"):
        href = re.search(rf'<link rel="{rel}" href="([^"]+)"', html).group(1)
        assert client.get(href.replace("&amp;", "&")).status_code == 200, href


@pytest.mark.parametrize("size", [32, 180, 192, 512])
def test_each_icon_is_a_square_png_of_its_size_with_the_four_colors(client, size):
    answer = client.get(f"/icon-{size}.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert "max-age=86400" in answer.headers["Cache-Control"]
    image = Image.open(io.BytesIO(answer.data)).convert("RGB")
    assert image.size == (size, size)
    # A pawn in each corner: yellow top left, red bottom right (the layout's fills).
    assert image.getpixel((int(size * 0.27), int(size * 0.27))) == pytest.approx(
        (0xe8, 0xb4, 0x00), abs=12)
    assert image.getpixel((int(size * 0.73), int(size * 0.73))) == pytest.approx(
        (0xd3, 0x3a, 0x2c), abs=12)


def test_the_favicon_a_browser_asks_for_unasked_is_an_ico(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200 and answer.mimetype == "image/x-icon"
    assert Image.open(io.BytesIO(answer.data)).format == "ICO"
    assert client.get("/icon-33.png").status_code == 404  # only the sizes there are


@pytest.mark.parametrize("lang, words", [("en", "with friends"), ("es", "con amigos")])
def test_the_manifest_installs_boardpass_in_the_page_s_language(client, lang, words):
    answer = client.get(f"/manifest.webmanifest?lang={lang}")
    assert answer.mimetype == "application/manifest+json"
    manifest = answer.json
    assert manifest["name"] == "Boardpass" and manifest["lang"] == lang
    assert words in manifest["description"]
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200
        assert icon["sizes"] == "{0}x{0}".format(Image.open(io.BytesIO(
            client.get(icon["src"]).data)).size[0])
