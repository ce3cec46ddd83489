"""The pages people see. The game page is a shell; the client (static/js) draws it from the API.

Bad links get a friendly page with a 4xx status, never a traceback.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from app import compose_links, i18n
from app.engine import red_arse_settings
from app.engine.games import NAMES as GAMES, RULE_SETS, TITLES, rules_for
from app.engine.text import N_, Text
from app.link import LANGUAGES
from app.play import Game
from app.web import ROOT, live_rooms, preview, room_api
from app.web.bookkeeping import begin, private_page
from app.web.layout import board_layout, board_options
from app.web.limits import limits
from app.web.parse import BadRequest, message, parse_deadline, parse_lang
from app.web.reading import read_game
from app.web.seats import (bot_name, default_name, parse_host, parse_players, parse_settings,
                            whatsapp_first)
from app.web.turns import new_game as create_game, page_url, public_url
from app.web.views import final_results

bp = Blueprint("pages", __name__)

PRODUCT = "Boardpass"
LANG_COOKIE_DAYS = 365
# The New game form's turn deadlines: hours, and how the form says them.
DEADLINE_CHOICES = ((0, N_("Off")), (1, N_("1 hour")), (12, N_("12 hours")), (24, N_("1 day")),
                    (72, N_("3 days")))
# A room's turn timer: the game's own (Red Arse 30 s, Ludo 10 s, Parcheesi none), or seconds.
ROOM_TIMER_CHOICES = (("", N_("The game's own")),
                      (0, N_("Off")), (10, N_("10 seconds")), (30, N_("30 seconds")),
                      (60, N_("1 minute")))


@bp.app_context_processor
def product():
    return {"product": PRODUCT}


@bp.app_context_processor
def link_preview():
    """What link preview fetchers show of any page: Boardpass's own preview (a game's page and
    a room's give their own: ``preview`` when rendered)."""
    return {"preview": preview.tags(preview.generic_words(i18n.page_lang()), page_url(),
                                    public_url("preview.generic_image"))}


@bp.app_context_processor
def languages():
    """The page's language, the switcher's links, and the client's words, which the page
    carries (English needs none)."""
    lang = i18n.page_lang()
    messages = i18n.client_messages(lang) if lang != LANGUAGES[0] else None
    return {"lang": lang, "client_messages": messages,
            "switch": [{"lang": code, "name": i18n.LANGUAGE_NAMES[code], "url": _switch_url(code),
                        "current": code == lang} for code in LANGUAGES]}


def _switch_url(lang: str) -> str:
    """This page in ``lang``: the same page and query with ``?lang=`` (a form's answer, a
    POST, and an address that is no page switch on the home page). Built from the route, never
    from the raw path: ``/\\evil.example`` must not become a link off the site."""
    if request.method != "GET" or request.url_rule is None:
        return url_for("pages.home", lang=lang)
    args = [(key, value) for key, value in request.args.items(multi=True) if key != "lang"]
    path = url_for(request.endpoint, **(request.view_args or {}))
    return path + "?" + urlencode(args + [("lang", lang)])


@bp.after_app_request
def remember_language(response):
    """A ``?lang=`` switch on a page is remembered (the ``lang`` cookie) for the next visit."""
    lang = request.args.get("lang")
    if lang in LANGUAGES and private_page(response) and request.cookies.get("lang") != lang:
        response.set_cookie("lang", lang, max_age=LANG_COOKIE_DAYS * 24 * 3600, samesite="Lax",
                            httponly=True, secure=request.is_secure)
    return response


# The New game form: each game's seats have their own fields (``play0``, ``name0``... for
# Parcheesi, ``ra_play0``... for Red Arse, ``lu_play0``... for Ludo), so the form works without
# JavaScript; the page's script only shows the chosen game's part.
FIELD_PREFIX = {"parcheesi": "", "red-arse": "ra_", "ludo": "lu_"}
DEFAULT_SEATS = (0, 2)  # the seats ticked at first: two players facing each other
# Who plays a seat, besides a person: the bots' strengths and how the form says them.
BOT_CHOICES = (("easy", N_("Bot (easy)")), ("medium", N_("Bot (medium)")),
               ("hard", N_("Bot (hard)")))


@bp.app_context_processor
def titles():
    return {"titles": TITLES}


@bp.app_template_global()
def reviews_at_once() -> int:
    """How many reviews a finished game's page asks for at once (``review.at_once``): asked by
    the review's template only, not worked out for every page."""
    from app import review

    return review.at_once(current_app.config)


