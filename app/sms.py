"""Text messages: the words sent with a turn link, and how they reach the next player.

Three ways out, chosen by the web layer:

- ``deliver()`` sends the text through Twilio when its credentials are in the environment
  (``TWILIO_ACCOUNT_SID``, ``TWILIO_AUTH_TOKEN`` and ``TWILIO_FROM`` or
  ``TWILIO_MESSAGING_SERVICE_SID``), or, with ``whatsapp=True``, as a WhatsApp message from
  Twilio's WhatsApp sender (``TWILIO_WHATSAPP_FROM``, a ``whatsapp:`` number) through the same
  client. It never raises: the answer is a ``Delivery``.
- ``sms_href()`` builds an ``sms:`` link that opens the phone's Messages app with the text filled
  in, and ``whatsapp_href()`` WhatsApp's click-to-chat address that opens WhatsApp with it, for
  when Twilio is not configured or the send failed.

Cold start matters (AWS Lambda): importing this module imports neither ``twilio`` (about 100 ms)
nor ``phonenumbers``; each is imported by the functions that need it.

The server only texts mobile numbers, in the countries a deployment chooses (``normalize_phone``
when a number is typed, ``refused`` and ``deliver`` when a text goes out), and the names it puts
in a text carry no links and no phone numbers (``turn_message``): nobody can make it text a
premium-rate number, or text their own advertisement from our number.

Messages are plain GSM-7 text (the SMS default alphabet), so a segment carries 160 characters
and not the 70 that a single emoji or curly quote would force (UCS-2):

>>> turn_message("Ana", "Ben", "https://b.example/p/x")
'Ana moved. Your turn in Boardpass, Ben: https://b.example/p/x'
>>> turn_message(None, "José \u201cJo\u201d", "https://b.example/p/x")
'Jose "Jo", you\\'re invited to a game of Parcheesi in Boardpass. Your turn: https://b.example/p/x'
>>> gsm7_length("Ana moved {1}"), gsm7_length("Ana \U0001f3b2")
(15, None)
"""
from __future__ import annotations

import logging
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import quote, urlsplit

from app.engine.text import N_, Text
from app.i18n import translate

__all__ = ["Delivery", "deliver", "gsm7_length", "normalize_phone",
           "played_for_you_message", "results_message", "segments", "sms_href", "refused",
           "turn_message", "whatsapp_href"]

_log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10.0
"""Connect and read timeout for the Twilio request; no retries (a retried POST can text twice)."""

SERVICE_DOWN = N_("Text messages are not working right now. Send the link yourself.")
"""What a player is told when texting fails on our side."""

WHATSAPP_DOWN = N_("WhatsApp messages are not working right now. Send the link yourself.")
"""The same for a WhatsApp message."""

NAME_CHARS = 20
"""Longest player name put in a text, after cleaning: a name, not room for a message."""

# GSM 03.38 default alphabet, in code order. ESC (0x1B) is left out: it only introduces the
# extension table and is not a character anyone can type.
_GSM7_BASIC = frozenset(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà")
# Extension table: each costs two septets (ESC + code).
_GSM7_EXTENSION = frozenset("\f^{}\\[]~|€")

# Typed punctuation that NFKD leaves alone but has a plain GSM-7 look-alike.
_PUNCTUATION = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "`": "'",
    "\u00b4": "'", "\u02bc": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"', "\u2039": "'", "\u203a": "'",
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-",
    "\u2212": "-",
})

# Something a phone would turn into a link: "evil.com", "a@b.co", "http://...", and the same
# with spaces around the dot ("evil . com"), which a reader puts back together. A dot after a
# lone letter and before a space is an initial ("J.R. Smith", "Mr. T") and stays.
_LINKISH_DOT = re.compile(r"(?i)(?<=[a-z0-9])\.(?=[a-z]{2})|(?<=[a-z0-9]{2}) *\. *(?=[a-z]{2})")
# What starts a web address: "http", "https", "www" at the start of a word, and "://".
_LINKISH_WORD = re.compile(r"(?i)(?<![a-z0-9])(?:https?|www)|://")
# A phone number: five or more digits, with spaces, dots, dashes, parentheses or plus signs
# between them ("+1 (900) 555-0199", "0900 123 456").
_PHONE_RUN = re.compile(r"[+(]*[0-9](?:[ .()+-]*[0-9]){4,}\)?")
_PHONE_DIGITS = 5  # a name with this many digits in all, however spread out, loses them all

