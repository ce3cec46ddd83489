"""What a text says: the turn handed on, a game's results, a turn played for an absent player,
in English and Spanish, always GSM-7, whatever the players' names (no link, no phone number)."""

import re

import pytest

from app import wording

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


# --- turn_message(): GSM-7 text ---------------------------------------------------------------

@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("as_mover", [True, False])
def test_turn_message_is_single_line_gsm7_whatever_the_names(name, as_mover):
    mover, next_name = (name, "Ben") if as_mover else ("Ana", name)
    for text in (wording.turn_message(mover, next_name, URL),
                 wording.turn_message(None, name, URL, "Red Arse")):
        assert wording.gsm7_length(text) is not None, text
        assert not any(c in text for c in "\n\r\t\f\x00\x1b"), text
        assert "  " not in text
        assert text.endswith(" " + URL)
        assert wording.segments(text) <= 2  # even a 500-character name is cut short


def test_turn_message_names_the_mover_and_the_next_player():
    text = wording.turn_message("Ana", "Ben", URL)
    assert text == f"Ana moved. Your turn in Boardpass, Ben: {URL}"


def test_new_game_invitation_uses_a_straight_apostrophe_and_the_title():
    text = wording.turn_message(None, "Ben", URL, "Ludo")
    assert text == f"Ben, you're invited to a game of Ludo in Boardpass. Your turn: {URL}"
    assert wording.turn_message(None, "Ben", URL).startswith(
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
    assert wording.turn_message(typed, "Ben", URL) == f"{shown} moved. Your turn in Boardpass, Ben: {URL}"


def test_empty_names_fall_back():
    assert wording.turn_message("\U0001f600", "Ben", URL).startswith("A player moved. ")
    assert wording.turn_message("", "Ben", URL).startswith("A player moved. ")
    assert wording.turn_message("Ana", "\u4e2d\u6587", URL) == f"Ana moved. Your turn in Boardpass: {URL}"
    assert wording.turn_message(None, " ", URL).startswith("You're invited to a game of Parcheesi")


def test_names_cannot_carry_links():
    for name in ("evil.com", "www.evil.co.uk", "http://x.io/a", "me@mail.example"):
        text = wording.turn_message(name, "Ben", URL)
        head = text[:-len(URL)]
        assert "." not in head.replace("moved. ", "").replace("Boardpass, ", ""), text
        assert "://" not in head


def next_name(name: str) -> str:
    """``name`` as a text shows it (the next player's name; "" when none is left)."""
    text = wording.turn_message("Ana", name, URL)
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
    assert wording.turn_message(typed, "Ben", URL).startswith(f"{shown or 'A player'} moved. ")


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
    texts = [wording.turn_message(name, name, URL), wording.turn_message(None, name, URL),
             wording.results_message(name, name, URL, "Ludo"),
             wording.played_for_you_message(name, URL),
             wording.played_for_you_message(name, URL, away=True)]
    for text in texts:
        head = text[:-len(URL)]
        assert wording.gsm7_length(text) is not None, text
        assert not re.search(r"(?i)[a-z0-9]\.[a-z]{2}|\s\.\s|www|http|://|@|[0-9]{5}", head), text
        assert sum(char.isdigit() for char in head) < 5, text


def test_long_names_are_cut():
    assert wording.NAME_CHARS == 20
    text = wording.turn_message("A" * 100, "B" * 100, URL)
    assert "A" * wording.NAME_CHARS in text and "A" * (wording.NAME_CHARS + 1) not in text
    assert next_name("Ana Maria de los Angeles Lopez") == "Ana Maria de los Ang"
    assert next_name("Ana Maria de los Angeles Lopez") == next_name("Ana Maria de los Ang ")
    assert next_name("Maria Fernanda Gonzalez") == "Maria Fernanda Gonza"
    assert next_name("Ana                    B") == "Ana B"  # spaces collapse before the cut
    assert next_name("Maria Fernanda       X") == "Maria Fernanda X"
    assert len(next_name("x" * 19 + " y")) == 19  # no trailing space after the cut


@pytest.mark.parametrize("name", ["Ana" * 20, "Ana +1 900 555 0199 www.evil.com " * 3])
def test_every_text_cuts_names(name):
    assert wording.results_message(name, name, URL, "Ludo").startswith(
        f"{next_name(name)} won our game")
    assert wording.played_for_you_message(name, URL).startswith(f"{next_name(name)}, your turn")
    assert len(next_name(name)) <= wording.NAME_CHARS


def test_url_characters_outside_plain_ascii_are_percent_encoded():
    text = wording.turn_message("Ana", "Ben", "https://b.example/p/ñ x`{")
    assert text.endswith("https://b.example/p/%C3%B1%20x%60%7B")
    with pytest.raises(ValueError):
        wording.turn_message("Ana", "Ben", "  ")


# --- gsm7_length() and segments() -------------------------------------------------------------

def test_gsm7_length_counts_septets():
    assert wording.gsm7_length("") == 0
    assert wording.gsm7_length("Hello @ £ é ß Δ") == 15
    assert wording.gsm7_length("[x]") == 5
    assert wording.gsm7_length("€") == 2
    for text in ("\u2019", "\U0001f600", "á", "\x1b", "\t", "`"):
        assert wording.gsm7_length(text) is None, repr(text)


def test_segments():
    assert wording.segments("") == 1
    assert [wording.segments("x" * n) for n in (160, 161, 306, 307)] == [1, 2, 2, 3]
    assert wording.segments("x" * 159 + "€") == 2          # 161 septets
    # 306 septets would be 2 segments, but the escape pair cannot be split across them
    assert wording.segments("x" * 152 + "€" + "x" * 152) == 3
    assert [wording.segments("é" * 70), wording.segments("á" * 70), wording.segments("á" * 71)] == [1, 1, 2]
    assert wording.segments("\U0001f3b2" * 35) == 1  # surrogate pairs: 70 UTF-16 units
    assert wording.segments("\U0001f3b2" * 34) == 1
    assert wording.segments("\U0001f3b2" * 67) == 3  # 33 pairs (66 units) per 67-unit segment



# --- the table's language -----------------------------------------------------------------------

@pytest.mark.parametrize("mover,next_name", [("Ana", "Ben"), (None, "Ben"), ("Ana", ""),
                                             (None, ""), ("", "Ben")])
def test_spanish_texts_are_spanish_and_plain_gsm7(mover, next_name):
    text = wording.turn_message(mover, next_name, URL, "Ludo", lang="es")
    assert wording.gsm7_length(text) is not None, text  # GSM-7: no á, í, ó, ú (see wording.py)
    assert text.endswith(URL)
    assert ("Te toca" in text) and ("Your turn" not in text)


def test_a_spanish_text_names_the_mover_and_the_next_player():
    assert wording.turn_message("Ana", "Ben", URL, lang="es") == \
        f"Ana hizo su jugada. Te toca en Boardpass, Ben: {URL}"
    assert wording.turn_message(None, "Ben", URL, "Ludo", lang="es") == \
        f"Ben, te invitaron a una partida de Ludo en Boardpass. Te toca: {URL}"


