"""The browser client's files as the ecosystem serves them (app/web/assets.py, compression.py):
content-hashed addresses kept a year as immutable, precompressed, and pages and JSON gzipped.
What a returning player's browser does with them is test_page_budget.py's."""

from __future__ import annotations

import gzip
import re

import brotli
import pytest

from app.web import ROOT, bundles, create_app
from app.web.assets import preloads


def linked(page: bytes) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page.decode())


def modules_app(app):
    """``app``'s twin loading the modules as they are (no esbuild, or ``BUNDLE_SCRIPTS=0``)."""
    return create_app({name: app.config[name] for name in ("KEYS", "TESTING", "STORE_URL")} |
                      {"BUNDLE_SCRIPTS": False})


@pytest.mark.parametrize("bundled", [True, False])
def test_a_page_links_its_files_by_content_and_they_keep_a_year(app, bundled):
    client = (app if bundled else modules_app(app)).test_client()
    urls = linked(client.get("/").data)
    script = "/static/bundle/home." if bundled else "/static/js/home."
    assert "/static/css/" in urls[0] and any(u.startswith(script) for u in urls)
    for url in urls:
        assert re.search(r"\.[0-9a-f]{12}\.(js|css)$", url), url
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "max-age=31536000, public, immutable"
        if not url.startswith("/static/bundle/"):
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


def scripts(page: bytes) -> list[str]:
    return re.findall(r'<script type="module" src="([^"]+)"', page.decode())


def test_a_page_loads_its_script_as_one_minified_bundle(client, api):
    """Where esbuild is installed (npm ci), a page's script and everything it imports come as
    one file, about half the modules' bytes, and nothing else to fetch before it runs;
    the finished game's graph and all-time table stay files of their own, loaded when a game
    is over."""
    assert bundles.available(), "esbuild is missing: npm ci installs it"
    page = client.get(f"/g/{api.create()['token']}").data
    [script] = scripts(page)
    assert script.startswith("/static/bundle/game.")
    assert b"modulepreload" not in page and b'type="importmap"' not in page
    bundle = client.get(script)
    modules = sum(len((ROOT / "static" / path).read_bytes()) for path in preloads("js/game.js"))
    assert len(bundle.data) < modules * 0.6, (len(bundle.data), modules)
    assert b'from"./' not in bundle.data and b'from "./' not in bundle.data  # no import left
    chunks = re.findall(rb'import\("\./([\w-]+\.js)"\)', bundle.data)
    assert {re.sub(rb"-\w+\.js", b"", chunk) for chunk in chunks} == {b"alltime", b"course"}
    for chunk in chunks:
        answer = client.get(f"/static/bundle/{chunk.decode()}")
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "max-age=31536000, public, immutable"


def test_a_server_s_next_worker_reuses_the_bundles_made_from_the_same_files(monkeypatch):
    """The bundles are listed under a name that holds the modules' content (and esbuild's
    version and options): another worker, or the next start with the same files, finds them
    there instead of running esbuild again."""
    from app.web import assets

    first = assets.bundled()
    assert first is not None, "esbuild is missing: npm ci installs it"

    def never(source):
        raise AssertionError(f"esbuild ran again for {source}")

    monkeypatch.setattr(bundles, "build", never)
    assets.bundled.cache_clear()
    try:
        assert assets.bundled() == first
    finally:
        assets.bundled.cache_clear()


def test_without_bundles_a_page_preloads_every_module_its_script_imports_and_no_review_graph(
        app):
    """Where there is no bundle (no esbuild: a quick start without npm, Lambda), the modules
    are fetched at once, not one import level after another; the finished game's graph and
    all-time table load only when a game is over."""
    modules = preloads("js/game.js")
    assert {"js/board.js", "js/table.js", "js/i18n.js"} <= set(modules)
    assert "js/course.js" not in modules and "js/alltime.js" not in modules
    page = modules_app(app).test_client().get("/").data.decode()
    assert scripts(page.encode()) == [re.search(r'src="(/static/js/home\.[0-9a-f]{12}\.js)"',
                                                page).group(1)]
    assert '<script type="importmap">' in page
    for module in preloads("js/home.js"):
        stem = module.removesuffix(".js")
        assert re.search(rf'<link rel="modulepreload" href="/static/{stem}\.[0-9a-f]{{12}}\.js">',
                         page), module


def test_every_page_script_is_bundled():
    """The templates' scripts are the ones bundles.py bundles (one it missed would load as
    modules, slower, where every other page is bundled)."""
    templates = (ROOT / "app/web/templates").glob("*.html")
    used = {found for template in templates for found in
            re.findall(r'{%\s*set script = "([^"]+)"', template.read_text(encoding="utf-8"))}
    assert used == set(bundles.PAGE_SCRIPTS)
