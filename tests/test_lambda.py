"""The app as AWS Lambda runs it: Zappa's own handler, fed API Gateway events, no AWS account.

The settings module is the one ``zappa package`` writes into the zip (``zappa_settings.py``),
produced by Zappa's command line code from our ``zappa_settings.json``; requests then go through
``zappa.handler.lambda_handler`` exactly as on Lambda, for REST APIs (API Gateway v1 events) and
HTTP APIs (payload format 2.0). docs/deploy.md tells how to deploy for real.
"""

from __future__ import annotations

import base64
import json
import logging
import marshal
import os
import re
import shutil
import struct
import subprocess
import sys
import types
import zipfile
from importlib import metadata
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
    The file names only each stage's store and the header its client addresses come in, which
    are no secrets."""
    text = SETTINGS_JSON.read_text(encoding="utf-8")
    for name in SECRETS:
        assert name not in text
    for stage in STAGES:
        settings = stage_settings(stage)
        assert set(settings["environment_variables"]) == {"STORE_URL", "SOURCE_IP_HEADER"}
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
    assert set(namespace["ENVIRONMENT_VARIABLES"]) <= {"AWS_REGION", "STORE_URL",
                                                       "SOURCE_IP_HEADER"}
    # API Gateway's source IP, copied over any header of that name the client sent
    header = namespace["ENVIRONMENT_VARIABLES"]["SOURCE_IP_HEADER"]
    assert namespace["CONTEXT_HEADER_MAPPINGS"] == {header: "identity.sourceIp"}
    assert namespace["ENVIRONMENT_VARIABLES"]["STORE_URL"] == \
        stage_settings(stage)["environment_variables"]["STORE_URL"]


# -- the package -------------------------------------------------------------------------------
# Built once, for real: Zappa's own packaging code and our two callbacks (app/package.py), from
# this checkout and the environment the tests run in, the one with pytest, mypy, Playwright and
# Hypothesis in it. Only Zappa's swap of compiled packages for PyPI's manylinux wheels is off:
# it downloads.

DEV_ONLY = ("pytest", "mypy", "hypothesis", "playwright")  # installed here by .[test,native]
NEVER_SHIPPED = {"pytest", "_pytest", "mypy", "mypyc", "hypothesis", "playwright", "gunicorn",
                 "boto3", "botocore", "s3transfer", "jmespath", "troposphere", "yaml", "pip",
                 "setuptools", "pkg_resources", "_distutils_hack", "wheel", "tests", "docs",
                 "README.md", "pyproject.toml", "zappa_settings.json", "instance", "node_modules",
                 "build", "test-artifacts", "conftest.py", ".git", "workbench",
                 # required by what ships, never imported on Lambda (app.package.NOT_IMPORTED)
                 "aiohttp", "aiohttp_retry", "yarl", "multidict", "frozenlist", "attr", "attrs",
                 "pycparser"}


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """``zappa package dev`` as Zappa's command line runs it (settings callback, prebuild script,
    package, zip callback), with a stray folder of keys and a stray keys file at the top of the
    checkout, and a stray key and a stray module of settings inside ``app/`` (which Zappa
    copies: only the zip callback can drop them; the module by its not being tracked by git),
    for as long as it takes."""
    from zappa.cli import ZappaCLI

    out = tmp_path_factory.mktemp("package") / "boardpass-dev.zip"
    stray = f"{os.getpid()}-{os.urandom(4).hex()}"
    secrets_dir, keys_file = ROOT / f"secrets-{stray}", ROOT / f"keys-{stray}.json"
    key_in_app = ROOT / "app" / f"key-{stray}.pem"
    module_in_app = ROOT / "app" / f"local_keys_{stray.replace('-', '_')}.py"
    loaded = set(sys.modules)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)
        mp.setenv("VIRTUAL_ENV", sys.prefix)  # the environment Zappa packages: this one
        secrets_dir.mkdir()
        try:
            (secrets_dir / "keys.json").write_text('{"SIGNING_KEYS": "stray"}')
            keys_file.write_text('{"DICE_KEY": "stray"}')
            key_in_app.write_text("-----BEGIN PRIVATE KEY-----\n")
            module_in_app.write_text('SIGNING_KEYS = "stray"\n')
            cli = ZappaCLI()
            cli.api_stage = "dev"
            cli.load_credentials = False
            cli.load_settings(str(SETTINGS_JSON))
            cli.override_stage_config_setting("use_precompiled_packages", False)
            cli.callback("settings")
            cli.package(str(out))
        finally:
            keys_file.unlink(missing_ok=True)
            key_in_app.unlink(missing_ok=True)
            module_in_app.unlink(missing_ok=True)
            shutil.rmtree(secrets_dir, ignore_errors=True)
    for name in {"i18n", "package"} - loaded:  # Zappa loads those files by path, as modules
        sys.modules.pop(name, None)            # of these names
    with zipfile.ZipFile(out) as z:
        names = z.namelist()
    return types.SimpleNamespace(path=out, names=names, stray=stray)


def tops(names) -> set[str]:
    return {name.split("/")[0] for name in names}


def test_settings_name_the_callbacks():
    for stage in STAGES:
        settings = stage_settings(stage)
        assert settings["callbacks"] == {"settings": "app.package.settings_callback",
                                         "zip": "app.package.zip_callback"}
        assert settings["prebuild_script"] == "app.i18n.prebuild"


def test_runtime_distributions():
    """What ships from site-packages: the app's dependencies and theirs; of Zappa, what its
    handler imports; nothing the Lambda runtime has."""
    from app import package as allow_list

    site = allow_list.site_packages_of(Path(sys.prefix))
    chosen = allow_list.runtime_distributions(site, allow_list.project_requirements())
    for needed in ("flask", "werkzeug", "jinja2", "itsdangerous", "cryptography", "twilio",
                   "requests", "phonenumbers", "markdown", "flask-babel", "babel", "zappa",
                   "durationpy", "pillow"):
        assert needed in chosen, needed
    for name in ("boto3", "botocore", "s3transfer", "jmespath", "troposphere", "pyyaml",
                 "setuptools", "pip", "wheel", "tqdm", "argcomplete", "placebo", "hjson",
                 "python-slugify", "pytest", "mypy", "hypothesis", "playwright", "boardpass",
                 "aiohttp", "aiohttp-retry", "yarl", "multidict", "attrs", "pycparser"):
        assert name not in chosen, name


def test_the_allow_list_drops_what_it_does_not_name():
    """Whatever put them in Zappa's zip, stray files are dropped: only app/, static/,
    Zappa's own files and the runtime distributions stay."""
    from app import package as allow_list

    site = allow_list.site_packages_of(Path(sys.prefix))
    chosen = allow_list.runtime_distributions(site, allow_list.project_requirements())
    good = ["handler.py", "zappa_settings.py", "package_info.json", "__init__.py",
            "app/web/news/es.md", "app/__init__.py", "app/web/wsgi.py",
            "app/web/templates/home.html",
            "app/engine/parcheesi.cpython-311-x86_64-linux-gnu.so", "app/engine/native.json",
            "app/translations/es/LC_MESSAGES/messages.mo",
            "app/translations/es/LC_MESSAGES/messages.po", "static/js/game.js",
            "flask/__init__.py", "twilio/rest/__init__.py", "zappa/handler.py"]
    stray = ["secrets/keys.json", "keys.json", ".env", "README.md", "CHANGELOG.md",
             "tests/test_lambda.py",
             "app/keys.pem", "app/engine/notes.txt", "app/translations/messages.pot",
             "mypy/__init__.py", "mypyc/__init__.py", "gunicorn/app/base.py",
             "_pytest/main.py", "boto3/__init__.py", "botocore/client.py", "yaml/__init__.py",
             "troposphere/__init__.py", "mypy-2.4.1.dist-info/RECORD", "instance/dev-keys.json",
             "app/__pycache__/cli.cpython-312.pyc"]
    kept, dropped = allow_list.allowed(good + stray, chosen, {})
    assert kept == set(good)
    assert {"secrets", "keys.json", "mypy", "gunicorn", "boto3", "app/keys.pem"} <= dropped


