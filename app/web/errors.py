"""An error's answer, the same wherever it is raised: JSON ``{"error": {"code", "message"}}``
under /api/, a friendly page elsewhere, in the request's language.

The handlers that choose each error's title and status are app-wide: pages.py's (the API's
errors, a link that can't be read, Werkzeug's own, the store down), room_api.py's (a room
that isn't there) and same_site.py's (a change sent by another site's page).
"""

from __future__ import annotations

from flask import render_template, request

from app import i18n


def error_answer(title: str, message: str, status: int, code: str, typed: str | None = None):
    """The same error as JSON under /api/, as a friendly page elsewhere, in the request's
    language (``title`` and ``message`` are marked messages: ``N_`` or ``Text``). ``typed``: a
    room code that found no room, offered again in the code field to correct."""
    message = i18n.say(message)
    if request.path.startswith("/api/"):
        return {"error": {"code": code, "message": message}}, status
    return render_template("error.html", title=i18n.say(title), message=message,
                           status=status, join_form=typed is not None, typed=typed), status
