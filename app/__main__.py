"""``python -m app``: see ``app.cli``."""

import sys

from app.cli import main

sys.exit(main())
