"""How a text or a WhatsApp message goes out: through Twilio, when its credentials are in the
environment (``TWILIO_ACCOUNT_SID``, ``TWILIO_AUTH_TOKEN`` and ``TWILIO_FROM`` or
``TWILIO_MESSAGING_SERVICE_SID``; for WhatsApp, Twilio's WhatsApp sender
``TWILIO_WHATSAPP_FROM`` through the same client). ``deliver()`` never raises: the answer is a
``Delivery``, whose error the player reads, and they can still send the link by hand
(``app/compose_links.py``). The outbox (``app/outbox.py``) decides whether a message may go.

Cold start matters (AWS Lambda): importing this module doesn't import ``twilio`` (about
100 ms); ``deliver`` does, when it sends.
"""
from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from app.delivery import Delivery
from app.engine.text import N_, Text
from app.phone_numbers import country_codes, not_texted

_log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10.0
"""Connect and read timeout for the Twilio request; no retries (a retried POST can text twice)."""

SERVICE_DOWN = N_("Text messages are not working right now. Send the link yourself.")
"""What a player is told when texting fails on our side."""

WHATSAPP_DOWN = N_("WhatsApp messages are not working right now. Send the link yourself.")
"""The same for a WhatsApp message."""

# Twilio error codes that are about the receiving number, not about our account or the text;
# for WhatsApp also: not on WhatsApp (63003), not a valid recipient (63024), outside the
# 24-hour window for a message that is not a template (63016), and the recipient's choice to
# stop messages from businesses (63049: marketing; a turn is no marketing, but Meta decides).
_NUMBER_ERRORS = frozenset({21211, 21214, 21217, 21401, 21407, 21408, 21421, 21610, 21612,
                            21614, 21635, 63003, 63016, 63024, 63049})
_WHATSAPP_PREFIX = "whatsapp:"
# Every failure ends by saying "Send the link yourself." (each message is whole, for translation).


