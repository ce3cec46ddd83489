"""How the page's language writes numbers, by Babel, for the scripts that write figures they
work out themselves: the finished game's review (static/js/review.js) sums and averages the
reviews as they come in, so the page carries the locale's decimal symbol and the percent pattern
(templates/gamereview.html) rather than the server formatting figures it never sees."""

from __future__ import annotations

from babel import numbers
from flask_babel import get_locale


# Percentages are written "8%", in every language: the board's chance pills do, and so do the
# Argentine press and phones; CLDR's "8 %" for Spanish (the RAE's advice) would make the review
# and the pills disagree (docs/spanish.md).
PERCENT = "%(n)s%"


def number_format() -> dict[str, str]:
    """``decimal``: the locale's decimal symbol ("," in Spanish); ``percent``: the percent
    pattern with ``%(n)s`` for the number, "%(n)s%" (``PERCENT``)."""
    locale = get_locale() or "en"
    return {"decimal": numbers.get_decimal_symbol(locale), "percent": PERCENT}