def test_a_shipped_distribution_must_be_whole():
    """An exclude pattern that takes part of a distribution that ships fails the build."""
    from app import package as allow_list

    record = "flask/__init__.py,sha256=x,1\nflask/app.py,sha256=y,2\n../../bin/flask,,\n"
    records = {"flask-3.1.3.dist-info/RECORD": record}
    chosen = {"flask": None}
    allow_list.check_complete({"flask/__init__.py", "flask/app.py"}, records, chosen, [])
    with pytest.raises(allow_list.PackageError, match="flask/app.py"):
        allow_list.check_complete({"flask/__init__.py"}, records, chosen, [])
    allow_list.check_complete({"flask/__init__.py"}, records, chosen, ["flask/app.py"])


def test_reading_the_c_library_version_compiled_code_needs():
    """The zip callback reads which glibc each compiled file needs, and which libraries (it
    refuses files that need a newer glibc than the runtime's Amazon Linux has: python3.11,
    Amazon Linux 2, glibc 2.26); the engine's build needs none too new."""
    from app import package as allow_list

    needed, libraries = allow_list.elf_needs(Path(sys.executable).resolve().read_bytes())
    assert needed is not None and needed >= (2, 2)  # the interpreter needs some glibc
    assert "libc.so.6" in libraries
    assert allow_list.elf_needs(b"not an ELF file") == (None, [])
    assert allow_list.elf_needs(elf("GLIBC_2.34", ("libjpeg-1.so", "libc.so.6"))) == \
        ((2, 34), ["libjpeg-1.so", "libc.so.6"])
    limit = allow_list.RUNTIME_GLIBC[stage_settings("dev")["runtime"]]
    assert limit == (2, 26)
    built = list((ROOT / "app" / "engine").glob("*.so"))
    assert built, "the README's test command builds the engine first: python -m app build-native"
    for library in built:
        assert (allow_list.elf_needs(library.read_bytes())[0] or (0, 0)) <= limit, library.name


