"""The app as AWS Lambda runs it: Zappa's own handler, fed API Gateway events, no AWS account.

The settings module is the one ``zappa package`` writes into the zip (``zappa_settings.py``),
produced by Zappa's command line code from our ``zappa_settings.json``; requests then go through
``zappa.handler.lambda_handler`` exactly as on Lambda, for REST APIs (API Gateway v1 events) and
HTTP APIs (payload format 2.0). docs/deploy.md tells how to deploy for real.
"""

from __future__ import annotations

import base64
import fnmatch
import json
import logging
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from app.store import open_store

ROOT = Path(__file__).resolve().parents[1]
SETTINGS_JSON = ROOT / "zappa_settings.json"
STAGES = ("dev", "production")
SECRETS = ("SIGNING_KEYS", "DICE_KEY", "PHONE_KEY", "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN",
           "TWILIO_FROM", "TWILIO_MESSAGING_SERVICE_SID", "PUBLIC_URL")
API_HOST = "abc123defg.execute-api.us-east-1.amazonaws.com"  # no custom domain: /<stage>/ paths
CUSTOM_HOST = "play.example.com"  # a custom domain maps the stage to the root


def stage_settings(stage: str) -> dict:
    """A stage's settings with ``extends`` applied, as Zappa reads them."""
    settings = json.loads(SETTINGS_JSON.read_text(encoding="utf-8"))
    own = settings[stage]
    return {**stage_settings(own["extends"]), **own} if "extends" in own else dict(own)


def zappa_settings_module(stage: str, monkeypatch) -> str:
    """The text of the ``zappa_settings.py`` that ``zappa package <stage>`` puts in the zip.

    The same code as ``zappa save-python-settings-file``, without its check for a newer Zappa
    (a network call) and with no AWS credentials or boto3 session.
    """
    from zappa.cli import ZappaCLI

    monkeypatch.chdir(ROOT)  # Zappa looks through the project from the current folder
    cli = ZappaCLI()
    cli.api_stage = stage
    cli.load_credentials = False
    cli.load_settings(str(SETTINGS_JSON))
    return cli.get_zappa_settings_string()


# -- the settings file -----------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
def test_stage_deploys_this_app(stage):
    settings = stage_settings(stage)
    assert settings["app_function"] == "app.web.wsgi.app"
    assert settings["runtime"] == "python3.11"
    # Lambda gives CPU in proportion to memory, one whole vCPU at 1769 MB: the analysis figures
    # are measured on one core, and at less a worst-case review would near the time limit.
    assert 1769 <= settings["memory_size"] <= 3008
    assert settings["timeout_seconds"] <= 30  # API Gateway gives up after 29-30 s anyway
    assert settings["debug"] is False  # Zappa's debug puts tracebacks in 500 responses
    assert settings["s3_bucket"]
    assert settings["aws_region"]
    assert settings.get("slim_handler", False) is False  # the zip is small: no S3 download at start


def test_dev_is_not_kept_warm():
    assert stage_settings("dev")["keep_warm"] is False  # Zappa keeps warm unless told not to


def test_no_secret_in_the_settings_file():
    """Secrets are Lambda environment variables set outside the repository (docs/deploy.md).
    The file names only each stage's store, which is no secret."""
    text = SETTINGS_JSON.read_text(encoding="utf-8")
    for name in SECRETS:
        assert name not in text
    for stage in STAGES:
        settings = stage_settings(stage)
        assert set(settings["environment_variables"]) == {"STORE_URL"}
        for key in ("aws_environment_variables", "remote_env"):
            assert not settings.get(key), f"{stage}: {key} would put configuration in the file"


def test_each_stage_has_its_own_store_table():
    """A dev request must never touch production's entries (docs/deploy.md, The store)."""
    tables = {}
    for stage in STAGES:
        store = open_store(stage_settings(stage)["environment_variables"]["STORE_URL"])
        assert (store.table, store.endpoint) == (f"boardpass-{stage}", None)
        tables[stage] = store.table
    assert len(set(tables.values())) == len(STAGES), tables


