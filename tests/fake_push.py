"""A stand-in for a browser's push service (Web Push, RFC 8030) on 127.0.0.1, for tests that send
through pywebpush for real.

    with FakePushService(vapid_public_key) as service:
        subscription = service.subscribe("ana")   # as PushSubscription.toJSON() gives it
        ...
        service.received                           # every notification, decrypted, in order

Like a real push service it checks each request before accepting it (201): a VAPID
``Authorization: vapid t=JWT, k=KEY`` header (RFC 8292) whose key is the server's and whose JWT
is signed by it (ES256), for this service's origin (``aud``), not expired, with a contact
(``sub``); a ``TTL`` header; and an ``aes128gcm`` body (RFC 8188), which it decrypts with the
subscription's private key and authentication secret made here (RFC 8291), as the browser
would. A request that fails a check is answered 400, 401 or 403 and recorded with its
``refused`` reason. ``answer(name, status)`` makes a subscription's endpoint answer another
status (410: the browser dropped it).
"""
from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    name: str  # whose subscription (the endpoint's last part)
    headers: dict[str, str]
    at: float  # time.time() when it arrived
    claims: dict = field(default_factory=dict)  # the VAPID JWT's, once checked
    payload: dict | None = None  # the decrypted JSON
    refused: str | None = None  # why it was refused, if it was


class FakePushService:
    def __init__(self, vapid_public_key: str):
        self.vapid_public_key = vapid_public_key
        self.received: list[Received] = []
        self._keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self._answers: dict[str, int] = {}
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.arrived = threading.Condition()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def subscribe(self, name: str) -> dict:
        """A new subscription for ``name``: its key pair and secret are made here, as a
        browser makes them, and kept to decrypt what arrives."""
        private = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self._keys[name] = (private, auth)
        point = private.public_key().public_bytes(serialization.Encoding.X962,
                                                  serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"{self.url}/push/{name}", "expirationTime": None,
                "keys": {"p256dh": b64(point), "auth": b64(auth)}}

    def answer(self, name: str, status: int) -> None:
        self._answers[name] = status

    def wait(self, count: int, timeout: float = 5.0) -> list[Received]:
        """Wait until ``count`` notifications have arrived (accepted or not)."""
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.received) >= count, timeout)
        return self.received

    def start(self) -> "FakePushService":
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                service._handle(self)

            def log_message(self, format, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> "FakePushService":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        arrived = time.time()
        headers = {k.lower(): v for k, v in handler.headers.items()}
        body = handler.rfile.read(int(headers.get("content-length") or 0))
        name = handler.path.rsplit("/", 1)[-1]
        received = Received(name, headers, arrived)
        status = self._check(received, body)
        if status == 201:
            status = self._answers.get(name, 201)
        with self.arrived:  # kept before it is answered: a sender never outruns the record
            self.received.append(received)
            number = len(self.received) - 1
            self.arrived.notify_all()
        handler.send_response(status)
        handler.send_header("Content-Length", "0")
        if status == 201:
            handler.send_header("Location", f"{self.url}/message/{number}")
        handler.end_headers()

    def _check(self, received: Received, body: bytes) -> int:
        if received.name not in self._keys or not received.headers.get("ttl", "").isdigit():
            received.refused = "unknown subscription, or no TTL"
            return 400
        why = self._check_vapid(received)
        if why:
            received.refused = why
            return 401 if "missing" in why else 403
        if received.headers.get("content-encoding") != "aes128gcm":
            received.refused = "not aes128gcm"
            return 400
        private, auth = self._keys[received.name]
        try:
            plain = http_ece.decrypt(body, private_key=private, auth_secret=auth,
                                     version="aes128gcm")
            received.payload = json.loads(plain)
        except Exception as error:  # anything the browser couldn't read
            received.refused = f"undecryptable: {error!r}"
            return 400
        return 201

    def _check_vapid(self, received: Received) -> str | None:
        scheme, _, params = received.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "vapid":
            return "missing VAPID authorization"
        fields = dict(part.strip().split("=", 1) for part in params.split(",") if "=" in part)
        token, key = fields.get("t", ""), fields.get("k", "")
        if key != self.vapid_public_key:
            return "not the server's VAPID key"
        try:
            head, claims, signature = token.split(".")
            header = json.loads(unb64(head))
            claims = json.loads(unb64(claims))
            raw = unb64(signature)
        except ValueError:
            return "malformed JWT"
        if header.get("alg") != "ES256" or len(raw) != 64:
            return "not an ES256 JWT"
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                   int.from_bytes(raw[32:], "big"))
        try:
            public.verify(der, f"{head}.{token.split('.')[1]}".encode(),
                          ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "bad JWT signature"
        now = time.time()
        if claims.get("aud") != self.url:
            return f"JWT for another audience: {claims.get('aud')}"
        if not now < claims.get("exp", 0) <= now + 24 * 3600:
            return "JWT expired or valid too long"
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            return "JWT without a contact"
        received.claims = claims
        return None
