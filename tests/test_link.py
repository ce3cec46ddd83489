"""The link codec: round trips, compactness, privacy, key rotation, and refusing bad tokens."""

import base64
import dataclasses
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import link
from app.keys import Keys
from app.link import (
    GAMES,
    MAX_TOKEN,
    BadSignature,
    Header,
    IllegalLog,
    LinkError,
    LogReader,
    MalformedLink,
    OversizedLink,
    Seat,
    TruncatedLink,
    UnknownVersion,
    decode,
    encode,
    info_bits,
    pack_log,
)

KEYS = Keys.for_tests()
SEED = b"seed-123"
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{21}[A-Za-z0-9]")
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def header(*seats: Seat, **fields) -> Header:
    seats = seats or (Seat("Ana", 0), Seat("Bo", 1, bot=2))
    return Header(**{"game": "parcheesi", "seats": seats, "seed": SEED, **fields})


def payload_of(token: str) -> bytes:
    text = token.rpartition(".")[0]
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def read_all(reader: LogReader, radices: list[int]) -> list[int]:
    indices = [reader.take(radix) for radix in radices]
    reader.finish()
    return indices


# -- strategies -----------------------------------------------------------------------------------

phones = st.from_regex(r"\+[1-9][0-9]{1,14}", fullmatch=True)
seats = st.builds(
    Seat,
    name=st.text(st.characters(exclude_categories=("Cc", "Cs", "Cf")), max_size=24),
    color=st.integers(0, 31),
    bot=st.integers(0, 3),
    phone=st.none() | phones,
).flatmap(lambda seat: st.just(seat) if seat.phone is None else
          st.builds(dataclasses.replace, st.just(seat), whatsapp=st.booleans()))
headers = st.builds(
    Header,
    game=st.sampled_from(GAMES),
    seats=st.lists(seats, max_size=6).map(tuple),
    seed=st.binary(min_size=8, max_size=8),
    options=st.integers(0, 2**40),
    rules_version=st.integers(0, 2**20),
)
steps = st.integers(1, 60).flatmap(
    lambda radix: st.tuples(st.integers(0, radix - 1), st.just(radix))
)
logs = st.lists(steps | st.just((0, 1)) | st.just((0, 7)), max_size=300)


# -- round trips ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Zoë",
        "李小龙",
        "🎲 Lucky 🍀",
        'Say "hi"',
        "O'Brien",
        "<script>alert(1)</script",
        "</b><script>x()</script>",
        "👨‍👩‍👧‍👦" * 3,
        "",
        "x" * 24,
    ],
)
def test_names_round_trip(name):
    game = header(Seat(name, 3), Seat("Bo", 1, bot=1))
    decoded, reader = decode(encode(game, [], KEYS), KEYS)
    assert decoded == game and decoded.seats[0].name == name
    reader.finish()


def test_names_are_stripped():
    assert Seat("  Ana \n", 0).name == "Ana"
    decoded, _ = decode(encode(header(Seat(" Ana ", 0)), [], KEYS), KEYS)
    assert decoded.seats[0].name == "Ana"


@settings(deadline=None)
@given(game=headers, log=logs)
def test_round_trip(game, log):
    decoded, reader = decode(encode(game, log, KEYS), KEYS)
    assert decoded == game
    assert reader.remaining == len(log)
    assert read_all(reader, [radix for _, radix in log]) == [index for index, _ in log]


@given(log=logs)
def test_log_packing_round_trips(log):
    count, data = pack_log(log)
    assert count == len(log)
    assert read_all(LogReader(count, data), [radix for _, radix in log]) == [i for i, _ in log]


def test_forced_moves_and_trailing_zeros_cost_nothing():
    assert pack_log([(0, 1)] * 500) == (500, b"")
    assert pack_log([(3, 5), (0, 4), (0, 7)]) == (3, b"\x03")
    reader = LogReader(*pack_log([(3, 5), (0, 4), (0, 7), (0, 1)]))
    assert read_all(reader, [5, 4, 7, 1]) == [3, 0, 0, 0]


def test_pack_log_refuses_impossible_pairs():
    for pair in [(2, 2), (-1, 3), (0, 0)]:
        with pytest.raises(ValueError):
            pack_log([pair])


def test_surrounding_whitespace_is_ignored():
    token = encode(header(), [(1, 2)], KEYS)
    assert decode(f"  {token}\n", KEYS)[0] == header()


def test_same_game_same_link():
    game = header(Seat("Ana", 0, phone="+15551234567"), Seat("Bo", 1))
    assert encode(game, [(1, 3)], KEYS) == encode(game, [(1, 3)], KEYS)


