"""The golden links' keys and how a header is recorded in them: shared by
tests/test_golden_links.py, which checks the links, and tests/make_golden_links.py, which makes
them."""

import dataclasses
import json

from app import link
from app.keys import Keys

KEYS = Keys.for_tests("golden")


# Seat fields added after the first golden files were made, with the value every seat had
# before: a seat is recorded with one only when it differs (so the older files still match).
LATER_SEAT_FIELDS = {"whatsapp": False}
LATER_FIELDS = {"by_hand": False}  # header fields added since the first golden files


def record(header: link.Header) -> dict:
    """Every field of a header as the golden files keep it (JSON: tuples become lists)."""
    fields = dataclasses.asdict(header) | {"seed": header.seed.hex(),
                                           "format_version": header.format_version}
    fields["seats"] = [{k: v for k, v in seat.items()
                        if k not in LATER_SEAT_FIELDS or v != LATER_SEAT_FIELDS[k]}
                       for seat in fields["seats"]]
    fields = {k: v for k, v in fields.items() if k not in LATER_FIELDS or v != LATER_FIELDS[k]}
    return json.loads(json.dumps(fields))
