"""Links issued by earlier releases must keep replaying to the same position (ARCHITECTURE.md:
links are versioned). Each file under tests/golden/ pins tokens made with fixed test keys; a
change to the rules, the dice or the codec that breaks one must bump a version instead.

The ``*-fields.json`` files (made once by ``tests/make_golden_links.py``, by hand) also record
every header field: each field set alone in some link, so a codec that wrote two fields in each
other's place, and read them back the same way, still fails here."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app import link
from app.play import Game
from golden_support import KEYS, LATER_FIELDS, LATER_SEAT_FIELDS, record

GOLDEN = sorted(Path(__file__).parent.joinpath("golden").glob("*.json"))


def _cases(only_fields=False):
    for path in GOLDEN:
        data = json.loads(path.read_text())
        for case in data["links"]:
            if not only_fields or "header" in case:
                yield pytest.param(case, id=f"{path.stem}-{case.get('name', case['steps'])}")


@pytest.mark.parametrize("case", list(_cases()))
def test_golden_link_replays_to_the_same_position(case):
    game = Game.from_token(case["token"], KEYS)
    assert game.position() == case["position"]
    assert len(game.match.steps) == case["steps"]
    assert game.token() == case["token"]  # re-encoding is stable too
    if case["winner"]:
        assert game.header.seats[game.state.winner].name == case["winner"]


@pytest.mark.parametrize("case", list(_cases(only_fields=True)))
def test_golden_link_decodes_to_every_recorded_field(case):
    header, _ = link.decode(case["token"], KEYS)
    assert record(header) == case["header"]
    unverified, _ = link.read_unverified(case["token"])  # no keys: phone numbers stay closed
    assert record(unverified)["seats"] == [  # nor whether a player chose WhatsApp on one
        {k: v for k, v in seat.items() if k != "whatsapp"} | {"phone": None}
        for seat in case["header"]["seats"]]


def test_the_golden_links_set_every_header_field_and_each_extra_alone():
    """Every field (a seat's too) differs from its default in some golden link, and each
    extra of format 2 is the only one in some link: fields or flags swapped in the codec
    change what some golden link decodes to."""
    headers = [case.values[0]["header"] for case in _cases(only_fields=True)]
    default = record(link.Header("parcheesi", (link.Seat("x", 0),), bytes(8)))
    seat_default = default["seats"][0]
    for name in ("lang", "host", "deadline", "auto", "back", "options", "rules_version"):
        assert any(h[name] != default[name] for h in headers), name
    for name in ("bot", "phone", "joined", "medals", "out"):
        assert any(s[name] != seat_default[name] for h in headers for s in h["seats"]), name
    for name, before in LATER_SEAT_FIELDS.items():
        assert any(s.get(name, before) != before for h in headers for s in h["seats"]), name
    for name, before in LATER_FIELDS.items():
        assert any(h.get(name, before) != before for h in headers), name
    flags = {link.Header(**_header_fields(h)).extras for h in headers}
    assert {1, 2, 4, 8, 16, 32, 64, 128, 256} <= flags


def _header_fields(recorded: dict) -> dict:
    seats = tuple(link.Seat(**s) for s in recorded["seats"])
    fields = {k: v for k, v in recorded.items() if k not in ("format_version", "seats", "seed")}
    return fields | {"seats": seats, "seed": bytes.fromhex(recorded["seed"])}


def test_a_link_from_another_rules_version_is_refused_clearly():
    case = json.loads(GOLDEN[0].read_text())["links"][0]
    header, _ = link.decode(case["token"], KEYS)
    for version in (0, 99):
        other = link.encode(replace(header, rules_version=version), [], KEYS)
        with pytest.raises(link.UnknownVersion, match="another version of the rules"):
            Game.from_token(other, KEYS)
