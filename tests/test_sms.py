"""Texts and WhatsApp messages going out: through the real twilio client against a fake
Messages API on 127.0.0.1 (app/twilio_send.py), and the sms: and WhatsApp links that send them
by hand (app/compose_links.py)."""

import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from app import compose_links, twilio_send
from app.delivery import Delivery
from app.wording import turn_message
from fake_twilio import FakeTwilio

SID = "AC" + "0123456789abcdef" * 2
TOKEN = "s3cret-auth-token"
FROM = "+15005550006"
SERVICE = "MG" + "fedcba9876543210" * 2
TO = "+12015550123"
BAD = "+12125550142"  # a mobile to phonenumbers, which the fake Twilio refuses when told to
URL = "https://boardpass.example/p/" + "AbCd-_09" * 16 + ".qwertyuiopasdfghjklzxc"


def configured(fake: FakeTwilio, **extra) -> dict:
    env = {"TWILIO_ACCOUNT_SID": SID, "TWILIO_AUTH_TOKEN": TOKEN, "TWILIO_FROM": FROM,
           "TWILIO_API_BASE": fake.url}
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


@pytest.fixture
def fake():
    with FakeTwilio(SID, TOKEN) as server:
        yield server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- deliver(): the real twilio client against the fake API ---------------------------------

def test_deliver_sends_one_post_with_basic_auth_and_the_message(fake):
    body = turn_message("Ana", "Ben", URL + "?a=1&b=2+3#x")
    delivery = twilio_send.deliver(TO, body, configured(fake))

    assert delivery.status == "sent" and delivery.error is None
    assert len(fake.requests) == 1
    request = fake.requests[0]
    assert request.method == "POST"
    assert request.path == f"/2010-04-01/Accounts/{SID}/Messages.json"
    assert request.basic_auth == (SID, TOKEN)
    assert request.headers["user-agent"].startswith("twilio-python/9.")  # the real client
    assert request.headers["content-type"].startswith("application/x-www-form-urlencoded")
    assert request.field("To") == TO
    assert request.field("From") == FROM
    assert request.field("Body") == body
    assert "MessagingServiceSid" not in request.form
    assert delivery.sid and delivery.sid.startswith("SM") and len(delivery.sid) == 34


def test_deliver_uses_the_messaging_service_when_it_is_set(fake):
    delivery = twilio_send.deliver(TO, "hello", configured(fake, TWILIO_MESSAGING_SERVICE_SID=SERVICE))
    assert delivery.status == "sent"
    (request,) = fake.requests
    assert request.field("MessagingServiceSid") == SERVICE
    assert "From" not in request.form


def test_deliver_with_only_a_messaging_service_is_configured(fake):
    env = configured(fake, TWILIO_FROM=None, TWILIO_MESSAGING_SERVICE_SID=SERVICE)
    assert twilio_send.deliver(TO, "hello", env).status == "sent"
    assert fake.requests[0].field("MessagingServiceSid") == SERVICE


def test_deliver_ignores_edge_and_region_when_pointed_at_another_api(fake):
    env = configured(fake, TWILIO_EDGE="sydney", TWILIO_REGION="au1")
    assert twilio_send.deliver(TO, "hello", env).status == "sent"
    assert len(fake.requests) == 1


def test_a_bad_number_fails_with_twilios_message_and_no_exception(fake):
    fake.reject(BAD)
    delivery = twilio_send.deliver(BAD, "hello", configured(fake))

    assert delivery.status == "failed" and delivery.sid is None
    assert f"The 'To' number {BAD} is not a valid phone number." in delivery.error
    assert delivery.error.startswith(f"The number {BAD} could not receive the text: ")
    assert delivery.error.endswith("Send the link yourself.")
    assert "Unable to create record" not in delivery.error
    assert len(fake.requests) == 1


def test_an_unsubscribed_number_is_a_number_problem_too(fake):
    fake.reject(TO, code=21610, message="Attempt to send to unsubscribed recipient")
    delivery = twilio_send.deliver(TO, "hello", configured(fake))
    assert delivery.status == "failed"
    assert delivery.error == (f"The number {TO} could not receive the text: "
                              "Attempt to send to unsubscribed recipient. Send the link yourself.")


