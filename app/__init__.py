"""Boardpass: Parcheesi, Ludo and Red Arse played by passing a signed link."""

from app import native

native.use_current()  # the compiled engine only if every module is built from today's source