def _home(form=None, error=None):
    lang = i18n.page_lang()
    tables = [{"game": game, "title": i18n.say(TITLES[game]), "prefix": FIELD_PREFIX[game],
               "colors": rules_for(game, _widest(game)).board.color_names,
               "defaults": DEFAULT_SEATS, "lang": _table_lang(game, lang, form),
               "rules": _rules_url(game, lang)}
              for game in GAMES]
    return render_template("home.html", tables=tables, form=form, error=error,
                           deadlines=DEADLINE_CHOICES, room_timers=ROOM_TIMER_CHOICES,
                           house_rules=red_arse_settings.HOUSE_RULES, bot_levels=BOT_CHOICES,
                           chosen=(form or {}).get("game", "parcheesi"),
                           whatsapp=whatsapp_first())


def _table_lang(game: str, page: str, form=None) -> str:
    """The language the form proposes for a game's table: the one chosen, else the page's
    (a game made from an English page is English unless its host picks Spanish)."""
    chosen = (form or {}).get(f"{FIELD_PREFIX[game]}lang")
    return chosen if chosen in LANGUAGES else page


def _widest(game: str) -> int:
    """The options of the game's biggest board (every color the form may offer)."""
    rules = RULE_SETS[game]
    return rules.board_options(max(rules.boards))


@bp.get("/")
def home():
    return _home()


@bp.post("/new")
def new_game():
    """The New game form, without needing JavaScript: creates the game and shows its link."""
    form = request.form
    game = form.get("game", "parcheesi")
    if game not in GAMES:
        abort(400)
    prefix = FIELD_PREFIX[game]
    try:
        lang = parse_lang(form.get(f"{prefix}lang") or None, _table_lang(game, i18n.page_lang()))
        options = parse_settings(game, _form_settings(game, form))
        names = rules_for(game, _widest(game)).board.color_names
        players, host, numbers = [], None, []
        for i in range(len(names)):
            if form.get(f"{prefix}play{i}"):  # a blank name is the placeholder, numbered by color
                if RULE_SETS[game].hosted and form.get(f"{prefix}host") == str(i):
                    host = len(players)
                bot = form.get(f"{prefix}bot{i}") or None  # a strength, or a human
                phone = form.get(f"{prefix}phone{i}", "")
                players.append({"name": form.get(f"{prefix}name{i}", "").strip() or
                                ("" if bot else default_name(i + 1, lang)),
                                "color": form.get(f"{prefix}color{i}"), "phone": phone,
                                "bot": bot,  # "By WhatsApp" goes with a number, if one is typed
                                "whatsapp": bool(form.get(f"{prefix}whatsapp{i}") and
                                                 phone.strip() and not bot)})
                numbers.append(i + 1)
        seats = parse_players(game, players, options, lang, numbers)
        host = parse_host(game, host, players, seats, options)
        local = "1" if form.get("local") else None
        live = form.get("room") == "1" and not local
        timer = live_rooms.parse_timer(game, _form_number(form["room_timer"])
                                       if live and form.get("room_timer") else None, seats)
        # One device passed around has nobody to wait for: no deadline.
        deadline = 0 if local else parse_deadline(_form_number(form.get("deadline", "0")))
    except BadRequest as error:
        return _home(form, i18n.say(error.args[0])), 400
    # "Play turns with nothing to decide for me": on unless unticked (the hidden 0 alone).
    by_hand = form.getlist("autoplay") == ["0"]
    if live:  # the creator's phone takes their seat (kept by the page from the address's #c=)
        limits().take("made")
        played = live_rooms.lobby_game(game, seats, options, host, lang)
        color = played.header.seats[host if played.rules.hosted else next(
            i for i, seat in enumerate(played.header.seats) if not seat.bot)].color
        room = live_rooms.open_room(played, color, live_rooms.record_new(played), timer,
                                    lobby=True)
        return redirect(url_for("pages.room", code=room.code) + "#c=" +
                        live_rooms.credential(room, color))
    played = create_game(game, seats, options, host, lang, deadline, by_hand=by_hand)
    return redirect(url_for("pages.game", token=begin(played), new=1, local=local))


def _form_number(text: str):
    """A number the form chose (hours, seconds), or the text as it is, refused where read."""
    return int(text) if text.isdigit() and len(text) < 4 else text