def test_package_holds_the_app_and_nothing_else(package):
    from app import package as allow_list

    names = set(package.names)
    assert {"handler.py", "zappa_settings.py", "app/web/wsgi.py", "app/web/__init__.py",
            "app/web/news/en.md", "app/translations/es/LC_MESSAGES/messages.mo"} <= names
    assert any(n.startswith("app/web/templates/") for n in names)
    static = {p.relative_to(ROOT).as_posix() for p in (ROOT / "static").rglob("*") if p.is_file()}
    assert static <= names
    engine = {p.relative_to(ROOT).as_posix() for p in (ROOT / "app" / "engine").glob("*.so")}
    assert engine  # built by the README's test command: the build ships with its record
    assert engine | {"app/engine/native.json"} <= names
    # The stray files at the top of the checkout, the development-only packages installed here.
    assert not any(package.stray in n or package.stray.replace("-", "_") in n for n in names), [n for n in names if package.stray in n or package.stray.replace("-", "_") in n]
    for dist in DEV_ONLY:
        metadata.distribution(dist)  # installed, so leaving it out means something
    assert not (tops(names) & NEVER_SHIPPED), tops(names) & NEVER_SHIPPED
    site = allow_list.site_packages_of(Path(sys.prefix))
    chosen = allow_list.runtime_distributions(site, allow_list.project_requirements())
    allowed_tops = set().union(*(allow_list.distribution_tops(d) for d in chosen.values()))
    allowed_tops |= {"app", "static", "__pycache__", "__init__.py",
                     *allow_list.ZAPPA_FILES}
    allowed_tops |= {top + "c" for top in allowed_tops if top.endswith(".py")}  # bytecode alone
    assert tops(names) <= allowed_tops, tops(names) - allowed_tops
    for name in names:
        if name.split("/")[0] in allow_list.PROJECT_TOP and "__pycache__/" not in name:
            assert allow_list.project_file_allowed(name), name


def module_files(names) -> set[str]:
    """The package's files, each module by its source's name (``x.py`` for ``x.pyc``, alone or
    in ``__pycache__``)."""
    found = set()
    for name in names:
        name = re.sub(r"__pycache__/([^/]+)\.cpython-\d+\.pyc$", r"\1.py", name)
        found.add(name.removesuffix("c") if name.endswith(".pyc") else name)
    return found