def test_a_message_twilio_refuses_on_arrival_is_failed(fake):
    fake.fail_on_arrival(TO)
    delivery = twilio_send.deliver(TO, "hello", configured(fake))
    assert delivery.status == "failed" and delivery.sid.startswith("SM")
    assert "Unreachable destination handset" in delivery.error


def test_wrong_credentials_fail_without_showing_them(fake):
    delivery = twilio_send.deliver(TO, "hello", configured(fake, TWILIO_AUTH_TOKEN="wrong"))
    assert delivery.status == "failed"
    assert delivery.error == "Text messages are not working right now. Send the link yourself."
    assert "wrong" not in delivery.error and SID not in delivery.error


@pytest.mark.parametrize("status", [429, 500, 503])
def test_twilio_server_errors_fail_gently(fake, status):
    fake.reject(TO, code=20500, message="Internal Server Error", status=status)
    delivery = twilio_send.deliver(TO, "hello", configured(fake))
    assert delivery.status == "failed"
    assert delivery.error == "Text messages are not working right now. Send the link yourself."


def test_a_server_that_is_down_fails_gently():
    env = {"TWILIO_ACCOUNT_SID": SID, "TWILIO_AUTH_TOKEN": TOKEN, "TWILIO_FROM": FROM,
           "TWILIO_API_BASE": f"http://127.0.0.1:{free_port()}"}  # nothing listens there
    delivery = twilio_send.deliver(TO, "hello", env)
    assert delivery.status == "failed"
    assert delivery.error == "Text messages are not working right now. Send the link yourself."


def test_a_server_that_never_answers_times_out(monkeypatch):
    monkeypatch.setattr(twilio_send, "TIMEOUT_SECONDS", 0.3)
    with socket.socket() as silent:  # accepts connections (backlog) but never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)
        env = {"TWILIO_ACCOUNT_SID": SID, "TWILIO_AUTH_TOKEN": TOKEN, "TWILIO_FROM": FROM,
               "TWILIO_API_BASE": f"http://127.0.0.1:{silent.getsockname()[1]}"}
        delivery = twilio_send.deliver(TO, "hello", env)
    assert delivery.status == "failed"
    assert delivery.error == "The text service did not answer in time. Send the link yourself."


@pytest.mark.parametrize("drop", [
    "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM", "all"])
def test_unconfigured_sends_nothing(fake, drop):
    env = {} if drop == "all" else configured(fake, **{drop: None})
    assert twilio_send.deliver(TO, "hello", env) == Delivery("not-configured")
    assert fake.requests == []


def test_blank_settings_count_as_unset(fake):
    env = configured(fake, TWILIO_AUTH_TOKEN="  ", TWILIO_MESSAGING_SERVICE_SID="")
    assert twilio_send.deliver(TO, "hello", env).status == "not-configured"
    assert fake.requests == []


@pytest.mark.parametrize("to, body", [("", "hello"), (TO, "")])
def test_nothing_to_send_fails_without_a_request(fake, to, body):
    delivery = twilio_send.deliver(to, body, configured(fake))
    assert delivery.status == "failed" and delivery.error.endswith("Send the link yourself.")
    assert fake.requests == []


@pytest.mark.parametrize("to", [
    "+19005550199",   # premium rate
    "+18005550199",   # toll free
    "+442079460958",  # a London landline
    "+15551234567",   # area code 555: no such number
    "+15005550006",   # Twilio's test sender: "personal number" (area code 500)
    "+881612345678",  # satellite (Iridium), of no country
    "+541112345678",  # an Argentine landline (the mobile has a 9 after +54)
    "not a number",
])
def test_deliver_sends_nothing_to_a_number_that_is_not_a_mobile(fake, to):
    delivery = twilio_send.deliver(to, "hello", configured(fake))
    assert delivery.status == "failed" and delivery.sid is None
    assert delivery.error == \
        f"We don't text {to}: it isn't a mobile number. Send the link yourself."
    assert fake.requests == []


