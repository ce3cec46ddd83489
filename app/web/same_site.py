"""Forms and API calls only from our own pages: a request that changes something (POST, PUT,
PATCH, DELETE) is refused 403 before any handler runs when the browser says another site's page
sent it. Otherwise a page anywhere could post our New game form in a visitor's name, and use up
their address's limits (or a shared NAT's).

The browser says so in ``Sec-Fetch-Site`` (anything but ``same-origin``, or ``none``: typed or
bookmarked) and in ``Origin`` (another than the request's own host or ``PUBLIC_URL``'s).
``Origin: null`` says nothing: browsers send it for our own form posts too, since our pages
send no referrer. A client that sends neither header (curl, an older browser, a server) is
let through: the JSON API still takes only ``application/json``, which no page of another site
can send us without our leave (CORS), and there is no webhook a third party posts to.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, current_app, request

CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
OUR_PAGES = frozenset({"same-origin", "none"})  # Sec-Fetch-Site: our page, or the address bar


class CrossSite(ValueError):
    """A request that changes something, sent by another site's page."""


def init_app(app: Flask) -> None:
    app.before_request(refuse_other_sites)


def refuse_other_sites() -> None:
    """403 for a request that changes something when the browser says another site sent it."""
    if request.method in CHANGES and not from_our_pages():
        raise CrossSite()


def from_our_pages() -> bool:
    """Whether neither ``Sec-Fetch-Site`` nor ``Origin`` says another site's page sent this."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None and fetch_site.lower() not in OUR_PAGES:
        return False
    origin = (request.headers.get("Origin") or "null").strip().lower()
    if origin == "null":
        return True
    public = urlsplit(current_app.config["PUBLIC_URL"] or "")
    # The request's host, whatever its scheme: a proxy in front may have ended TLS.
    return origin == f"{public.scheme}://{public.netloc}".lower() or \
        origin.partition("://")[2] == request.host.lower()
