"""Texts for turn links: GSM-7 wording, sms: links, phone numbers, and Twilio sends through the
real twilio client against a fake Messages API on 127.0.0.1."""

import re
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from app import i18n, sms
from fake_twilio import FakeTwilio

SID = "AC" + "0123456789abcdef" * 2
TOKEN = "s3cret-auth-token"
FROM = "+15005550006"
SERVICE = "MG" + "fedcba9876543210" * 2
TO = "+12015550123"
BAD = "+12125550142"  # a mobile to phonenumbers, which the fake Twilio refuses when told to
URL = "https://boardpass.example/p/" + "AbCd-_09" * 16 + ".qwertyuiopasdfghjklzxc"

HOSTILE_NAMES = [
    "Ana \U0001f600\U0001f3b2",                    # emoji
    "José Ñúñez Ålborg",                            # accents
    "\u201cBig\u201d D\u2019Angelo \u2014 jr",      # curly quotes, em dash
    "Line\none\r\ntwo\tthree",                      # newlines, tab
    "<script>alert('x')</script>",                  # markup
    "\u202eevil\u200b\u200dname\x00\x07",           # bidi override, zero-width, NUL, BEL
    "Z\u0351\u0352\u0357\u035b\u0363a\u0364\u0365lgo",  # combining-mark flood
    "\u4e2d\u6587\u540d\u5b57",                     # CJK only: nothing GSM-7 left
    "\uff21\uff4e\uff41 \ufb01ne",                  # fullwidth letters, ligature
    "x" * 500,                                      # very long
    "{curly} [square] ~tilde^ |pipe| \\ \u20ac",   # GSM-7 extension characters
    "",
    "   ",
]


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
    body = sms.turn_message("Ana", "Ben", URL + "?a=1&b=2+3#x")
    delivery = sms.deliver(TO, body, configured(fake))

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
    delivery = sms.deliver(TO, "hello", configured(fake, TWILIO_MESSAGING_SERVICE_SID=SERVICE))
    assert delivery.status == "sent"
    (request,) = fake.requests
    assert request.field("MessagingServiceSid") == SERVICE
    assert "From" not in request.form


def test_deliver_with_only_a_messaging_service_is_configured(fake):
    env = configured(fake, TWILIO_FROM=None, TWILIO_MESSAGING_SERVICE_SID=SERVICE)
    assert sms.deliver(TO, "hello", env).status == "sent"
    assert fake.requests[0].field("MessagingServiceSid") == SERVICE


def test_deliver_ignores_edge_and_region_when_pointed_at_another_api(fake):
    env = configured(fake, TWILIO_EDGE="sydney", TWILIO_REGION="au1")
    assert sms.deliver(TO, "hello", env).status == "sent"
    assert len(fake.requests) == 1


def test_a_bad_number_fails_with_twilios_message_and_no_exception(fake):
    fake.reject(BAD)
    delivery = sms.deliver(BAD, "hello", configured(fake))

    assert delivery.status == "failed" and delivery.sid is None
    assert f"The 'To' number {BAD} is not a valid phone number." in delivery.error
    assert delivery.error.startswith(f"The number {BAD} could not receive the text: ")
    assert delivery.error.endswith("Send the link yourself.")
    assert "Unable to create record" not in delivery.error
    assert len(fake.requests) == 1


def test_an_unsubscribed_number_is_a_number_problem_too(fake):
    fake.reject(TO, code=21610, message="Attempt to send to unsubscribed recipient")
    delivery = sms.deliver(TO, "hello", configured(fake))
    assert delivery.status == "failed"
    assert delivery.error == (f"The number {TO} could not receive the text: "
                              "Attempt to send to unsubscribed recipient. Send the link yourself.")


def test_a_message_twilio_refuses_on_arrival_is_failed(fake):
    fake.fail_on_arrival(TO)
    delivery = sms.deliver(TO, "hello", configured(fake))
    assert delivery.status == "failed" and delivery.sid.startswith("SM")
    assert "Unreachable destination handset" in delivery.error


def test_wrong_credentials_fail_without_showing_them(fake):
    delivery = sms.deliver(TO, "hello", configured(fake, TWILIO_AUTH_TOKEN="wrong"))
    assert delivery.status == "failed"
    assert delivery.error == "Text messages are not working right now. Send the link yourself."
    assert "wrong" not in delivery.error and SID not in delivery.error


