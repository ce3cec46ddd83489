"""The WSGI app as a module-level object: Zappa's ``app_function`` ("app.web.wsgi.app").

Any WSGI server can use it too (``gunicorn app.web.wsgi:app``). See docs/deploy.md.
"""

import os

from app.web import create_app

ON_LAMBDA = bool(os.environ.get("AWS_LAMBDA_FUNCTION_NAME"))

# On Lambda the code folder is read-only, so the development-key fallback would make new keys at
# every cold start: links would stop working and dice would change. Refuse to start instead.
if ON_LAMBDA:
    for _name in ("SIGNING_KEYS", "DICE_KEY"):
        if not os.environ.get(_name, "").replace(",", "").strip():
            raise RuntimeError(f"{_name} is not set on this Lambda function: see docs/deploy.md")

# A server in production never makes its store: one found missing, or unmarked, is the
# operator's to make again (python -m app store create-table), never an empty one taken for it.
# A server's worker compiles its templates before its first request, not during it; a Lambda
# instance compiles the ones its requests use (most are JSON, which need none).
app = create_app({"STORE_CREATE": False,
                  "COMPILE_TEMPLATES": not ON_LAMBDA})
