"""How the page's language writes numbers, by Babel, for the scripts that write figures they
work out themselves: the finished game's review (static/js/review.js) sums and averages the
reviews as they come in, so the page carries the locale's decimal symbol and percent pattern
(templates/gamereview.html) rather than the server formatting figures it never sees."""

from __future__ import annotations

from babel import numbers
from flask_babel import get_locale


def number_format() -> dict[str, str]:
    """``decimal``: the locale's decimal symbol; ``percent``: its percent pattern with
    ``%(n)s`` for the number ("%(n)s %" in Spanish, with a no-break space)."""
    locale = get_locale() or "en"
    return {"decimal": numbers.get_decimal_symbol(locale),
            "percent": numbers.format_percent(0.5, locale=locale).replace("50", "%(n)s")}
