"""Make golden links: run by hand, never by a test (``python tests/make_golden_links.py``).

For every game and every rules version the engine plays, it writes
``tests/golden/<game>-v<version>-fields.json``: links that set each header field of the link
format on its own (so two fields swapped in the codec can't go unnoticed), plain format-1 links
for each kind of table, and one link with every field a game can carry, made through the play
service as players make them. ``tests/test_golden_links.py`` decodes each and compares every
field and the replayed position with what the file records.

A file that exists is left alone: golden links are made once, by the release that issued them,
and later releases must keep replaying them. A new rules version or link format gets new files.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).parent)]

from golden_support import KEYS, record  # noqa: E402

from app.engine.core import CLAIM, MOVE  # noqa: E402
from app.engine.dice import game_secret  # noqa: E402
from app.engine.games import rules_for  # noqa: E402
from app.engine.ludo import ludo_options  # noqa: E402
from app.engine.red_arse_settings import options_for  # noqa: E402
from app.link import Header, Seat  # noqa: E402
from app.play import Game, new_match  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
T0 = 29_000_000  # minutes since 1970 (2025): when the first deadline's turn began
DAY = 1440
# Names in UTF-8 of one to four bytes a character; fictional phone numbers (555-01xx).
NAMES = ("Ana", "Zoë", "Ñandú", "Dev", "🎲 Eli", "Fay")
PHONES = ("+15550100001", "+447700900002", "+5491155500003")


def seats(count: int, colors=None, extra=None) -> tuple[Seat, ...]:
    """People and bots of each strength, two with phones; every seat's numbers differ, so a
    field read in another's place shows."""
    colors = colors or range(count)
    return tuple(Seat(NAMES[i], color, bot=(0, 3, 0, 1, 2, 0)[i],
                      phone={0: PHONES[0], 2: PHONES[1]}.get(i), **(extra or {}).get(i, {}))
                 for i, color in enumerate(colors))


def new(game: str, version: int, name: str, table: tuple[Seat, ...], options: int = 0,
        **fields) -> Game:
    """A game at ``version`` of the rules, its seed from its name."""
    seed = hashlib.sha256(f"golden/{game}/v{version}/{name}".encode()).digest()[:8]
    header = Header(game=game, seats=table, seed=seed, options=options, rules_version=version,
                    **fields)
    return Game(header, new_match(header, game_secret(KEYS.dice, seed)), KEYS)


def played(game: Game, steps: int) -> Game:
    """``steps`` more steps, or to the end: bots (and players away) play as the server plays
    them; people take the move a fixed rule picks, and miss one re-roll in three."""
    match = game.match
    target = len(match.steps) + steps
    while not game.over and len(match.steps) < target:
        seat = match.turn
        if (game.header.seats[seat].bot or seat in game.away()) and game.play_bots():
            continue
        if match.phase == MOVE:
            game.step(len(match.steps) * 7 % len(match.legal_moves()))
        else:
            game.step(int(match.phase == CLAIM and len(match.steps) % 3 == 0))
    return game


def expire(game: Game, seat: int, times: int) -> Game:
    """``seat`` lets ``times`` of its turns in a row run out (the others play in between)."""
    for _ in range(times):
        while game.match.turn != seat:
            game = played(game, 1)
        game.play_for_absent(game.due_at())
    return game


def alone(game: str, version: int, players: int, options: int = 0) -> dict[str, Game]:
    """Each extra of link format 2 on its own, a short way into a game."""
    def one(name, table=None, **fields):  # fields that don't change the play come last
        played_ = played(new(game, version, name, table or seats(players), options), 60)
        return Game(replace(played_.header, **fields), played_.match, KEYS)

    medals = {0: {"medals": (3, 1, 2)}, 1: {"medals": (0, 5, 4)}}
    cases = {"lang": one("lang", lang="es"), "host": one("host", host=players - 1),
             "deadline and since": one("clock", deadline=DAY, since=T0),
             "auto": one("auto", auto=(3, 17, 40)),
             "medals": one("medals", seats(players, extra=medals))}
    if game == "ludo":
        cases["joined"] = one("joined", seats(players, extra={1: {"joined": 23}}))
        cases["out"] = one("out", seats(players, extra={0: {"out": 31}}))
    else:
        cases["back"] = one("back", back=((12, 1), (30, 0)))
    return cases


def parcheesi(version: int) -> dict[str, Game]:
    cases = {"4 players to the end": played(new("parcheesi", version, "four", seats(4)), 10**5),
             "2 players": played(new("parcheesi", version, "two", seats(2, (0, 2))), 150)}
    cases |= alone("parcheesi", version, 4)
    return cases | {"every field": away_and_back("parcheesi", version, 0)}