@pytest.mark.parametrize("status", [429, 500, 503])
def test_twilio_server_errors_fail_gently(fake, status):
    fake.reject(TO, code=20500, message="Internal Server Error", status=status)
    delivery = sms.deliver(TO, "hello", configured(fake))
    assert delivery.status == "failed"
    assert delivery.error == "Text messages are not working right now. Send the link yourself."


def test_a_server_that_is_down_fails_gently():
    env = {"TWILIO_ACCOUNT_SID": SID, "TWILIO_AUTH_TOKEN": TOKEN, "TWILIO_FROM": FROM,
           "TWILIO_API_BASE": f"http://127.0.0.1:{free_port()}"}  # nothing listens there
    delivery = sms.deliver(TO, "hello", env)
    assert delivery.status == "failed"
    assert delivery.error == "Text messages are not working right now. Send the link yourself."


def test_a_server_that_never_answers_times_out(monkeypatch):
    monkeypatch.setattr(sms, "TIMEOUT_SECONDS", 0.3)
    with socket.socket() as silent:  # accepts connections (backlog) but never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)
        env = {"TWILIO_ACCOUNT_SID": SID, "TWILIO_AUTH_TOKEN": TOKEN, "TWILIO_FROM": FROM,
               "TWILIO_API_BASE": f"http://127.0.0.1:{silent.getsockname()[1]}"}
        delivery = sms.deliver(TO, "hello", env)
    assert delivery.status == "failed"
    assert delivery.error == "The text service did not answer in time. Send the link yourself."


@pytest.mark.parametrize("drop", [
    "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM", "all"])
def test_unconfigured_sends_nothing(fake, drop):
    env = {} if drop == "all" else configured(fake, **{drop: None})
    assert sms.deliver(TO, "hello", env) == sms.Delivery("not-configured")
    assert fake.requests == []


def test_blank_settings_count_as_unset(fake):
    env = configured(fake, TWILIO_AUTH_TOKEN="  ", TWILIO_MESSAGING_SERVICE_SID="")
    assert sms.deliver(TO, "hello", env).status == "not-configured"
    assert fake.requests == []


@pytest.mark.parametrize("to, body", [("", "hello"), (TO, "")])
def test_nothing_to_send_fails_without_a_request(fake, to, body):
    delivery = sms.deliver(to, body, configured(fake))
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
    delivery = sms.deliver(to, "hello", configured(fake))
    assert delivery.status == "failed" and delivery.sid is None
    assert delivery.error == \
        f"We don't text {to}: it isn't a mobile number. Send the link yourself."
    assert fake.requests == []


def test_deliver_sends_only_to_the_countries_given(fake):
    env = configured(fake)
    assert sms.deliver("+447400123456", "hi", env, countries={"US", "GB"}).status == "sent"
    assert sms.deliver(TO, "hi", env, countries="US, CA").status == "sent"
    assert len(fake.requests) == 2
    delivery = sms.deliver("+447400123456", "hi", env, countries=["US", "CA", "AR"])
    assert delivery.status == "failed"
    assert delivery.error == ("We don't text +447400123456. We text mobile numbers in the United "
                              "States, Canada and Argentina only. Send the link yourself.")
    assert len(fake.requests) == 2


def test_deliver_to_no_country_is_not_configured(fake):
    assert sms.deliver(TO, "hi", configured(fake), countries=()) == sms.Delivery("not-configured")
    assert sms.deliver(TO, "hi", configured(fake), countries="") == sms.Delivery("not-configured")
    assert fake.requests == []


def test_plain_http_to_another_host_is_refused(caplog):
    env = {"TWILIO_ACCOUNT_SID": SID, "TWILIO_AUTH_TOKEN": TOKEN, "TWILIO_FROM": FROM,
           "TWILIO_API_BASE": "http://twilio.example.invalid"}
    delivery = sms.deliver(TO, "hello", env)
    assert delivery.status == "failed"
    assert "TWILIO_API_BASE must be" in caplog.text


def test_the_body_and_token_are_not_logged(fake, caplog):
    fake.reject(BAD)
    sms.deliver(BAD, "secret link " + URL, configured(fake))
    assert caplog.records  # the failure is logged for the operator
    assert URL not in caplog.text and TOKEN not in caplog.text


# --- turn_message(): GSM-7 text ---------------------------------------------------------------