@pytest.mark.parametrize("stage", STAGES)
def test_generated_settings_module(stage, monkeypatch):
    namespace: dict = {}
    exec(zappa_settings_module(stage, monkeypatch), namespace)
    assert (namespace["APP_MODULE"], namespace["APP_FUNCTION"]) == ("app.web.wsgi", "app")
    assert namespace["API_STAGE"] == stage
    assert namespace["PROJECT_NAME"] == "boardpass"
    assert namespace["DEBUG"] is False
    # baked into the zip, and set by the handler over the function's own variables
    assert set(namespace["ENVIRONMENT_VARIABLES"]) <= {"AWS_REGION", "STORE_URL"}
    assert namespace["ENVIRONMENT_VARIABLES"]["STORE_URL"] == \
        stage_settings(stage)["environment_variables"]["STORE_URL"]


def packaged_project_files() -> set[str]:
    """The project files ``zappa package`` copies, by Zappa's own rules: its ``ZIP_EXCLUDES`` and
    our ``exclude`` (names matched at every level, as ``shutil.copytree`` ignores them), then
    ``exclude_glob``."""
    from zappa.core import ZIP_EXCLUDES

    settings = stage_settings("dev")
    patterns = [*ZIP_EXCLUDES, *settings.get("exclude", [])]
    if sys.prefix != sys.base_prefix:  # Zappa also leaves out the active environment's folder
        patterns.append(Path(sys.prefix).name)
    ignore = shutil.ignore_patterns(*patterns)
    kept = set()
    for folder, dirs, files in os.walk(ROOT):
        ignored = ignore(folder, dirs + files)
        dirs[:] = [d for d in dirs if d not in ignored]
        base = Path(folder).relative_to(ROOT)
        kept.update((base / f).as_posix() for f in files if f not in ignored)
    for pattern in settings.get("exclude_glob", []):
        kept = {f for f in kept if not fnmatch.fnmatch(f, pattern)
                and not any(fnmatch.fnmatch(p.as_posix(), pattern) for p in Path(f).parents)}
    return kept


def test_package_holds_the_app_and_nothing_for_development():
    files = packaged_project_files()
    assert {"app/web/wsgi.py", "app/web/__init__.py", "CHANGELOG.md"} <= files
    assert any(f.startswith("app/web/templates/") for f in files)
    static = {p.relative_to(ROOT).as_posix() for p in (ROOT / "static").rglob("*") if p.is_file()}
    assert static <= files
    for path in files:
        top = path.split("/")[0]
        assert top in {"app", "static", "CHANGELOG.md"}, (
            f"{path} would be deployed: name it in the exclude list of zappa_settings.json")
        assert "__pycache__" not in path and not path.endswith(".pyc")
    for md in ROOT.glob("*.md"):
        assert (md.name in files) == (md.name == "CHANGELOG.md"), md.name


def test_package_carries_compiled_translations():
    """Zappa's prebuild compiles the catalogs; the zip then holds them (Lambda can't write)."""
    from app import i18n

    assert stage_settings("dev")["prebuild_script"] == "app.i18n.prebuild"
    mo = i18n.catalog_path("es", "mo")
    mo.unlink(missing_ok=True)
    i18n.prebuild()
    assert mo.exists()
    assert mo.relative_to(ROOT).as_posix() in packaged_project_files()


def test_package_leaves_out_what_lambda_has_or_never_uses():
    exclude = set(stage_settings("dev")["exclude"])
    assert {"boto3", "botocore", "pytest", "_pytest", "hypothesis", "playwright"} <= exclude
    # never excluded: what the app and Zappa's handler import on Lambda
    for needed in ("flask", "werkzeug", "jinja2", "itsdangerous", "cryptography", "twilio",
                   "markdown", "phonenumbers", "zappa", "durationpy", "app", "static"):
        assert not any(fnmatch.fnmatch(needed, pattern) for pattern in exclude), needed