def test_the_package_ships_no_tools_tests_or_pytest_plugins(package):
    """The workbench (benches, load tests, screenshots, the evaluation's fitting), the
    deploy-time app/package.py, packages' own tests and pytest plugins stay out of the
    package, wherever they are in the checkout or the environment."""
    assert (ROOT / "workbench").is_dir() and (ROOT / "app" / "package.py").exists()
    tools = re.compile(r"workbench/.*|app/([^/]+_bench|screenshots|analysis_load|evaluation_fit"
                       r"|phone_browser|package)\.py")
    for name in module_files(package.names):
        *folders, file = name.split("/")
        assert not tools.fullmatch(name), name
        assert not {"tests", "test", "testing"} & set(folders), name
        assert not re.fullmatch(r"test_.+\.py|conftest\.py|.*pytest.*", file), name


def elf(glibc: str | None = None, needed: tuple[str, ...] = ()) -> bytes:
    """A 64-bit little-endian ELF file holding what ``elf_needs`` reads: a dynamic section that
    names the libraries ``needed``, and version needs that ask libc.so.6 for ``glibc``
    (``"GLIBC_2.34"``)."""
    strings = b"\0"

    def string(text: str) -> int:
        nonlocal strings
        strings += text.encode() + b"\0"
        return len(strings) - len(text) - 1

    dynamic = b"".join(struct.pack("<qQ", 1, string(lib)) for lib in needed) + bytes(16)
    verneed = struct.pack("<HHIII", 1, 1, string("libc.so.6"), 16, 0) + \
        struct.pack("<IHHII", 0, 0, 2, string(glibc), 0) if glibc else b""
    at = [64, 64 + len(strings), 64 + len(strings) + len(dynamic)]
    sections = [(0,) * 10, (0, 3, 0, 0, at[0], len(strings), 0, 0, 1, 0),
                (0, 6, 0, 0, at[1], len(dynamic), 1, 0, 8, 16),
                (0, 0x6FFFFFFE, 0, 0, at[2], len(verneed), 1, int(bool(glibc)), 4, 0)]
    head = bytearray(64)
    head[:7] = b"\x7fELF\x02\x01\x01"
    struct.pack_into("<Q", head, 0x28, at[2] + len(verneed))
    struct.pack_into("<HH", head, 0x3A, 64, len(sections))
    return bytes(head) + strings + dynamic + verneed + \
        b"".join(struct.pack("<IIQQQQIIQQ", *section) for section in sections)


RUST = "cryptography/hazmat/bindings/_rust.abi3.so"
BUNDLED = ("cryptography.libs/libssl-1a2b.so.3", "cryptography.libs/libunused-3c4d.so.1")
ENGINE = "app/engine/parcheesi.cpython-311-x86_64-linux-gnu.so"


