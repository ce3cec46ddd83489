"""Property tests: what a player would notice over whole random games.

Games are Parcheesi through the play service (``Game``) with the test keys, so the dice are the
real deterministic dice of each drawn seed; the choices at each decision come from
``random.Random(choice_seed)``. Hypothesis draws both seeds and the number of players.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.engine.core import MOVE, OVER, ROLL
from app.engine.dice import Dice, game_secret
from app.engine.games import default_colors
from app.engine.parcheesi import NEST
from app.keys import Keys
from app.link import LinkError, Seat
from app.play import Game, demo_seats

KEYS = Keys.for_tests()
MAX_STEPS = 5000
B64URL = string.ascii_letters + string.digits + "-_"

# One random game takes ~10 ms; whole-game properties run a few dozen of them each.
def games(examples: int):
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

players = st.integers(2, 4)
seeds = st.binary(min_size=8, max_size=8)
choice_seeds = st.integers(0, 2**32 - 1)


def new_game(n: int, seed: bytes, seats=None) -> Game:
    return Game.new("parcheesi", seats or demo_seats("parcheesi", n), KEYS, seed=seed)


def play_random(game: Game, choice_seed: int, limit: int = MAX_STEPS, each=None) -> Game:
    """Random legal choices until the game ends (or ``limit`` steps); ``each(game)`` after
    every step."""
    rng = random.Random(choice_seed)
    match = game.match
    while match.phase != OVER and len(match.steps) < limit:
        if match.phase == ROLL:
            game.step()
        else:
            game.step(rng.randrange(len(match.legal_moves())))
        if each is not None:
            each(game)
    return game


# -- 1. every game ends with one winner; pawns are never lost, doubled or mixed -----------------


def check_pawns(game: Game) -> None:
    rules, state = game.rules, game.state
    home = rules.home
    assert home == 71
    expected = [0] * rules.board.cells
    owners: dict[int, set[int]] = {}
    assert len(state.pos) == len(state.colors)
    for seat, pieces in enumerate(state.pos):
        assert len(pieces) == 4, f"seat {seat} has {len(pieces)} pawns"
        for p in pieces:
            assert NEST <= p <= home, f"pawn of seat {seat} at progress {p}"
            cell = rules.cell[state.colors[seat]][p + 1]
            assert (cell == 0) == (p in (NEST, home))
            if cell:
                expected[cell] += 1
                owners.setdefault(cell, set()).add(seat)
    for cell, seats_there in owners.items():
        assert len(seats_there) == 1, f"two colors on cell {cell}: {rules.format(state)}"
        assert expected[cell] <= 2, f"{expected[cell]} pawns on cell {cell}: {rules.format(state)}"
        assert state.owner[cell] in seats_there
    assert state.count[1:] == expected[1:], rules.format(state)
    assert state.twos == sum(1 << c for c, n in enumerate(expected) if n == 2)
    assert state.ones == sum(1 << c for c, n in enumerate(expected) if n == 1)


@games(150)
@given(n=players, seed=seeds, choice_seed=choice_seeds)
def test_every_game_ends_with_one_winner_and_pawns_stay_consistent(n, seed, choice_seed):
    game = new_game(n, seed)
    check_pawns(game)
    play_random(game, choice_seed, each=check_pawns)
    state = game.state
    assert game.over, f"no winner after {MAX_STEPS} steps"
    assert len(game.match.steps) < MAX_STEPS
    finished = [seat for seat, pieces in enumerate(state.pos) if pieces == [game.rules.home] * 4]
    assert finished == [state.winner]
    assert " won" in game.position()


# -- 2. replay is deterministic, prefixes included ------------------------------------------------


@games(150)
@given(n=players, seed=seeds, choice_seed=choice_seeds, data=st.data())
def test_replay_gives_the_same_game_and_prefixes_replay_to_earlier_positions(
    n, seed, choice_seed, data
):
    game = new_game(n, seed)
    positions = [game.position()]
    tokens = {0: game.token()}
    play_random(game, choice_seed, each=lambda g: positions.append(g.position()))
    total = len(game.match.steps)
    assert len(positions) == total + 1
    for k in data.draw(st.lists(st.integers(0, total), min_size=1, max_size=4), label="prefixes"):
        partial = Game.new("parcheesi", list(game.header.seats), KEYS, seed=seed)
        for index, _ in game.match.steps[:k]:
            partial.step(index)
        tokens[k] = partial.token()

    token = game.token()
    once, twice = Game.from_token(token, KEYS), Game.from_token(token, KEYS)
    for replayed in (once, twice):
        assert replayed.position() == game.position()
        assert replayed.match.steps == game.match.steps
        assert replayed.match.history == game.match.history
        assert replayed.state == game.state
        assert replayed.token() == token
    for k, prefix in tokens.items():
        replayed = Game.from_token(prefix, KEYS)
        assert replayed.position() == positions[k], f"prefix of {k} steps"
        assert replayed.match.steps == game.match.steps[:k]


# -- 3. encode then decode gives back the log and the seats ---------------------------------------

SPECIAL_NAMES = ['Say "hi"', "O'Brien", "<script>alert(1)</script>", "🎲 Lucky 🍀",
                 "👨‍👩‍👧‍👦" * 3, "Zoë", "李小龙", "  padded  ", "", "x" * 24]
typed = st.text(st.characters(exclude_categories=("Cc", "Cs", "Cf")), max_size=30)
names = (st.sampled_from(SPECIAL_NAMES) | typed).filter(
    lambda s: len(s.strip()) <= 24
)
phones = st.none() | st.integers(0, 9_999_999).map(lambda n: f"+1555{n:07d}")


@games(150)
@given(
    seed=seeds,
    choice_seed=choice_seeds,
    people=st.lists(st.tuples(names, phones), min_size=2, max_size=4),
    stop=st.integers(0, 3000),
)
def test_a_link_gives_back_its_log_and_seats(seed, choice_seed, people, stop):
    colors = default_colors("parcheesi", len(people))
    seats = [Seat(name, color, phone=phone) for (name, phone), color in zip(people, colors)]
    game = play_random(new_game(len(seats), seed, seats), choice_seed, limit=stop)
    back = Game.from_token(game.token(), KEYS)
    assert back.match.steps == game.match.steps
    assert back.header == game.header
    assert [s.name for s in back.header.seats] == [name.strip() for name, _ in people]
    assert [s.phone for s in back.header.seats] == [phone for _, phone in people]
    assert back.position() == game.position()


# -- 4. a damaged link is refused with LinkError, never anything else -----------------------------


def _sample_token(data) -> str:
    n = data.draw(players, label="players")
    with_phones = data.draw(st.booleans(), label="phones")
    seats = [Seat(s.name, s.color, phone="+15550001234" if with_phones else None)
             for s in demo_seats("parcheesi", n)]
    game = new_game(n, data.draw(seeds, label="seed"), seats)
    return play_random(game, data.draw(choice_seeds, label="choices"),
                       limit=data.draw(st.integers(0, 400), label="steps")).token()


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_token_with_one_character_changed_is_refused(data):
    token = _sample_token(data)
    at = data.draw(st.integers(0, len(token) - 1), label="at")
    char = data.draw(st.sampled_from(B64URL).filter(lambda c: c != token[at]), label="char")
    tampered = token[:at] + char + token[at + 1:]
    with pytest.raises(LinkError):
        Game.from_token(tampered, KEYS)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_truncated_token_is_refused(data):
    token = _sample_token(data)
    cut = data.draw(st.integers(0, len(token) - 1), label="cut")
    with pytest.raises(LinkError):
        Game.from_token(token[:cut], KEYS)
    with pytest.raises(LinkError):
        Game.from_token(token[len(token) - cut:], KEYS)  # the front cut off instead


# -- 5. notation round trip at positions along random games ----------------------------------------


@games(150)
@given(n=players, seed=seeds, choice_seed=choice_seeds, every=st.integers(1, 7))
# Found by this test: yellow wins with the last pawns of a roll-start blockade (see below).
@example(n=2, seed=(150).to_bytes(8, "big"), choice_seed=150, every=1)
def test_every_position_reads_back_from_its_notation(n, seed, choice_seed, every):
    rules = None
    seen = 0

    def check(game):
        nonlocal seen, rules
        seen += 1
        if seen % every and not game.over:
            return
        rules = game.rules
        text = rules.format(game.state)
        back = rules.parse(text)
        assert back == game.state, f"{text!r}: key {game.state.key()} reads back as {back.key()}"
        assert rules.format(back) == text

    game = new_game(n, seed)
    check(game)
    play_random(game, choice_seed, each=check)


def test_a_won_position_reads_back_from_its_notation():
    """The smallest case of the above: yellow's last two pawns, a blockade on h7 when the
    doubles are rolled, both go Home; the won position must read back equal to itself."""
    from app.engine.parcheesi import Parcheesi

    rules = Parcheesi()
    state = rules.parse("parcheesi y:H,H,h7,h7/r:n,n,n,n y roll")
    rules.roll(state, (1, 1))
    while state.phase == MOVE:
        rules.play(state, rules.legal_moves(state)[0])
    text = rules.format(state)
    assert text == "parcheesi y:H,H,H,H/r:n,n,n,n y won d1"
    back = rules.parse(text)
    assert back == state, f"key {state.key()} reads back as {back.key()}"


# -- 6. legal moves agree with a slow brute-force reference ----------------------------------------


def oracle_legal(rules, state) -> list:
    """Every complete play from ``state``, one hop at a time through the rules' single-hop
    generator, and keep the first hops of the plays that use the most values (bonuses count)."""
    table: dict = {}

    def most(s) -> int:
        key = (tuple(map(tuple, s.pos)), s.pool, s.phase)
        if key not in table:
            table[key] = max((used for _, used in plays(s)), default=0)
        return table[key]

    def plays(s):
        for move, _bonus in rules._options(s):
            child = s.copy()
            child.memo = {}
            rules._apply(child, move)
            yield move, len(move.values) + most(child)

    start = state.copy()
    start.memo = {}
    scored = list(plays(start))
    best = max((used for _, used in scored), default=0)
    return [move for move, used in scored if used == best]


@games(200)
@given(n=players, seed=seeds, choice_seed=choice_seeds)
def test_legal_moves_match_a_brute_force_reference(n, seed, choice_seed):
    def check(game):
        state = game.state
        if state.phase != MOVE:
            return
        before = game.rules.format(state)
        expected = oracle_legal(game.rules, state)
        assert game.rules.format(state) == before  # the reference left the position alone
        assert game.match.legal_moves() == expected, before

    game = new_game(n, seed)
    play_random(game, choice_seed, each=check)
    assert game.over


@games(100)
@given(n=players, seed=seeds, choice_seed=choice_seeds)
def test_the_best_legal_candidate_is_the_one_the_legal_list_gives(n, seed, choice_seed):
    """Bots weigh every candidate and ask for the best legal one without the whole legal list
    (``best_legal``): it must be the legal move of highest worth, the first listed of equals.
    Worths are drawn with many ties, so the top candidate is often not a legal move."""
    rng = random.Random(choice_seed)

    def check(game):
        if game.state.phase != MOVE:
            return
        rules = game.rules
        asked, listed = game.state.copy(), game.state.copy()
        candidates = rules.candidates(asked)
        worths = [rng.choice((0.0, 0.5, 1.0)) for _ in candidates]
        legal = rules.legal_moves(listed)
        expected = max((i for i, move in enumerate(candidates) if move in legal),
                       key=worths.__getitem__)
        assert rules.best_legal(asked, worths) == expected, rules.format(game.state)

    game = new_game(n, seed)
    play_random(game, choice_seed, each=check)
    assert game.over


# -- 7. the dice a game uses are the dice stream, in order ------------------------------------------


@games(150)
@given(n=players, seed=seeds, choice_seed=choice_seeds)
def test_a_game_consumes_its_dice_stream_in_order(n, seed, choice_seed):
    game = play_random(new_game(n, seed), choice_seed)
    dice = Dice(game_secret(KEYS.dice, seed))
    stream = (dice.die(i) for i in range(10**9))

    # Who goes first: each round, every contender rolls two dice in seat order.
    contenders = list(range(n))
    for totals in game.match.start_rounds:
        assert list(totals) == contenders
        for seat in contenders:
            assert totals[seat] == next(stream) + next(stream)
        best = max(totals.values())
        contenders = [seat for seat in contenders if totals[seat] == best]
    assert len(contenders) == 1 and game.match.history[0][1] == contenders[0]

    rolls = [entry for entry in game.match.history if entry[0] == "roll"]
    assert len(game.match.history) == len(game.match.steps)
    for _, seat, pair in rolls:
        assert pair == (next(stream), next(stream))
    assert next(stream) == dice.die(game.match.next_die)