def test_golden_link():
    """A link made by this release: a format change must not silently change or break it."""
    game = Header(
        game="ludo",
        seats=(Seat("Ana", 0, phone="+15551234567"), Seat("Bot", 2, bot=3), Seat("Zoë", 1)),
        seed=b"goldseed",
        options=5,
    )
    log = [(0, 1), (2, 3), (0, 1), (4, 9), (0, 2)]
    token = (
        "AQECBQMBA0FuYRYDQm90CARab8OrZ29sZHNlZWQFHF8Rx_FysjqdD9CMGr4MMNDC5s_1z3LGcTongBAO"
        ".LI_6Mkqi-iRJB9ivp33Vnw"
    )
    assert encode(game, log, KEYS) == token
    decoded, reader = decode(token, KEYS)
    assert decoded == game
    assert read_all(reader, [radix for _, radix in log]) == [index for index, _ in log]


# -- privacy --------------------------------------------------------------------------------------


def test_phones_are_encrypted_and_decrypted():
    game = header(
        Seat("Ana", 0, phone="+15551234567"), Seat("Bo", 1), Seat("Cy", 2, phone="+447700900123")
    )
    token = encode(game, [(2, 5)], KEYS)
    payload = payload_of(token)
    for digits in (b"5551234567", b"7700900123", b"1234", b"+1555"):
        assert digits not in payload
    assert "5551234567" not in token
    decoded, _ = decode(token, KEYS)
    assert [seat.phone for seat in decoded.seats] == ["+15551234567", None, "+447700900123"]


def test_the_whatsapp_choice_travels_encrypted_with_the_number():
    chose = header(Seat("Ana", 0, phone="+5491112345678", whatsapp=True), Seat("Bo", 1),
                   Seat("Cy", 2, phone="+447700900123"))
    plain = dataclasses.replace(chose, seats=(dataclasses.replace(chose.seats[0],
                                                                  whatsapp=False),
                                              *chose.seats[1:]))
    token = encode(chose, [(2, 5)], KEYS)
    decoded, _ = decode(token, KEYS)
    assert [(s.phone, s.whatsapp) for s in decoded.seats] == [
        ("+5491112345678", True), (None, False), ("+447700900123", False)]
    # Nothing in clear says so: the same header without the choice differs only inside the
    # encrypted blob, one byte longer (its "w"), and the format stays the plain one.
    made, without = payload_of(token), payload_of(encode(plain, [(2, 5)], KEYS))
    assert chose.format_version == plain.format_version == 1
    assert len(made) == len(without) + 1 and b"w+" not in made and b"whatsapp" not in made
    head = made.index(chose.seed) + len(chose.seed) + 1  # then the blob's length
    assert made[:head] == without[:head]
    # Without the keys the choice is as closed as the number.
    unverified, _ = link.read_unverified(token)
    assert [(s.phone, s.whatsapp) for s in unverified.seats] == [(None, False)] * 3
    assert "True" not in repr(decoded) and "whatsapp" not in repr(decoded.seats[0])


def test_whatsapp_needs_a_phone_number():
    with pytest.raises(ValueError):
        Seat("Ana", 0, whatsapp=True)
    with pytest.raises(ValueError):
        Seat("Ana", 0, phone="+15551234567", whatsapp="yes")


def test_a_blob_phone_with_two_whatsapp_marks_is_malformed():
    game = header(Seat("Ana", 0, phone="+15551234567"))
    payload = link._pack(game, [], KEYS)
    seed = game.seed
    blob = link._siv(KEYS).encrypt(b"ww+15551234567", [seed])
    start = payload.index(seed) + len(seed) + 1  # the log count, then the blob
    forged = payload[:start] + bytes([len(blob)]) + blob
    with pytest.raises(link.MalformedLink):
        decode(link._sign(forged, KEYS), KEYS)


def test_phones_stay_out_of_repr():
    assert "555" not in repr(header(Seat("Ana", 0, phone="+15551234567")))


def test_phone_blob_depends_on_seed():
    seats = (Seat("Ana", 0, phone="+15551234567"),)
    blob = payload_of(encode(header(*seats), [], KEYS))[-32:]
    assert blob not in payload_of(encode(header(*seats, seed=b"other-12"), [], KEYS))


# -- keys and rotation ----------------------------------------------------------------------------