@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("as_mover", [True, False])
def test_turn_message_is_single_line_gsm7_whatever_the_names(name, as_mover):
    mover, next_name = (name, "Ben") if as_mover else ("Ana", name)
    for text in (sms.turn_message(mover, next_name, URL),
                 sms.turn_message(None, name, URL, "Red Arse")):
        assert sms.gsm7_length(text) is not None, text
        assert not any(c in text for c in "\n\r\t\f\x00\x1b"), text
        assert "  " not in text
        assert text.endswith(" " + URL)
        assert sms.segments(text) <= 2  # even a 500-character name is cut short


def test_turn_message_names_the_mover_and_the_next_player():
    text = sms.turn_message("Ana", "Ben", URL)
    assert text == f"Ana moved. Your turn in Boardpass, Ben: {URL}"


def test_new_game_invitation_uses_a_straight_apostrophe_and_the_title():
    text = sms.turn_message(None, "Ben", URL, "Ludo")
    assert text == f"Ben, you're invited to a game of Ludo in Boardpass. Your turn: {URL}"
    assert sms.turn_message(None, "Ben", URL).startswith(
        "Ben, you're invited to a game of Parcheesi in Boardpass.")


@pytest.mark.parametrize("typed, shown", [
    ("José", "Jose"),
    ("Ñúñez", "Nunez"),
    ("\u201cBig\u201d D\u2019Angelo", "\"Big\" D'Angelo"),
    ("Ana\n\n  Maria", "Ana Maria"),
    ("Ana \U0001f600", "Ana"),
    ("<script>", "<script>"),  # plain text: GSM-7 has < and >; HTML escaping is the page's job
    ("\uff21\uff4e\uff41", "Ana"),
    ("J.R. Smith", "J.R. Smith"),
])
def test_names_are_transliterated(typed, shown):
    assert sms.turn_message(typed, "Ben", URL) == f"{shown} moved. Your turn in Boardpass, Ben: {URL}"


def test_empty_names_fall_back():
    assert sms.turn_message("\U0001f600", "Ben", URL).startswith("A player moved. ")
    assert sms.turn_message("", "Ben", URL).startswith("A player moved. ")
    assert sms.turn_message("Ana", "\u4e2d\u6587", URL) == f"Ana moved. Your turn in Boardpass: {URL}"
    assert sms.turn_message(None, " ", URL).startswith("You're invited to a game of Parcheesi")


def test_names_cannot_carry_links():
    for name in ("evil.com", "www.evil.co.uk", "http://x.io/a", "me@mail.example"):
        text = sms.turn_message(name, "Ben", URL)
        head = text[:-len(URL)]
        assert "." not in head.replace("moved. ", "").replace("Boardpass, ", ""), text
        assert "://" not in head


def next_name(name: str) -> str:
    """``name`` as a text shows it (the next player's name; "" when none is left)."""
    text = sms.turn_message("Ana", name, URL)
    head = text.removesuffix(f": {URL}").removeprefix("Ana moved. Your turn in Boardpass")
    return head.removeprefix(", ")


@pytest.mark.parametrize("typed, shown", [
    ("evil.com", "evil com"),
    ("EVIL . COM", "EVIL COM"),
    ("evil .com", "evil com"),
    ("evil\uff0ecom", "evil com"),          # fullwidth full stop
    ("www evil com", "evil com"),
    ("www.evil.co.uk", "evil co uk"),
    ("WWWevil", "evil"),
    ("http://x.y", "x.y"),                  # "x.y" is no address: one letter after the dot
    ("https://t.co/abc", "t co/abc"),
    ("HTTPS : // evil", ": // evil"),
    ("bit.ly/abc", "bit ly/abc"),
    ("me@mail.example", "me mail example"),
    ("@evil", "evil"),
    ("+1 900 555 0199", ""),
    ("+1 (900) 555-0199", ""),
    ("call 0900123456 now", "call now"),
    ("Ana 0900 123 456", "Ana"),
    ("Bo 555.0199.12", "Bo"),
    ("\uff19\uff10\uff10\uff15\uff15\uff15", ""),  # fullwidth digits
    ("9a0a0a5a5", "aaaa"),                  # five digits in all: every digit goes
    ("evil.1234 5com", "evil com"),         # removing the digits must not make a link
    ("12www345.com", "com"),
    ("Ana 1234", "Ana 1234"),               # four digits are no phone number
])
def test_names_carry_no_links_and_no_phone_numbers(typed, shown):
    assert next_name(typed) == shown
    assert sms.turn_message(typed, "Ben", URL).startswith(f"{shown or 'A player'} moved. ")