# -- Zappa's Lambda handler --------------------------------------------------------------------


@pytest.fixture
def lambda_env(monkeypatch):
    """The Lambda function's environment: secrets set, no Twilio, nothing written to disk."""
    for name in (*SECRETS, "TWILIO_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SIGNING_KEYS", "old-test-signing-key,new-test-signing-key")
    monkeypatch.setenv("DICE_KEY", "test-dice-key")
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "boardpass-dev")
    # The handler sets these on start (and AWS_REGION from the settings): undo them afterwards.
    for name in ("SERVERTYPE", "FRAMEWORK", "PROJECT", "STAGE", "AWS_REGION", "STORE_URL"):
        monkeypatch.setenv(name, "unset-by-test")
    # Each test starts the app afresh from this environment, as a cold start does.
    monkeypatch.delitem(sys.modules, "app.web.wsgi", raising=False)
    monkeypatch.delitem(sys.modules, "zappa_settings", raising=False)
    return monkeypatch


@pytest.fixture
def invoke(lambda_env, tmp_path, dynamodb_url):
    """Call ``zappa.handler.lambda_handler`` with an event, as Lambda does (stage "dev"), its
    store a table on the tests' DynamoDB-compatible server instead of the stage's own."""
    from zappa import handler

    settings = zappa_settings_module("dev", lambda_env)
    settings += f"\nENVIRONMENT_VARIABLES['STORE_URL'] = {dynamodb_url!r}\n"
    (tmp_path / "zappa_settings.py").write_text(settings)
    lambda_env.syspath_prepend(str(tmp_path))
    lambda_env.setattr(handler.LambdaHandler, "_LambdaHandler__instance", None)  # the singleton
    lambda_env.setattr(handler, "global_handler", None)
    levels = {name: logging.getLogger(name).level for name in ("", handler.logger.name)}
    context = types.SimpleNamespace(function_name="boardpass-dev", aws_request_id="test-request",
                                    get_remaining_time_in_millis=lambda: 29_000)
    yield lambda event: handler.lambda_handler(event, context)
    for name, level in levels.items():  # the handler sets the log level from the settings
        logging.getLogger(name).setLevel(level)


def rest_event(method: str, path: str, body: bytes | None = None, host: str = API_HOST,
               content_type: str | None = None, base64_body: bool = False) -> dict:
    """An API Gateway REST API (v1) proxy event: the path comes without the stage."""
    headers = {"Host": host, "Accept": "*/*", "User-Agent": "pytest", "X-Forwarded-Proto": "https",
               "X-Forwarded-For": "203.0.113.9, 130.176.0.1", "X-Forwarded-Port": "443"}
    if content_type:
        headers["Content-Type"] = content_type
    return {
        "resource": "/{proxy+}" if path != "/" else "/",
        "path": path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": {"proxy": path.lstrip("/")} if path != "/" else None,
        "stageVariables": None,
        "requestContext": {
            "resourcePath": "/{proxy+}", "httpMethod": method, "path": "/dev" + path,
            "stage": "dev", "requestId": "test-request", "domainName": host,
            "identity": {"sourceIp": "203.0.113.9", "userAgent": "pytest"},
        },
        "body": None if body is None else encode_body(body, base64_body),
        "isBase64Encoded": base64_body,
    }


def encode_body(body: bytes, base64_body: bool) -> str:
    return base64.b64encode(body).decode("ascii") if base64_body else body.decode("utf-8")