def zip_callback_on(tmp_path, monkeypatch, rust_glibc: str, engine_glibc: str) -> Path:
    """Zappa's zip callback on a small zip as Zappa writes it: Zappa's handler, the app's face
    and a compiled engine module (asking for ``engine_glibc``), and, as the app's one
    requirement, cryptography (with cffi): a compiled module asking for ``rust_glibc`` that
    needs one of the two libraries bundled with it."""
    from app import package as allow_list

    record = "\n".join((RUST, *BUNDLED, "cryptography-0.dist-info/RECORD"))
    files = {"handler.py": b"", "app/__init__.py": (ROOT / "app" / "__init__.py").read_bytes(),
             ENGINE: elf(engine_glibc), RUST: elf(rust_glibc, ("libssl-1a2b.so.3", "libc.so.6")),
             BUNDLED[0]: elf("GLIBC_2.17"), BUNDLED[1]: elf("GLIBC_2.17"),
             "cryptography-0.dist-info/RECORD": record.encode(),
             "cffi-0.dist-info/RECORD": b"cffi-0.dist-info/RECORD,,\n"}
    zip_path = tmp_path / "boardpass-dev.zip"
    with zipfile.ZipFile(zip_path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["cryptography"]\n')
    monkeypatch.chdir(tmp_path)
    allow_list.zip_callback(types.SimpleNamespace(
        zip_path=str(zip_path), stage_config={"runtime": stage_settings("dev")["runtime"]},
        zappa=types.SimpleNamespace(get_current_venv=lambda: sys.prefix)))
    return zip_path


def test_a_compiled_file_too_new_for_the_runtime_fails_the_build(tmp_path, monkeypatch):
    """No package at all, rather than one that can't import on Lambda: Zappa stops (exit status
    1, before any upload) naming each file, the glibc it needs, the runtime's, and the command
    that installs its distribution from wheels built for the runtime."""
    from click import ClickException

    from app import package as allow_list

    with pytest.raises(ClickException) as failed:
        zip_callback_on(tmp_path, monkeypatch, rust_glibc="GLIBC_2.34", engine_glibc="GLIBC_2.28")
    message = failed.value.message
    assert "newer C library than the python3.11 runtime's glibc 2.26" in message
    assert f"  {RUST} needs glibc 2.34 (cryptography)\n" in message
    assert f"  {ENGINE} needs glibc 2.28 (built in the checkout: " in message
    site = allow_list.site_packages_of(Path(sys.prefix))
    assert message.endswith("  pip uninstall -y cryptography\n  pip install --no-deps "
                            "--only-binary=:all: --platform manylinux2014_x86_64 "
                            f"--target {site} cryptography")
    assert not (tmp_path / "boardpass-dev.zip").exists()  # nothing left to upload by mistake


def test_a_bundled_library_ships_when_a_shipped_extension_needs_it(tmp_path, monkeypatch,
                                                                   capsys):
    zip_path = zip_callback_on(tmp_path, monkeypatch, rust_glibc="GLIBC_2.26",
                               engine_glibc="GLIBC_2.14")
    with zipfile.ZipFile(zip_path) as z:
        names = set(z.namelist())
    assert {RUST, ENGINE, BUNDLED[0]} <= names and BUNDLED[1] not in names
    assert "bundled libraries no shipped extension needs: 0.0 MiB in 1 file\n" in \
        capsys.readouterr().out


def test_package_carries_bytecode_for_the_runtime(package):
    """The distributions' modules are their bytecode alone (``x.pyc`` where ``x.py`` was, which
    Python imports as it is); the app's and Zappa's files keep their source beside their
    bytecode. All of it for the runtime's Python, in the form that Python never checks against
    a file time (Lambda's would say nothing about it)."""
    import importlib.util

    from app import package as allow_list

    runtime = stage_settings("dev")["runtime"]
    tag = "cpython-" + runtime.removeprefix("python").replace(".", "")
    assert sys.implementation.cache_tag == tag
    sources = [n for n in package.names if n.endswith(".py")]
    alone = [n for n in package.names if n.endswith(".pyc") and "__pycache__/" not in n]
    assert all(allow_list.ours(n) for n in sources), [n for n in sources if not
                                                       allow_list.ours(n)][:5]
    assert len(alone) > 1000 and not any(allow_list.ours(n) for n in alone)
    with zipfile.ZipFile(package.path) as z:
        for source in sources:
            folder, _, file = source.rpartition("/")
            pyc = f"{folder}/__pycache__/{file[:-3]}.{tag}.pyc".lstrip("/")
            assert pyc in package.names, pyc
        for pyc in (n for n in package.names if n.endswith(".pyc")):
            header = z.read(pyc)[:8]
            assert header[:4] == importlib.util.MAGIC_NUMBER, pyc
            assert int.from_bytes(header[4:8], "little") == 0b01, pyc  # hash-based, unchecked


def test_package_keeps_only_the_locale_data_we_speak(package):
    """Babel's 1,100 locale files are 36 MB; the package keeps English, Spanish and the root
    they fall back to (es_AR -> es_419 -> es -> root), and drops the rest."""
    kept = {n.rsplit("/", 1)[1] for n in package.names
            if n.startswith("babel/locale-data/") and n.endswith(".dat")}
    assert {"root.dat", "en.dat", "en_US.dat", "es.dat", "es_419.dat", "es_AR.dat"} <= kept
    assert not {"fr.dat", "de.dat", "ro.dat", "ru.dat", "el.dat", "zh.dat"} & kept
    with zipfile.ZipFile(package.path) as z:
        size = sum(z.getinfo(f"babel/locale-data/{name}").file_size for name in kept)
    assert size < 4_000_000  # of ~32 MB


def test_package_leaves_out_phone_number_data_the_app_never_reads(package):
    """phonenumbers' geocoding, carrier and time zone data (40 MB) stay out: the app parses,
    checks and formats numbers, and never imports those modules."""
    assert not any(n.startswith(("phonenumbers/geodata/", "phonenumbers/carrierdata/",
                                 "phonenumbers/tzdata/")) for n in package.names)
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for module in ("geocoder", "carrier", "timezone", "geodata", "carrierdata", "tzdata"):
            assert f"phonenumbers.{module}" not in text and \
                f"from phonenumbers import {module}" not in text, (path, module)


def test_packaged_handler_answers_without_boto3(package):
    """A cold start of the unzipped package, nothing else on the path (no site-packages):
    Zappa's handler and the app import from the package's bytecode, boto3 stays unimported
    (Zappa's utilities import it at first use in the package), and the home page answers.
    Timings are for docs/deploy.md (``python -m app.package cold-start``), never for tests."""
    from app import package as allow_list

    result = allow_list.cold_start(package.path, runs=1)
    assert result["status"] == 200
    assert result["boto3_imported"] is False
    assert result["modules"] > 100 and result["compiled_at_start"] == 0
    with zipfile.ZipFile(package.path) as z:
        utilities = marshal.loads(z.read("zappa/utilities.pyc")[16:])
    assert "_ImportedAtFirstUse" in utilities.co_names


# A player's round trip through the handler of the unzipped package, nothing else on the path
# but the runtime's boto3 (python -I -S -B): a new game with phone numbers (phonenumbers, the
# phone cipher), its link's preview image and the site's icon (Pillow), What's new (Markdown),
# a turn played and the next player texted (Twilio's client, on requests), the store on
# DynamoDB (boto3).
PLAYED_FROM_THE_PACKAGE = r"""
import base64, json, sys
sys.path[:0] = PATHS
import handler

class Context:
    function_name = "boardpass-dev"
    aws_request_id = "packaged"
    def get_remaining_time_in_millis(self):
        return 29_000

def call(method, path, body=None):
    headers = dict(EVENT["headers"], **({"Content-Type": "application/json"} if body else {}))
    event = dict(EVENT, path=path, httpMethod=method, resource="/{proxy+}", headers=headers,
                 pathParameters={"proxy": path.lstrip("/")},
                 requestContext=dict(EVENT["requestContext"], path="/dev" + path,
                                     httpMethod=method),
                 body=None if body is None else json.dumps(body))
    answer = handler.lambda_handler(event, Context())
    data = answer.get("body") or ""
    data = base64.b64decode(data) if answer.get("isBase64Encoded") else data.encode()
    assert answer["statusCode"] < 300, (method, path, answer["statusCode"], data[:500])
    return data

players = [{"name": "Ana", "color": "yellow", "phone": "+1 415 555 0100"},
           {"name": "Ben", "color": "red", "phone": "+1 415 555 0199"}]
view = json.loads(call("POST", "/api/games", {"game": "parcheesi", "players": players,
                                             "autoplay": False}))  # Ben's turn is his to play
png = call("GET", f"/g/{view['token']}/preview.png")
icon = call("GET", "/favicon.ico")
news = call("GET", "/whats-new").decode()
seat, steps, step = view["turn"], [], view
while not step.get("turn_over"):
    steps.append("roll" if step["phase"] == "roll" else
                 {key: step["legal"][0][key] for key in ("from", "to", "values")})
    step = json.loads(call("POST", f"/api/games/{view['token']}/moves",
                           {"seat": seat, "steps": steps}))
after = json.loads(call("POST", f"/api/games/{view['token']}/turn",
                        {"seat": seat, "steps": steps}))
print(json.dumps({"texted": after["message"]["status"], "next": after["turn"],
                  "png": png[:8].hex(), "icon": icon[:4].hex(), "news": news,
                  "loaded": sorted({name.split(".")[0] for name in sys.modules})}))
"""


def test_the_packaged_app_plays_texts_and_draws(package, tmp_path, dynamodb_url, twilio):
    """What the package leaves out (Twilio's other APIs, its asynchronous client, Pillow's
    optional modules, cffi's bindings maker, every distribution's source) is nothing a player's
    requests need: from the package alone, with the runtime's boto3 after it, they all work."""
    from app import package as allow_list

    task = tmp_path / "task"
    with zipfile.ZipFile(package.path) as z:
        z.extractall(task)
    with (task / "zappa_settings.py").open("a") as settings:  # the store: the tests' dynalite
        settings.write(f"\nENVIRONMENT_VARIABLES['STORE_URL'] = {dynamodb_url!r}\n")
    for stale in (task / "__pycache__").glob("zappa_settings.*.pyc"):  # unchecked: it would win
        stale.unlink()
    paths = [str(task), str(allow_list.runtime_libraries(tmp_path / "runtime"))]
    code = PLAYED_FROM_THE_PACKAGE.replace("PATHS", repr(paths)).replace(
        "EVENT", repr(allow_list.FIRST_REQUEST))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "LANG": "C.UTF-8", "AWS_LAMBDA_FUNCTION_NAME": "boardpass-dev",
           "SIGNING_KEYS": "packaged-signing-key", "DICE_KEY": "packaged-dice-key",
           "PUBLIC_URL": "https://play.example.com",
           **{name: os.environ[name] for name in os.environ if name.startswith("TWILIO_")}}
    result = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", code], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    played = json.loads(result.stdout.strip().splitlines()[-1])
    assert played["texted"] == "sent"
    assert [r.field("To") for r in twilio.requests] == \
        [("+14155550100", "+14155550199")[played["next"]]]
    assert played["png"] == "89504e470d0a1a0a" and played["icon"] == "00000100"  # PNG, ICO
    assert "Una imagen del tablero en cada link compartido" in played["news"]  # es-AR asks
    loaded = set(played["loaded"])
    assert {"twilio", "requests", "PIL", "cryptography", "_cffi_backend", "phonenumbers",
            "markdown", "boto3"} <= loaded
    assert not {"aiohttp", "cffi", "pycparser"} & loaded