def deliver(to: str, body: str, environ: Mapping[str, str] = os.environ,
            countries: str | Iterable[str] | None = None, whatsapp: bool = False,
            lang: str = "en") -> Delivery:
    """Text ``body`` to ``to`` (E.164, from ``phone_numbers.normalize_phone``) through Twilio.
    Never raises.

    With ``whatsapp``, the message goes by WhatsApp instead, through the same client and
    account: from ``TWILIO_WHATSAPP_FROM`` (Twilio's WhatsApp sender, ``whatsapp:+1...``; a
    plain E.164 number gets the prefix) to ``whatsapp:<to>``. Without that setting it is
    ``Delivery("not-configured", channel="whatsapp")``. When ``TWILIO_WHATSAPP_TEMPLATES``
    names an approved template for ``lang`` (``en:HX...,es:HX...``: Twilio Content SIDs), the
    message is that template with ``body`` as its one variable (``ContentSid`` and
    ``ContentVariables`` {"1": body}), which WhatsApp delivers at any time; otherwise it is
    ``body`` as free text, which WhatsApp only delivers within 24 hours of the player's last
    message to our number (docs/deploy.md, "WhatsApp"). The same numbers are refused as for
    texts (mobiles in ``countries`` only).

    Only a number that ``not_texted(to, countries)`` lets through is sent to: any other (a
    link made before the rules or ``countries`` changed may carry one) is
    ``Delivery("failed", error=...)`` without a request to Twilio. ``countries`` empty (no
    country texted) is like no configuration: ``Delivery("not-configured")``.

    Configuration, read from ``environ``:

    - ``TWILIO_ACCOUNT_SID``, ``TWILIO_AUTH_TOKEN``: the account. Without both, or without a
      sender, nothing is sent and the answer is ``Delivery("not-configured")``.
    - ``TWILIO_MESSAGING_SERVICE_SID`` or ``TWILIO_FROM`` (a Twilio number in E.164): the
      sender. If both are set the messaging service is used and ``TWILIO_FROM`` is not sent.
    - ``TWILIO_EDGE`` / ``TWILIO_REGION``: read by the Twilio client itself.
    - ``TWILIO_API_BASE`` (for tests): send to this base URL (e.g. ``http://127.0.0.1:8123``)
      instead of https://api.twilio.com. Only https, or plain http to the local machine, is
      accepted, so a stray setting cannot send the auth token in clear over the network.

    ``Delivery("sent", sid=...)`` means Twilio accepted (queued) the message, not that the
    phone got it. Every failure (Twilio's 4xx/5xx answers, connection refused, a timeout after
    ``TIMEOUT_SECONDS``, a broken configuration) is ``Delivery("failed", error=...)`` with an
    error meant for the player; details go to this module's logger. The body (it holds the
    game link, which is as good as a password for the seat) is never logged.
    """
    channel = "whatsapp" if whatsapp else "sms"
    down = WHATSAPP_DOWN if whatsapp else SERVICE_DOWN
    sid = _setting(environ, "TWILIO_ACCOUNT_SID")
    token = _setting(environ, "TWILIO_AUTH_TOKEN")
    sender = _setting(environ, "TWILIO_FROM")
    service = _setting(environ, "TWILIO_MESSAGING_SERVICE_SID")
    if not configured(environ, countries, whatsapp):
        return Delivery("not-configured", channel=channel)
    to = str(to or "").strip()
    if not to:
        return Delivery("failed", error=N_("There is no phone number to text. Send the link "
                                           "yourself."), channel=channel)
    if not body:
        return Delivery("failed", error=N_("There is no message to send. Send the link "
                                           "yourself."), channel=channel)
    refusal = not_texted(to, countries)
    if refusal:
        return Delivery("failed", error=refusal, channel=channel)
    api_base = _setting(environ, "TWILIO_API_BASE")
    if api_base and not _api_base_allowed(api_base):
        _log.error("TWILIO_API_BASE must be an https URL, or http to localhost: %r", api_base)
        return Delivery("failed", error=down, channel=channel)
    message_args: dict = {"to": to, "body": body}
    if whatsapp:
        sender = _whatsapp_sender(_setting(environ, "TWILIO_WHATSAPP_FROM"))
        if sender is None:
            _log.error("TWILIO_WHATSAPP_FROM must be a whatsapp: number in E.164 form")
            return Delivery("failed", error=down, channel=channel)
        message_args["to"] = _WHATSAPP_PREFIX + to
        template = _templates(_setting(environ, "TWILIO_WHATSAPP_TEMPLATES")).get(lang)
        if template:
            import json

            del message_args["body"]
            message_args.update(content_sid=template,
                                content_variables=json.dumps({"1": body}, ensure_ascii=False))
        service = ""  # the WhatsApp sender, never the messaging service's SMS numbers

    try:
        import requests  # twilio's own HTTP library, so it is there whenever twilio is
        from twilio.base.exceptions import TwilioException, TwilioRestException
        from twilio.http.http_client import TwilioHttpClient
        from twilio.rest import Client
    except ImportError:
        _log.exception("twilio is configured but cannot be imported")
        return Delivery("failed", error=down, channel=channel)

    try:
        client = Client(sid, token, environment=dict(environ),
                        http_client=TwilioHttpClient(timeout=TIMEOUT_SECONDS))
        if api_base:
            # Every Messages request goes to the Api domain (api.twilio.com), whose base URL is
            # a plain attribute. Edge/region would rewrite the host name of that URL: drop them.
            client.edge = client.region = None
            client.api.base_url = api_base.rstrip("/")
        sender_args = {"messaging_service_sid": service} if service else {"from_": sender}
        message = client.messages.create(**message_args, **sender_args)
    except TwilioRestException as error:
        return _rest_failure(to, error.status, error.code, error.msg, channel)
    except TwilioException as error:  # e.g. TwilioServiceException (RFC 9457 problem answers)
        return _rest_failure(to, getattr(error, "status", None), getattr(error, "code", None),
                             getattr(error, "detail", None) or getattr(error, "title", None),
                             channel)
    except requests.Timeout:
        _log.warning("Twilio did not answer within %s s", TIMEOUT_SECONDS)
        late = N_("The WhatsApp message service did not answer in time. Send the link "
                  "yourself.") if whatsapp else \
            N_("The text service did not answer in time. Send the link yourself.")
        return Delivery("failed", error=late, channel=channel)
    except requests.RequestException as error:
        _log.warning("Twilio could not be reached: %s", type(error).__name__)
        return Delivery("failed", error=down, channel=channel)
    except Exception:  # the contract is "never raises": the player can always send by hand
        _log.exception("Unexpected error while texting through Twilio")
        return Delivery("failed", error=down, channel=channel)

    if message.status in ("failed", "undelivered"):
        _log.warning("Twilio took message %s as %s: %s %s", message.sid, message.status,
                     message.error_code, message.error_message)
        said = _twilio_said(message.error_message or "it was refused")
        return Delivery("failed", sid=message.sid, error=_number_error(to, said, channel),
                        channel=channel)
    return Delivery("sent", sid=message.sid, channel=channel)