def http_event(method: str, path: str, body: bytes | None = None, host: str = API_HOST,
               content_type: str | None = None, base64_body: bool = False) -> dict:
    """An API Gateway HTTP API event, payload format 2.0: on the execute-api host the stage is
    part of ``rawPath``; behind a custom domain it is not."""
    raw_path = ("/dev" + path) if host == API_HOST else path
    headers = {"host": host, "accept": "*/*", "user-agent": "pytest", "x-forwarded-proto": "https",
               "x-forwarded-for": "203.0.113.9", "x-forwarded-port": "443"}
    if content_type:
        headers["content-type"] = content_type
    event = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": raw_path,
        "rawQueryString": "",
        "headers": headers,
        "requestContext": {
            "accountId": "123456789012", "apiId": "abc123defg", "domainName": host,
            "domainPrefix": host.split(".")[0], "requestId": "test-request", "routeKey": "$default",
            "stage": "dev", "time": "02/Dec/2026:12:00:00 +0000", "timeEpoch": 1796212800000,
            "http": {"method": method, "path": raw_path, "protocol": "HTTP/1.1",
                     "sourceIp": "203.0.113.9", "userAgent": "pytest"},
        },
        "isBase64Encoded": base64_body,
    }
    if body is not None:
        event["body"] = encode_body(body, base64_body)
    return event


EVENTS = {"rest-v1": rest_event, "http-v2": http_event}


@pytest.fixture(params=sorted(EVENTS))
def event(request):
    return EVENTS[request.param]


class Answer:
    """A handler response read the way API Gateway reads it."""

    def __init__(self, response: dict):
        self.status = response["statusCode"]
        self.headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
        body = response.get("body") or ""
        self.data = base64.b64decode(body) if response.get("isBase64Encoded") else body.encode()

    def json(self):
        assert self.headers["content-type"].startswith("application/json"), self.headers
        return json.loads(self.data)


def call(invoke, event) -> Answer:
    return Answer(invoke(event))


def test_home_page(invoke, event):
    answer = call(invoke, event("GET", "/"))
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert b"<html" in answer.data.lower()


def test_home_page_behind_a_custom_domain(invoke, event):
    answer = call(invoke, event("GET", "/", host=CUSTOM_HOST))
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")


def test_board(invoke, event):
    answer = call(invoke, event("GET", "/api/boards/parcheesi"))
    assert answer.status == 200
    board = answer.json()
    assert board["game"] == "parcheesi" and board["squares"] and board["colors"]


def test_static_files_are_served(invoke, event):
    files = sorted(p for p in (ROOT / "static").rglob("*") if p.is_file())
    if not files:
        pytest.skip("static/ has no files yet")
    for path in files:
        url = "/static/" + path.relative_to(ROOT / "static").as_posix()
        answer = call(invoke, event("GET", url))
        assert answer.status == 200, path
        assert answer.data == path.read_bytes(), path


def create_game(invoke, event, host=API_HOST, **options) -> dict:
    board = call(invoke, event("GET", "/api/boards/parcheesi")).json()
    colors = [color["name"] for color in board["colors"]]
    body = json.dumps({"game": "parcheesi", "players": [
        {"name": "Ana", "color": colors[0]}, {"name": "Ben", "color": colors[2]}]}).encode()
    answer = call(invoke, event("POST", "/api/games", body, host=host,
                                content_type="application/json", **options))
    assert answer.status == 201, answer.data
    return answer.json()


def test_create_game_and_open_its_link(invoke, event):
    created = create_game(invoke, event)
    assert created["token"] and created["game"] == "parcheesi"
    # On the execute-api address every path is under the stage, and so is the link.
    assert created["url"] == f"https://{API_HOST}/dev/g/{created['token']}"
    answer = call(invoke, event("GET", f"/api/games/{created['token']}"))
    assert answer.status == 200
    assert answer.json()["token"] == created["token"]
    page = call(invoke, event("GET", f"/g/{created['token']}"))
    assert page.status == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "content-security-policy" in page.headers


def test_create_game_with_a_base64_body(invoke, event):
    """With binary_support, Zappa makes the REST API take every body as binary (*/*), so it
    comes base64-encoded; HTTP APIs do that too for some content types."""
    created = create_game(invoke, event, base64_body=True)
    assert created["token"]


