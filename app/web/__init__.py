"""The web app: an application factory with blueprints for the pages people see, the link
previews, the icons and service worker, and the JSON API (api.py lists the API's).

Every handler decodes the link, replays it and answers; the game is never stored. What the
store keeps about links (``app/web/bookkeeping.py``) makes texts, older links and deadlines safe.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from flask import Flask, request

from app.keys import Keys

ROOT = Path(__file__).resolve().parents[2]

# What a page may load: only our own files; no inline script anywhere (player names are hostile).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, static_folder=None)  # /static/: WhiteNoise (assets.py)
    app.config.from_mapping(defaults())
    if config:
        app.config.update(config)
    # Turns queue their analysis ahead unless a test says otherwise: the suite's many turns
    # would keep a worker busy with full-size reviews (app/web/turns.py analyse_ahead).
    app.config.setdefault("ANALYSIS_AHEAD", not app.testing)
    from app.push import contact, parse_services

    app.config["PUSH_SERVICES"] = parse_services(app.config["PUSH_SERVICES"])  # or ValueError
    if contact(app.config["VAPID_SUBJECT"], app.config["PUBLIC_URL"] or "") is None and \
            os.environ.get("VAPID_PRIVATE_KEY"):  # (ValueError for a subject of another kind)
        app.logger.warning("Web Push: no VAPID_SUBJECT, and PUBLIC_URL is not https: no "
                           "notification will be sent")
    if "KEYS" not in app.config:
        app.config["KEYS"] = Keys.from_env()
    if app.config["PROXY_HOPS"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["PROXY_HOPS"])
    app.log_exception = _log_exception.__get__(app)
    from app.web import compression

    compression.init_app(app)  # first: it runs after every other after-request function
    _languages(app)

    from app.web import (analysis_api, api, assets, bookkeeping, errors, game_api, icons, pages,
                         preview_images, push_api, room_api, same_site, seat_api)

    assets.init_app(app)
    errors.init_app(app)
    if app.config["COMPILE_TEMPLATES"]:
        for name in app.jinja_env.list_templates():
            app.jinja_env.get_template(name)
    # The pages' import map is their one inline script: allowed by its hash (assets.py).
    csp = CSP.replace("script-src 'self'", f"script-src 'self' {assets.assets().import_map_hash}")

    same_site.init_app(app)  # before any handler: changes only from our own pages
    app.register_blueprint(pages.bp)
    app.register_blueprint(preview_images.bp)
    app.register_blueprint(icons.bp)
    for blueprint in (api.bp, game_api.bp, seat_api.bp, analysis_api.bp, room_api.bp,
                      push_api.bp):
        app.register_blueprint(blueprint, url_prefix="/api")
    app.after_request(bookkeeping.give_device)

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", csp)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")  # links are game keys
        if "Cache-Control" not in response.headers:
            # Pages, errors and redirects may hold a game's link (a key): no cache keeps them
            # unless they say so themselves (the boards, the client's words, the analysis).
            response.headers["Cache-Control"] = "no-store"
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", f"max-age={HSTS_SECONDS}")
        if _GAME_OR_ROOM.match(request.path):  # a game's or a room's: never in a search engine
            response.headers["X-Robots-Tag"] = "noindex"
        return response

    return app


def defaults() -> dict:
    """Every setting's default: from the environment variable of its name where the docs
    name one (docs/deploy.md, docs/rooms.md, docs/analysis.md), else the product's own.
    ``create_app`` sets them before a test's or a bench's own."""
    from app.engine import analysis
    from app.review import NICENESS, WAITING

    env = os.environ.get
    on_lambda = bool(env("AWS_LAMBDA_FUNCTION_NAME"))
    return dict(
        MAX_CONTENT_LENGTH=64 * 1024,  # a request carries a link and a turn: never more
        PUBLIC_URL=env("PUBLIC_URL", ""),
        STORE_URL=env("STORE_URL", ""),
        # A SQLite store not made yet is made at first use: the development server and the
        # tests. app.web.wsgi (Gunicorn, Lambda) says False: there, only `python -m app store
        # create-table` makes one (docs/store.md).
        STORE_CREATE=True,
        # Every template compiled when the app is made, so that a server's new worker answers
        # its first page as fast as the next (a game page's templates take about 70 ms to
        # compile). app.web.wsgi says True on a server (not on Lambda); tests make many apps.
        COMPILE_TEMPLATES=False,
        # Pages load their scripts bundled where esbuild is installed (app/web/bundles.py);
        # BUNDLE_SCRIPTS=0 loads the modules as they are.
        BUNDLE_SCRIPTS=env("BUNDLE_SCRIPTS", "1") != "0",
        TEXTS_PER_NUMBER_HOUR=int(env("TEXTS_PER_NUMBER_HOUR") or 6),
        TEXTS_PER_NUMBER_DAY=int(env("TEXTS_PER_NUMBER_DAY") or 20),
        TEXTS_PER_DAY=int(env("TEXTS_PER_DAY") or 1000),
        TEXT_COUNTRIES=[c.strip().upper() for c in
                        (env("TEXT_COUNTRIES") or "US,CA,GB,AR").split(",") if c.strip()],
        # What the rate limits count in the store (app/web/limits.py): "N per
        # second|minute|hour|day".
        **{name: env(name) or limit for name, limit in (
            ("GAMES_PER_ADDRESS", "60 per hour"),
            ("ROOMS_PER_ADDRESS", "30 per hour"),
            ("ROOM_JOINS_PER_ADDRESS", "60 per hour"),
            ("ROOM_MISSES_PER_ADDRESS", "20 per minute"),
            ("ROOM_MISSES_PER_NETWORK", "100 per minute"),
            ("ROOM_MISSES_IN_ALL", "120 per minute"),
            ("ROOM_SPEEDS_PER_ADDRESS", "60 per hour"),
            ("PREVIEWS_PER_ADDRESS", "10 per minute"),
            ("PREVIEWS_IN_ALL", "60 per minute"),
            ("PUSH_CHANGES_PER_ADDRESS", "30 per hour"),
        )},
        # The client's address (app/web/limits.py client_address): how many proxies in front
        # of the app add to X-Forwarded-For and are trusted, and the header Zappa fills with
        # API Gateway's source IP on Lambda (docs/deploy.md).
        PROXY_HOPS=int(env("PROXY_HOPS") or 0),
        SOURCE_IP_HEADER=env("SOURCE_IP_HEADER", ""),
        # A room's presence (app/web/room_api.py), in seconds: a visible page's poll (every
        # second) marks its seat seen in the store at most every ROOM_SEEN_EVERY_SECONDS, and
        # its first poll after a turn's time ran out at once; a seat whose page said it went
        # (closed or hidden), not seen for ROOM_OFFLINE_SECONDS, or not seen in the
        # ROOM_SILENT_SECONDS after a turn's time ran out, is disconnected; its turn waits
        # until ROOM_RECONNECT_SECONDS after the phone went (Ludo's text: two minutes) before
        # the timer plays it.
        ROOM_SEEN_EVERY_SECONDS=3,
        ROOM_OFFLINE_SECONDS=8,
        ROOM_SILENT_SECONDS=3,
        ROOM_RECONNECT_SECONDS=120,
        # The analysis (app/review.py analysts): answers worked out for one game in an hour;
        # the worker processes (one per core but one, which is left to the turns, and at
        # least one; none on Lambda), the requests admitted per worker besides the one it
        # works on, and the workers' priority (the test suite says 0: on a machine busy with
        # other work, workers at a lower priority than that work would get no time at all).
        ANALYSIS_PER_GAME_HOUR=int(env("ANALYSIS_PER_GAME_HOUR") or 1000),
        ANALYSIS_WORKERS=env("ANALYSIS_WORKERS") or
        (0 if on_lambda else max(1, (os.cpu_count() or 1) - 1)),
        ANALYSIS_WAITING=env("ANALYSIS_WAITING") or WAITING,
        ANALYSIS_NICENESS=env("ANALYSIS_NICENESS") or NICENESS,
        # How much each answer plays out (docs/analysis.md): the games behind a chance to win,
        # the games per option of a reviewed decision and the most added for a close call, and
        # the engine's steps any one answer may take. Tests set fewer.
        ANALYSIS_PLAYOUTS=analysis.PLAYOUTS,
        REVIEW_PLAYOUTS=analysis.REVIEW_PLAYOUTS,
        REVIEW_EXTRA=analysis.REVIEW_EXTRA,
        ANALYSIS_BUDGET=analysis.BUDGET,
        CLOCK=time.time,  # the server's clock: tests move their own
        # Web Push (app/push.py): the contact push services may write to about our VAPID key
        # (mailto: or https:; PUBLIC_URL when unset, if https: else nothing is pushed), and the
        # push services the server posts to (origins, comma-separated; the browsers' own when
        # unset).
        VAPID_SUBJECT=env("VAPID_SUBJECT", ""),
        PUSH_SERVICES=env("PUSH_SERVICES", "").split(","),
        # Pages and JSON gzipped by the app (compression.py); on Lambda, API Gateway does it.
        COMPRESS=not on_lambda,
    )


HSTS_SECONDS = 365 * 24 * 3600
_LINK_IN_PATH = re.compile(r"^(/g/|/api/games/|/r/|/api/rooms/)[^/]+")
_GAME_OR_ROOM = re.compile(r"^/(g|r)(/|$)")


def _log_exception(app: Flask, exc_info) -> None:
    """Flask's log line for an unexpected error, with the game's link (or room code) cut out of
    the path: a link is the key to a seat, and logs are read by more people than play."""
    path = _LINK_IN_PATH.sub(r"\1<link>", request.path)
    app.logger.error("Exception on %s [%s]", path, request.method, exc_info=exc_info)


def _languages(app: Flask) -> None:
    """Flask-Babel with our catalogs; a stale catalog is compiled first where we may write
    (development and tests: on Lambda the package already carries it). Templates get
    ``number_format()``: how the page's locale writes numbers (app/web/numbers.py)."""
    from flask_babel import Babel

    from app import i18n

    try:
        i18n.compile_catalogs()
    except OSError:
        pass
    Babel(app, locale_selector=i18n.select_locale,
          default_translation_directories=str(i18n.TRANSLATIONS))
    from app.web.numbers import number_format

    app.jinja_env.globals["number_format"] = number_format
