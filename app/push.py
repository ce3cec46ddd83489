"""Web Push: "your turn" on the phone's own notifications, for nothing, to a player who asked.

A player taps "Notify me on this phone when it's my turn" on their game page; the browser gives
a push subscription (an endpoint at its push service, and the keys that encrypt what is sent
there), which the server keeps in the store for that game and seat:

- ``parse_subscription`` reads one from a request: bad ones are ``BadSubscription`` (422), and
  so is an endpoint that isn't at one of the browsers' push services (``SERVICES``, or the
  deployment's ``PUSH_SERVICES``) or carries a user name: the server must never be made to
  post anywhere else (its own network above all).
- ``Subscriptions`` keeps it under ``pushsub#<seed>#<seat>``, encrypted at rest (AES-SIV, with
  the store key as associated data, so an entry can't be moved to another game or seat), for
  ``KEEP_DAYS`` after it was made or last used. Switched off, it is overwritten and expires at
  once (the store has no delete). Never in the link: a subscription is several hundred
  characters.
- ``Pusher.send`` posts one notification with pywebpush: the payload encrypted for the
  subscription (RFC 8291, aes128gcm) and signed with the deployment's VAPID key (RFC 8292);
  redirects are not followed, and the endpoint must still be at one of the services.
  It never raises: 201 is ``sent``, 404 and 410 are ``gone`` (the browser dropped it: the
  caller forgets it), anything else ``failed``.
- ``notice`` is what the notification says: "Ana, your turn · Ludo", and what was played since
  in the words of the turn's text (``app/wording.py``), in the table's language.

The outbox (``app/outbox.py``) counts pushes as it counts texts: once per step, within the same
hourly and daily caps per phone and per deployment.

pywebpush imports aiohttp, for its asynchronous client, which the app never uses and the Lambda
package leaves out (``app/package.py``): where aiohttp isn't installed, ``_pywebpush`` gives it a
stand-in whose names only fill pywebpush's annotations. Nothing here is imported by a request
that doesn't subscribe or push (cold start).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import re
import sys
import types
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

from app.engine.text import N_, Text
from app.i18n import translate
from app.wording import Handoff, listed
from app.store import Store

_log = logging.getLogger(__name__)

KEEP_DAYS = 30  # a subscription is kept this long after it was made or last pushed to
DAY = 24 * 3600
TTL_SECONDS = 2 * DAY  # how long a push service holds a notification for a phone that's off
TIMEOUT_SECONDS = 5.0
MAX_BODY = 4096  # bytes: a subscription's JSON is about 400 (Chrome's) to 700
MAX_ENDPOINT = 1024
NAME_CHARS = 24

BAD = N_("This isn't a push subscription this server can use.")
# The browsers' push services (Chrome's and the other Chromiums', Safari's, Edge's, Firefox's):
# the only places a subscription may send the server to, so a player can't make it post to
# its own network or anywhere else. A deployment may list its own instead (``PUSH_SERVICES``).
SERVICES = ("https://fcm.googleapis.com", "https://*.push.apple.com",
            "https://*.notify.windows.com", "https://*.push.services.mozilla.com")
# A host name and port as every URL parser reads them alike: no user, no address in brackets,
# no backslash (urlsplit keeps one in the host name, requests ends the host there).
_NETLOC = r"[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[0-9]{1,5})?"
_ORIGIN = re.compile(rf"https?://(?:\*\.)?{_NETLOC}")


def parse_services(entries) -> list[str]:
    """A deployment's push services (``PUSH_SERVICES``), lowercased: origins, ``*.`` for any
    name under a domain; the browsers' own (``SERVICES``) when there are none. ValueError for
    anything else: a mistyped entry would match no endpoint, and every subscription at it
    would be forgotten at its next push.

    >>> parse_services(["https://Push.Example.net", " https://*.push.example.org "])
    ['https://push.example.net', 'https://*.push.example.org']
    >>> parse_services(["", " "]) == list(SERVICES)
    True
    >>> parse_services(["push.example.net"])
    Traceback (most recent call last):
    ValueError: PUSH_SERVICES: 'push.example.net' isn't an origin such as https://push.example.net
    """
    found = [entry.strip().lower() for entry in entries if entry.strip()]
    for entry in found:
        if not _ORIGIN.fullmatch(entry):
            raise ValueError(f"PUSH_SERVICES: {entry!r} isn't an origin such as "
                             "https://push.example.net")
    return found or list(SERVICES)


class BadSubscription(ValueError):
    """A subscription the server won't keep; the message says why (422)."""

    status = 422


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str  # the browser's P-256 public key, base64url (65 bytes)
    auth: str  # its authentication secret, base64url (16 bytes)
    texts: bool = False  # the player still wants the texts (or WhatsApp) too

    def info(self) -> dict:
        """As pywebpush (and the browser's ``toJSON``) has it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


# -- reading one ------------------------------------------------------------------------------

def parse_subscription(data, texts=False, services=SERVICES) -> Subscription:
    """The subscription a browser's ``PushSubscription.toJSON()`` gives: ``{"endpoint",
    "keys": {"p256dh", "auth"}}`` (``expirationTime`` and anything else are ignored), its
    endpoint at one of ``services``.

    >>> parse_subscription({"endpoint": "https://push.example/x",
    ...                     "keys": {"p256dh": "BA", "auth": "AA"}})
    Traceback (most recent call last):
    app.push.BadSubscription: The notification address isn't a browser's push service.
    """
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise BadSubscription(BAD)
    endpoint, keys = data.get("endpoint"), data["keys"]
    if not isinstance(endpoint, str) or not isinstance(keys.get("p256dh"), str) or \
            not isinstance(keys.get("auth"), str) or not isinstance(texts, bool):
        raise BadSubscription(BAD)
    why = endpoint_refused(endpoint, services)
    if why:
        raise BadSubscription(why)
    p256dh, auth = keys["p256dh"].rstrip("="), keys["auth"].rstrip("=")
    point, secret = _unb64(p256dh, 65), _unb64(auth, 16)
    if point is None or secret is None or point[0] != 4 or not _on_curve(point):
        raise BadSubscription(BAD)
    return Subscription(endpoint, p256dh, auth, texts)


def endpoint_refused(endpoint: str, services=SERVICES) -> str | None:
    """Why the server won't post to ``endpoint`` (a message for the player), or None: it must
    be at one of ``services`` (origins, ``*.`` for any name under a domain), with no user
    name, at most ``MAX_ENDPOINT`` characters.

    >>> endpoint_refused("https://fcm.googleapis.com/fcm/send/abc:def") is None
    True
    >>> endpoint_refused("https://wns2-by3p.notify.windows.com/w/?token=x") is None
    True
    >>> endpoint_refused("https://10.0.0.7/push")
    "The notification address isn't a browser's push service."
    >>> endpoint_refused("https://fcm.googleapis.com:8443/fcm/send/abc")
    "The notification address isn't a browser's push service."
    >>> endpoint_refused("https://attacker.example\\\\.push.apple.com/x")
    "The notification address isn't a browser's push service."
    >>> endpoint_refused("https://user:pw@fcm.googleapis.com/x")
    "The notification address can't carry a user name or password."
    >>> endpoint_refused("http://127.0.0.1:8000/push", ["http://127.0.0.1:8000"]) is None
    True
    """
    if len(endpoint) > MAX_ENDPOINT or not re.fullmatch(r"[\x21-\x7e]+", endpoint):
        return N_("The notification address is too long, or has spaces or odd characters.")
    try:
        parts = urlsplit(endpoint)
        where = (parts.scheme, parts.hostname, parts.port)
    except ValueError:
        return N_("The notification address isn't a web address.")
    if not parts.hostname:
        return N_("The notification address isn't a web address.")
    if parts.username is not None or parts.password is not None:
        return N_("The notification address can't carry a user name or password.")
    if not re.fullmatch(_NETLOC, parts.netloc.lower()) or \
            not any(_at(where, service) for service in services):
        return N_("The notification address isn't a browser's push service.")
    return None


def _at(where: tuple, service: str) -> bool:
    """Whether ``where`` (scheme, host, port) is at the ``service`` origin."""
    scheme, host, port = where
    parts = urlsplit(service)
    default = {"https": 443, "http": 80}
    if scheme != parts.scheme or (port or default.get(scheme)) != \
            (parts.port or default.get(parts.scheme)):
        return False
    name = parts.netloc.rsplit(":", 1)[0] if parts.port else parts.netloc
    if name.startswith("*."):
        return host.endswith(name[1:]) and len(host) > len(name) - 1
    return host == name


def _unb64(text: str, size: int) -> bytes | None:
    if not re.fullmatch(r"[A-Za-z0-9_-]+", text):
        return None
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return None
    return data if len(data) == size else None


def _on_curve(point: bytes) -> bool:
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return True


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# -- keeping them: the store ----------------------------------------------------------------------

class Subscriptions:
    """The subscriptions of a game's seats, in the store, encrypted at rest."""

    def __init__(self, store: Store, phone_key: bytes):
        self.store = store
        self._key = hmac.digest(phone_key, b"boardpass/push/subscription", "sha512")
        self.digest_key = hmac.digest(phone_key, b"boardpass/push/endpoint-digest", "sha256")

    @staticmethod
    def key(seed: bytes, seat: int) -> str:
        return f"pushsub#{seed.hex()}#{seat}"

    def keep(self, seed: bytes, seat: int, subscription: Subscription) -> float:
        """Keep ``subscription`` for this seat (in place of any other): when it expires.
        Raises StoreUnavailable when the store can't be written."""
        key, expires = self.key(seed, seat), self.store.clock() + KEEP_DAYS * DAY
        data = {"s": self._seal(key, subscription)}
        for _attempt in range(3):
            entry = self.store.get(key)
            if entry is None and self.store.add(key, data, expires):
                return expires
            if entry is not None and self.store.swap(key, entry.version, data, expires):
                return expires
        raise StoreConflict(key)

    def get(self, seed: bytes, seat: int) -> Subscription | None:
        key = self.key(seed, seat)
        entry = self.store.get(key)
        if entry is None or "s" not in entry.data:
            return None
        return self._open(key, entry.data["s"])

    def renew(self, seed: bytes, seat: int, subscription: Subscription) -> None:
        """Keep it ``KEEP_DAYS`` more (it was just used), unless it changed meanwhile."""
        key = self.key(seed, seat)
        entry = self.store.get(key)
        if entry is not None and self._open(key, entry.data.get("s", "")) == subscription:
            self.store.swap(key, entry.version, entry.data,
                            self.store.clock() + KEEP_DAYS * DAY)

    def forget(self, seed: bytes, seat: int, endpoint: str | None = None) -> bool:
        """Forget this seat's subscription (only if it is to ``endpoint``, when given): its
        entry is overwritten with nothing and expires now. Whether one was forgotten."""
        key = self.key(seed, seat)
        for _attempt in range(3):
            entry = self.store.get(key)
            if entry is None:
                return False
            kept = self._open(key, entry.data.get("s", ""))
            if endpoint is not None and (kept is None or not hmac.compare_digest(
                    kept.endpoint.encode(), endpoint.encode())):
                return False
            if self.store.swap(key, entry.version, {}, self.store.clock()):
                return True
        return False

    def who(self, subscription: Subscription) -> str:
        """A keyed digest of the endpoint (one phone's browser), as the outbox counts it."""
        return hmac.new(self.digest_key, subscription.endpoint.encode(),
                        hashlib.sha256).hexdigest()[:24]

    def _seal(self, key: str, subscription: Subscription) -> str:
        plain = json.dumps([subscription.endpoint, subscription.p256dh, subscription.auth,
                            subscription.texts], separators=(",", ":")).encode()
        return _b64(_siv(self._key).encrypt(plain, [key.encode()]))

    def _open(self, key: str, sealed: str) -> Subscription | None:
        from cryptography.exceptions import InvalidTag

        try:
            data = base64.urlsafe_b64decode(sealed + "=" * (-len(sealed) % 4))
            endpoint, p256dh, auth, texts = json.loads(_siv(self._key).decrypt(data,
                                                                              [key.encode()]))
        except (InvalidTag, ValueError, TypeError):
            _log.warning("A push subscription in the store could not be read: left alone")
            return None
        return Subscription(endpoint, p256dh, auth, bool(texts))