def test_key_rotation():
    old = Keys.for_tests("old")
    new = Keys.for_tests("new")
    rotated = dataclasses.replace(old, signing=old.signing + new.signing)
    old_token = encode(header(), [(1, 2)], old)
    assert decode(old_token, rotated)[0] == header()
    new_token = encode(header(), [(1, 2)], rotated)
    assert new_token == encode(header(), [(1, 2)], dataclasses.replace(old, signing=new.signing))
    with pytest.raises(BadSignature):
        decode(new_token, old)


def test_other_keys_refuse():
    with pytest.raises(BadSignature):
        decode(encode(header(), [], KEYS), Keys.for_tests("other"))


def test_for_tests_keys_are_fixed_per_label():
    assert Keys.for_tests() == Keys.for_tests("test") != Keys.for_tests("other")
    assert len(KEYS.phone) == 64
    assert "Keys()" == repr(KEYS)


def test_keys_from_env(tmp_path):
    env = {"SIGNING_KEYS": " old , new ,", "DICE_KEY": "dïce", "PHONE_KEY": "phone"}
    keys = Keys.from_env(env, instance_dir=tmp_path)
    assert keys.signing == (b"old", b"new")
    assert keys.dice == "dïce".encode()
    assert len(keys.phone) == 64 and keys.phone != Keys.from_env({**env, "PHONE_KEY": ""}).phone
    assert not list(tmp_path.iterdir())  # fully configured: no development keys written


def test_development_keys_survive_restarts(tmp_path):
    first = Keys.from_env({}, instance_dir=tmp_path / "instance")
    assert (tmp_path / "instance" / "dev-keys.json").is_file()
    assert Keys.from_env({}, instance_dir=tmp_path / "instance") == first
    partly = Keys.from_env({"DICE_KEY": "mine"}, instance_dir=tmp_path / "instance")
    assert partly.signing == first.signing and partly.dice == b"mine"


