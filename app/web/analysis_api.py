"""The JSON API's analysis of a game's link (static/openapi.json describes it): each seat's
chance to win, the review of a choice between moves, and each player's luck.

app/review.py asks the questions and app/answers.py works them out; an answer is kept in the
store for everyone, bounded per game and hour, and cached for good by the browser
(``_for_good``).
"""

from __future__ import annotations

import re

from flask import Blueprint, current_app, jsonify, request

from app import answers, i18n, review
from app.engine import analysis
from app.play import Game, TurnError
from app.store import StoreUnavailable
from app.web import bookkeeping, bounded_json
from app.web.parse import BadRequest, MovedOn, message
from app.web.limits import client_address, counted_as
from app.web.turns import keys, now
from app.web.views import load, move_view

bp = Blueprint("analysis", __name__)

MAX_STEPS_ARG = 8000  # characters of ``?steps=``: a long turn's steps, receipts included


def _step_arg(played: Game) -> int:
    """``?step=N``: a step of this game (by default the position it has reached)."""
    step = request.args.get("step")
    if step is None:
        return len(played.match.steps)
    if not re.fullmatch(r"[0-9]{1,6}", step) or int(step) > len(played.match.steps):
        raise BadRequest(message("step"))
    return int(step)


def _for_good(asked: answers.Question, played: Game, shape):
    """The answer to ``asked`` (a question about a position of ``played``: app/answers.py),
    as ``shape(answer)`` words it for this request, cached for good by the browser: it
    depends only on the URL (the link, the step, and ``?lang=`` or else the table's language,
    never the cookie or Accept-Language, so no Vary). ``private``: the URL holds the game's
    link, a key to the game, which has no place in a shared cache or its logs; the browser
    that asks has the link already.

    The answer itself is kept in the store, for every phone and every game that reaches the
    position: one kept costs nothing more. Working one out is the costliest thing anyone can
    ask for, so it is bounded like texts: at most ``ANALYSIS_PER_GAME_HOUR`` answers are worked
    out for a game in an hour, counted in the store (429 past it: making games to get more is
    what the edge's rate limits are for). The places go to tables, not addresses: a table's
    phones (one Wi-Fi, one address) share its half of them, and one address, whatever its
    tables, holds half at most too. One answer asked by several phones at once is worked out
    once. When no place is free, the question is queued in the background and the answer is
    202 "being worked out" with Retry-After: work not ready yet is no failure (a 503 would be
    an error in every browser's console). One being worked out ahead after the game's turn
    (``analyse_ahead``) is waited for, and counted once. With the store down, it is worked
    out all the same, and neither counted nor kept: the pool's places still bound it."""
    store, config = bookkeeping.store(), current_app.config
    pool = review.analysts(config)
    try:
        answer, reachable = answers.kept(store, asked), True
    except StoreUnavailable:
        answer, reachable = None, False
    table, address = played.header.seed.hex(), counted_as(client_address(), 64)
    if answer is None and not pool.queued(asked.key) and not pool.has_place(table, address):
        return _pending(pool, asked, played, reachable)  # nothing counted here
    if answer is None:
        if reachable and not pool.queued(asked.key):  # a queued one has been counted
            try:
                if not answers.counted(store, played.header.seed, now(),
                                       config["ANALYSIS_PER_GAME_HOUR"]):
                    hour = int(now() // 3600)
                    return _refused("TooMuchAnalysis", message("analysis_hour"), 429,
                                    (hour + 1) * 3600 - int(now()))
            except StoreUnavailable:
                reachable = False
        try:
            answer = pool.run(answers.work, asked, key=asked.key, who=table, also=address)
        except review.Busy:
            return _pending(pool, asked, played, reachable)
        if reachable:
            answers.keep(store, asked, answer, now())
    response = jsonify(shape(answer))
    response.cache_control.private = True
    response.cache_control.max_age = 365 * 24 * 3600
    response.cache_control.immutable = True
    return response


def _pending(pool: review.Analysts, asked: answers.Question, played: Game, reachable: bool):
    """202: the answer is being worked out (queued in the background, to be kept in the store,
    unless it is on its way already or the backlog is full), and when to ask again. Without a
    store to keep it in, or without workers (Lambda), nothing is queued: the next ask works it
    out."""
    config = current_app.config
    if reachable and not pool.asked(asked.key):
        pool.submit(asked.key, answers.ahead, config["STORE_URL"] or "", asked,
                    played.header.seed, now(), config["ANALYSIS_PER_GAME_HOUR"])
    response = jsonify(pending={"message": i18n.say(review.BUSY)})
    response.status_code = 202
    response.headers["Retry-After"] = str(review.RETRY_AFTER)
    response.cache_control.no_store = True
    return response


def _refused(code: str, said, status: int, retry_after: int):
    """An analysis not worked out now, and when to ask again."""
    response = jsonify(error={"code": code, "message": i18n.say(said)})
    response.status_code = status
    response.headers["Retry-After"] = str(max(1, retry_after))
    response.cache_control.no_store = True
    return response


@bp.get("/games/<token>/chances")
def chances(token):
    """Each seat's chance to win at ``?step=N`` (default: now), or after ``?steps=[...]``: the
    turn in progress on top of the link, as ``/moves`` takes it (its ``turn_steps``), so the
    page can ask after each of its own moves. From playing the game on with medium bots
    (``ANALYSIS_PLAYOUTS`` times, 300 by default, fewer when their steps reach
    ``ANALYSIS_BUDGET``: ``playouts`` says how many), each game to the end or for
    ``analysis.CHANCE_ROUNDS`` rounds and then weighed by the static evaluation, seeded from
    the position, never from the game's dice: the answer is the same for anyone, kept for
    everyone and cached for good."""
    played, _ = load(token, keys())
    step = _step_arg(played)
    steps = request.args.get("steps")
    if steps is not None:
        if "step" in request.args:
            raise BadRequest(message("step_or_steps"))
        try:
            steps = bounded_json.loads(steps) if len(steps) <= MAX_STEPS_ARG else None
        except ValueError:
            steps = None
        if not isinstance(steps, list) or len(steps) > 200:
            raise BadRequest(message("steps"))
        standing = bookkeeping.standing_of(played, token)
        if standing.room:  # steps tried on a room's link would tell anyone watching the dice
            raise MovedOn(message("in_room", code=standing.room))
        if not played.over:
            played.play_turn(played.match.turn, steps, now=now())
            if standing.current:  # a roll the chances would show: the steps before it stand
                bookkeeping.fix(standing, played, fewer=True)
        elif steps:
            raise TurnError(message("game_over"))
        step = len(played.match.steps)
    asked = review.chances_question(played, review.state_at(played, step), current_app.config)
    return _for_good(asked, played, lambda answer: {
        "step": step, "playouts": answer["playouts"], "chances": answer["chances"]})


@bp.get("/games/<token>/luck")
def luck(token):
    """Each player's luck over the game so far, in points of chance to win (``luck``: per seat,
    the sum over its rolls of how much better that roll was than the average roll, by the
    static evaluation; ``rolls``: how many it made). One replay, no playouts; kept, counted
    and cached for good like ``chances``."""
    played, _ = load(token, keys())
    return _for_good(answers.luck_question(played), played,
                     lambda answer: dict(answer, step=len(played.match.steps)))


@bp.get("/games/<token>/review")
def review_step(token):
    """The review of a person's choice between moves at ``?step=N``: each option's chance to win
    (for the player), the points of chance it gave up next to the best one (the cautious end of
    the estimate), its grade (good under 3 points, misstep under 10, blunder), and what it missed
    next to the best, in ``?lang=`` or else the table's language (so the URL alone decides the
    answer). Within a budget (``ANALYSIS_BUDGET``): the move played is graded first, then
    medium's favourites; options it didn't reach have a null grade, chance and loss and are
    listed in ``not_graded``. Cached for good like ``chances``."""
    played, _ = load(token, keys())
    i18n.use_table_lang(played.header.lang)  # unless ?lang= says otherwise
    step = _step_arg(played)
    state = review.state_at(played, step)
    asked = review.review_question(played, step, state, current_app.config)
    return _for_good(asked, played, lambda answer: _review_view(played, step, state, answer))


def _review_view(played: Game, step: int, state, answer: dict) -> dict:
    """A kept review (the engine's figures for each option) in this request's words: each
    option's move and what it missed next to the best, and where the pieces stood (``pieces``,
    as a game's view gives them: the page draws the better move there)."""
    lang, rules = i18n.page_lang(), played.rules
    seat = played.header.seats[state.turn]
    moves = rules.legal_moves(state)
    options = answer["options"]
    return {
        "step": step, "seat": state.turn, "played": played.match.steps[step][0],
        "best": next(o["index"] for o in options if o["best"]),
        "options": [dict(move_view(rules, seat, moves[o["index"]], lang), index=o["index"],
                         chance=None if o["chance"] is None else round(o["chance"], 4),
                         loss=None if o["loss"] is None else round(o["loss"], 1),
                         grade=o["grade"], playouts=o["playouts"], missed=o["missed"],
                         reasons=[i18n.say(reason)
                                  for reason in analysis.reasons(rules, o["missed"])])
                    for o in options],
        "not_graded": [o["index"] for o in options if o["grade"] is None],
        "pieces": [[] if seat in rules.out(state) else list(pos)
                   for seat, pos in enumerate(state.pos)],  # a Ludo seat still out: none
        "playouts": sum(o["playouts"] for o in options)}
