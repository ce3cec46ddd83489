"""The phone numbers we accept: a number as typed, made E.164 (``normalize_phone``), and
whether a number is texted at all (``not_texted``, checked again when a text goes out, since a
link made before the rules or the countries changed may carry one).

The server pays for each text and sends it from its own number to a number a stranger typed,
so it only texts mobile numbers, in the countries a deployment chooses (``TEXT_COUNTRIES``):
nobody can make it text a premium-rate number. ``phonenumbers`` is imported by the functions
that need it, not with this module (about 15 ms of a cold start).
"""
from __future__ import annotations

import logging
from collections.abc import Iterable

from app.engine.text import N_, Text
from app.wording import listed

_log = logging.getLogger(__name__)

# Names of the countries a deployment is likely to text, for the message that says which ones
# it does ("the United States, Canada and Argentina"); any other code is shown as it is.
_COUNTRY_NAMES = {
    "US": Text("the United States"), "CA": Text("Canada"), "GB": Text("the United Kingdom"),
    "IE": Text("Ireland"), "AR": Text("Argentina"), "UY": Text("Uruguay"), "CL": Text("Chile"),
    "MX": Text("Mexico"), "ES": Text("Spain"),
}


def normalize_phone(text: str, region: str = "US",
                    countries: str | Iterable[str] | None = None) -> str:
    """A mobile number as typed, in E.164 ("+12015550123"); ValueError with a message for people.

    ``region`` is the country assumed when the number has no "+country code". ``countries``
    are the ISO codes of the countries whose numbers the server texts (``{"US", "CA"}``, or a
    string "US,CA"), or None for any country; an empty collection allows none.

    The server pays for each text and sends it from its own number to a number a stranger
    typed, so only numbers that phonenumbers knows to be mobiles are taken:

    - first phonenumbers' *possible* number test (right length for the country), then the
      Argentine mobile typed without its 9 (below);
    - the number type must be ``MOBILE`` or ``FIXED_LINE_OR_MOBILE`` (the US, Canada, Mexico
      and others number both from the same ranges). Every other type is refused: premium
      rate, shared cost, toll free, satellite, but also fixed line, VoIP, pager, UAN, personal
      number and voicemail, none of which is sure to get texts;
    - a number whose type is ``UNKNOWN`` is refused too, as not looking right: the type is
      only known for a *valid* number (a range in the library's data), and an unknown range
      might be a costly one. That refuses the fictional numbers with area code 555
      ("(555) 123-4567"), and a new range until the library's data has it (keep phonenumbers
      up to date); the 555-01xx numbers in real area codes ("(201) 555-0123") are valid and
      "fixed line or mobile", so they pass;
    - a number of no country (``region_code_for_number`` is "001": +870, +881 and +882 are
      satellite phones and international networks, some typed ``MOBILE``) is refused as not
      a mobile: a text there costs many times a local one;
    - with ``countries``, the number's country (``region_code_for_number``: Guernsey, Jersey
      and the Isle of Man have their own, within +44) must be one of them.

    Twilio makes the final check when it sends.

    >>> normalize_phone("(201) 555-0123"), normalize_phone("+44 7400 123456")
    ('+12015550123', '+447400123456')
    >>> normalize_phone("+1 900 555 0199")
    Traceback (most recent call last):
    ValueError: That number can't get text messages: type a mobile number.
    >>> normalize_phone("+44 7400 123456", countries={"US", "CA"})
    Traceback (most recent call last):
    ValueError: We text mobile numbers in Canada and the United States only.

    At Spanish-speaking tables the country assumed is Argentina, where a mobile is often typed
    without its 9:

    >>> normalize_phone("11 1234-5678", "AR"), normalize_phone("011 15 1234-5678", "AR")
    ('+5491112345678', '+5491112345678')
    """
    text = str(text or "").strip()
    if not text:
        raise ValueError(N_("Enter a phone number."))
    problem = N_("That phone number doesn't look right. Type it with its area code, or start "
                 "with + and the country code, like +44 20 7946 0958.")
    if len(text) > 40:
        raise ValueError(problem)
    codes = country_codes(countries)

    import phonenumbers  # here, not at the top: about 15 ms of cold start saved

    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        raise ValueError(problem) from None
    if not phonenumbers.is_possible_number(number):
        raise ValueError(problem)
    if number.country_code == 54:
        number = _argentine_mobile(phonenumbers, number)
    refusal = _refusal(phonenumbers, number, codes)
    if refusal == "unknown":
        raise ValueError(problem)
    if refusal == "country":
        raise ValueError(_only_in(codes))
    if refusal == "type":
        raise ValueError(N_("That number can't get text messages: type a mobile number."))
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def not_texted(to: str, countries: str | Iterable[str] | None = None) -> str | None:
    """Why ``to`` (E.164) isn't texted, in words for the player, or None when it is a mobile
    number in one of ``countries``."""
    codes = country_codes(countries)
    refusal = _why_not(to, codes)
    if not refusal:
        return None
    _log.warning("Not texted: the number is not a mobile in a country texted (%s)", refusal)
    return Text("We don't text %(to)s. %(only)s Send the link yourself.", to=to,
                only=_only_in(codes)) if refusal == "country" else \
        Text("We don't text %(to)s: it isn't a mobile number. Send the link yourself.", to=to)