def test_deliver_sends_only_to_the_countries_given(fake):
    env = configured(fake)
    assert twilio_send.deliver("+447400123456", "hi", env, countries={"US", "GB"}).status == "sent"
    assert twilio_send.deliver(TO, "hi", env, countries="US, CA").status == "sent"
    assert len(fake.requests) == 2
    delivery = twilio_send.deliver("+447400123456", "hi", env, countries=["US", "CA", "AR"])
    assert delivery.status == "failed"
    assert delivery.error == ("We don't text +447400123456. We text mobile numbers in the United "
                              "States, Canada and Argentina only. Send the link yourself.")
    assert len(fake.requests) == 2


def test_deliver_to_no_country_is_not_configured(fake):
    assert twilio_send.deliver(TO, "hi", configured(fake), countries=()) == Delivery("not-configured")
    assert twilio_send.deliver(TO, "hi", configured(fake), countries="") == Delivery("not-configured")
    assert fake.requests == []


def test_plain_http_to_another_host_is_refused(caplog):
    env = {"TWILIO_ACCOUNT_SID": SID, "TWILIO_AUTH_TOKEN": TOKEN, "TWILIO_FROM": FROM,
           "TWILIO_API_BASE": "http://twilio.example.invalid"}
    delivery = twilio_send.deliver(TO, "hello", env)
    assert delivery.status == "failed"
    assert "TWILIO_API_BASE must be" in caplog.text


def test_the_body_and_token_are_not_logged(fake, caplog):
    fake.reject(BAD)
    twilio_send.deliver(BAD, "secret link " + URL, configured(fake))
    assert caplog.records  # the failure is logged for the operator
    assert URL not in caplog.text and TOKEN not in caplog.text


# --- sms_href() -----------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    turn_message("Ana", "Ben", URL + "?a=1&b=2+3#frag"),
    "100% & more = ok? #1 +plus / slash; semi, ñ \U0001f600\nnew line",
])
def test_sms_href_round_trips_the_body_and_has_the_number(body):
    href = compose_links.sms_href("+15551234567", body)
    assert href.startswith("sms:+15551234567?&body=")
    parts = urlsplit(href)
    assert (parts.scheme, parts.path, parts.fragment) == ("sms", "+15551234567", "")
    assert parse_qs(parts.query, keep_blank_values=True) == {"body": [body]}
    assert " " not in href and "+" not in href[len("sms:+1"):]


def test_sms_href_without_a_number():
    href = compose_links.sms_href(None, "Your turn")
    assert href == "sms:?&body=Your%20turn"
    assert compose_links.sms_href("", "Your turn") == href


def test_sms_href_keeps_only_the_digits_of_the_number():
    href = compose_links.sms_href("+1 (555) 123-4567?body=spam&x", "hi")
    assert href == "sms:+15551234567?&body=hi"


# --- cold start ----------------------------------------------------------------------------

def test_importing_what_we_send_imports_neither_twilio_nor_phonenumbers():
    code = (
        "import sys\n"
        "from app import compose_links, phone_numbers, twilio_send, wording\n"
        "wording.turn_message('Ana', 'Ben', 'https://b.example/x'); wording.segments('hi')\n"
        "compose_links.sms_href('+15551234567', 'hi')\n"
        "assert twilio_send.deliver('+15551234567', 'hi', {}).status == 'not-configured'\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('twilio', 'phonenumbers'))\n"
        "print(loaded)\n"
    )
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# --- WhatsApp: the click-to-chat address, and Twilio's WhatsApp sender ------------------------

WA_FROM = "whatsapp:+14155238886"
AR = "+5491123456789"  # an Argentine mobile


def whatsapp(fake: FakeTwilio, **extra) -> dict:
    fake.whatsapp_senders.add(WA_FROM)
    return configured(fake, **{"TWILIO_WHATSAPP_FROM": WA_FROM, **extra})


@pytest.mark.parametrize("lang, start", [
    ("en", "Ana moved. Your turn in Boardpass, Ben: "),
    ("es", "Ana hizo su jugada. Te toca en Boardpass, Ben: ")])
