"""Boardpass's icon, web app manifest and service worker: the browser tab's favicon, the
home-screen icon, what "Add to home screen" installs, and the worker that shows a player's
"your turn" notifications (``static/sw.js``, served at ``/sw.js`` so that its scope is the whole
site).

The icon is drawn here with Pillow (already used for link previews) rather than kept as image
files: one drawing at every size, a board's four colored pawns on the header's navy, never out
of step. Each size is drawn once per process and cached for a day by browsers.
"""

from __future__ import annotations

import io
from functools import cache

from flask import Blueprint, Response, jsonify, send_from_directory, url_for

from app import i18n
from app.engine.text import N_
from app.web import ROOT
from app.web.assets import static_url
from app.web.layout import FILLS

bp = Blueprint("icons", __name__)

NAVY = "#14213d"  # the header bar's color (static/css/app.css)
BACKGROUND = "#fafaf7"  # the page's
PNG_SIZES = (32, 180, 192, 512)  # the tab, Apple's touch icon, the manifest's two
MASKABLE_SIZES = (192, 512)
BADGE_SIZE = 96  # Android's status bar badge, at its largest density
ICO_SIZES = (16, 32, 48)
DAY = 24 * 3600


@cache
def drawn(size: int) -> bytes:
    """The icon as a ``size`` px square PNG: four pawns, one per corner, in Parcheesi's colors,
    around a white cross (the board's middle) on a rounded navy square. Drawn four times larger
    and scaled down, for smooth edges."""
    from PIL import Image, ImageDraw

    big = size * 4
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.2, fill=NAVY)
    arm, thick = big * 0.3, big * 0.09
    middle = big / 2
    draw.rectangle((middle - thick, middle - arm, middle + thick, middle + arm), fill="white")
    draw.rectangle((middle - arm, middle - thick, middle + arm, middle + thick), fill="white")
    radius = big * 0.13
    for (x, y), color in zip(((0.27, 0.27), (0.73, 0.27), (0.73, 0.73), (0.27, 0.73)),
                             ("yellow", "blue", "red", "green")):
        cx, cy = x * big, y * big
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=FILLS[color],
                     outline="white", width=max(1, big // 64))
    out = io.BytesIO()
    image.resize((size, size), Image.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


@cache
def maskable(size: int) -> bytes:
    """The icon for a launcher that crops it to its own shape (a circle, a squircle): the navy
    to every edge, the cross and pawns within the middle 80% (the manifest's "maskable" safe
    zone), so no crop cuts a pawn."""
    from PIL import Image

    inner = round(size * 0.8)
    image = Image.new("RGB", (size, size), NAVY)
    drawing = Image.open(io.BytesIO(drawn(inner))).convert("RGBA")
    offset = (size - inner) // 2
    image.paste(drawing, (offset, offset), drawing)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


@cache
def badge() -> bytes:
    """The notification's badge: Android draws only its shape, in one colour, in the status
    bar, so it is the icon's cross and pawns in white on nothing (the full-colour icon there
    is a blank square)."""
    from PIL import Image, ImageDraw

    size, big = BADGE_SIZE, BADGE_SIZE * 4
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    arm, thick, middle, radius = big * 0.34, big * 0.08, big / 2, big * 0.15
    draw.rectangle((middle - thick, middle - arm, middle + thick, middle + arm), fill="white")
    draw.rectangle((middle - arm, middle - thick, middle + arm, middle + thick), fill="white")
    for x, y in ((0.22, 0.22), (0.78, 0.22), (0.78, 0.78), (0.22, 0.78)):
        draw.ellipse((x * big - radius, y * big - radius, x * big + radius, y * big + radius),
                     fill="white")
    out = io.BytesIO()
    image.resize((size, size), Image.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


@cache
def favicon() -> bytes:
    """The icon as ``favicon.ico`` (16, 32 and 48 px), for what asks for it by that name."""
    from PIL import Image

    out = io.BytesIO()
    Image.open(io.BytesIO(drawn(48))).save(out, "ICO", sizes=[(s, s) for s in ICO_SIZES])
    return out.getvalue()


def _image(data: bytes, mimetype: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.cache_control.public = True
    response.cache_control.max_age = DAY
    return response


@bp.get("/favicon.ico")
def favicon_ico():
    return _image(favicon(), "image/x-icon")


@bp.get("/icon-<int:size>.png")
def icon(size: int):
    if size not in PNG_SIZES:
        return Response(status=404)
    return _image(drawn(size), "image/png")


@bp.get("/icon-maskable-<int:size>.png")
def maskable_icon(size: int):
    if size not in MASKABLE_SIZES:
        return Response(status=404)
    return _image(maskable(size), "image/png")


@bp.get("/badge.png")
def badge_icon():
    return _image(badge(), "image/png")


@bp.get("/robots.txt")
def robots():
    """Crawlers may read every page but the API: a game's and a room's pages stay readable so
    that chat apps whose previewers follow robots.txt still show a link's preview, and each
    says ``noindex`` itself (``X-Robots-Tag``), so no search engine lists a game."""
    response = Response("User-agent: *\nDisallow: /api/\n", mimetype="text/plain")
    response.cache_control.public = True
    response.cache_control.max_age = DAY
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest, in the page's language: installed from the home screen, Boardpass
    opens on its home page in a window of its own."""
    response = jsonify({
        "name": "Boardpass", "short_name": "Boardpass",
        "description": i18n.say(N_("Parcheesi, Red Arse and Ludo with friends, by passing a "
                                   "link or live in a room.")),
        "id": "/", "lang": i18n.page_lang(), "start_url": url_for("pages.home"), "scope": "/",
        "display": "standalone", "background_color": BACKGROUND, "theme_color": NAVY,
        "icons": [{"src": url_for("icons.icon", size=size), "sizes": f"{size}x{size}",
                   "type": "image/png"} for size in (192, 512)] +
        [{"src": url_for("icons.maskable_icon", size=size), "sizes": f"{size}x{size}",
          "type": "image/png", "purpose": "maskable"} for size in MASKABLE_SIZES],
        "screenshots": [{"src": static_url("img/screenshot-narrow.png"),
                         "sizes": "390x844", "type": "image/png", "form_factor": "narrow",
                         "label": i18n.say(N_("A game of Parcheesi on a phone"))}]})
    response.mimetype = "application/manifest+json"
    response.cache_control.public = True
    response.cache_control.max_age = DAY
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker, from the site's root: its scope is every page. Checked for a newer
    version at every registration (no-cache), under the site's Content Security Policy."""
    response = send_from_directory(ROOT / "static", "sw.js", mimetype="text/javascript",
                                   max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.cache_control.no_cache = True
    response.cache_control.public = False
    return response
