"""The pages people see. The game page is a shell; the client (static/js) draws it from the API.

Bad links get a friendly page with a 4xx status, never a traceback.
"""

from __future__ import annotations

from functools import cache

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from app.engine import red_arse_settings
from app.engine.games import NAMES as GAMES, TITLES, rules_for
from app.link import LinkError
from app.play import ClaimMissed, Game, TurnError
from app.web import ROOT
from app.web.api import (MESSAGES, STATUS, BadRequest, NotHost, NotJson, TableFull, WrongSeat,
                         ludo_options, new_game as create_game, parse_host, parse_players,
                         parse_settings)

bp = Blueprint("pages", __name__)

PRODUCT = "Boardpass"


@bp.app_context_processor
def product():
    return {"product": PRODUCT}


# The New game form: each game's seats have their own fields (``play0``, ``name0``... for
# Parcheesi, ``ra_play0``... for Red Arse, ``lu_play0``... for Ludo), so the form works without
# JavaScript; the page's script only shows the chosen game's part.
FIELD_PREFIX = {"parcheesi": "", "red-arse": "ra_", "ludo": "lu_"}
DEFAULT_SEATS = {"parcheesi": (0, 2), "red-arse": (0, 2), "ludo": (0, 2)}


@bp.app_context_processor
def titles():
    return {"titles": TITLES}


def _home(form=None, error=None):
    tables = [{"game": game, "title": TITLES[game], "prefix": FIELD_PREFIX[game],
               "colors": rules_for(game, _widest(game)).board.color_names,
               "defaults": DEFAULT_SEATS[game]} for game in GAMES]
    return render_template("home.html", tables=tables, form=form, error=error,
                           house_rules=red_arse_settings.HOUSE_RULES,
                           chosen=(form or {}).get("game", "parcheesi"))


def _widest(game: str) -> int:
    """The options of the game's biggest board (every color the form may offer)."""
    if game == "ludo":
        return ludo_options(6)
    return red_arse_settings.options_for(6) if game == "red-arse" else 0


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
        options = parse_settings(game, _form_settings(game, form))
        names = rules_for(game, _widest(game)).board.color_names
        players, host = [], None
        for i in range(len(names)):
            if form.get(f"{prefix}play{i}"):  # a blank name is the placeholder, numbered by color
                if game == "ludo" and form.get("lu_host") == str(i):
                    host = len(players)
                players.append({"name": form.get(f"{prefix}name{i}", "").strip() or f"Player {i + 1}",
                                "color": form.get(f"{prefix}color{i}"),
                                "phone": form.get(f"{prefix}phone{i}", "")})
        seats = parse_players(game, players, options)
        host = parse_host(game, host, players, seats, options)
    except BadRequest as error:
        return _home(form, str(error)), 400
    played = create_game(game, seats, options, host)
    local = "1" if form.get("local") else None
    return redirect(url_for("pages.game", token=played.token(), new=1, local=local))


def _form_settings(game: str, form) -> dict | None:
    """Red Arse's board and house rules from the form: a rule is on when its box is ticked (a
    form without the rules' boxes, ``rules_shown``, keeps them all on); Ludo's board."""
    if game == "ludo":
        capacity = form.get("lu_capacity", "4")
        if capacity not in ("2", "3", "4", "5", "6"):
            raise BadRequest(MESSAGES["ludo_table"])
        return {"capacity": int(capacity)}
    if game != "red-arse":
        return None
    board = form.get("board", "4")
    if board not in ("4", "6"):
        raise BadRequest("Red Arse is played on the 4-player or the 6-player board.")
    off = []
    if form.get("rules_shown"):
        off = [key for key in red_arse_settings.RULE_KEYS if not form.get(f"rule_{key}")]
    return {"board": int(board), "off": off}


def board_url(played: Game) -> str:
    """The layout of this game's board (Red Arse: the board its settings chose)."""
    if played.header.game == "red-arse":
        size = red_arse_settings.settings(played.header.options)["board"]
        return url_for("api.board", game="red-arse", board=size)
    if played.header.game == "ludo":
        return url_for("api.board", game="ludo", board=6 if played.rules.capacity > 4 else 4)
    return url_for("api.board", game=played.header.game)


@bp.get("/g/<token>")
def game(token):
    played = Game.from_token(token, current_app.config["KEYS"])  # errors: see link_error
    return render_template("game.html", game=played, token=token, board_url=board_url(played),
                           title=TITLES[played.header.game],
                           rules_url=url_for("pages.rules", game=played.header.game))


@bp.get("/rules/<game>")
def rules(game):
    if game not in GAMES:
        abort(404)
    return render_template(f"rules_{game.replace('-', '_')}.html", game=game,
                           house_rules=red_arse_settings.HOUSE_RULES)


@bp.get("/whats-new")
def whats_new():
    return render_template("whats_new.html", changelog=_changelog_html())


@cache
def _changelog_html() -> str:
    import markdown  # only this page needs it

    return markdown.markdown((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))


@bp.app_errorhandler(LinkError)
def link_error(error):
    status = STATUS.get(type(error).__name__, 400)
    return _error("This link doesn't work", str(error), status, type(error).__name__)


@bp.app_errorhandler(BadRequest)
@bp.app_errorhandler(NotJson)
@bp.app_errorhandler(WrongSeat)
@bp.app_errorhandler(NotHost)
@bp.app_errorhandler(TableFull)
def request_error(error):
    return _error("That request can't be answered", str(error), error.status,
                  type(error).__name__)


@bp.app_errorhandler(TurnError)
def turn_error(error):
    return _error("That move can't be played", str(error), 422, "TurnError")


@bp.app_errorhandler(ClaimMissed)
def claim_missed(error):
    """Too late for the re-roll: the page then lets it go ("miss")."""
    return _error("Too late for the re-roll", str(error), 409, "ClaimMissed")


@bp.app_errorhandler(404)
def not_found(error):
    return _error("Nothing here", "This address doesn't lead to a game.", 404, "NotFound")


@bp.app_errorhandler(400)
@bp.app_errorhandler(405)
@bp.app_errorhandler(413)
@bp.app_errorhandler(414)
def http_error(error):
    return _error(error.name, error.description, error.code, error.name.replace(" ", ""))


@bp.app_errorhandler(500)
def server_error(error):
    return _error("Something went wrong", "Something went wrong on our side. Your game is "
                  "safe: its link still works.", 500, "ServerError")


def _error(title: str, message: str, status: int, code: str):
    """The same error as JSON under /api/, as a friendly page elsewhere."""
    if request.path.startswith("/api/"):
        return {"error": {"code": code, "message": message}}, status
    return render_template("error.html", title=title, message=message, status=status), status