def test_the_whatsapp_address_opens_a_chat_with_the_number_and_the_text(lang, start):
    body = turn_message("Ana", "Ben", URL + "?a=1&b=2+3", "Ludo", lang)
    assert body.startswith(start)
    href = compose_links.whatsapp_href(AR, body)
    parts = urlsplit(href)
    assert (parts.scheme, parts.netloc, parts.path, parts.fragment) == \
        ("https", "wa.me", "/5491123456789", "")  # digits only: no "+"
    assert parse_qs(parts.query, keep_blank_values=True) == {"text": [body]}
    assert " " not in href and "+" not in href and "&" not in parts.query.removeprefix("text=")


def test_the_whatsapp_address_keeps_any_text_and_only_the_number_s_digits():
    body = "100% & more = ok? #1 +plus / ñ José \U0001f3b2\nnew line"
    href = compose_links.whatsapp_href("+1 (201) 555-0123?text=spam&x", body)
    assert href.startswith("https://wa.me/12015550123?text=")
    assert parse_qs(urlsplit(href).query) == {"text": [body]}
    assert compose_links.whatsapp_href(None, "Hi") == "https://wa.me/?text=Hi"  # WhatsApp asks whom
    assert compose_links.whatsapp_href("", "Hi") == "https://wa.me/?text=Hi"
    assert compose_links.whatsapp_href("0054 9 11 2345 6789", "Hi").startswith("https://wa.me/549112")


def test_deliver_by_whatsapp_sends_from_the_whatsapp_sender_through_the_same_client(fake):
    body = turn_message("Ana", "Ben", URL, "Ludo", "es")
    delivery = twilio_send.deliver(AR, body, whatsapp(fake), whatsapp=True)
    assert delivery.status == "sent" and delivery.channel == "whatsapp"
    (request,) = fake.requests
    assert request.path == f"/2010-04-01/Accounts/{SID}/Messages.json"
    assert request.basic_auth == (SID, TOKEN)
    assert request.headers["user-agent"].startswith("twilio-python/9.")
    assert request.field("To") == f"whatsapp:{AR}" and request.field("From") == WA_FROM
    assert request.field("Body") == body and "ContentSid" not in request.form


def test_whatsapp_never_goes_through_the_messaging_service_and_takes_a_bare_sender(fake):
    env = whatsapp(fake, TWILIO_MESSAGING_SERVICE_SID=SERVICE,
                   TWILIO_WHATSAPP_FROM=WA_FROM.removeprefix("whatsapp:"))
    assert twilio_send.deliver(TO, "hello", env, whatsapp=True).status == "sent"
    (request,) = fake.requests
    assert request.field("From") == WA_FROM and "MessagingServiceSid" not in request.form
    assert twilio_send.deliver(TO, "hello", env).status == "sent"  # a text: the service, as before
    assert fake.requests[1].field("MessagingServiceSid") == SERVICE
    assert fake.requests[1].field("To") == TO


def test_a_template_for_the_table_s_language_carries_the_message(fake):
    env = whatsapp(fake, TWILIO_WHATSAPP_TEMPLATES="es:HX" + "a" * 32)
    body = turn_message("Ana", "José", URL, "Ludo", "es")
    assert twilio_send.deliver(AR, body, env, whatsapp=True, lang="es").status == "sent"
    assert twilio_send.deliver(AR, "hello", env, whatsapp=True, lang="en").status == "sent"
    spanish, english = fake.requests
    assert spanish.field("ContentSid") == "HX" + "a" * 32 and "Body" not in spanish.form
    import json
    assert json.loads(spanish.field("ContentVariables")) == {"1": body}
    assert english.field("Body") == "hello" and "ContentSid" not in english.form


@pytest.mark.parametrize("setting", [None, "", "  "])
def test_without_a_whatsapp_sender_nothing_goes_by_whatsapp(fake, setting):
    env = configured(fake, TWILIO_WHATSAPP_FROM=setting)
    assert twilio_send.deliver(TO, "hi", env, whatsapp=True) == \
        Delivery("not-configured", channel="whatsapp")
    assert not twilio_send.configured(env, whatsapp=True) and twilio_send.configured(env)
    assert fake.requests == []