# Characters kept as they are when a URL is percent-encoded (RFC 3986 reserved + unreserved + %).
_URL_SAFE = "/:?#[]@!$&'()*+,;=%~-._"


@dataclass
class Delivery:
    """What became of a text. ``error`` is written to be shown to the player as it is."""

    status: str  # "sent" | "not-configured" | "failed"; the API adds "not-sent" (by choice)
    sid: str | None = None
    error: str | None = None
    channel: str = "sms"  # "sms" | "whatsapp": how it went out (or was meant to)


# --- message text ---------------------------------------------------------------------------

def turn_message(mover: str | None, next_name: str, url: str, game_title: str = "Parcheesi",
                 lang: str = "en", news: Handoff | None = None) -> str:
    """The text that hands the turn to the next player, with the link at the end.

    ``mover`` is the name of who just moved, or None when the game was just created (the text is
    then an invitation). ``news`` says what was played for the players since, with nothing to
    decide, and what the next player rolled (``Handoff``). The result is always GSM-7 (see ``gsm7_length``) and plain text: it
    contains the names as typed apart from the cleaning below, so escape it like any text
    when it is put in HTML.

    Player names are typed by players, so each name (and the title) is cleaned:

    - curly quotes, primes, backticks and dashes become ``'`` ``"`` ``-``;
    - NFKD decomposition, then every accent (combining mark) is dropped: "José" -> "Jose",
      "Ålborg" -> "Alborg", fullwidth and ligature letters become plain letters. This is done
      even for the few accented letters GSM-7 has (é, ñ, ü...), so one rule holds for all;
    - control characters, newlines, tabs and odd spaces become one space; runs of spaces collapse;
    - any other character outside GSM-7 (emoji, CJK, Cyrillic, ...) is dropped, so a name in a
      non-Latin script can come out empty. GSM-7 extension characters (``{}[]~^|\\€``) are kept;
      they cost two septets each;
    - no links, as texts go out from our number to other people (and carriers filter texts
      with extra links): a dot that would make a phone show a link ("evil.com", "bit.ly/x"),
      or that a reader would join up ("EVIL . COM"), becomes a space; so do "@" (e-mail
      addresses, handles), "://" and the words (or word starts) "http", "https" and "www".
      A dot that ends an initial stays ("J.R. Smith", "Mr. T"), but "Dr. Who" becomes
      "Dr Who";
    - no phone numbers: five or more digits in a row, with spaces, dots, dashes, parentheses
      or plus signs between them, are removed ("+1 (900) 555-0199", "0900 123 456"); and if
      what is left still has five digits or more in all ("9a0a0a5a5"), every digit goes.
      Four digits are fine ("Ana 2", "R2D2", "Bo 1984");
    - these two rules are applied again until nothing changes, so that removing one thing
      cannot join up another ("evil.1234 5com");
    - the name is cut to ``NAME_CHARS`` (20) characters.

    This stops what a phone would make into a link or a number to call, and the usual
    disguises; a name can still spell things out in words ("evil dot com"), which the
    20-character cap keeps short.

    A mover name that comes out empty reads "A player moved."; an empty next-player name is
    left out ("Ana moved. Your turn in Boardpass: <url>"). Characters in ``url`` that are not
    plain printable ASCII are percent-encoded. ``lang`` is the table's language.

    >>> turn_message("\U0001f600", "\u4e2d\u6587", "https://b.example/p/x")
    'A player moved. Your turn in Boardpass: https://b.example/p/x'
    >>> turn_message("Ana\\n\\tMaría", "evil.com", "https://b.example/p/x", "Red Arse")
    'Ana Maria moved. Your turn in Boardpass, evil com: https://b.example/p/x'
    >>> turn_message("Jo http://bit.ly/x", "Call +1 (900) 555-0199", "https://b.example/p/x")
    'Jo bit ly/x moved. Your turn in Boardpass, Call: https://b.example/p/x'
    >>> turn_message("Ana", "Dev", "https://b.example/p/x", "Ludo",
    ...              news=Handoff(no_move=["Ben", "Cy"], rolled=(6,)))
    'Ana moved. Ben and Cy had no move. Your turn in Boardpass, Dev: you rolled 6. https://b.example/p/x'
    """
    link = _clean_url(url)
    who = _clean_text(next_name, NAME_CHARS)
    news = news or Handoff()
    dice = listed([str(n) for n in news.rolled]) if news.rolled else None
    if mover is None:
        title = _clean_text(game_title, 40) or "Boardpass"
        lead = Text("%(who)s, you're invited to a game of %(title)s in Boardpass.", who=who,
                    title=title) if who else \
            Text("You're invited to a game of %(title)s in Boardpass.", title=title)
        turn = Text("Your turn: you rolled %(dice)s. %(link)s", dice=dice, link=link) if dice \
            else Text("Your turn: %(link)s", link=link)
    else:
        moved = _clean_text(mover, NAME_CHARS) or translate(N_("A player"), lang)
        lead = Text("%(moved)s moved.", moved=moved)
        if dice:
            turn = Text("Your turn in Boardpass, %(who)s: you rolled %(dice)s. %(link)s",
                        who=who, dice=dice, link=link) if who else \
                Text("Your turn in Boardpass: you rolled %(dice)s. %(link)s", dice=dice,
                     link=link)
        else:
            turn = Text("Your turn in Boardpass, %(who)s: %(link)s", who=who, link=link) \
                if who else Text("Your turn in Boardpass: %(link)s", link=link)
    parts = [lead, *news.others(_clean_name)]
    # Translations are written in GSM-7 (Spanish without á, í, ó, ú: tests/test_sms.py checks).
    return " ".join(translate(part, lang) for part in [*parts, turn])


