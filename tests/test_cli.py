"""The product's command line as an operator uses it: python -m app inspect / verify / store
create-table, and a tool's command handed on to the workbench."""

import os
import subprocess
import sys
import time
import uuid
from dataclasses import replace

import pytest

from app.keys import Keys
from app.play import Game, demo_seats
from app.store import open_store
from workbench.games import play_random


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.fixture
def env_keys(tmp_path, monkeypatch):
    env = {"SIGNING_KEYS": "cli-test-signing", "DICE_KEY": "cli-test-dice", "PATH": "/usr/bin:/bin"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Keys.from_env(env, instance_dir=tmp_path), env


def _finished_game(keys):
    game = play_random("parcheesi", 2, "cli", 0, keys)
    assert game.over
    return game


def test_inspect_prints_seats_log_and_position(env_keys):
    keys, env = env_keys
    game = _finished_game(keys)
    result = run("inspect", "https://example.test/g/" + game.token(), env=env)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Ana (yellow, human" in out and "Ben (red, human" in out
    assert f"position: {game.position()}" in out
    assert "y rolls" in out
    assert f"dice secret (revealed): {game.revealed_secret()}" in out
    assert game.commitment() in out


def test_inspect_masks_numbers_and_says_who_chose_whatsapp(env_keys):
    keys, env = env_keys
    game = _finished_game(keys)
    seats = (replace(game.header.seats[0], phone="+5491123456789", whatsapp=True),
             replace(game.header.seats[1], phone="+14155550100"))
    game = Game(replace(game.header, seats=seats), game.match, keys)
    out = run("inspect", game.token(), env=env).stdout
    assert "phone +54...89 by WhatsApp)" in out and "phone +14...00)" in out
    assert "23456789" not in out


def test_inspect_refuses_a_tampered_link_with_a_clear_message(env_keys):
    keys, env = env_keys
    token = _finished_game(keys).token()
    tampered = token[:10] + ("A" if token[10] != "A" else "B") + token[11:]
    result = run("inspect", tampered, env=env)
    assert result.returncode == 2
    assert "error:" in result.stderr and "Traceback" not in result.stderr


def test_verify_recomputes_every_roll_from_the_revealed_secret_without_server_keys(env_keys):
    keys, _ = env_keys
    game = _finished_game(keys)
    bare_env = {"PATH": "/usr/bin:/bin", "DICE_KEY": "someone-else", "SIGNING_KEYS": "other"}
    result = run("verify", game.token(), "--secret", game.revealed_secret(),
                 "--commitment", game.commitment(), env=bare_env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "matches the commitment shown at the start" in result.stdout
    assert result.stdout.strip().endswith("VERIFIED")
    rolls = sum(1 for kind, *_ in game.match.history if kind == "roll")
    assert f"{rolls} rolls recomputed" in result.stdout


def test_verify_catches_a_wrong_secret_or_commitment(env_keys):
    keys, _ = env_keys
    game = _finished_game(keys)
    wrong = run("verify", game.token(), "--secret", game.revealed_secret(),
                "--commitment", "0" * 64)
    assert wrong.returncode == 1 and "NOT VERIFIED" in wrong.stdout
    # Another secret gives other dice: the logged moves no longer fit, or the game doesn't end.
    other = run("verify", game.token(), "--secret", "11" * 32)
    assert other.returncode != 0 and "VERIFIED" not in other.stdout.replace("NOT VERIFIED", "")


def test_verify_will_not_reveal_the_dice_of_a_game_in_progress(env_keys):
    keys, env = env_keys
    game = Game.new("parcheesi", demo_seats("parcheesi", 2), keys)
    game.step()
    result = run("verify", game.token(), env=env)
    assert result.returncode == 1
    assert "not over" in result.stdout


def test_store_create_table_makes_the_dynamodb_table_once(dynalite_endpoint):
    table = f"cli-{uuid.uuid4().hex}"
    url = f"dynamodb://{table}?region=us-east-1&endpoint={dynalite_endpoint}"
    first = run("store", "create-table", env={**os.environ, "STORE_URL": url})
    assert first.returncode == 0, first.stderr
    assert f"created table {table} in us-east-1" in first.stdout
    assert "can't enable TTL" in first.stdout  # dynalite has no TTL; DynamoDB gets it switched on
    again = run("store", "create-table", "--url", url)
    assert again.returncode == 0, again.stderr
    assert f"table {table} already exists" in again.stdout
    store = open_store(url)
    try:
        assert store.add("game#1", {"step": 3}, time.time() + 60)
        assert store.get("game#1").data == {"step": 3}
    finally:
        store.close()


def test_store_create_table_makes_a_sqlite_store_once_and_says_when_dynamodb_is_down(
        tmp_path, unreachable_dynamodb_url):
    url = f"sqlite:///{tmp_path}/store.db"
    assert "marked" in run("store", "create-table", "--url", url).stdout
    again = run("store", "create-table", "--url", url)
    assert again.returncode == 0 and "already marked" in again.stdout
    assert run("store", "accept", "--url", url).returncode == 0
    dynamodb = run("store", "accept", "--url", unreachable_dynamodb_url)
    assert dynamodb.returncode == 2
    assert "not a SQLite store" in dynamodb.stderr and "Traceback" not in dynamodb.stderr
    down = run("store", "create-table", "--url", unreachable_dynamodb_url)
    assert down.returncode == 1
    assert down.stderr.startswith("error: DynamoDB table t:") and "Traceback" not in down.stderr


def test_a_tool_s_command_is_handed_on_to_the_workbench_and_said_missing_without_it():
    handed = run("tournament", "--games", "1", "--players", "2", "--seats", "easy,easy")
    assert handed.returncode == 0, handed.stderr
    assert "games: 1" in handed.stdout
    # As in the Lambda package, where the workbench isn't: the product's commands only.
    without = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['workbench'] = None; "
         "from app.cli import main; sys.exit(main(['bench']))"],
        capture_output=True, text=True, timeout=60)
    assert without.returncode == 2
    assert "invalid choice: 'bench'" in without.stderr and "Traceback" not in without.stderr