def _form_settings(game: str, form) -> dict | None:
    """The table's settings from the form, as the API takes them (None: a game with none)."""
    return FORM_SETTINGS[game](form) if game in FORM_SETTINGS else None


def _ludo_form(form) -> dict:
    """Ludo's table: its capacity."""
    capacity = form.get("lu_capacity", "4")
    if capacity not in ("2", "3", "4", "5", "6"):
        raise BadRequest(message("ludo_table"))
    return {"capacity": int(capacity)}


def _red_arse_form(form) -> dict:
    """Red Arse's board and house rules: a rule is on when its box is ticked (a form without
    the rules' boxes, ``rules_shown``, keeps them all on)."""
    board = form.get("board", "4")
    if board not in ("4", "6"):
        raise BadRequest(message("red_arse_board_form"))
    off = []
    if form.get("rules_shown"):
        off = [key for key in red_arse_settings.RULE_KEYS if not form.get(f"rule_{key}")]
    return {"board": int(board), "off": off}


# The settings fields of each game that has some, by the game's part of the form.
FORM_SETTINGS = {"ludo": _ludo_form, "red-arse": _red_arse_form}


def _board_size(played: Game) -> int | None:
    """The board its table chose, 4 or 6, of a game played on more than one."""
    rules = played.rules
    return rules.board_size() if len(rules.boards) > 1 else None


@cache
def _layout(game: str, size: int | None) -> dict:
    return board_layout(game, board_options(game, size or 4))


def layout_of(played: Game) -> dict:
    """This game's board as ``/api/boards/...`` draws it: the page carries it."""
    return _layout(played.header.game, _board_size(played))


def board_view(played: Game) -> dict:
    """The board's frame in the page as it is sent (its viewBox, and ``holes`` as board.js
    marks a board of places): the board keeps its room before the page has drawn it, so
    nothing moves then."""
    drawn = layout_of(played)
    return {"view": " ".join(str(v) for v in drawn["view"]), "holes": bool(drawn.get("places"))}


@bp.get("/g/<token>")
def game(token):
    watch = preview.Watch()  # what the last turn did, for the preview's description
    played = Game.from_token(token, current_app.config["KEYS"], watch)  # errors: link_error
    i18n.use_table_lang(played.header.lang)  # the table's language, unless ?lang= switches
    lang = i18n.page_lang()
    # The link's preview, in the table's language: the head's tags (base.html).
    shown = preview.tags(preview.words(played, played.header.lang, watch),
                         public_url("pages.game", token=token),
                         public_url("preview.game_image", token=token))
    # The first paint is the turn: the page carries what GET /api/games/<token> answers (and
    # records the link's arrival, once) and the board's layout; the script asks for neither.
    # A link preview fetcher runs no script: it reads nothing, and the link hasn't arrived.
    view = None if preview.fetched_for_preview() else \
        read_game(token, None, bool(request.args.get("new")), lang)
    if view and view["room"]:  # the game is played live in a room now: its links are read-only
        return redirect(url_for("pages.room", code=view["room"]))
    return render_template("game.html", game=played, token=token, view=view,
                           status=opening_status(view, played.rules),
                           layout=layout_of(played), board_view=board_view(played),
                           results=final_results(played),
                           # the rematch is the host's: their link, or the browser that made it
                           host_here=bool(view and view.get("host_here")),
                           preview=shown,
                           title=i18n.say(TITLES[played.header.game]),
                           rules_url=_rules_url(played.header.game, lang),
                           colors=[i18n.translate(name, lang)
                                   for name in played.rules.board.color_names],
                           bot_tags=[_bot_tag(seat, played.header.lang, lang)
                                     for seat in played.header.seats],
                           push_key=_push_key())


def opening_status(view: dict | None, rules) -> str | None:
    """The status line the page opens with, for a turn that starts with a roll: the turn from
    the first paint. "Ben, your turn: roll the die." as game.js says it once the page has run;
    "Ben, your turn, after the replay." where the page replays the others' turns first (one
    line, as the replay's are: a longer one would move the board when the replay begins). None
    where the script has more to say first (a new game's sending, dice rolled or steps fixed
    already, an older link): the page says it is loading. A reload mid-turn keeps its steps in
    the address (``#s=``), which the server never sees: game.js says it is loading then."""
    if not view or request.args.get("new") or view["moved_on"] or view["fixed_steps"] \
            or view["phase"] != "roll" or view["doubles"]:
        return None
    who = view["seats"][view["turn"]]["name"]
    if view["replay"]["events"]:
        return i18n.say(Text(N_("%(who)s, your turn, after the replay."), who=who))
    return i18n.say(Text(rules.words.your_turn, who=who))


