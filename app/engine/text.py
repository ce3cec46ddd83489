"""Messages for players, marked for translation.

The engine and the services speak English; the web layer (``app.i18n.translate``) turns a marked
message into the page's language. A fixed message is marked with ``N_`` (it returns it
unchanged); a message with values is a ``Text``: the English text as a ``str``, which keeps its
msgid and values so that a translation can be filled in instead. Babel extracts both.

>>> move = Text("Pawn on %(src)s to %(dst)s", src="5", dst=Text("Home"))
>>> move
'Pawn on 5 to Home'
>>> move.msgid, move.args["dst"].msgid
('Pawn on %(src)s to %(dst)s', 'Home')
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks a fixed message for translation; returns it unchanged."""
    return message


class Text(str):
    """A message with values (themselves plain values or ``Text``), English as a str."""

    msgid: str
    args: dict

    def __new__(cls, msgid: str, **args) -> "Text":
        text = super().__new__(cls, msgid % args if args else msgid)
        text.msgid, text.args = msgid, args
        return text

    def __reduce__(self):  # pickling and copying keep the msgid and the values
        return _rebuild, (self.msgid, self.args)


def _rebuild(msgid: str, args: dict) -> Text:
    return Text(msgid, **args)