@pytest.mark.parametrize("name, shown", [
    ("María José", "Maria Jose"),
    ("O'Brien", "O'Brien"),
    ("Jean-Luc", "Jean-Luc"),
    ("Ana 2", "Ana 2"),
    ("R2D2", "R2D2"),
    ("J.R. Smith", "J.R. Smith"),
    ("Mr. T", "Mr. T"),
    ("Dr. Who", "Dr Who"),                  # the price of breaking "EVIL. COM"
    ("Ana & Bo", "Ana & Bo"),
    ("Zoë (host)", "Zoe (host)"),
])
def test_ordinary_names_survive(name, shown):
    assert next_name(name) == shown


@pytest.mark.parametrize("name", [
    "evil.com", "EVIL . COM", "www evil com", "http://x.y", "bit.ly/abc", "+1 900 555 0199",
    "call 0900123456 now", "me@x.io", "a.b.co", "t.co/x", "x" * 40 + ".com"])
def test_no_name_leaves_a_link_or_a_number_in_any_text(name):
    texts = [sms.turn_message(name, name, URL), sms.turn_message(None, name, URL),
             sms.results_message(name, name, URL, "Ludo"),
             sms.played_for_you_message(name, URL),
             sms.played_for_you_message(name, URL, away=True)]
    for text in texts:
        head = text[:-len(URL)]
        assert sms.gsm7_length(text) is not None, text
        assert not re.search(r"(?i)[a-z0-9]\.[a-z]{2}|\s\.\s|www|http|://|@|[0-9]{5}", head), text
        assert sum(char.isdigit() for char in head) < 5, text


def test_long_names_are_cut():
    assert sms.NAME_CHARS == 20
    text = sms.turn_message("A" * 100, "B" * 100, URL)
    assert "A" * sms.NAME_CHARS in text and "A" * (sms.NAME_CHARS + 1) not in text
    assert next_name("Ana Maria de los Angeles Lopez") == "Ana Maria de los Ang"
    assert next_name("Ana Maria de los Angeles Lopez") == next_name("Ana Maria de los Ang ")
    assert next_name("Maria Fernanda Gonzalez") == "Maria Fernanda Gonza"
    assert next_name("Ana                    B") == "Ana B"  # spaces collapse before the cut
    assert next_name("Maria Fernanda       X") == "Maria Fernanda X"
    assert len(next_name("x" * 19 + " y")) == 19  # no trailing space after the cut


@pytest.mark.parametrize("name", ["Ana" * 20, "Ana +1 900 555 0199 www.evil.com " * 3])
def test_every_text_cuts_names(name):
    assert sms.results_message(name, name, URL, "Ludo").startswith(
        f"{next_name(name)} won our game")
    assert sms.played_for_you_message(name, URL).startswith(f"{next_name(name)}, your turn")
    assert len(next_name(name)) <= sms.NAME_CHARS


def test_url_characters_outside_plain_ascii_are_percent_encoded():
    text = sms.turn_message("Ana", "Ben", "https://b.example/p/ñ x`{")
    assert text.endswith("https://b.example/p/%C3%B1%20x%60%7B")
    with pytest.raises(ValueError):
        sms.turn_message("Ana", "Ben", "  ")


# --- gsm7_length() and segments() -------------------------------------------------------------

def test_gsm7_length_counts_septets():
    assert sms.gsm7_length("") == 0
    assert sms.gsm7_length("Hello @ £ é ß Δ") == 15
    assert sms.gsm7_length("[x]") == 5
    assert sms.gsm7_length("€") == 2
    for text in ("\u2019", "\U0001f600", "á", "\x1b", "\t", "`"):
        assert sms.gsm7_length(text) is None, repr(text)


def test_segments():
    assert sms.segments("") == 1
    assert [sms.segments("x" * n) for n in (160, 161, 306, 307)] == [1, 2, 2, 3]
    assert sms.segments("x" * 159 + "€") == 2          # 161 septets
    # 306 septets would be 2 segments, but the escape pair cannot be split across them
    assert sms.segments("x" * 152 + "€" + "x" * 152) == 3
    assert [sms.segments("é" * 70), sms.segments("á" * 70), sms.segments("á" * 71)] == [1, 1, 2]
    assert sms.segments("\U0001f3b2" * 35) == 1  # surrogate pairs: 70 UTF-16 units
    assert sms.segments("\U0001f3b2" * 34) == 1
    assert sms.segments("\U0001f3b2" * 67) == 3  # 33 pairs (66 units) per 67-unit segment


