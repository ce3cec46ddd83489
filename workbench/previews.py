"""``python -m app bench previews`` and ``python -m app previews``: the link preview images'
cost, and one image per board for docs/previews."""

from __future__ import annotations

import math
import time

from app.keys import Keys
from app.play import Game
from app.web import preview
from workbench.games import (
    SIM_KEYS_LABEL,
    TABLES,
    play_random,
    table_options,
    turn_links,
)
from workbench.measure import REPEATS, bench_app, spread

PREVIEW_POSITIONS = 8  # links per game whose preview ``bench previews`` draws


def preview_bench(game: str, players: int, games: int,
                  positions: int = PREVIEW_POSITIONS) -> dict:
    """The preview image's cost (``app/web/preview.py``): CPU time to draw and encode one
    (the fastest of ``REPEATS``: one core, as Pillow draws on one), and its size, over
    ``positions`` links of each of ``games`` random games, from their first turns to their
    end; and the whole answer to a preview fetcher asking for the image (Flask in process, a
    cold in-memory cache)."""

    keys = Keys.for_tests(SIM_KEYS_LABEL)
    options = table_options(game, players)
    timings, sizes, tokens = [], [], []
    for number in range(games):
        played = play_random(game, players, "bench/previews", number, keys, options)
        for token in turn_links(played, positions):
            at = Game.from_token(token, keys)
            fastest = math.inf
            for _ in range(REPEATS):
                t0 = time.process_time()
                png = preview.render(at)
                fastest = min(fastest, time.process_time() - t0)
            timings.append(fastest * 1000)
            sizes.append(len(png) / 1024)
            tokens.append(token)
    client = bench_app(keys).test_client()
    answers = []
    for token in tokens[:: max(1, len(tokens) // 20)]:
        client.application.extensions.pop("boardpass.previews", None)
        t0 = time.process_time()
        response = client.get(f"/g/{token}/preview.png",
                              headers={"User-Agent": "WhatsApp/2.23.20.0 A"})
        answers.append((time.process_time() - t0) * 1000)
        assert response.status_code == 200
    return {"game": game, "players": players, "images": len(timings),
            "render_ms": spread(timings, 1), "png_kb": spread(sizes, 1),
            "image_request_ms": spread(answers, 1)}


def write_previews(out: str) -> list[str]:
    """One preview image per board, of a game a little past its middle (reproducible: the
    bench's games), and the words that go with it: what docs/previews/ shows."""
    from pathlib import Path


    keys = Keys.for_tests(SIM_KEYS_LABEL)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game, players in TABLES:
        played = play_random(game, players, "bench/previews", 0, keys,
                             table_options(game, players))
        token = turn_links(played, 5)[3]
        at = Game.from_token(token, keys, watch := preview.Watch())
        name = f"{game}-{players}.png"
        (folder / name).write_bytes(preview.render(at))
        said = preview.words(at, "en", watch)
        written.append(f"{folder / name}: {said['title']} | {said['description']}")
    (folder / "generic.png").write_bytes(preview.generic_png())
    written.append(f"{folder / 'generic.png'}: Boardpass (a link that can't be read)")
    return written