@dataclass
class Handoff:
    """What the server played for the people, with nothing to decide, between one player's
    turn and the next player's decision: who had no move, whose only move was played, and
    what the next player rolled (their dice, already rolled)."""

    no_move: list[str] = field(default_factory=list)
    only_move: list[str] = field(default_factory=list)
    rolled: tuple[int, ...] = ()

    def others(self, shown) -> list[Text]:
        """What the turns played for the others did, in a player's words, their names as
        ``shown(name)`` writes them (blank: left out)."""
        said = []
        no_move = [name for name in map(shown, self.no_move) if name]
        only_move = [name for name in map(shown, self.only_move) if name]
        if no_move:
            said.append(Text("%(names)s had no move.", names=listed(no_move)))
        if only_move:
            said.append(Text("%(names)s had one move only, played for them.",
                             names=listed(only_move)))
        return said


def _clean_name(name: str) -> str:
    return _clean_text(name, NAME_CHARS)


def results_message(winner: str, host: str, url: str, game_title: str,
                    lang: str = "en") -> str:
    """The text that brings a finished game's results to its host (who may start a rematch),
    cleaned and GSM-7 like ``turn_message``.

    >>> results_message("Ana", "Ben", "https://b.example/g/x?host=1", "Ludo")
    'Ana won our game of Ludo in Boardpass. Ben, see the results (and start a rematch): https://b.example/g/x?host=1'
    """
    link = _clean_url(url)
    title = _clean_text(game_title, 40) or "Boardpass"
    won = _clean_text(winner, NAME_CHARS) or translate(N_("A player"), lang)
    who = _clean_text(host, NAME_CHARS)
    if who:
        text = Text("%(winner)s won our game of %(title)s in Boardpass. %(who)s, see the "
                    "results (and start a rematch): %(link)s", winner=won, title=title, who=who,
                    link=link)
    else:
        text = Text("%(winner)s won our game of %(title)s in Boardpass. See the results (and "
                    "start a rematch): %(link)s", winner=won, title=title, link=link)
    return translate(text, lang)


