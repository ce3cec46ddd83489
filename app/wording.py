"""What we say: the words of a text (and of a WhatsApp message) that hands the turn on, brings
a finished game's results to its host, or tells an absent player their turn was played for
them; and ``Handoff``, what was played between two players' turns, which the notifications say
in the same words (``app/push.py``), and ``listed``, how a list is said.

Texts are plain GSM-7 (the SMS default alphabet), so a segment carries 160 characters and not
the 70 that a single emoji or curly quote would force (UCS-2), and the players' names in them
are cleaned (``_clean_text``): nobody can make our number send a link or a number to call.

>>> turn_message("Ana", "Ben", "https://b.example/p/x")
'Ana moved. Your turn in Boardpass, Ben: https://b.example/p/x'
>>> turn_message(None, "José \u201cJo\u201d", "https://b.example/p/x")
'Jose "Jo", you\\'re invited to a game of Parcheesi in Boardpass. Your turn: https://b.example/p/x'
>>> gsm7_length("Ana moved {1}"), gsm7_length("Ana \U0001f3b2")
(15, None)
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import quote

from app.engine.text import N_, Text
from app.i18n import translate

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


def turn_message(mover: str | None, next_name: str, url: str, game_title: str = "Parcheesi",
                 lang: str = "en", news: Handoff | None = None) -> str:
    """The text that hands the turn to the next player, with the link at the end, in the
    table's language ``lang``.

    ``mover`` is the name of who just moved, or None when the game was just created (the text
    is then an invitation). ``news`` says what was played for the players since, with nothing
    to decide, and what the next player rolled (``Handoff``). The text is always GSM-7
    (``gsm7_length``) and plain: the names in it are cleaned (``_clean_text``), and it is
    escaped like any text when it goes into HTML. A mover's name that comes out empty reads
    "A player moved."; an empty next player's name is left out ("Ana moved. Your turn in
    Boardpass: <url>"). Characters in ``url`` that are not plain printable ASCII are
    percent-encoded.

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
    # Translations are written in GSM-7 (Spanish without á, í, ó, ú: tests/test_wording.py checks).
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
    """A name (or a title) as a text may carry it, at most ``limit`` characters.

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
    - the name is cut to ``limit`` characters (``NAME_CHARS``, 20, for a name).

    This stops what a phone would make into a link or a number to call, and the usual
    disguises; a name can still spell things out in words ("evil dot com"), which the
    20-character cap keeps short.
    """
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