def red_arse(version: int) -> dict[str, Game]:
    six_off = options_for(6, off=["raids", "claim", "back_hop"])
    four_off = options_for(4, off=["kill_reroll", "corner_reroll", "backward", "center_six",
                                   "home_backout"])
    cases = {"4 players to the end": played(new("red-arse", version, "four", seats(4)), 10**5),
             "6-player board, raids, claim and back hop off":
                 played(new("red-arse", version, "six", seats(6), six_off), 400),
             "3 players, five house rules off":
                 played(new("red-arse", version, "three", seats(3, (0, 1, 3)), four_off), 10**5)}
    cases |= alone("red-arse", version, 4)
    return cases | {"every field": away_and_back("red-arse", version,
                                                 options_for(6, off=["home_backout"]))}


def away_and_back(name: str, version: int, options: int) -> Game:
    """Every field at once, as the service makes them: seat 0 misses two turns and is played
    for until they say they're back."""
    table = seats(4, extra={0: {"medals": (1, 0, 2)}, 3: {"medals": (0, 4, 0)}})
    start = new(name, version, "all", table, options, lang="es", host=2, deadline=DAY, since=T0)
    game = played(expire(played(start, 20), 0, 2), 30)
    while game.match.turn == 0:
        game = played(game, 1)
    return played(game.with_player_back(0), 40)


def ludo(version: int) -> dict[str, Game]:
    cases = {f"table of {n}, {n} players": played(
        new("ludo", version, f"table{n}", seats(n), ludo_options(n)), 10**5 if n == 2 else 200)
        for n in range(2, 7)}
    cases["table of 6, 3 players"] = played(
        new("ludo", version, "table6of3", seats(3, (0, 2, 4)), 6), 10**5)
    cases |= alone("ludo", version, 4)
    return cases | {"every field": joined_and_out(version)}


def joined_and_out(version: int) -> Game:
    """Every field Ludo carries, as the service makes them: a player joins a game in
    progress, another lets three turns run out and is disqualified."""
    table = seats(3, (0, 2, 4), {0: {"medals": (2, 0, 1)}, 1: {"medals": (0, 3, 0)}})
    game = played(new("ludo", version, "all", table, 5, lang="es", host=2, deadline=DAY,
                      since=T0), 25)
    game = game.with_player(Seat("Fay", 1, phone=PHONES[2]))  # blue: seat 1, the others move up
    return played(expire(played(game, 15), 3, 3), 10**5)  # seat 3, purple, goes out


MAKERS = {"parcheesi": parcheesi, "red-arse": red_arse, "ludo": ludo}


def whatsapp() -> dict[str, Game]:
    """Players who chose WhatsApp (the choice travels in the encrypted phone blob), for each
    game at its newest rules version: next to a phone without it, and as the only phone."""
    chose = {0: {"whatsapp": True}}
    cases = {}
    for name, options in (("parcheesi", 0), ("red-arse", 0), ("ludo", ludo_options(4))):
        version = rules_for(name).rules_version
        cases[f"{name}: first of two phones"] = played(
            new(name, version, "whatsapp", seats(4, extra=chose), options), 40)
        cases[f"{name}: the only phone"] = played(
            new(name, version, "whatsapp-only", (Seat("Ana", 0), Seat(
                "Zoë", 1, phone=PHONES[2], whatsapp=True)), options), 40)
    return cases


def by_hand() -> dict[str, Game]:
    """Tables that play every step by hand (rooms; links whose creator switched off playing
    turns with nothing to decide), for each game at its newest rules version, alone and with
    every other extra of format 2."""
    cases = {}
    for name, options in (("parcheesi", 0), ("red-arse", 0), ("ludo", ludo_options(4))):
        version = rules_for(name).rules_version
        game = new(name, version, "by hand", seats(4), options)
        cases[f"{name}: by hand"] = played(Game(replace(game.header, by_hand=True), game.match,
                                                game.keys), 40)
    game = MAKERS["ludo"](rules_for("ludo").rules_version)["every field"]
    cases["ludo: by hand, every field"] = Game(replace(game.header, by_hand=True), game.match,
                                               game.keys)
    return cases


def case(name: str, game: Game) -> dict:
    winner = game.state.winner if game.over else None
    return {"name": name, "token": game.token(), "header": record(game.header),
            "position": game.position(), "steps": len(game.match.steps),
            "winner": None if winner is None else game.header.seats[winner].name}


def main() -> None:
    for name, make in MAKERS.items():
        for version in range(1, rules_for(name).rules_version + 1):
            path = GOLDEN / f"{name}-v{version}-fields.json"
            if path.exists():
                continue
            links = [case(title, game) for title, game in make(version).items()]
            path.write_text(json.dumps({"keys": "Keys.for_tests('golden')",
                                        "rules_version": version, "links": links},
                                       indent=1, ensure_ascii=False) + "\n")
            print(f"{path}: {len(links)} links")
    # The WhatsApp choice, added to the phone blob; a table that plays by hand, flag 256.
    for path, make in ((GOLDEN / "whatsapp-fields.json", whatsapp),
                       (GOLDEN / "by-hand-fields.json", by_hand)):
        if not path.exists():
            links = [case(title, game) for title, game in make().items()]
            path.write_text(json.dumps({"keys": "Keys.for_tests('golden')", "links": links},
                                       indent=1, ensure_ascii=False) + "\n")
            print(f"{path}: {len(links)} links")


if __name__ == "__main__":
    main()
