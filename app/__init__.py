"""Boardpass: Parcheesi, Ludo and Red Arse played by passing a signed link."""

from app import native

native.use_current()  # an engine module built from an older source runs from its source