# --- sms_href() -----------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    sms.turn_message("Ana", "Ben", URL + "?a=1&b=2+3#frag"),
    "100% & more = ok? #1 +plus / slash; semi, ñ \U0001f600\nnew line",
])
def test_sms_href_round_trips_the_body_and_has_the_number(body):
    href = sms.sms_href("+15551234567", body)
    assert href.startswith("sms:+15551234567?&body=")
    parts = urlsplit(href)
    assert (parts.scheme, parts.path, parts.fragment) == ("sms", "+15551234567", "")
    assert parse_qs(parts.query, keep_blank_values=True) == {"body": [body]}
    assert " " not in href and "+" not in href[len("sms:+1"):]


def test_sms_href_without_a_number():
    href = sms.sms_href(None, "Your turn")
    assert href == "sms:?&body=Your%20turn"
    assert sms.sms_href("", "Your turn") == href


def test_sms_href_keeps_only_the_digits_of_the_number():
    href = sms.sms_href("+1 (555) 123-4567?body=spam&x", "hi")
    assert href == "sms:+15551234567?&body=hi"


# --- normalize_phone() ------------------------------------------------------------------------

@pytest.mark.parametrize("typed, region, e164", [
    ("(201) 555-0123", "US", "+12015550123"),   # US: "fixed line or mobile" to phonenumbers
    ("201.555.0123", "US", "+12015550123"),
    ("1 201 555 0123", "US", "+12015550123"),
    ("  +1-415-555-2671 ", "US", "+14155552671"),
    ("(415) 555-0199", "US", "+14155550199"),
    ("+1 416 555 0123", "US", "+14165550123"),  # Canada
    ("+44 7400 123456", "US", "+447400123456"),  # a UK mobile
    ("07400 123456", "GB", "+447400123456"),
    ("+34 612 34 56 78", "AR", "+34612345678"),  # Spain
    ("+52 222 123 4567", "US", "+522221234567"),  # Mexico: "fixed line or mobile"
    ("11 1234-5678", "AR", "+5491112345678"),   # Argentina: the mobile's 9 added
    ("011 15 1234-5678", "AR", "+5491112345678"),
    ("+54 9 11 2345-6789", "US", "+5491123456789"),
])
def test_normalize_phone_accepts_mobiles(typed, region, e164):
    assert sms.normalize_phone(typed, region) == e164
    assert sms.refused(e164) is None


@pytest.mark.parametrize("typed", [
    "+1 900 555 0199",    # premium rate
    "+1 800 555 0199",    # toll free
    "+1 500 234 5678",    # personal number
    "+15005550006",       # Twilio's magic test sender: a personal number too
    "+44 20 7946 0958",   # fixed line
    "+44 121 234 5678",   # fixed line
    "+44 56 1234 5678",   # VoIP
    "+44 76 4012 3456",   # pager
    "+44 55 1234 5678",   # UAN
    "+44 70 1234 5678",   # personal number
    "+44 9012 345678",    # premium rate
    "+43 810 123456",     # shared cost (Austria)
    "+49 177 991234567",  # voicemail (Germany)
    "+881 6 1234 5678",   # satellite (Iridium): "mobile", but of no country
    "+870 301 234 567",   # Inmarsat
    "+882 34 2123 4",     # international networks
    "+800 1234 5678",     # international freephone
    "+979 1234 56789",    # international premium rate
])
def test_normalize_phone_refuses_what_is_not_a_mobile(typed):
    with pytest.raises(ValueError) as caught:
        sms.normalize_phone(typed)
    assert str(caught.value) == "That number can't get text messages: type a mobile number."
    assert sms.refused(e164(typed)) is not None  # nor is it texted from an older link


def e164(typed: str) -> str:
    import phonenumbers

    number = phonenumbers.parse(typed)
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


@pytest.mark.parametrize("typed", [
    "(555) 123-4567", "555.123.4567", "+15551234567", "+15550001234",  # area code 555
    "+44 7700 900123",  # Ofcom's numbers for drama: not in any range phonenumbers knows
    "+1 200 300 0000",  # no area code 200
])
def test_normalize_phone_refuses_numbers_phonenumbers_does_not_know(typed):
    with pytest.raises(ValueError) as caught:
        sms.normalize_phone(typed)
    assert str(caught.value).startswith("That phone number doesn't look right.")