class StoreConflict(RuntimeError):
    """Another request kept changing the entry: nothing was written."""


def _siv(key: bytes):
    from cryptography.hazmat.primitives.ciphers.aead import AESSIV

    return AESSIV(key)


# -- the VAPID key ----------------------------------------------------------------------------------

@cache
def public_key(private: str) -> str:
    """The VAPID public key (the browser's ``applicationServerKey``), base64url, for the
    private key ``private`` (``Keys.vapid``)."""
    from cryptography.hazmat.primitives import serialization

    point = _vapid(private).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return _b64(point)


@cache
def _vapid(private: str):
    from py_vapid import Vapid

    return Vapid.from_raw(private.encode())


def valid_key(private: str) -> bool:
    """Whether ``private`` is a VAPID private key (VAPID_PRIVATE_KEY's form: 32 bytes,
    base64url)."""
    if _unb64(private.rstrip("="), 32) is None:
        return False
    try:
        public_key(private)
    except ValueError:
        return False
    return True


# -- sending ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pushed:
    status: str  # "sent" | "gone" (404/410: forget it) | "failed"


class Pusher:
    """Sends notifications signed with one VAPID key, on behalf of ``subject`` (a mailto: or
    https: address push services may write to about it)."""

    def __init__(self, private_key: str, subject: str, services=SERVICES):
        self.private_key, self.subject, self.services = private_key, subject, services

    def send(self, subscription: Subscription, payload: dict, ttl: int = TTL_SECONDS,
             topic: str | None = None) -> Pushed:
        """Post ``payload`` (JSON) to the subscription, encrypted and signed; ``topic``: a
        newer one with the same topic replaces it at the push service while the phone is off
        (RFC 8030 5.4). Never raises."""
        if endpoint_refused(subscription.endpoint, self.services):
            _log.warning("Push endpoint refused: not at a push service this server posts to")
            return Pushed("gone")
        try:
            pywebpush = _pywebpush()
            import requests
        except ImportError:
            _log.exception("Web Push is configured but pywebpush cannot be imported")
            return Pushed("failed")
        try:
            pywebpush.webpush(
                subscription.info(), json.dumps(payload, ensure_ascii=False),
                vapid_private_key=_vapid(self.private_key),
                vapid_claims={"sub": self.subject}, ttl=ttl, timeout=TIMEOUT_SECONDS,
                headers={"Urgency": "high", **({"Topic": topic} if topic else {})},
                requests_session=_NoRedirects())
        except pywebpush.WebPushException as error:
            code = error.status_code
            _log.warning("The push service refused a notification: HTTP %s", code)
            return Pushed("gone" if code in (404, 410) else "failed")
        except requests.RequestException as error:
            _log.warning("The push service could not be reached: %s", type(error).__name__)
            return Pushed("failed")
        except Exception:  # "never raises": the player can always send the link by hand
            _log.exception("Unexpected error while sending a notification")
            return Pushed("failed")
        return Pushed("sent")


