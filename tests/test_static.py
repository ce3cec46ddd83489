"""The browser client's files as the ecosystem serves them (app/web/assets.py, compression.py):
content-hashed addresses kept a year as immutable, precompressed, and pages and JSON gzipped.
What a returning player's browser does with them is test_page_budget.py's."""

from __future__ import annotations

import gzip
import re

import brotli

from app.web import ROOT
from app.web.assets import preloads


def linked(page: bytes) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page.decode())


def test_a_page_links_its_files_by_content_and_they_keep_a_year(client):
    urls = linked(client.get("/").data)
    assert "/static/css/" in urls[0] and any(u.startswith("/static/js/home.") for u in urls)
    for url in urls:
        assert re.search(r"\.[0-9a-f]{12}\.(js|css)$", url), url
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "max-age=31536000, public, immutable"
        plain = re.sub(r"\.[0-9a-f]{12}\.", ".", url)
        assert answer.data == (ROOT / plain.removeprefix("/")).read_bytes()


def test_the_plain_address_still_answers_but_is_checked_at_every_use(client):
    answer = client.get("/static/js/board.js")
    assert answer.status_code == 200 and "max-age=0" in answer.headers["Cache-Control"]
    assert answer.data == (ROOT / "static/js/board.js").read_bytes()
    assert client.get("/static/js/nothing.js").status_code == 404


def test_files_come_compressed_as_the_browser_takes_them(client):
    url = next(u for u in linked(client.get("/").data) if u.endswith(".css"))
    source = client.get(url).data
    br = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert br.headers["Content-Encoding"] == "br" and brotli.decompress(br.data) == source
    gz = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip" and gzip.decompress(gz.data) == source
    assert len(gz.data) < len(source) / 3


def test_pages_and_json_are_gzipped_for_browsers_that_take_them(client):
    for url in ("/", "/rules/ludo", "/api/boards/ludo"):
        answer = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert answer.headers["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in answer.headers["Vary"]
        assert gzip.decompress(answer.data) == client.get(url).data, url
    assert "Content-Encoding" not in client.get("/").headers  # one that doesn't: as it is


def test_the_service_worker_stays_at_its_address_and_is_checked_at_every_registration(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and "no-cache" in answer.headers["Cache-Control"]
    assert "immutable" not in answer.headers["Cache-Control"]


def test_a_game_page_preloads_every_module_its_script_imports_and_no_review_graph(client):
    """Fetched at once, not one import level after another; the finished game's graph and
    all-time table load only when a game is over."""
    modules = preloads("js/game.js")
    assert {"js/board.js", "js/table.js", "js/i18n.js"} <= set(modules)
    assert "js/course.js" not in modules and "js/alltime.js" not in modules
    page = client.get("/").data.decode()
    for module in preloads("js/home.js"):
        stem = module.removesuffix(".js")
        assert re.search(rf'<link rel="modulepreload" href="/static/{stem}\.[0-9a-f]{{12}}\.js">',
                         page), module