@pytest.mark.parametrize("typed, countries, allowed", [
    ("+44 7400 123456", {"US", "CA"}, "Canada and the United States"),  # a set: sorted
    ("+44 7400 123456", ["US", "CA", "AR"], "the United States, Canada and Argentina"),
    ("+44 7400 123456", ("us",), "the United States"),
    ("+12015550123", "GB, AR", "the United Kingdom and Argentina"),
    ("+12015550123", ["FR", "DE", "ES"], "FR, DE and Spain"),  # no name: the code
    ("+44 7781 123456", ["GB"], "the United Kingdom"),  # Guernsey is not the UK to phonenumbers
    ("+44 20 7946 0958", ["US"], "the United States"),  # the country is said before the type
])
def test_normalize_phone_refuses_other_countries_and_names_the_allowed_ones(typed, countries,
                                                                            allowed):
    with pytest.raises(ValueError) as caught:
        sms.normalize_phone(typed, countries=countries)
    assert str(caught.value) == f"We text mobile numbers in {allowed} only."


def test_normalize_phone_in_allowed_countries():
    countries = {"US", "CA", "GB", "AR"}
    assert sms.normalize_phone("(201) 555-0123", countries=countries) == "+12015550123"
    assert sms.normalize_phone("+1 416 555 0123", countries=countries) == "+14165550123"
    assert sms.normalize_phone("07400 123456", "GB", countries) == "+447400123456"
    assert sms.normalize_phone("11 1234-5678", "AR", countries) == "+5491112345678"
    assert sms.normalize_phone("+44 7781 123456", countries={"GG"}) == "+447781123456"
    with pytest.raises(ValueError) as caught:  # still only mobiles
        sms.normalize_phone("+1 900 555 0199", countries=countries)
    assert str(caught.value) == "That number can't get text messages: type a mobile number."
    with pytest.raises(ValueError) as caught:
        sms.normalize_phone("(201) 555-0123", countries=set())
    assert str(caught.value) == "We don't text phone numbers right now: leave the number out."


def test_the_country_message_translates_as_a_whole():
    with pytest.raises(ValueError) as caught:
        sms.normalize_phone("+34 612 34 56 78", countries=["US", "CA", "GB", "AR"])
    message = caught.value.args[0]  # what the web layer translates
    assert message.msgid == "We text mobile numbers in %(countries)s only."
    listed = message.args["countries"]
    assert listed.msgid == "%(first)s, %(rest)s"
    assert listed.args["first"].msgid == "the United States"
    assert listed.args["rest"].args["rest"].msgid == "%(first)s and %(last)s"
    assert listed.args["rest"].args["rest"].args["last"].msgid == "Argentina"
    # Until the catalog has these messages, Spanish falls back to English, whole.
    spanish = i18n.translate(message, "es")
    assert "%(" not in spanish and spanish.endswith(".")


def test_refused_lets_through_only_the_numbers_texted():
    assert sms.refused("+12015550123") is None and sms.refused(" +447400123456 ") is None
    assert sms.refused("+5491112345678", ["AR"]) is None
    assert sms.refused("+5491112345678", "AR,US") is None
    assert sms.refused("+5491112345678", ["US"]) is not None
    assert sms.refused("+12015550123", []) is not None
    for bad in (None, "", "2015550123", "+", "+1", "+1" + "2" * 60, "+1 900 555 0199", "hello",
                "+15551234567", "+541112345678", "+881612345678", 12015550123):
        assert sms.refused(bad) is not None, bad


@pytest.mark.parametrize("typed", ["123", "", "   ", "hello", "+44 20", "+999 123 4567",
                                   "5" * 60, "(555) 123-4567 ext 9" * 5, "(555) 123-4567"])
def test_normalize_phone_rejects_with_a_sentence(typed):
    with pytest.raises(ValueError) as caught:
        sms.normalize_phone(typed)
    message = str(caught.value)
    assert message[0].isupper() and message.endswith(".")
    if typed.strip():
        assert message.startswith("That phone number doesn't look right.")  # typed text not echoed
    else:
        assert message == "Enter a phone number."


# --- cold start ----------------------------------------------------------------------------