def configured(environ: Mapping[str, str] = os.environ,
               countries: str | Iterable[str] | None = None, whatsapp: bool = False) -> bool:
    """Whether texts can go out at all: a Twilio account and sender, and some country to text
    (an empty ``countries`` texts nobody); with ``whatsapp``, whether WhatsApp messages can
    (the account and ``TWILIO_WHATSAPP_FROM``)."""
    account = _setting(environ, "TWILIO_ACCOUNT_SID") and _setting(environ, "TWILIO_AUTH_TOKEN")
    sender = _setting(environ, "TWILIO_WHATSAPP_FROM") if whatsapp else \
        _setting(environ, "TWILIO_FROM") or _setting(environ, "TWILIO_MESSAGING_SERVICE_SID")
    return bool(account and sender and country_codes(countries) != ())


def _whatsapp_sender(setting: str) -> str | None:
    """``TWILIO_WHATSAPP_FROM`` as Twilio takes it (``whatsapp:+14155238886``), or None when it
    is no number."""
    number = setting.removeprefix(_WHATSAPP_PREFIX).strip()
    return _WHATSAPP_PREFIX + number if re.fullmatch(r"\+[1-9][0-9]{1,14}", number) else None


def _templates(setting: str) -> dict[str, str]:
    """``TWILIO_WHATSAPP_TEMPLATES`` (``en:HX...,es:HX...``): a Content SID per language.

    >>> _templates(" en:HXaaa , es:HXbbb,,bad")
    {'en': 'HXaaa', 'es': 'HXbbb'}
    """
    pairs = (item.split(":", 1) for item in setting.split(",") if ":" in item)
    return {lang.strip(): sid.strip() for lang, sid in pairs if lang.strip() and sid.strip()}


def _setting(environ: Mapping[str, str], name: str) -> str:
    return str(environ.get(name) or "").strip()


def _api_base_allowed(base: str) -> bool:
    try:
        parts = urlsplit(base)
        host = parts.hostname
    except ValueError:
        return False
    if not host:
        return False
    return parts.scheme == "https" or (
        parts.scheme == "http" and host in ("127.0.0.1", "localhost", "::1"))


# Twilio errors about our WhatsApp sender or its set-up (not the player's number or the text):
# no channel for the From address (63007), From and To on different channels (21910), a
# template or content problem of ours (63005, 63027, 63028, 21656).
_WHATSAPP_SETUP_ERRORS = frozenset({21656, 21910, 63005, 63007, 63027, 63028})


def _rest_failure(to: str, status: int | None, code: int | None, text: str | None,
                  channel: str = "sms") -> Delivery:
    said = _twilio_said(text)
    whatsapp = channel == "whatsapp"
    _log.warning("Twilio refused the message: HTTP %s, code %s: %s", status, code, said)
    if whatsapp and code in _WHATSAPP_SETUP_ERRORS:
        return Delivery("failed", error=WHATSAPP_DOWN, channel=channel)
    if code in _NUMBER_ERRORS or (status == 400 and "'To'" in said):
        return Delivery("failed", error=_number_error(to, said, channel), channel=channel)
    if status in (400, 422) and said:  # a problem with this text, e.g. too long
        error = Text("The WhatsApp message could not be sent: %(said)s Send the link "
                     "yourself.", said=said) if whatsapp else \
            Text("The text could not be sent: %(said)s Send the link yourself.", said=said)
        return Delivery("failed", error=error, channel=channel)
    # 401/403 (our keys), 429, 5xx
    return Delivery("failed", error=WHATSAPP_DOWN if whatsapp else SERVICE_DOWN, channel=channel)


def _twilio_said(text: str | None) -> str:
    said = " ".join(str(text or "").split())
    for prefix in ("Unable to create record: ",):  # added by twilio-python to Twilio's message
        if said.startswith(prefix):
            said = said[len(prefix):]
    if len(said) > 200:
        said = said[:197] + "..."
    if said and said[-1] not in ".!?":
        said += "."
    return said


def _number_error(to: str, said: str, channel: str = "sms") -> str:
    if channel == "whatsapp":
        return Text("The number %(to)s could not receive the WhatsApp message: %(said)s Send "
                    "the link yourself.", to=to, said=said)
    return Text("The number %(to)s could not receive the text: %(said)s Send the link "
                "yourself.", to=to, said=said)