PUSHED_FROM_THE_PACKAGE = r"""
import json, sys
sys.path[:0] = PATHS
from app.push import Pusher, parse_subscription

subscription = parse_subscription(SUBSCRIPTION, services=[SERVICE])
pushed = Pusher(VAPID, "mailto:ops@example.com", [SERVICE]).send(subscription, {"title": "t"})
print(json.dumps({"status": pushed.status, "aiohttp": sys.modules["aiohttp"].__doc__,
                  "loaded": sorted({name.split(".")[0] for name in sys.modules})}))
"""


def test_the_packaged_app_pushes_without_aiohttp(package, tmp_path):
    """pywebpush imports aiohttp (for its asynchronous client), which the package leaves out
    (app.package.NOT_IMPORTED): from the package alone, a notification goes out all the same,
    signed and encrypted (pywebpush, py_vapid, http_ece), with app/push.py's stand-in in its
    place."""
    from app import package as allow_list
    from app.keys import Keys
    from app.push import public_key
    from fake_push import FakePushService

    task = tmp_path / "task"
    with zipfile.ZipFile(package.path) as z:
        z.extractall(task)
    vapid = Keys.for_tests("lambda").vapid
    with FakePushService(public_key(vapid)) as service:
        code = PUSHED_FROM_THE_PACKAGE.replace("PATHS", repr([str(task)])).replace(
            "SUBSCRIPTION", repr(service.subscribe("ana"))).replace("VAPID", repr(vapid)).replace(
            "SERVICE", repr(service.url))
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
               "LANG": "C.UTF-8"}
        result = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", code], cwd=tmp_path,
                                env=env, capture_output=True, text=True, timeout=120,
                                check=False)
        assert result.returncode == 0, result.stderr[-3000:]
        pushed = json.loads(result.stdout.strip().splitlines()[-1])
        assert pushed["status"] == "sent" and "Stand-in" in pushed["aiohttp"]
        (got,) = service.wait(1)
        assert got.refused is None and got.payload == {"title": "t"}
    assert {"pywebpush", "py_vapid", "http_ece", "requests"} <= set(pushed["loaded"])
    assert not {"yarl", "multidict", "frozenlist"} & set(pushed["loaded"])
    assert allow_list.NOT_IMPORTED[0] == "aiohttp"