def topic(seed: bytes, seat: int) -> str:
    """The push topic of a game's seat: its turns replace each other at the push service, so a
    phone that was off gets the newest "your turn", not every one it missed. 32 characters of
    base64url, as RFC 8030 allows, telling nothing of the game.

    >>> len(topic(bytes(8), 1)), topic(bytes(8), 1) == topic(bytes(8), 2)
    (32, False)
    """
    digest = hashlib.sha256(b"boardpass.topic|" + seed + bytes([seat])).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def contact(subject: str, public_url: str) -> str | None:
    """Whom push services may write to about our notifications (the VAPID ``sub``):
    ``VAPID_SUBJECT``, a ``mailto:`` or ``https:`` address, or else ``PUBLIC_URL`` when it is
    ``https:``; None when there is neither, and then nothing is pushed (a made-up address
    would be a contact nobody reads). ``ValueError`` for a subject of another kind.

    >>> contact("", "https://boardpass.example")
    'https://boardpass.example'
    >>> contact("mailto:ops@boardpass.example", "http://192.168.1.20:5000")
    'mailto:ops@boardpass.example'
    >>> contact("", "http://192.168.1.20:5000") is None
    True
    """
    if subject:
        if not re.fullmatch(r"mailto:[^@\s]+@[^@\s]+|https://[^\s]+", subject):
            raise ValueError(f"VAPID_SUBJECT must be a mailto: or https: address, not {subject!r}")
        return subject
    return public_url if public_url.startswith("https://") else None


