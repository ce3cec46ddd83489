"""The pages people see. The game page is a shell; the client (static/js) draws it from the API.

Bad links get a friendly page with a 4xx status, never a traceback.
"""

from __future__ import annotations

from functools import cache

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from app.engine.games import NAMES as GAMES, rules_for
from app.link import LinkError
from app.play import Game, TurnError
from app.web import ROOT
from app.web.api import STATUS, BadRequest, NotJson, WrongSeat, parse_players

bp = Blueprint("pages", __name__)

PRODUCT = "Boardpass"


@bp.app_context_processor
def product():
    return {"product": PRODUCT}


@bp.get("/")
def home():
    rules = rules_for("parcheesi")
    return render_template("home.html", colors=rules.board.color_names, games=GAMES)


@bp.post("/new")
def new_game():
    """The New game form, without needing JavaScript: creates the game and shows its link."""
    form = request.form
    game = form.get("game", "parcheesi")
    if game not in GAMES:
        abort(400)
    players = []
    for i in range(len(rules_for(game).board.color_names)):
        if form.get(f"play{i}"):  # a blank name is the form's placeholder, numbered by color
            players.append({"name": form.get(f"name{i}", "").strip() or f"Player {i + 1}",
                            "color": form.get(f"color{i}"), "phone": form.get(f"phone{i}", "")})
    try:
        seats = parse_players(game, players)
    except BadRequest as error:
        rules = rules_for(game)
        return render_template("home.html", colors=rules.board.color_names, games=GAMES,
                               error=str(error), form=form), 400
    played = Game.new(game, seats, current_app.config["KEYS"])
    local = "1" if form.get("local") else None
    return redirect(url_for("pages.game", token=played.token(), new=1, local=local))


@bp.get("/g/<token>")
def game(token):
    played = Game.from_token(token, current_app.config["KEYS"])  # errors: see link_error
    return render_template("game.html", game=played, token=token,
                           rules_url=url_for("pages.rules", game=played.header.game))


@bp.get("/rules/<game>")
def rules(game):
    if game not in GAMES:
        abort(404)
    return render_template(f"rules_{game}.html", game=game)


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
def request_error(error):
    return _error("That request can't be answered", str(error), error.status,
                  type(error).__name__)


@bp.app_errorhandler(TurnError)
def turn_error(error):
    return _error("That move can't be played", str(error), 422, "TurnError")


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
