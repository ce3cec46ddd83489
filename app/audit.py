"""What a link holds, for people who run the server: ``python -m app inspect`` prints a game
(phone numbers masked), and ``python -m app verify`` recomputes a finished game's dice from its
revealed secret, which needs no server keys."""

from __future__ import annotations

from app import link
from app.engine.core import OVER
from app.engine.dice import commitment
from app.keys import Keys
from app.play import Game, replay


def describe_history(played_match, header) -> list[str]:
    rules = played_match.rules
    lines = []
    for kind, seat, what in played_match.history:
        color = header.seats[seat].color
        letter = rules.board.colors[color].lower()
        if kind == "roll":
            lines.append(f"{letter} rolls {'-'.join(map(str, what))}")
        elif kind in ("claim", "miss"):
            lines.append(f"{letter} {'claims' if kind == 'claim' else 'misses'} the re-roll")
        else:
            lines.append(rules.move_text(color, what))
    return lines


def _mask(phone: str | None) -> str:
    return f"{phone[:3]}...{phone[-2:]}" if phone else "-"


def inspect(token: str) -> str:
    played = Game.from_token(token, Keys.from_env())
    header = played.header
    names = played.rules.board.color_names
    out = [f"game: {header.game} (format {header.format_version}, rules {header.rules_version}, "
           f"options {header.options})", f"seed: {header.seed.hex()}",
           f"dice commitment: {played.commitment()}", "seats:"]
    for i, seat in enumerate(header.seats):
        kind = "human" if not seat.bot else f"bot {seat.bot}"
        by = " by WhatsApp" if seat.whatsapp else ""
        out.append(f"  {i}. {seat.name} ({names[seat.color]}, {kind}, phone "
                   f"{_mask(seat.phone)}{by})")
    out.append(f"log: {len(played.match.steps)} steps")
    out += ["  " + line for line in describe_history(played.match, header)]
    out.append(f"position: {played.position()}")
    if played.over:
        out.append(f"winner: {header.seats[played.state.winner].name}")
        out.append(f"dice secret (revealed): {played.revealed_secret()}")
    return "\n".join(out)


def verify(token: str, secret_hex: str | None, expected: str | None) -> tuple[bool, str]:
    """Recompute every roll of a finished game from its revealed secret; no server keys needed."""
    header, reader = link.read_unverified(token)
    if secret_hex is None:
        played = Game.from_token(token, Keys.from_env())
        if not played.over:
            return False, "The game is not over: its dice secret is revealed only at the end."
        secret_hex = played.revealed_secret()
    secret = bytes.fromhex(secret_hex)
    match = replay(header, reader, secret)
    lines = [f"commitment of this secret: {commitment(secret)}"]
    ok = True
    if expected is not None:
        same = expected.strip().lower() == commitment(secret)
        ok &= same
        lines.append("matches the commitment shown at the start" if same
                     else "DOES NOT match the commitment given")
    rolls = [what for kind, _, what in match.history if kind == "roll"]
    lines.append(f"first-player rolls: {match.start_rounds}")
    lines.append(f"{len(rolls)} rolls recomputed from the secret; every move in the log is legal "
                 f"with them")
    lines += ["  " + line for line in describe_history(match, header) if " rolls " in line]
    if match.phase != OVER:
        ok = False
        lines.append("the log does not reach the end of the game")
    else:
        lines.append(f"final position: {match.rules.format(match.state)}")
    return ok, "\n".join(lines)
