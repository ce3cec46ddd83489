"""pytest, for the whole tree. An engine module running compiled (``app/native.py``) has no
docstrings to collect doctests from, and pytest would take its source for another module of
the same name: its examples are in ``docs/``, which runs in either case."""

from app import native

collect_ignore = [f"app/engine/{name}.py" for name in native.current()]