def test_importing_app_sms_imports_neither_twilio_nor_phonenumbers():
    code = (
        "import sys\n"
        "from app import sms\n"
        "sms.turn_message('Ana', 'Ben', 'https://b.example/x')\n"
        "sms.sms_href('+15551234567', 'hi'); sms.segments('hi')\n"
        "assert sms.deliver('+15551234567', 'hi', {}).status == 'not-configured'\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('twilio', 'phonenumbers'))\n"
        "print(loaded)\n"
    )
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# --- the table's language -----------------------------------------------------------------------

@pytest.mark.parametrize("mover,next_name", [("Ana", "Ben"), (None, "Ben"), ("Ana", ""),
                                             (None, ""), ("", "Ben")])
def test_spanish_texts_are_spanish_and_plain_gsm7(mover, next_name):
    text = sms.turn_message(mover, next_name, URL, "Ludo", lang="es")
    assert sms.gsm7_length(text) is not None, text  # GSM-7: no á, í, ó, ú (see sms.py)
    assert text.endswith(URL)
    assert ("Te toca" in text) and ("Your turn" not in text)


def test_a_spanish_text_names_the_mover_and_the_next_player():
    assert sms.turn_message("Ana", "Ben", URL, lang="es") == \
        f"Ana hizo su jugada. Te toca en Boardpass, Ben: {URL}"
    assert sms.turn_message(None, "Ben", URL, "Ludo", lang="es") == \
        f"Ben, te invitaron a una partida de Ludo en Boardpass. Te toca: {URL}"


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
    body = sms.turn_message("Ana", "Ben", URL + "?a=1&b=2+3", "Ludo", lang)
    assert body.startswith(start)
    href = sms.whatsapp_href(AR, body)
    parts = urlsplit(href)
    assert (parts.scheme, parts.netloc, parts.path, parts.fragment) == \
        ("https", "wa.me", "/5491123456789", "")  # digits only: no "+"
    assert parse_qs(parts.query, keep_blank_values=True) == {"text": [body]}
    assert " " not in href and "+" not in href and "&" not in parts.query.removeprefix("text=")


def test_the_whatsapp_address_keeps_any_text_and_only_the_number_s_digits():
    body = "100% & more = ok? #1 +plus / ñ José \U0001f3b2\nnew line"
    href = sms.whatsapp_href("+1 (201) 555-0123?text=spam&x", body)
    assert href.startswith("https://wa.me/12015550123?text=")
    assert parse_qs(urlsplit(href).query) == {"text": [body]}
    assert sms.whatsapp_href(None, "Hi") == "https://wa.me/?text=Hi"  # WhatsApp asks whom
    assert sms.whatsapp_href("", "Hi") == "https://wa.me/?text=Hi"
    assert sms.whatsapp_href("0054 9 11 2345 6789", "Hi").startswith("https://wa.me/549112")


def test_deliver_by_whatsapp_sends_from_the_whatsapp_sender_through_the_same_client(fake):
    body = sms.turn_message("Ana", "Ben", URL, "Ludo", "es")
    delivery = sms.deliver(AR, body, whatsapp(fake), whatsapp=True)
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
    assert sms.deliver(TO, "hello", env, whatsapp=True).status == "sent"
    (request,) = fake.requests
    assert request.field("From") == WA_FROM and "MessagingServiceSid" not in request.form
    assert sms.deliver(TO, "hello", env).status == "sent"  # a text: the service, as before
    assert fake.requests[1].field("MessagingServiceSid") == SERVICE
    assert fake.requests[1].field("To") == TO


def test_a_template_for_the_table_s_language_carries_the_message(fake):
    env = whatsapp(fake, TWILIO_WHATSAPP_TEMPLATES="es:HX" + "a" * 32)
    body = sms.turn_message("Ana", "José", URL, "Ludo", "es")
    assert sms.deliver(AR, body, env, whatsapp=True, lang="es").status == "sent"
    assert sms.deliver(AR, "hello", env, whatsapp=True, lang="en").status == "sent"
    spanish, english = fake.requests
    assert spanish.field("ContentSid") == "HX" + "a" * 32 and "Body" not in spanish.form
    import json
    assert json.loads(spanish.field("ContentVariables")) == {"1": body}
    assert english.field("Body") == "hello" and "ContentSid" not in english.form


@pytest.mark.parametrize("setting", [None, "", "  "])
def test_without_a_whatsapp_sender_nothing_goes_by_whatsapp(fake, setting):
    env = configured(fake, TWILIO_WHATSAPP_FROM=setting)
    assert sms.deliver(TO, "hi", env, whatsapp=True) == \
        sms.Delivery("not-configured", channel="whatsapp")
    assert not sms.configured(env, whatsapp=True) and sms.configured(env)
    assert fake.requests == []