def played_for_you_message(name: str, url: str, lang: str = "en", away: bool = False) -> str:
    """The text telling an absent player their turn was played for them after its deadline,
    with the game's new link; ``away``: it was their second in a row, so every turn of theirs
    is played until they tap "I'm back". Cleaned and GSM-7 like ``turn_message``.

    >>> played_for_you_message("Ben", "https://b.example/g/x")
    'Ben, your turn in Boardpass was played for you: https://b.example/g/x'
    >>> played_for_you_message("\U0001f600", "https://b.example/g/x")
    'Your turn in Boardpass was played for you: https://b.example/g/x'
    >>> played_for_you_message("Ben", "https://b.example/g/x", away=True)
    "Ben, you missed two turns in Boardpass: we play yours until you tap I'm back: https://b.example/g/x"
    """
    link = _clean_url(url)
    who = _clean_text(name, NAME_CHARS)
    if away:
        text = Text("%(who)s, you missed two turns in Boardpass: we play yours until you tap "
                    "I'm back: %(link)s", who=who, link=link) if who else \
            Text("You missed two turns in Boardpass: we play yours until you tap I'm back: "
                 "%(link)s", link=link)
    elif who:
        text = Text("%(who)s, your turn in Boardpass was played for you: %(link)s", who=who,
                    link=link)
    else:
        text = Text("Your turn in Boardpass was played for you: %(link)s", link=link)
    return translate(text, lang)


def _clean_text(text: object, limit: int) -> str:
    if text is None:
        return ""
    text = unicodedata.normalize("NFKD", str(text).translate(_PUNCTUATION))
    kept = []
    for char in text:
        if unicodedata.combining(char):
            continue
        category = unicodedata.category(char)
        if category[0] in "CZ" or char.isspace():  # controls, format chars, newlines, spaces
            kept.append(" ")
        elif char in _GSM7_BASIC or char in _GSM7_EXTENSION:
            kept.append(char)
        # anything else is dropped
    cleaned = " ".join("".join(kept).split())
    while True:  # until nothing changes: each pass that changes something removes characters
        before = cleaned
        cleaned = _PHONE_RUN.sub(" ", cleaned)
        if sum(char.isdigit() for char in cleaned) >= _PHONE_DIGITS:
            cleaned = re.sub(r"[0-9]", "", cleaned)
        cleaned = _LINKISH_WORD.sub(" ", _LINKISH_DOT.sub(" ", cleaned.replace("@", " ")))
        cleaned = " ".join(cleaned.split())
        if cleaned == before:
            break
    return " ".join(cleaned[:limit].split())


def _clean_url(url: str) -> str:
    url = str(url).strip()
    if not url:
        raise ValueError("turn_message needs the link to send")
    # Non-ASCII, spaces and controls would break GSM-7 or the link; RFC 3986 says encode them.
    return quote(url, safe=_URL_SAFE)


def gsm7_length(text: str) -> int | None:
    """Septets ``text`` takes in the GSM-7 alphabet, or None if it needs UCS-2.

    Extension-table characters (``{ } [ ] ~ ^ | \\ €`` and form feed) count two.

    >>> gsm7_length("Hi"), gsm7_length("€5"), gsm7_length("’")
    (2, 3, None)
    """
    septets = 0
    for char in text:
        if char in _GSM7_BASIC:
            septets += 1
        elif char in _GSM7_EXTENSION:
            septets += 2
        else:
            return None
    return septets


def segments(text: str) -> int:
    """How many SMS segments ``text`` is billed and sent as.

    GSM-7: 160 septets fit one segment; longer texts are split into segments of 153 (the rest
    of each is the concatenation header), and an extension character is never split from its
    escape. Anything else goes as UCS-2: 70 UTF-16 units, or 67 per segment, a surrogate pair
    never split. An empty text still is one message.

    >>> segments("x" * 160), segments("x" * 161), segments("x" * 306), segments("x" * 307)
    (1, 2, 2, 3)
    >>> segments("\U0001f3b2" * 35), segments("\U0001f3b2" * 36)
    (1, 2)
    """
    if gsm7_length(text) is not None:
        costs = [2 if char in _GSM7_EXTENSION else 1 for char in text]
        single, part = 160, 153
    else:
        costs = [2 if ord(char) > 0xFFFF else 1 for char in text]
        single, part = 70, 67
    if sum(costs) <= single:
        return 1
    count, used = 1, 0
    for cost in costs:
        if used + cost > part:
            count, used = count + 1, 0
        used += cost
    return count


# --- phone numbers and sms: links ----------------------------------------------------------

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
    codes = _country_codes(countries)

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


def _country_codes(countries: str | Iterable[str] | None) -> tuple[str, ...] | None:
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


