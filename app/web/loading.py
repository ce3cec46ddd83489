"""The game a request to a link acts on, loaded as the games' and the seats' handlers all begin:
it raises what refuses the request (an unplayable link, an older one), so a handler goes on with
a game it may act on.
"""

from __future__ import annotations

from app import i18n
from app.ledger import Standing
from app.play import Game
from app.web.bookkeeping import current_standing
from app.web.turns import keys
from app.web.views import Recorder, load


def game_at(token: str, ask: str | None = None, record: bool = False,
            check=None) -> tuple[Game, Standing, Recorder | None]:
    """The game at this link, answered in its table's language, with the link's standing
    (``current_standing``: refused unless it is the game's newest link, or ``ask`` repeats the
    request that moved the game on from it) and, with ``record``, the pieces after every
    replayed step. ``check(game)`` refuses what it must before the store is asked."""
    played, recorder = load(token, keys(), record)
    i18n.use_table_lang(played.header.lang)
    if check is not None:
        check(played)
    return played, current_standing(played, token, ask), recorder