def _why_not(e164: str | None, codes: tuple[str, ...] | None) -> str | None:
    """Why the server does not text ``e164`` ("unknown", "type", "country"), or None."""
    text = str(e164 or "").strip()
    if not text.startswith("+") or len(text) > 40:
        return "unknown"

    import phonenumbers

    try:
        number = phonenumbers.parse(text, None)
    except phonenumbers.NumberParseException:
        return "unknown"
    return _refusal(phonenumbers, number, codes)


def _refusal(phonenumbers, number, codes: tuple[str, ...] | None) -> str | None:
    """Why the server does not text ``number`` (parsed): "unknown" (a number the library does
    not know: its type is only known for a valid number), "country" (not in ``codes``) or
    "type" (not a mobile); None if it texts it. The country comes before the type: typing
    another number from a country that is not texted would not help."""
    kind = phonenumbers.number_type(number)
    if kind == phonenumbers.PhoneNumberType.UNKNOWN:
        return "unknown"
    country = phonenumbers.region_code_for_number(number)
    if codes is not None and country not in codes:
        return "country"
    if kind not in (phonenumbers.PhoneNumberType.MOBILE,
                    phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE):
        return "type"
    if country == phonenumbers.REGION_CODE_FOR_NON_GEO_ENTITY:  # "001": +870, +881, +882...
        return "type"
    return None


def country_codes(countries: str | Iterable[str] | None) -> tuple[str, ...] | None:
    """``countries`` as upper-case codes without repeats, in their order (a set's sorted)."""
    if countries is None:
        return None
    if isinstance(countries, str):
        countries = countries.replace(",", " ").split()
    elif isinstance(countries, (set, frozenset)):
        countries = sorted(countries, key=str)
    codes = (str(code).strip().upper() for code in countries)
    return tuple(dict.fromkeys(code for code in codes if code))


def _only_in(codes: tuple[str, ...]) -> str:
    """The message naming the countries whose numbers are texted."""
    if not codes:
        return N_("We don't text phone numbers right now: leave the number out.")
    return Text("We text mobile numbers in %(countries)s only.", countries=_country_list(codes))


def _country_list(codes: tuple[str, ...]) -> str:
    """ "the United States, Canada and Argentina"."""
    return listed([_COUNTRY_NAMES.get(code, code) for code in codes])


def _argentine_mobile(phonenumbers, number):
    """Argentines often type a mobile without its 9 (or local 15): "11 1234-5678". Texts only
    reach mobiles, so a number that is only valid as a landline but valid as a mobile with the
    9 is taken as that mobile (+54 9 11 1234 5678)."""
    if phonenumbers.number_type(number) != phonenumbers.PhoneNumberType.FIXED_LINE:
        return number
    mobile = phonenumbers.parse(f"+549{number.national_number}")
    if phonenumbers.number_type(mobile) == phonenumbers.PhoneNumberType.MOBILE:
        return mobile
    return number