def test_links_behind_a_custom_domain(invoke, event):
    created = create_game(invoke, event, host=CUSTOM_HOST)
    assert created["url"] == f"https://{CUSTOM_HOST}/g/{created['token']}"


def test_public_url_names_the_links(invoke, event, lambda_env):
    lambda_env.setenv("PUBLIC_URL", "https://boardpass.example.org")
    created = create_game(invoke, event, host=CUSTOM_HOST)
    assert created["url"] == f"https://boardpass.example.org/g/{created['token']}"


@pytest.mark.parametrize("token", [
    "garbage",
    # a well-formed link signed with someone else's keys
    "AQEAAAIAAUERAUI00KVruLjrXgAcbfAlPbLiZWokkgNwnNmObvJ55-En27qU1lYv1Q.UYeKKP5Auw6EsCMBaNkVqg",
    "A" * 4000,
    "%00%ff..%2F",
], ids=["garbage", "foreign-signature", "oversized", "escapes"])
def test_bad_link_is_a_json_4xx(invoke, event, token):
    answer = call(invoke, event("GET", f"/api/games/{token}"))
    assert 400 <= answer.status < 500, answer.data
    error = answer.json()["error"]
    assert error["code"] and error["message"]
    assert b"Traceback" not in answer.data


def test_unknown_address(invoke, event):
    api = call(invoke, event("GET", "/api/no-such-thing"))
    assert api.status == 404 and api.json()["error"]
    page = call(invoke, event("GET", "/no-such-page"))
    assert page.status == 404 and page.headers["content-type"].startswith("text/html")


def test_whats_new_reads_the_changelog(invoke, event):
    answer = call(invoke, event("GET", "/whats-new"))
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")


def test_no_keys_no_start(lambda_env):
    """Without its keys the function refuses to start rather than run on throwaway keys."""
    dev_keys = ROOT / "instance" / "dev-keys.json"
    before = dev_keys.stat().st_mtime_ns if dev_keys.exists() else None
    lambda_env.delenv("SIGNING_KEYS")
    with pytest.raises(RuntimeError, match="SIGNING_KEYS"):
        import app.web.wsgi  # noqa: F401
    assert (dev_keys.stat().st_mtime_ns if dev_keys.exists() else None) == before


def test_cold_import_leaves_heavy_libraries_alone():
    """Twilio, cryptography, phone numbers and Markdown load only when a request needs them.

    A fresh interpreter, since this process has imported everything already. Timings are for
    benchmarks (docs/deploy.md shows how to measure), never for tests."""
    heavy = ("twilio", "cryptography", "phonenumbers", "markdown", "boto3")
    code = ("import sys, app.web.wsgi; "
            f"print(' '.join(m for m in {heavy!r} if m in sys.modules))")
    env = {k: v for k, v in os.environ.items() if k not in SECRETS}
    env.update(SIGNING_KEYS="test-signing-key", DICE_KEY="test-dice-key")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []


def test_package_keeps_only_the_locale_data_we_speak():
    """Babel's 1,100 locale files are 36 MB; the package keeps English, Spanish and the root
    they fall back to (es_AR -> es_419 -> es -> root), and drops the rest."""
    import babel

    data = Path(babel.__file__).parent / "locale-data"
    site = data.parents[1]
    dropped = {p for pattern in stage_settings("dev")["exclude_glob"]
               if pattern.startswith("babel/") for p in site.glob(pattern)}
    kept = {p.name for p in data.glob("*.dat") if p not in dropped}
    assert {"root.dat", "en.dat", "en_US.dat", "es.dat", "es_419.dat", "es_AR.dat"} <= kept
    assert not {"fr.dat", "de.dat", "ro.dat", "ru.dat", "el.dat", "zh.dat"} & kept
    assert sum((data / name).stat().st_size for name in kept) < 4_000_000  # of ~32 MB
