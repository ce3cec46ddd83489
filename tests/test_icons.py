"""The icon and the web app manifest: every page names them, and each one is there (no 404 for
the favicon a browser asks for), the right size and kind, the manifest in the page's language."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image


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


def test_the_manifest_installs_like_an_app_with_an_id_a_maskable_icon_and_a_screenshot(client):
    manifest = client.get("/manifest.webmanifest").json
    assert manifest["id"] == "/"
    (maskable,) = [i for i in manifest["icons"] if i.get("purpose") == "maskable" and
                   i["sizes"] == "512x512"]
    image = Image.open(io.BytesIO(client.get(maskable["src"]).data)).convert("RGBA")
    # Navy to every edge (a launcher's crop never shows a corner of nothing), and the pawns
    # inside the middle 80%: the crop's safe zone.
    assert all(image.getpixel(corner) == (0x14, 0x21, 0x3d, 255)
               for corner in ((0, 0), (511, 0), (0, 511), (511, 511)))
    assert image.getpixel((int(51 + 410 * 0.73), int(51 + 410 * 0.73)))[:3] == pytest.approx(
        (0xd3, 0x3a, 0x2c), abs=12)  # the red pawn, in the safe zone
    (shot,) = manifest["screenshots"]
    answer = client.get(shot["src"])
    assert answer.status_code == 200 and shot["form_factor"] == "narrow"
    assert "x".join(map(str, Image.open(io.BytesIO(answer.data)).size)) == shot["sizes"]
    assert client.get("/manifest.webmanifest?lang=es").json["screenshots"][0]["label"] == \
        "Una partida de Parchís en el celular"


def test_the_notification_badge_is_a_single_colour_shape(client):
    answer = client.get("/badge.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    image = Image.open(io.BytesIO(answer.data)).convert("RGBA")
    assert image.size == (96, 96)
    colours = {pixel[:3] for pixel in image.getdata() if pixel[3] > 0}
    assert colours == {(255, 255, 255)}  # white, shaded only by its edges' transparency
    assert image.getpixel((0, 0))[3] == 0 and image.getpixel((48, 48))[3] == 255
    worker = client.get("/sw.js").get_data(as_text=True)
    assert 'badge: "/badge.png"' in worker


def test_search_engines_list_no_game_and_no_room(client, keys):
    robots = client.get("/robots.txt")
    assert robots.status_code == 200 and robots.mimetype == "text/plain"
    assert robots.get_data(as_text=True) == "User-agent: *\nDisallow: /api/\n"
    from app.play import Game, demo_seats

    token = Game.new("ludo", demo_seats("ludo", 2), keys).token()
    for path in (f"/g/{token}", f"/g/{token}/preview.png", "/r/K7P2QX", "/r"):
        assert client.get(path).headers.get("X-Robots-Tag") == "noindex", path
    for path in ("/", "/rules/ludo", "/whats-new", "/preview.png"):
        assert "X-Robots-Tag" not in client.get(path).headers, path
