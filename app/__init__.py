"""Boardpass: Parcheesi, Ludo and Red Arse played by passing a signed link."""
