"""pytest, for the whole tree. An engine module running compiled (``app/native.py``) has no
docstrings to collect doctests from, and pytest would take its source for another module of
the same name: tests/test_engine_doctests.py runs its examples against the source instead."""

from app import native

collect_ignore = [f"app/engine/{name}.py" for name in native.current()]
