"""What every bench shares: the app a bench serves (a store of its own) and how timings are
summed up."""

from __future__ import annotations

import statistics

from app.keys import Keys
from app.web import create_app

REPEATS = 3  # every timing is taken this many times and the fastest kept (as timeit does)


def bench_app(keys: Keys, store_url: str | None = None, **config):
    """The app for a bench: a store of its own (a new SQLite file unless ``store_url``), so
    runs never meet an earlier run's links; ``config`` adds settings."""
    import tempfile


    if not store_url:
        store_url = f"sqlite:///{tempfile.mkdtemp(prefix='boardpass-bench-')}/store.db"
    return create_app({"KEYS": keys, "PUBLIC_URL": "https://bench.test", "STORE_URL": store_url,
                       **config})


def spread(values: list[float], digits: int = 2) -> dict:
    """Median, 99th percentile and max of a bench's timings."""
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), digits),
            "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], digits),
            "max": round(ordered[-1], digits)}


# An analysis not worked out yet (202) or a server that can't answer now (503): a page asks
# again after its Retry-After, and so do the benches.
NOT_READY = (202, 503)
