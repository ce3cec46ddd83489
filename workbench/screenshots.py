"""Screenshots of the game on a phone, kept in docs/screenshots: ``python -m app screenshots``.

Each game's board in the middle of a turn (the dice rolled, the landing spots offered) and a
finished game's review, as a 390 px phone shows them in Chromium (Debian's ``chromium`` and
Playwright's Python package: ``pip install -e '.[test]'``), from the app served on 127.0.0.1
with a store of its own. Regenerate them when the page changes.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

from app.engine.core import MOVE
from app.keys import Keys
from app.play import Game, demo_seats, simulation_seed
from app.web import create_app
from workbench.games import play_random, table_options
from workbench.phone_browser import CHROMIUM, PHONE
from workbench.pills_bench import PILLS_SHOWN

LABEL = "screenshots"  # the test keys' label: the same games every time


def _mid_turn(game: str, players: int):
    """A new game's first link as the server makes it (at the first player with a decision,
    their dice rolled), on the first seed where that decision is a choice of moves."""
    keys = Keys.for_tests(LABEL)
    options = table_options(game, players)
    for number in range(200):
        played = Game.new(game, demo_seats(game, players, options), keys,
                          seed=simulation_seed(f"{LABEL}/{game}", number), options=options)
        played.hand_on()
        if played.match.phase == MOVE:
            return played
    raise RuntimeError(f"no seed gives {game} a choice of moves first")


def take(out: str = "docs/screenshots", only: tuple[str, ...] = ()) -> list[str]:
    """Write the screenshots into ``out`` (``only`` those named, when given); their paths."""
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server


    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    keys = Keys.for_tests(LABEL)
    shots = [(f"{game}-{players}-mid-turn", f"/g/{_mid_turn(game, players).token()}",
              "#board .landing", players)
             for game, players in (("parcheesi", 4), ("red-arse", 4), ("ludo", 4))]
    shots.append(("review-phone", f"/g/{play_random('parcheesi', 2, LABEL, 0, keys).token()}",
                  "#gamereview", 2))
    shots = [shot for shot in shots if not only or shot[0] in only]
    written = []
    with tempfile.TemporaryDirectory() as store:
        # Fewer playouts than the product's, and none extra: the review is on screen in
        # seconds, its grades as sound as a quick look needs.
        app = create_app({"KEYS": keys, "STORE_URL": f"sqlite:///{store}/store.db",
                          "ANALYSIS_PLAYOUTS": 60, "REVIEW_PLAYOUTS": 60, "REVIEW_EXTRA": 0})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                     args=["--no-sandbox", "--disable-gpu"])
                for name, path, shown, seats in shots:
                    context = browser.new_context(viewport=PHONE, is_mobile=True,
                                                  has_touch=True, device_scale_factor=2)
                    page = context.new_page()
                    page.goto(f"http://127.0.0.1:{server.server_port}{path}")
                    page.locator(shown).first.wait_for(state="attached", timeout=30_000)
                    if name == "review-phone":  # every move reviewed, the luck in
                        page.wait_for_function(
                            "() => [...document.querySelectorAll('#stats td')].every("
                            "(td) => td.textContent !== '…')", timeout=120_000)
                        page.locator("#gamereview").scroll_into_view_if_needed()
                    else:
                        page.wait_for_function(PILLS_SHOWN, arg=seats, timeout=60_000)
                    target = folder / f"{name}.png"
                    page.screenshot(path=str(target))
                    written.append(str(target))
                    if name == INSTALLED:  # what "Install" shows, at one CSS px a pixel
                        written.append(_for_the_manifest(target))
                    context.close()
                browser.close()
        finally:
            server.shutdown()
    return written


INSTALLED = "parcheesi-4-mid-turn"  # the manifest's screenshot (app/web/icons.py)
MANIFEST_SHOT = Path(__file__).resolve().parents[1] / "static" / "img" / "screenshot-narrow.png"


def _for_the_manifest(shot: Path) -> str:
    """The shot at the phone's CSS size, in 128 colors: the web app manifest's screenshot,
    which an install dialog shows (26 KB rather than the shot's 120)."""
    from PIL import Image

    image = Image.open(shot).convert("RGB").resize((PHONE["width"], PHONE["height"]),
                                                  Image.LANCZOS)
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(MANIFEST_SHOT, "PNG",
                                                                     optimize=True)
    return str(MANIFEST_SHOT)