def test_the_app_texts_through_twilio_s_messages_api_alone():
    """The package keeps Twilio's Api domain only (app.package.LEFT_OUT): app/twilio_send.py is
    the one module that imports twilio, and it reaches nothing but the client's messages."""
    imports = {path.relative_to(ROOT).as_posix(): set(re.findall(
        r"^\s*(?:from|import) (twilio[\w.]*)", path.read_text(encoding="utf-8"), re.MULTILINE))
        for path in (ROOT / "app").rglob("*.py")}
    assert {name for name, found in imports.items() if found} == {"app/twilio_send.py"}
    assert imports["app/twilio_send.py"] == {"twilio.base.exceptions", "twilio.http.http_client",
                                             "twilio.rest"}
    sender = (ROOT / "app" / "twilio_send.py").read_text(encoding="utf-8")
    assert set(re.findall(r"\bclient\.(\w+)", sender)) == {"edge", "region", "api", "messages"}


def test_package_carries_compiled_translations():
    """Zappa's prebuild compiles the catalogs; the zip then holds them (Lambda can't write)."""
    from app import i18n

    assert stage_settings("dev")["prebuild_script"] == "app.i18n.prebuild"
    mo = i18n.catalog_path("es", "mo")
    mo.unlink(missing_ok=True)
    i18n.prebuild()
    assert mo.exists()


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