class _NoRedirects:
    """A requests stand-in that posts once, never follows a redirect (a push service has no
    reason to send one, and it could point anywhere) and never reads the answer's body: only
    its status counts, and an endpoint's server could send a body without end."""

    def post(self, url, **kwargs):
        import requests

        response = requests.post(url, allow_redirects=False, stream=True, **kwargs)
        response._content = b""  # the body left unread (requests' own field for it)
        response.close()
        return response


def _pywebpush():
    """pywebpush, with a stand-in for aiohttp where it isn't installed (the Lambda package)."""
    try:
        import pywebpush
    except ModuleNotFoundError as missing:
        if missing.name != "aiohttp":
            raise
        sys.modules.setdefault("aiohttp", _aiohttp_stand_in())
        import pywebpush
    return pywebpush


def _aiohttp_stand_in() -> types.ModuleType:
    """The names pywebpush's asynchronous functions use in their annotations, and nothing
    else: calling them fails (the app only sends synchronously)."""
    module = types.ModuleType("aiohttp", "Stand-in: aiohttp is not installed (app/push.py).")

    class ClientSession:
        def __init__(self, *args, **kwargs):
            raise RuntimeError("aiohttp is not installed: send synchronously")

    class ClientResponse:
        pass

    module.ClientSession, module.ClientResponse = ClientSession, ClientResponse
    module.client = types.SimpleNamespace(ClientSession=ClientSession)
    return module