def _push_key() -> str | None:
    """The VAPID public key the page subscribes with (None: no notifications offered)."""
    vapid = current_app.config["KEYS"].vapid
    if not vapid:
        return None
    from app.push import public_key

    return public_key(vapid)


def _bot_tag(seat, table: str, lang: str) -> str | None:
    """What marks a bot's seat in the Players list ("Bot (hard)", in ``lang``), unless its name
    says it already (the names bots get when given none, in the table's language)."""
    if not seat.bot:
        return None
    given = {bot_name(seat.bot, table)} | {bot_name(seat.bot, table, n) for n in range(1, 7)}
    return None if seat.name in given else i18n.translate(BOT_CHOICES[seat.bot - 1][1], lang)


@bp.get("/r")
def find_room():
    """"Join with a code": the room the code names (as typed), or the home page saying why
    not."""
    from app.rooms import read_code

    code = read_code(request.args.get("code", ""))
    if code is None:
        return _home(error=i18n.say(message("room_code"))), 400
    return redirect(url_for("pages.room", code=code))


@bp.get("/r/<code>")
def room(code):
    """A live room: the page (static/js/room.js) polls the room and plays in it."""
    found = live_rooms.find(code)  # 404 page: no such room
    watch = preview.Watch()
    played = Game.from_token(found.token, current_app.config["KEYS"], watch)
    i18n.use_table_lang(played.header.lang)
    lang = i18n.page_lang()
    shown = preview.tags(preview.words(played, played.header.lang, watch, room=found.code),
                         live_rooms.room_url(found.code),
                         public_url("preview.room_image", code=found.code))
    url = live_rooms.room_url(found.code)
    invite = i18n.say(Text(N_("Join my %(game)s room on Boardpass: %(url)s"),
                           game=Text(TITLES[played.header.game]), url=url))
    # The seats, and for a phone that hasn't joined on this browser the free ones it is offered,
    # from the first paint: the script's first answer would otherwise push the board down.
    state = room_api.room_state(found, played)
    mine = found.color_by(live_rooms.device_digest())  # the color this browser joined on
    watching = mine is None
    joinable = watching and not played.over and bool(state["free"] or state["new_colors"])
    return render_template("room.html", game=played, room=found, layout=layout_of(played),
                           board_view=board_view(played), watching=watching, joinable=joinable,
                           state=state, mine=mine, preview=shown, room_url=url,
                           whatsapp_href=compose_links.whatsapp_href(None, invite),
                           title=i18n.say(TITLES[played.header.game]),
                           rules_url=_rules_url(played.header.game, lang))


def _rules_url(game: str, lang: str) -> str:
    """The rules for a page in ``lang``: a plain link when the rules page would choose that
    language by itself for this visitor (their choice, else their browser's)."""
    chosen = request.cookies.get("lang")
    alone = chosen if chosen in LANGUAGES else \
        request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]
    if alone == lang:
        return url_for("pages.rules", game=game)
    return url_for("pages.rules", game=game, table=lang)


@bp.get("/rules/<game>")
def rules(game):
    """How to play: one page per game and language (the long texts are written, not pieced
    together from messages: ``rules_<game>.<lang>.html``, English without the suffix). A game's
    page links them with ``?table=``, its language (unlike ``?lang=``, not remembered)."""
    if game not in GAMES:
        abort(404)
    if request.args.get("table") in LANGUAGES:
        i18n.use_table_lang(request.args["table"])
    name = game.replace("-", "_")
    return render_template([f"rules_{name}.{i18n.page_lang()}.html", f"rules_{name}.html"],
                           game=game, house_rules=red_arse_settings.HOUSE_RULES)


@bp.get("/whats-new")
def whats_new():
    """What changed for players, release by release, in the page's language
    (``app/web/news/<lang>.md``; the developers' list is CHANGELOG.md)."""
    return render_template("whats_new.html", news=_news_html(i18n.page_lang()))


@cache
def _news_html(lang: str) -> str:
    import markdown  # only this page needs it

    return markdown.markdown((ROOT / "app" / "web" / "news" / f"{lang}.md").read_text(
        encoding="utf-8"))
