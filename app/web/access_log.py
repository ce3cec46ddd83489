"""Gunicorn's access log without the links in it (``--logger-class
app.web.access_log.LinkFreeLogger``, docs/deploy.md).

A link is a game's key, and an access log keeps every request's path: a log that leaks would
hand out every game in it. Each link in a logged request line, path, query or referrer becomes
``link:<digest>``, the ledger's digest of it, so one game's requests can still be followed
through the log. Gunicorn is the reference server's, never Lambda's: nothing in the app imports
this module.
"""

from __future__ import annotations

import re

from gunicorn.glogging import Logger

from app.ledger import digest

# A signed link's token: the link's payload, a dot, its signature (URL-safe base64 both).
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")
# The atoms of Gunicorn's access log format that hold what the client asked for.
ASKED = ("r", "U", "q", "f")


def without_links(text: str) -> str:
    """``text`` with each link's token replaced by its digest.

    >>> without_links("GET /g/AQICAAIAA0FuYRADQmVu.-wEmSmrkUc9nk-UnyfaPeQ HTTP/1.1")
    'GET /g/link:BmjH7H9kdJds44o- HTTP/1.1'
    """
    return TOKEN.sub(lambda match: "link:" + digest(match.group(0)), text)


class LinkFreeLogger(Logger):
    """Gunicorn's logger, its access log's request atoms without links."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ASKED:
            if isinstance(atoms.get(name), str):
                atoms[name] = without_links(atoms[name])
        return atoms
