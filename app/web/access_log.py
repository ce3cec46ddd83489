"""Gunicorn's logs without the links in them (``--logger-class
app.web.access_log.LinkFreeLogger``, docs/deploy.md).

A link is a game's key, and an access log keeps every request's path: a log that leaks would
hand out every game in it. Each link in a logged request line, path, query or referrer becomes
``link:<digest>``, the ledger's digest of it, so one game's requests can still be followed
through the log; a room's code (``/r/<code>``, ``/api/rooms/<code>``, ``?code=``) becomes
``<room>`` (a code has too few letters for a digest to hide it).

An address is read as a whole, the way the server reads it: the path percent-decoded (``%2E``
for a link's dot still reaches its game) and cut at its slashes, the query cut at its ``&``
and each name and value decoded (``+`` a space). A decoded space ends nothing: the code reader
takes "K7P 2QX", "k7p-2qx" and " K7P\\t2QX " alike (``app.rooms.read_code``), and a phone may
break a link with a space, so the whole segment or value where a code or a link stands is left
out, never a part of it. What isn't printable ASCII, and a space, is escaped again, so a
request can't write lines of its own into the log and its address stays one word.

Gunicorn's own messages (its error log: "Invalid request from ip=...: Invalid HTTP request
line: ...") get the same, word by word; a code cut by a space there is left out up to its sixth
letter, and what Gunicorn took for the HTTP version of a line whose address held a space (the
rest of the address) is left out. Gunicorn is the reference server's, never Lambda's: nothing
in the app imports this module.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import quote, unquote, unquote_plus

from gunicorn.glogging import Logger

from app.ledger import digest

# A signed link's token: the link's payload, a dot, its signature (URL-safe base64 both).
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")
# The path segments after which the next one is a room's code, or a link (as the routes have
# them, anywhere in a path, in any case).
ROOM_AFTER = (("r",), ("api", "rooms"))
LINK_AFTER = (("g",), ("api", "games"))
# What a room code may be written with between its letters, in a message's text: white space
# (as it is, escaped in a URL, or as Python's repr writes it) and punctuation.
_SEPARATOR = (r"(?:\s|[-+.,:;_~]|%[0-9A-Fa-f]{2}|"
              r"\\(?:[abfnrtv]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}))")
# A room's code in a message's text: up to its sixth letter, whatever stands between them.
SPACED_ROOM = re.compile(r"(/r/+|/api/rooms/+|[?&]code=)((?:%s*[A-Za-z0-9]){1,6})" % _SEPARATOR,
                         re.IGNORECASE)
# Gunicorn's message for a request line whose third part isn't a version: with a space in the
# address, that part is the rest of the address.
NOT_A_VERSION = re.compile(r"(Invalid HTTP Version: )('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")
VERSION = re.compile(r"HTTP/\d+(?:\.\d+)?")
# What stays as it is once decoded: printable ASCII but the escape character (in a message's
# text); in an address, not the space or the double quote either, nor in a query's name or
# value what would cut it.
SHOWN = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != "%")
SHOWN_IN_PATH = "".join(c for c in SHOWN if c not in ' "?#')
SHOWN_IN_QUERY = "".join(c for c in SHOWN_IN_PATH if c not in "&=+")


def without_links(text: str) -> str:
    """``text`` (a message: words and addresses) with each link's token replaced by its digest
    and each room code left out: each word read as an address (``address``), a code cut by
    white space left out up to its sixth letter.

    >>> without_links("GET /g/AQICAAIAA0FuYRADQmVu.-wEmSmrkUc9nk-UnyfaPeQ HTTP/1.1")
    'GET /g/link:BmjH7H9kdJds44o- HTTP/1.1'
    >>> without_links("GET /g/AQICAAIAA0FuYRADQmVu%2E-wEmSmrkUc9nk-UnyfaPeQ HTTP/1.1")
    'GET /g/link:BmjH7H9kdJds44o- HTTP/1.1'
    >>> without_links("GET /r/K7P2QX?x=%0A HTTP/1.1")
    'GET /r/<room>?x=%0A HTTP/1.1'
    >>> without_links("Invalid HTTP request line: 'GET /r/K7P 2QX'")
    "Invalid HTTP request line: 'GET /r/<room>'"
    >>> without_links("Invalid HTTP Version: '2QX HTTP/1.1'")
    "Invalid HTTP Version: '<left out> HTTP/1.1'"
    """
    text = NOT_A_VERSION.sub(_version, text)
    text = SPACED_ROOM.sub(r"\1<room>", text)
    words = re.split(r"(\s+|['\"])", text)
    return "".join(quote(word, safe=SHOWN) if i % 2 else address(word)
                   for i, word in enumerate(words))


def _version(match: re.Match) -> str:
    said = match.group(2)
    quoted, inside = said[0], said[1:-1]
    if VERSION.fullmatch(inside):
        return match.group(0)
    version = inside.rpartition(" ")[2]
    kept = " " + version if VERSION.fullmatch(version) else ""
    return f"{match.group(1)}{quoted}<left out>{kept}{quoted}"


def request_line(line: str) -> str:
    """Gunicorn's request line (method, address as sent, protocol) without links or codes.

    >>> request_line("GET /r/K7P%202QX?lang=es HTTP/1.1")
    'GET /r/<room>?lang=es HTTP/1.1'
    """
    method, _, rest = line.partition(" ")
    target, _, protocol = rest.rpartition(" ")
    if not target or " " in target:
        return without_links(line)
    return f"{quote(method, safe=SHOWN_IN_PATH)} {address(target)} " \
           f"{quote(protocol, safe=SHOWN_IN_PATH)}"


def address(sent: str, decoded: bool = False) -> str:
    """An address (a request's target, or a whole URL) as sent, percent-encoded (or already
    ``decoded``), without links or codes, escaped again.

    >>> address("/r?lang=es&%63ode=k7p+2qx")
    '/r?lang=es&code=<room>'
    >>> address("https://x.example/api/rooms/K7P%C2%A02QX/join")
    'https://x.example/api/rooms/<room>/join'
    >>> address("/g/AQICAAIAA0FuYRADQmVu.-wEmSmrkU%20c9nk-UnyfaPeQ")
    '/g/link:pKFr6fjWHh4yI_xg'
    """
    before, hashed, fragment = sent.partition("#")
    path, asked, query = before.partition("?")
    site = re.match(r"[A-Za-z][A-Za-z0-9+.-]*://[^/]*", path)
    start = site.group(0) if site else ""
    path = path[len(start):]
    if not decoded:
        start, path, fragment = (unquote(part, errors="replace")
                                 for part in (start, path, fragment))
    shown = quote(start, safe=SHOWN_IN_PATH) + path_shown(path)
    if asked:
        shown += "?" + query_shown(query, decoded)
    if hashed:
        shown += "#" + quote(_links_in(fragment), safe=SHOWN_IN_PATH)
    return shown


def path_shown(path: str) -> str:
    """A decoded path without links or codes, escaped again: the segment after ``/r/`` or
    ``/api/rooms/`` becomes ``<room>``, after ``/g/`` or ``/api/games/`` its digest, whole,
    whatever it holds; any other segment that holds a link (once rid of spaces and pluses)
    becomes the link's digest.

    >>> path_shown("/api/rooms/ k7p-2qx /join")
    '/api/rooms/<room>/join'
    >>> path_shown("/r//K7P2QX/preview.png")
    '/r//<room>/preview.png'
    """
    segments = path.split("/")
    before: list[str] = []  # the segments so far, lower case ("." and ".." and empty aside)
    for i, segment in enumerate(segments):
        if segment in ("", ".", ".."):
            segments[i] = quote(segment, safe=SHOWN_IN_PATH)
            continue
        if _follows(before, ROOM_AFTER):
            shown = "<room>"
        elif _follows(before, LINK_AFTER) and segment.strip():
            shown = "link:" + digest(segment.strip())  # the server strips it too
        else:
            shown = quote(_links_in(segment), safe=SHOWN_IN_PATH)
        before.append(segment.lower())
        segments[i] = shown
    return "/".join(segments)


def _follows(before: list[str], places) -> bool:
    return any(tuple(before[-len(place):]) == place for place in places)


def query_shown(query: str, decoded: bool = False) -> str:
    """A query as sent (or already ``decoded``) without links or codes, escaped again: the
    ``code`` parameter's value becomes ``<room>``, a value that holds a link its digest.

    >>> query_shown("since=3&code=+k7p+2qx+&x")
    'since=3&code=<room>&x'
    """
    read = unquote_plus if not decoded else (lambda part: part)
    shown = []
    for part in query.split("&"):
        name, equals, value = part.partition("=")
        name, value = read(name), read(value)
        if name.strip().lower() == "code" and value:
            value = "<room>"
        elif "/" in value:
            value = address(value, decoded=True)
        else:
            value = quote(_links_in(value), safe=SHOWN_IN_QUERY)
        shown.append(quote(_links_in(name), safe=SHOWN_IN_QUERY) + equals + value)
    return "&".join(shown)


def _links_in(text: str) -> str:
    """``text`` with each link's token replaced by its digest; all of it, when it holds a link
    only once rid of its white space and pluses (a link a phone broke), where a part of it
    would look like a whole link.

    >>> _links_in("AQICAAIAA0FuYRADQmVu.-wEmSmrkU c9nk-UnyfaPeQ")  # the link's own digest
    'link:BmjH7H9kdJds44o-'
    """
    joined = "".join(text.split()).replace("+", "")
    for found in TOKEN.finditer(joined):
        if found.group(0) not in text:  # broken in the text: none of it is shown
            return "link:" + digest(found.group(0))
    return TOKEN.sub(lambda match: "link:" + digest(match.group(0)), text)


def _wsgi_path(path: str) -> str:
    """A WSGI ``PATH_INFO`` (decoded bytes, as Latin-1) as the text it was sent as."""
    try:
        return path.encode("latin-1").decode("utf-8", errors="replace")
    except UnicodeEncodeError:
        return path


class _LinkFreeRecords(logging.Filter):
    """Gunicorn's own messages (and their tracebacks) without links."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = without_links(record.getMessage()), ()
        if record.exc_info and not record.exc_text:
            trace = logging.Formatter().formatException(record.exc_info)
            record.exc_text = "\n".join(map(without_links, trace.splitlines()))
        return True


# The atoms of Gunicorn's access log format that hold what the client asked for (the request
# line, path, query and referrer, and the same from the request's headers and environ).
ASKED = {
    "r": request_line,
    "U": lambda path: path_shown(_wsgi_path(path)),
    "q": query_shown,
    "f": address,
    "{raw_uri}e": address,
    "{path_info}e": lambda path: path_shown(_wsgi_path(path)),
    "{query_string}e": query_shown,
    "{http_referer}e": address,
    "{referer}i": address,
}


class LinkFreeLogger(Logger):
    """Gunicorn's logger: its access log's request atoms and its error log without links."""

    def __init__(self, cfg):
        super().__init__(cfg)
        self.error_log.addFilter(_LinkFreeRecords())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name, shown in ASKED.items():
            if isinstance(atoms.get(name), str) and atoms[name] != "-":
                atoms[name] = shown(atoms[name])
        return atoms
