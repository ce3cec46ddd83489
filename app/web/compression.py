"""Pages and JSON answers gzipped for browsers that take it, where the app serves them itself
(the development server, Gunicorn): a game's page is mostly its data and words, and shrinks
about five times. On Lambda, API Gateway compresses instead (``COMPRESS`` is off there).
The static files come compressed already (assets.py).
"""

from __future__ import annotations

import gzip

from flask import request

TYPES = ("text/html", "application/json", "application/manifest+json")
SMALLEST = 512  # bytes: below this, gzip's own header and a request's overhead win
LEVEL = 6


def compress(response):
    """``response`` gzipped, when the browser accepts it and it is worth it."""
    response.vary.add("Accept-Encoding")
    if response.direct_passthrough or response.is_streamed or response.status_code < 200 or \
            response.status_code in (204, 304) or "Content-Encoding" in response.headers or \
            response.mimetype not in TYPES or "gzip" not in request.accept_encodings:
        return response
    body = response.get_data()
    if len(body) < SMALLEST:
        return response
    response.set_data(gzip.compress(body, LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    return response


def init_app(app) -> None:
    """Registered before every other after-request function, so it runs after all of them."""
    if app.config["COMPRESS"]:
        app.after_request(compress)