def test_a_whatsapp_sender_that_is_no_number_fails_without_a_request(fake, caplog):
    delivery = twilio_send.deliver(TO, "hi", whatsapp(fake, TWILIO_WHATSAPP_FROM="whatsapp:sandbox"),
                           whatsapp=True)
    assert delivery.status == "failed" and delivery.error == \
        "WhatsApp messages are not working right now. Send the link yourself."
    assert "TWILIO_WHATSAPP_FROM" in caplog.text and fake.requests == []


def test_a_number_not_on_whatsapp_fails_with_twilio_s_words(fake):
    fake.reject(f"whatsapp:{AR}", code=63003, message="Channel could not find To address")
    delivery = twilio_send.deliver(AR, "hello", whatsapp(fake), whatsapp=True)
    assert delivery.status == "failed" and delivery.channel == "whatsapp"
    assert delivery.error == (f"The number {AR} could not receive the WhatsApp message: Channel "
                              "could not find To address. Send the link yourself.")


def test_a_free_text_outside_the_24_hour_window_fails_on_arrival(fake):
    fake.fail_on_arrival(f"whatsapp:{AR}", 63016, "Failed to send freeform message because you "
                         "are outside the allowed window. If you want to send messages outside "
                         "this window, please use a Template.")
    delivery = twilio_send.deliver(AR, "hello", whatsapp(fake), whatsapp=True)
    assert delivery.status == "failed" and delivery.sid.startswith("SM")
    assert delivery.error.startswith(f"The number {AR} could not receive the WhatsApp message: "
                                     "Failed to send freeform message")


def test_a_sender_the_account_lacks_is_our_problem_not_the_number_s(fake):
    env = configured(fake, TWILIO_WHATSAPP_FROM="whatsapp:+15005550006")  # not the account's
    delivery = twilio_send.deliver(AR, "hello", env, whatsapp=True)
    assert delivery.status == "failed" and delivery.error == \
        "WhatsApp messages are not working right now. Send the link yourself."
    assert len(fake.requests) == 1  # Twilio said 63007


@pytest.mark.parametrize("status", [401, 429, 500, 503])
def test_whatsapp_server_errors_fail_gently(fake, status):
    fake.reject(f"whatsapp:{AR}", code=20500, message="Internal Server Error", status=status)
    delivery = twilio_send.deliver(AR, "hello", whatsapp(fake), whatsapp=True)
    assert delivery == Delivery("failed", error="WhatsApp messages are not working right "
                                    "now. Send the link yourself.", channel="whatsapp")


def test_whatsapp_refused_for_the_text_itself(fake):
    fake.reject(f"whatsapp:{AR}", code=21617, message="The concatenated message body exceeds "
                "the 1600 character limit")
    delivery = twilio_send.deliver(AR, "hello", whatsapp(fake), whatsapp=True)
    assert delivery.error == ("The WhatsApp message could not be sent: The concatenated message "
                              "body exceeds the 1600 character limit. Send the link yourself.")


def test_whatsapp_down_or_silent_fails_gently(fake, monkeypatch):
    env = whatsapp(fake, TWILIO_API_BASE=f"http://127.0.0.1:{free_port()}")
    assert twilio_send.deliver(AR, "hello", env, whatsapp=True).error == \
        "WhatsApp messages are not working right now. Send the link yourself."
    monkeypatch.setattr(twilio_send, "TIMEOUT_SECONDS", 0.3)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)
        env["TWILIO_API_BASE"] = f"http://127.0.0.1:{silent.getsockname()[1]}"
        delivery = twilio_send.deliver(AR, "hello", env, whatsapp=True)
    assert delivery.error == \
        "The WhatsApp message service did not answer in time. Send the link yourself."


@pytest.mark.parametrize("to", ["+19005550199", "+442079460958", "+541112345678"])
def test_whatsapp_goes_only_to_the_mobiles_texts_go_to(fake, to):
    delivery = twilio_send.deliver(to, "hello", whatsapp(fake), whatsapp=True)
    assert delivery.status == "failed" and delivery.channel == "whatsapp"
    assert delivery.error == \
        f"We don't text {to}: it isn't a mobile number. Send the link yourself."
    refused = twilio_send.deliver(AR, "hello", whatsapp(fake), countries=["US"], whatsapp=True)
    assert refused.status == "failed" and fake.requests == []
