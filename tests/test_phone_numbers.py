"""The phone numbers we accept: mobiles, in the countries a deployment texts, typed any way;
and the same rule when a text goes out from an older link."""

import pytest

from app import i18n, phone_numbers


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
    assert phone_numbers.normalize_phone(typed, region) == e164
    assert phone_numbers.not_texted(e164) is None


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
        phone_numbers.normalize_phone(typed)
    assert str(caught.value) == "That number can't get text messages: type a mobile number."
    assert phone_numbers.not_texted(e164(typed)) is not None  # nor is it texted from an older link


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
        phone_numbers.normalize_phone(typed)
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
        phone_numbers.normalize_phone(typed, countries=countries)
    assert str(caught.value) == f"We text mobile numbers in {allowed} only."


def test_normalize_phone_in_allowed_countries():
    countries = {"US", "CA", "GB", "AR"}
    assert phone_numbers.normalize_phone("(201) 555-0123", countries=countries) == "+12015550123"
    assert phone_numbers.normalize_phone("+1 416 555 0123", countries=countries) == "+14165550123"
    assert phone_numbers.normalize_phone("07400 123456", "GB", countries) == "+447400123456"
    assert phone_numbers.normalize_phone("11 1234-5678", "AR", countries) == "+5491112345678"
    assert phone_numbers.normalize_phone("+44 7781 123456", countries={"GG"}) == "+447781123456"
    with pytest.raises(ValueError) as caught:  # still only mobiles
        phone_numbers.normalize_phone("+1 900 555 0199", countries=countries)
    assert str(caught.value) == "That number can't get text messages: type a mobile number."
    with pytest.raises(ValueError) as caught:
        phone_numbers.normalize_phone("(201) 555-0123", countries=set())
    assert str(caught.value) == "We don't text phone numbers right now: leave the number out."


def test_the_country_message_translates_as_a_whole():
    with pytest.raises(ValueError) as caught:
        phone_numbers.normalize_phone("+34 612 34 56 78", countries=["US", "CA", "GB", "AR"])
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
    assert phone_numbers.not_texted("+12015550123") is None and phone_numbers.not_texted(" +447400123456 ") is None
    assert phone_numbers.not_texted("+5491112345678", ["AR"]) is None
    assert phone_numbers.not_texted("+5491112345678", "AR,US") is None
    assert phone_numbers.not_texted("+5491112345678", ["US"]) is not None
    assert phone_numbers.not_texted("+12015550123", []) is not None
    for bad in (None, "", "2015550123", "+", "+1", "+1" + "2" * 60, "+1 900 555 0199", "hello",
                "+15551234567", "+541112345678", "+881612345678", 12015550123):
        assert phone_numbers.not_texted(bad) is not None, bad


@pytest.mark.parametrize("typed", ["123", "", "   ", "hello", "+44 20", "+999 123 4567",
                                   "5" * 60, "(555) 123-4567 ext 9" * 5, "(555) 123-4567"])
def test_normalize_phone_rejects_with_a_sentence(typed):
    with pytest.raises(ValueError) as caught:
        phone_numbers.normalize_phone(typed)
    message = str(caught.value)
    assert message[0].isupper() and message.endswith(".")
    if typed.strip():
        assert message.startswith("That phone number doesn't look right.")  # typed text not echoed
    else:
        assert message == "Enter a phone number."