def test_whats_new_reads_the_players_news(invoke, event):
    answer = call(invoke, event("GET", "/whats-new"))
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert b"A picture of the board in every shared link" in answer.data


def test_no_keys_no_start(lambda_env):
    """Without its keys the function refuses to start rather than run on throwaway keys."""
    dev_keys = ROOT / "instance" / "dev-keys.json"
    before = dev_keys.stat().st_mtime_ns if dev_keys.exists() else None
    lambda_env.delenv("SIGNING_KEYS")
    with pytest.raises(RuntimeError, match="SIGNING_KEYS"):
        import app.web.wsgi  # noqa: F401
    assert (dev_keys.stat().st_mtime_ns if dev_keys.exists() else None) == before


def test_cold_import_leaves_heavy_libraries_alone():
    """Twilio, cryptography, phone numbers, Markdown and Pillow load only when a request needs
    them.

    A fresh interpreter, since this process has imported everything already. Timings are for
    benchmarks (docs/deploy.md shows how to measure), never for tests."""
    heavy = ("twilio", "cryptography", "phonenumbers", "markdown", "boto3", "PIL")
    code = ("import sys, app.web.wsgi; "
            f"print(' '.join(m for m in {heavy!r} if m in sys.modules))")
    env = {k: v for k, v in os.environ.items() if k not in SECRETS}
    env.update(SIGNING_KEYS="test-signing-key", DICE_KEY="test-dice-key")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []


def test_limits_count_api_gateway_s_source_ip_not_what_the_client_says(invoke, lambda_env):
    """On Lambda the client's address is API Gateway's source IP, which Zappa copies from the
    event into a header of its own (zappa_settings.json's context_header_mappings): neither a
    forged X-Forwarded-For nor a forged copy of that header makes another client."""
    lambda_env.setenv("ROOM_MISSES_PER_ADDRESS", "2 per day")

    def miss(source_ip: str, forged: str) -> int:
        asked = rest_event("GET", "/api/rooms/ABC234")
        asked["headers"].update({"X-Forwarded-For": f"{forged}, 130.176.0.1",
                                 "X-Boardpass-Source-Ip": forged})
        asked["multiValueHeaders"] = {k: [v] for k, v in asked["headers"].items()}
        asked["requestContext"]["identity"]["sourceIp"] = source_ip
        return call(invoke, asked).status

    assert [miss("203.0.113.50", f"198.51.100.{n}") for n in range(3)] == [404, 404, 429]
    assert miss("203.0.113.51", "198.51.100.1") == 404  # another client