# -- what it says -----------------------------------------------------------------------------------

def notice(mover: str | None, name: str, title: str, url: str, tag: str, lang: str = "en",
           news: Handoff | None = None) -> dict:
    """The notification for the player ``name``, whose turn it is at ``url``, after ``mover``
    played: its title, its words (what was played since, as the turn's text says it), the link
    that tapping it opens, and ``tag`` (one notification per game: a newer turn replaces it).

    >>> notice("Ben", "Ana", "Ludo", "https://b.example/g/x", "g1",
    ...        news=Handoff(no_move=["Cy"], rolled=(6, 6)))["title"]
    'Ana, your turn · Ludo'
    >>> notice("Ben", "Ana", "Ludo", "https://b.example/g/x", "g1",
    ...        news=Handoff(no_move=["Cy"], rolled=(6, 6)))["body"]
    'Ben moved. Cy had no move. You rolled 6 and 6.'
    >>> notice("Ben", "Ana", "Ludo", "https://b.example/g/x", "g1", lang="es")["title"]
    'Ana, te toca · Ludo'
    """
    news = news or Handoff()
    who = shown_name(name)
    heading = Text("%(who)s, your turn · %(title)s", who=who, title=title) if who else \
        Text("Your turn · %(title)s", title=title)
    parts = []
    if mover is not None:
        moved = shown_name(mover) or translate(N_("A player"), lang)
        parts.append(Text("%(moved)s moved.", moved=moved))
    parts += news.others(shown_name)
    if news.rolled:
        parts.append(Text("You rolled %(dice)s.", dice=listed([str(n) for n in news.rolled])))
    body = " ".join(translate(part, lang) for part in parts) or \
        translate(N_("Open the game to play."), lang)
    return {"title": translate(heading, lang), "body": body, "url": url, "tag": tag,
            "lang": lang}


def shown_name(name: str) -> str:
    """A player's name as a notification shows it: one line, no control characters, at most
    ``NAME_CHARS`` characters.

    >>> shown_name("  José\\n\\tMaría  ")
    'José María'
    """
    text = "".join(" " if not ch.isprintable() else ch for ch in str(name or ""))
    return " ".join(text.split())[:NAME_CHARS].strip()
