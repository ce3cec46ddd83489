"""Gunicorn's logs without the links in them (``--logger-class
app.web.access_log.LinkFreeLogger``, docs/deploy.md).

A link is a game's key, and an access log keeps every request's path: a log that leaks would
hand out every game in it. Each link in a logged request line, path, query or referrer becomes
``link:<digest>``, the ledger's digest of it, so one game's requests can still be followed
through the log; a room's code (``/r/<code>``, ``/api/rooms/<code>``, ``?code=``) becomes
``<room>`` (a code has too few letters for a digest to hide it). The text is percent-decoded
first, as the server decodes it (``%2E`` for a link's dot still reaches its game), and what
isn't printable ASCII is escaped again, so a request can't write lines of its own into the
log. Gunicorn's own messages (its error log: "Invalid request from ip=...: Invalid HTTP request
line: ...") get the same. Gunicorn is the reference server's, never Lambda's: nothing in the app
imports this module.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import quote, unquote

from gunicorn.glogging import Logger

from app.ledger import digest

# A signed link's token: the link's payload, a dot, its signature (URL-safe base64 both).
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")
# A room's code where an address holds it: in the path, or the "Join with a code" query.
ROOM = re.compile(r"(/r/|/api/rooms/|[?&]code=)[^/?&#\s\"']+")
# What stays as it is once decoded: printable ASCII but the escape character.
SHOWN = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != "%")
# The atoms of Gunicorn's access log format that hold what the client asked for.
ASKED = ("r", "U", "q", "f")


def without_links(text: str) -> str:
    """``text`` percent-decoded, with each link's token replaced by its digest and each room
    code left out.

    >>> without_links("GET /g/AQICAAIAA0FuYRADQmVu.-wEmSmrkUc9nk-UnyfaPeQ HTTP/1.1")
    'GET /g/link:BmjH7H9kdJds44o- HTTP/1.1'
    >>> without_links("GET /g/AQICAAIAA0FuYRADQmVu%2E-wEmSmrkUc9nk-UnyfaPeQ HTTP/1.1")
    'GET /g/link:BmjH7H9kdJds44o- HTTP/1.1'
    >>> without_links("GET /r/K7P2QX?x=%0A HTTP/1.1")
    'GET /r/<room>?x=%0A HTTP/1.1'
    """
    plain = unquote(text, errors="replace")
    plain = TOKEN.sub(lambda match: "link:" + digest(match.group(0)), plain)
    return quote(ROOM.sub(r"\1<room>", plain), safe=SHOWN)


class _LinkFreeRecords(logging.Filter):
    """Gunicorn's own messages (and their tracebacks) without links."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = without_links(record.getMessage()), ()
        if record.exc_info and not record.exc_text:
            trace = logging.Formatter().formatException(record.exc_info)
            record.exc_text = "\n".join(map(without_links, trace.splitlines()))
        return True


class LinkFreeLogger(Logger):
    """Gunicorn's logger: its access log's request atoms and its error log without links."""

    def __init__(self, cfg):
        super().__init__(cfg)
        self.error_log.addFilter(_LinkFreeRecords())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ASKED:
            if isinstance(atoms.get(name), str):
                atoms[name] = without_links(atoms[name])
        return atoms