def test_unusable_instance_dir_gives_ephemeral_keys(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.warns(RuntimeWarning, match="ephemeral"):
        keys = Keys.from_env({}, instance_dir=tmp_path / "file" / "instance")
    token = encode(header(), [], keys)
    assert decode(token, keys)[0] == header()


# -- refusing bad links ---------------------------------------------------------------------------


def signed(payload: bytes) -> str:
    return link._sign(payload, KEYS)


def test_errors_are_value_errors_with_messages():
    errors = (OversizedLink, TruncatedLink, BadSignature, UnknownVersion, MalformedLink, IllegalLog)
    for error in errors:
        assert issubclass(error, LinkError) and issubclass(LinkError, ValueError)
        assert str(error()).endswith(".") and str(error())[0].isupper()
    assert len({str(error()) for error in errors}) == len(errors)  # each says what is wrong


def test_oversized_is_checked_first():
    with pytest.raises(OversizedLink):
        decode("x" * (MAX_TOKEN + 1), KEYS)
    with pytest.raises(OversizedLink):
        decode(encode(header(), [], KEYS) + " " * MAX_TOKEN, KEYS)


@pytest.mark.parametrize("token", ["", "   ", "abc", "abc.", "abc.short", "." + "A" * 22])
def test_truncated(token):
    with pytest.raises(TruncatedLink):
        decode(token, KEYS)


def test_bad_signature_on_non_canonical_signature():
    """Base64 decoding alone would accept these: they decode to the right 16 bytes."""
    token = encode(header(), [], KEYS)
    stray = B64URL[B64URL.index(token[-1]) + 1]  # only the unused low bits differ
    with pytest.raises(BadSignature):
        decode(token[:-1] + stray, KEYS)
    with pytest.raises(BadSignature):
        decode(token + "A", KEYS)
    token = next(t for n in range(99) if "-" in (t := encode(header(), [(n, 99)], KEYS))[-22:])
    with pytest.raises(BadSignature):
        decode(token[:-22] + token[-22:].replace("-", "+"), KEYS)


def test_unknown_versions():
    good = link._pack(header(), [], KEYS)
    with pytest.raises(UnknownVersion):
        decode(signed(b"\x03" + good[1:]), KEYS)
    with pytest.raises(UnknownVersion):
        decode(signed(good[:2] + bytes([len(GAMES)]) + good[3:]), KEYS)


def test_other_rules_version_is_kept_for_the_caller():
    game = header(rules_version=7)
    assert decode(encode(game, [], KEYS), KEYS)[0].rules_version == 7


@pytest.mark.parametrize("with_phone", [False, True])
def test_short_reads_are_malformed(with_phone):
    game = header(Seat("Ana", 0, phone="+15551234567" if with_phone else None), Seat("Bo", 1))
    payload = link._pack(game, [], KEYS)
    for size in range(1, len(payload)):
        with pytest.raises(MalformedLink):
            decode(signed(payload[:size]), KEYS)


def test_malformed_payloads():
    six = header(*(Seat(f"P{n}", n) for n in range(6)))
    payload = link._pack(six, [(1, 2)], KEYS)
    assert payload[4] == 6
    cases = {
        "seven seats": payload[:4] + b"\x07" + payload[5:],
        "bad utf-8": payload.replace(b"P3", b"\xff\xfe"),
        "name too long": link._pack(header(), [], KEYS).replace(b"\x03Ana", b"\x19" + b"a" * 25),
        "log not minimal": link._pack(header(), [(1, 2)], KEYS) + b"\0",
        "endless varint": payload[:1] + b"\xff" * 20,
    }
    phoned = link._pack(header(Seat("Ana", 0, phone="+15551234567")), [], KEYS)
    cases["bad phone blob"] = phoned[:-1] + bytes([phoned[-1] ^ 1])
    wrong_phone_key = dataclasses.replace(KEYS, phone=bytes(64))
    for bad in cases.values():
        with pytest.raises(MalformedLink):
            decode(signed(bad), KEYS)
    with pytest.raises(MalformedLink):
        decode(link._sign(phoned, wrong_phone_key), wrong_phone_key)


def test_illegal_logs():
    _, reader = decode(encode(header(), [(5, 7)], KEYS), KEYS)
    assert reader.take(2) == 1
    with pytest.raises(IllegalLog):
        reader.take(2)  # the log holds one decision, the replay asks for two
    with pytest.raises(IllegalLog):
        reader.finish()  # 5 // 2 is left over: garbage beyond the log
    _, reader = decode(encode(header(), [(0, 1), (1, 2)], KEYS), KEYS)
    reader.take(1)
    with pytest.raises(IllegalLog):
        reader.finish()  # the game ended with a decision still in the log


@settings(deadline=None)
@given(game=headers, log=logs, data=st.data())
def test_any_changed_character_is_refused(game, log, data):
    token = encode(game, log, KEYS)
    at = data.draw(st.integers(0, len(token) - 1))
    char = data.draw(st.sampled_from(B64URL).filter(lambda c: c != token[at]))
    with pytest.raises(LinkError):
        decode(token[:at] + char + token[at + 1 :], KEYS)


@settings(deadline=None)
@given(game=headers, log=logs, data=st.data())
def test_any_truncation_is_refused(game, log, data):
    token = encode(game, log, KEYS)
    size = data.draw(st.integers(0, len(token) - 1))
    with pytest.raises(LinkError):
        decode(token[:size], KEYS)


@given(st.text(max_size=200))
def test_arbitrary_text_is_refused_with_a_link_error(text):
    with pytest.raises(LinkError):
        decode(text, KEYS)


def test_invalid_headers_are_not_encoded():
    for make in (
        lambda: Seat("x" * 25, 0),
        lambda: Seat("Ana", 32),
        lambda: Seat("Ana", 0, bot=4),
        lambda: Seat("Ana", 0, phone="5551234567"),
        lambda: Seat("Ana", 0, phone="+1555,1234"),
        lambda: header(*(Seat("P", n) for n in range(7))),
        lambda: header(game="chess"),
        lambda: header(seed=bytes(7)),
        lambda: header(options=-1),
    ):
        with pytest.raises(ValueError):
            make()


# -- shape and size -------------------------------------------------------------------------------


@settings(deadline=None)
@given(game=headers, log=logs)
def test_token_shape(game, log):
    token = encode(game, log, KEYS)
    assert TOKEN_SHAPE.fullmatch(token)
    assert token[-1] in "AQgw"  # 128 bits in 22 characters: the last one's low 4 bits are zero


def varint_size(value: int) -> int:
    return max(1, math.ceil(value.bit_length() / 7))


@settings(deadline=None)
@given(game=headers, log=logs)
def test_log_size_is_near_the_information_limit(game, log):
    empty = len(payload_of(encode(game, [], KEYS)))
    full = len(payload_of(encode(game, log, KEYS)))
    log_bytes = full - empty + varint_size(0)
    assert log_bytes <= math.ceil(info_bits(log) / 8 + 1e-9) + varint_size(len(log))


def test_info_bits():
    assert info_bits([(0, 1), (1, 2), (3, 4), (0, 8)]) == 6
    assert info_bits([]) == 0


@pytest.mark.parametrize("name", ["Ana\x00", "Bo\nb", "\u202eevil", "x\ud800", "a\u2066b"])
def test_names_with_control_or_direction_characters_are_refused(name):
    with pytest.raises(ValueError, match="control or formatting"):
        Seat(name, 0)


def test_names_with_emoji_joiners_are_kept():
    assert Seat("👩‍👩‍👧", 0).name == "👩‍👩‍👧"


# -- format 2: the table's extras (language, host, joins, medals) ---------------------------------

def test_a_plain_table_is_still_written_as_format_1():
    token = encode(header(), [(1, 2)], KEYS)
    assert payload_of(token)[0] == 1
    assert decode(token, KEYS)[0].format_version == 1


@pytest.mark.parametrize("fields,seats", [
    ({"lang": "es"}, ()),
    ({"host": 1}, ()),
    ({}, (Seat("Ana", 0), Seat("Bo", 1, joined=57))),
    ({}, (Seat("Ana", 0, medals=(2, 0, 1)), Seat("Bo", 1, phone="+5491112345678"))),
    ({"lang": "es", "host": 2}, (Seat("Ana", 0, medals=(0, 1, 0)), Seat("Bo", 1),
                                 Seat("Cy", 3, bot=1, joined=300, medals=(4, 0, 0)))),
])
def test_table_extras_round_trip_in_format_2(fields, seats):
    made = header(*seats, **fields)
    token = encode(made, [(3, 5), (0, 1), (1, 2)], KEYS)
    read, log = decode(token, KEYS)
    assert read == made and read.format_version == 2 and payload_of(token)[0] == 2
    assert [log.take(5), log.take(1), log.take(2)] == [3, 0, 1]
    assert [s.phone for s in read.seats] == [s.phone for s in made.seats]


def test_extras_that_say_nothing_or_more_than_we_know_are_refused():
    plain = link._pack(header(), [], KEYS)
    # Format 2 with flags 0: never written (a plain table is format 1).
    with pytest.raises(MalformedLink):
        decode(signed(b"\x02" + plain[1:4] + b"\x00" + plain[4:]), KEYS)
    with pytest.raises(UnknownVersion):
        decode(signed(b"\x02" + plain[1:4] + b"\x80\x04" + plain[4:]), KEYS)  # flag 512
    with pytest.raises(UnknownVersion):  # a language this version doesn't know
        decode(signed(b"\x02" + plain[1:4] + b"\x01\x07" + plain[4:]), KEYS)


def test_a_table_that_plays_by_hand_says_so_in_one_flag_and_no_byte_more():
    plain = header()
    by_hand = dataclasses.replace(plain, by_hand=True)
    token, hand_token = encode(plain, [], KEYS), encode(by_hand, [], KEYS)
    assert decode(token, KEYS)[0].by_hand is False
    assert decode(hand_token, KEYS)[0] == by_hand
    # Format 2's flags varint (256 takes two bytes): the format byte is the same length.
    assert len(link._pack(by_hand, [], KEYS)) == len(link._pack(plain, [], KEYS)) + 2


def test_players_back_from_being_auto_played_and_disqualifications_round_trip():
    made = header(Seat("Ana", 0, out=30), Seat("Bo", 1), Seat("Cy", 2, out=52),
                  game="ludo", back=((17, 1), (17, 2), (90, 0)))
    read, _ = decode(encode(made, [(1, 2)], KEYS), KEYS)
    assert read.back == ((17, 1), (17, 2), (90, 0))
    assert [s.out for s in read.seats] == [30, 0, 52]
    with pytest.raises(ValueError):  # a seat that isn't at the table
        header(back=((3, 5),))
    with pytest.raises(ValueError):
        header(back=((9, 0), (3, 1)))


def test_the_host_is_one_of_the_seats_and_the_language_one_we_speak():
    with pytest.raises(ValueError):
        header(host=2)
    with pytest.raises(ValueError):
        header(lang="fr")
    with pytest.raises(ValueError):
        Seat("Ana", 0, medals=(1, -1, 0))


def test_a_turn_deadline_its_start_and_turns_played_for_absent_players_round_trip():
    made = header(deadline=24 * 60, since=29_000_000, auto=(12, 40, 41))
    read, _ = decode(encode(made, [(1, 2)], KEYS), KEYS)
    assert (read.deadline, read.since, read.auto) == (1440, 29_000_000, (12, 40, 41))
    assert read.format_version == 2
    with pytest.raises(ValueError):
        header(auto=(5, 3))