def listed(items: list) -> str:
    """ "Ana, Ben and Cy", each item and joint a ``Text`` of its own so that the whole
    translates: countries, players' names, dice."""
    if len(items) == 1:
        return items[0]
    # TRANSLATORS: the last two of a list of countries, names or dice ("Canada and Argentina",
    # "Ben and Cy", "6 and 3").
    joined = Text("%(first)s and %(last)s", first=items[-2], last=items[-1])
    for item in reversed(items[:-2]):
        # TRANSLATORS: an item before the rest of a list ("the United States, Canada and
        # Argentina"); the comma is likely to stay.
        joined = Text("%(first)s, %(rest)s", first=item, rest=joined)
    return joined


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


def sms_href(phone: str | None, body: str) -> str:
    """An ``sms:`` link that opens Messages with the number (if any) and the text filled in.

    The form is ``sms:+15551234567?&body=<text>``. RFC 5724 says ``?body=``, which Android
    follows; iOS 8 and later read the body after ``&`` (iOS 7 wanted ``;``). With ``?&body=``
    Android sees a query whose first (empty) pair is ignored, and iOS finds its ``&body=``, so one
    link serves both. The body is percent-encoded in full (space as %20, never "+", which
    Messages would show as "+"). Only "+" and digits of ``phone`` are kept, so nothing in it can
    reach the query.

    >>> sms_href("+15551234567", "Your turn: https://b.example/p?x=1&y")
    'sms:+15551234567?&body=Your%20turn%3A%20https%3A%2F%2Fb.example%2Fp%3Fx%3D1%26y'
    >>> sms_href(None, "Hi")
    'sms:?&body=Hi'
    """
    digits = re.sub(r"\D", "", phone or "")
    number = ("+" if (phone or "").strip().startswith("+") and digits else "") + digits
    return f"sms:{number}?&body={quote(body, safe='')}"


WHATSAPP_CHAT = "https://wa.me/"
"""WhatsApp's click-to-chat address (its FAQ "How to use click to chat")."""


def whatsapp_href(phone: str | None, body: str) -> str:
    """WhatsApp's click-to-chat address: it opens WhatsApp (the app, or WhatsApp Web) on a
    chat with ``phone`` and the text filled in, ready to send; without a number, WhatsApp asks
    whom to send it to.

    The documented form is ``https://wa.me/<number>?text=<text>``: the number in full
    international form with digits only (no "+", zeros before the country code, spaces,
    brackets or dashes), the text URL-encoded. It is percent-encoded in full (UTF-8; space as
    %20, never "+"), so names, accents and the link's own ``?``/``&`` arrive as they are.

    >>> whatsapp_href("+54 9 11 2345-6789", "Te toca: https://b.example/g/x?a=1&b")
    'https://wa.me/5491123456789?text=Te%20toca%3A%20https%3A%2F%2Fb.example%2Fg%2Fx%3Fa%3D1%26b'
    >>> whatsapp_href(None, "Hola, José")
    'https://wa.me/?text=Hola%2C%20Jos%C3%A9'
    """
    digits = re.sub(r"\D", "", phone or "").lstrip("0")
    return f"{WHATSAPP_CHAT}{digits}?text={quote(body, safe='')}"


# --- sending through Twilio ----------------------------------------------------------------

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
    """Text ``body`` to ``to`` (E.164, from ``normalize_phone``) through Twilio. Never raises.

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

    Only a number that ``refused(to, countries)`` lets through is sent to: any other (a link made before
    the rules or ``countries`` changed may carry one) is ``Delivery("failed", error=...)``
    without a request to Twilio. ``countries`` empty (no country texted) is like no
    configuration: ``Delivery("not-configured")``.

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
    refusal = refused(to, countries)
    if refusal:
        return replace(refusal, channel=channel)
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
    return bool(account and sender and _country_codes(countries) != ())


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


def refused(to: str, countries: str | Iterable[str] | None = None) -> Delivery | None:
    """Why ``to`` (E.164) isn't texted, as the ``Delivery`` that says so, or None when it is
    a mobile number in one of ``countries``."""
    codes = _country_codes(countries)
    refusal = _why_not(to, codes)
    if not refusal:
        return None
    _log.warning("Not texted: the number is not a mobile in a country texted (%s)", refusal)
    error = Text("We don't text %(to)s. %(only)s Send the link yourself.", to=to,
                 only=_only_in(codes)) if refusal == "country" else \
        Text("We don't text %(to)s: it isn't a mobile number. Send the link yourself.", to=to)
    return Delivery("failed", error=error)


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

