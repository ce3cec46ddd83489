"""A stand-in for Twilio's Messages API on 127.0.0.1, for tests that drive the real twilio client.

    with FakeTwilio("AC...", "token") as fake:
        environ["TWILIO_API_BASE"] = fake.url
        ...
        fake.requests  # every request received, in order

It answers POST /2010-04-01/Accounts/<sid>/Messages.json like Twilio does: 201 with a message
resource, 400 with Twilio's error JSON for a number registered with ``reject()``, 401 for
wrong Basic auth, 404 for any other path. WhatsApp as Twilio's Messages API takes it: ``To``
and ``From`` both ``whatsapp:`` addresses (one without is Twilio's 21910), from a WhatsApp
sender the account has (``whatsapp_senders``, else 63007), with a ``Body`` or a template
(``ContentSid``, with ``ContentVariables``: JSON).
"""
from __future__ import annotations

import base64
import json
import re
import threading
import uuid
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

_MESSAGES_PATH = re.compile(r"^/2010-04-01/Accounts/(?P<sid>AC[0-9A-Za-z]+)/Messages\.json$")


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    form: dict[str, list[str]] = field(default_factory=dict)

    def field(self, name: str) -> str | None:
        """The single value of a form field, None if absent."""
        values = self.form.get(name)
        if values is None:
            return None
        assert len(values) == 1, f"{name} sent {len(values)} times"
        return values[0]

    @property
    def basic_auth(self) -> tuple[str, str] | None:
        scheme, _, encoded = self.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "basic":
            return None
        user, _, password = base64.b64decode(encoded).decode("utf-8").partition(":")
        return user, password


class FakeTwilio:
    def __init__(self, account_sid: str, auth_token: str):
        self.account_sid = account_sid
        self.auth_token = auth_token
        self.requests: list[Recorded] = []
        self._answers: dict[str, tuple[int, dict]] = {}
        self.whatsapp_senders: set[str] = set()  # "whatsapp:+1..." senders the account has
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # configuration -----------------------------------------------------------------------
    def reject(self, number: str, code: int = 21211, message: str | None = None,
               status: int = 400) -> None:
        """Answer messages to ``number`` with a Twilio error (default: 21211, invalid 'To')."""
        message = message or f"The 'To' number {number} is not a valid phone number."
        self._answers[number] = (status, {
            "code": code, "message": message,
            "more_info": f"https://www.twilio.com/docs/errors/{code}", "status": status})

    def fail_on_arrival(self, number: str, error_code: int = 30003,
                        error_message: str = "Unreachable destination handset") -> None:
        """Accept messages to ``number`` (201) but with status "failed" in the resource."""
        self._answers[number] = (201, {"status": "failed", "error_code": error_code,
                                       "error_message": error_message})

    # life cycle -----------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._server is not None, "not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "FakeTwilio":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                fake._handle(self)

            do_GET = do_PUT = do_DELETE = do_POST

            def log_message(self, format, *args):  # keep test output quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,),
                                        name="fake-twilio", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)
            self._server = self._thread = None

    def __enter__(self) -> "FakeTwilio":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # request handling ---------------------------------------------------------------------
    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        recorded = Recorded(
            method=handler.command,
            path=handler.path,
            headers={k.lower(): v for k, v in handler.headers.items()},
            form=parse_qs(raw.decode("utf-8"), keep_blank_values=True, strict_parsing=False),
        )
        with self._lock:
            self.requests.append(recorded)

        match = _MESSAGES_PATH.match(handler.path)
        if not match:
            return self._send(handler, 404, _error(20404, "The requested resource was not found", 404))
        if handler.command != "POST":
            return self._send(handler, 405, _error(20004, "Method not allowed", 405))
        if recorded.basic_auth != (self.account_sid, self.auth_token) \
                or match["sid"] != self.account_sid:
            return self._send(handler, 401, _error(20003, "Authenticate", 401))

        to, sender = recorded.field("To"), recorded.field("From")
        if not to:
            return self._send(handler, 400, _error(21604, "A 'To' phone number is required.", 400))
        if not recorded.field("Body") and not recorded.field("ContentSid"):
            return self._send(handler, 400, _error(21602, "Message body is required.", 400))
        if recorded.field("ContentVariables") is not None and not recorded.field("ContentSid"):
            return self._send(handler, 400, _error(21656, "ContentVariables without ContentSid.",
                                                   400))
        if recorded.field("ContentVariables") is not None:
            try:
                json.loads(recorded.field("ContentVariables"))
            except ValueError:
                return self._send(handler, 400, _error(21656, "The ContentVariables Parameter is "
                                                              "invalid.", 400))
        if sender is not None and to.startswith("whatsapp:") != sender.startswith("whatsapp:"):
            return self._send(handler, 400, _error(
                21910, "Invalid From and To pair. From and To should be of the same channel",
                400))
        if sender is not None and sender.startswith("whatsapp:") and \
                sender not in self.whatsapp_senders:
            return self._send(handler, 400, _error(
                63007, "Twilio could not find a Channel with the specified From address", 400))
        status, answer = self._answers.get(to, (201, {}))
        if status >= 400:
            return self._send(handler, status, answer)
        return self._send(handler, status, self._message(recorded, answer))

    def _message(self, recorded: Recorded, overrides: dict) -> dict:
        sid = "SM" + uuid.uuid4().hex
        now = formatdate(usegmt=True)
        service = recorded.field("MessagingServiceSid")
        resource = {
            "account_sid": self.account_sid, "api_version": "2010-04-01",
            "body": recorded.field("Body"), "date_created": now, "date_sent": None,
            "date_updated": now, "direction": "outbound-api", "error_code": None,
            "error_message": None, "from": recorded.field("From"),
            "messaging_service_sid": service, "num_media": "0", "num_segments": "1",
            "price": None, "price_unit": "USD", "sid": sid,
            "status": "accepted" if service else "queued",
            "subresource_uris": {"media": f"/2010-04-01/Accounts/{self.account_sid}"
                                          f"/Messages/{sid}/Media.json"},
            "to": recorded.field("To"),
            "uri": f"/2010-04-01/Accounts/{self.account_sid}/Messages/{sid}.json",
        }
        resource.update(overrides)
        return resource

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode("utf-8")
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json; charset=utf-8")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)


def _error(code: int, message: str, status: int) -> dict:
    return {"code": code, "message": message,
            "more_info": f"https://www.twilio.com/docs/errors/{code}", "status": status}