def test_a_whatsapp_sender_that_is_no_number_fails_without_a_request(fake, caplog):
    delivery = sms.deliver(TO, "hi", whatsapp(fake, TWILIO_WHATSAPP_FROM="whatsapp:sandbox"),
                           whatsapp=True)
    assert delivery.status == "failed" and delivery.error == \
        "WhatsApp messages are not working right now. Send the link yourself."
    assert "TWILIO_WHATSAPP_FROM" in caplog.text and fake.requests == []


def test_a_number_not_on_whatsapp_fails_with_twilio_s_words(fake):
    fake.reject(f"whatsapp:{AR}", code=63003, message="Channel could not find To address")
    delivery = sms.deliver(AR, "hello", whatsapp(fake), whatsapp=True)
    assert delivery.status == "failed" and delivery.channel == "whatsapp"
    assert delivery.error == (f"The number {AR} could not receive the WhatsApp message: Channel "
                              "could not find To address. Send the link yourself.")


def test_a_free_text_outside_the_24_hour_window_fails_on_arrival(fake):
    fake.fail_on_arrival(f"whatsapp:{AR}", 63016, "Failed to send freeform message because you "
                         "are outside the allowed window. If you want to send messages outside "
                         "this window, please use a Template.")
    delivery = sms.deliver(AR, "hello", whatsapp(fake), whatsapp=True)
    assert delivery.status == "failed" and delivery.sid.startswith("SM")
    assert delivery.error.startswith(f"The number {AR} could not receive the WhatsApp message: "
                                     "Failed to send freeform message")


def test_a_sender_the_account_lacks_is_our_problem_not_the_number_s(fake):
    env = configured(fake, TWILIO_WHATSAPP_FROM="whatsapp:+15005550006")  # not the account's
    delivery = sms.deliver(AR, "hello", env, whatsapp=True)
    assert delivery.status == "failed" and delivery.error == \
        "WhatsApp messages are not working right now. Send the link yourself."
    assert len(fake.requests) == 1  # Twilio said 63007


@pytest.mark.parametrize("status", [401, 429, 500, 503])
def test_whatsapp_server_errors_fail_gently(fake, status):
    fake.reject(f"whatsapp:{AR}", code=20500, message="Internal Server Error", status=status)
    delivery = sms.deliver(AR, "hello", whatsapp(fake), whatsapp=True)
    assert delivery == sms.Delivery("failed", error="WhatsApp messages are not working right "
                                    "now. Send the link yourself.", channel="whatsapp")


def test_whatsapp_refused_for_the_text_itself(fake):
    fake.reject(f"whatsapp:{AR}", code=21617, message="The concatenated message body exceeds "
                "the 1600 character limit")
    delivery = sms.deliver(AR, "hello", whatsapp(fake), whatsapp=True)
    assert delivery.error == ("The WhatsApp message could not be sent: The concatenated message "
                              "body exceeds the 1600 character limit. Send the link yourself.")


def test_whatsapp_down_or_silent_fails_gently(fake, monkeypatch):
    env = whatsapp(fake, TWILIO_API_BASE=f"http://127.0.0.1:{free_port()}")
    assert sms.deliver(AR, "hello", env, whatsapp=True).error == \
        "WhatsApp messages are not working right now. Send the link yourself."
    monkeypatch.setattr(sms, "TIMEOUT_SECONDS", 0.3)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)
        env["TWILIO_API_BASE"] = f"http://127.0.0.1:{silent.getsockname()[1]}"
        delivery = sms.deliver(AR, "hello", env, whatsapp=True)
    assert delivery.error == \
        "The WhatsApp message service did not answer in time. Send the link yourself."


@pytest.mark.parametrize("to", ["+19005550199", "+442079460958", "+541112345678"])
def test_whatsapp_goes_only_to_the_mobiles_texts_go_to(fake, to):
    delivery = sms.deliver(to, "hello", whatsapp(fake), whatsapp=True)
    assert delivery.status == "failed" and delivery.channel == "whatsapp"
    assert delivery.error == \
        f"We don't text {to}: it isn't a mobile number. Send the link yourself."
    refused = sms.deliver(AR, "hello", whatsapp(fake), countries=["US"], whatsapp=True)
    assert refused.status == "failed" and fake.requests == []
