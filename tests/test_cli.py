"""The command line as an operator uses it: python -m app simulate / inspect / bench / verify /
store."""

import json
import os
import subprocess
import sys
import time
import uuid

import pytest

from app import cli
from app.engine.core import ROLL
from app.keys import Keys
from app.play import Game
from app.store import open_store


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_simulate_prints_one_json_object_with_the_figures():
    result = run("simulate", "--game", "parcheesi", "--players", "3", "--games", "4",
                 "--seed", "7", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games_finished"] == 4
    assert sum(report["wins_by_seat"].values()) == 4
    assert list(report["wins_by_seat"]) == ["Ana (yellow)", "Ben (blue)", "Cleo (red)"]
    assert report["decisions"]["longest"] >= report["decisions"]["average"] > 0
    assert report["rolls"]["longest"] >= report["rolls"]["average"] > 0
    assert report["link_chars"]["longest"] >= report["link_chars"]["average"] > 50
    assert report["decisions_per_second"] > 0


def test_simulate_is_reproducible_from_its_seed():
    first = cli.simulate("parcheesi", 2, 3, "same")
    second = cli.simulate("parcheesi", 2, 3, "same")
    for key in ("decisions", "rolls", "wins_by_seat", "link_chars"):
        assert first[key] == second[key]


def test_simulate_prints_readable_lines_by_default():
    result = run("simulate", "--games", "2", "--players", "2")
    assert result.returncode == 0
    assert "games finished: 2" in result.stdout
    assert "Ana (yellow)" in result.stdout


@pytest.fixture
def env_keys(tmp_path, monkeypatch):
    env = {"SIGNING_KEYS": "cli-test-signing", "DICE_KEY": "cli-test-dice", "PATH": "/usr/bin:/bin"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Keys.from_env(env, instance_dir=tmp_path), env


def _finished_game(keys):
    game = cli.play_random("parcheesi", 2, "cli", 0, keys)
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
    from dataclasses import replace

    keys, env = env_keys
    game = _finished_game(keys)
    seats = (replace(game.header.seats[0], phone="+5491123456789", whatsapp=True),
             replace(game.header.seats[1], phone="+14155550100"))
    game = cli.Game(replace(game.header, seats=seats), game.match, keys)
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
    game = Game.new("parcheesi", cli.demo_seats("parcheesi", 2), keys)
    game.step()
    result = run("verify", game.token(), env=env)
    assert result.returncode == 1
    assert "not over" in result.stdout


def test_bench_reports_every_figure():
    report = cli.bench("parcheesi", 4, games=3, seconds=0)
    assert report["random_games_per_second"] > 0
    assert report["handler_ms"]["links"] >= 3 and report["handler_ms"]["median"] > 0
    assert 0 < report["link_chars"]["median"] <= report["link_chars"]["max"]
    assert 1.0 <= report["log_vs_information_limit"]["mean"] < 1.2


def test_repeat_opens_the_bench_links_as_many_times_as_asked(monkeypatch):
    opened = []
    real = Game.from_token
    monkeypatch.setattr(Game, "from_token",
                        classmethod(lambda cls, token, keys: opened.append(token) or
                                    real(token, keys)))
    report = cli.repeat("links", "parcheesi", 4, count=2, times=2)
    assert report["count"] == 2 and report["times"] == 2
    keys = Keys.for_tests(cli.SIM_KEYS_LABEL)
    bench_links = [cli.play_random("parcheesi", 4, "bench", n, keys).token() for n in range(2)]
    assert opened == bench_links * 2
    opened.clear()
    cli.repeat("links", "parcheesi", 4, count=2, times=0)
    assert opened == []


def test_repeat_works_out_the_chances_from_the_analysis_bench_positions(monkeypatch):
    from app.engine import analysis

    asked = []
    monkeypatch.setattr(analysis, "chances", lambda rules, state: asked.append(state) or [])
    cli.repeat("chances", "red-arse", 4, count=1, times=3)
    assert len(asked) == 3 and all(state.phase == ROLL for state in asked)


def test_simulate_plays_red_arse_on_the_6_player_board_with_house_rules_off():
    result = run("simulate", "--game", "red-arse", "--players", "6", "--games", "3",
                 "--off", "raids", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["settings"] == {"board": 6, "off": ["raids"]}
    assert report["games_finished"] == 3
    assert len(report["wins_by_seat"]) == 6 and sum(report["wins_by_seat"].values()) == 3


def test_simulate_refuses_a_board_for_parcheesi():
    result = run("simulate", "--game", "parcheesi", "--board", "6")
    assert result.returncode == 2
    assert "no such board" in result.stderr


def test_bench_replays_finished_6_player_red_arse_games_through_the_api():
    report = cli.bench("red-arse", 6, games=3, seconds=0)
    assert report["players"] == 6
    assert report["link_chars"]["max"] < 1600
    assert set(report["api_ms_median"]) == {"read_finished", "roll", "finish_turn"}


def test_bench_times_a_turn_followed_by_five_bot_turns():
    report = cli.bot_turn_bench(games=2)
    assert report["games"] == 2
    assert report["turn_and_five_bot_turns_ms"]["median"] > 0
    assert report["bot_steps_per_turn_median"] >= 5  # five bots' turns: a roll each at least


def test_calibrate_scores_the_chances_against_what_happened():
    report = cli.calibrate("ludo", 2, positions=12, playouts=20, decisions=1)
    assert report["positions"] == 12 and report["playouts"] == 20
    assert 0 <= report["brier_score"] <= 1
    assert report["brier_if_everyone_had_1_in_players"] == 0.25
    counted = [int(row.split(",")[0].removeprefix("n ")) for row in
               report["calibration_by_decile"].values()]
    assert sum(counted) == 12 * 2  # every seat of every position, in one decile
    stability = report["stability"]
    assert stability["decisions"] == 1 and stability["options"] >= 2
    assert 0 <= stability["same_grade_with_another_seed"] <= 1


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


def test_store_create_table_refuses_sqlite_and_says_when_dynamodb_is_down(
        tmp_path, unreachable_dynamodb_url):
    sqlite = run("store", "create-table", "--url", f"sqlite:///{tmp_path}/store.db")
    assert sqlite.returncode == 2
    assert "not a DynamoDB store" in sqlite.stderr and "Traceback" not in sqlite.stderr
    down = run("store", "create-table", "--url", unreachable_dynamodb_url)
    assert down.returncode == 1
    assert down.stderr.startswith("error: DynamoDB table t:") and "Traceback" not in down.stderr


def test_the_previews_bench_reports_every_figure():
    report = cli.preview_bench("ludo", 6, games=1, positions=2)
    assert report["images"] == 2
    for figure in ("render_ms", "png_kb", "image_request_ms"):
        assert set(report[figure]) == {"median", "p99", "max"} and report[figure]["max"] > 0
    assert report["png_kb"]["max"] < 150


def test_previews_writes_an_image_per_board_and_says_what_it_shows(tmp_path):
    from PIL import Image

    lines = cli.write_previews(str(tmp_path))
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == ["generic.png", "ludo-4.png", "ludo-6.png", "parcheesi-4.png",
                     "red-arse-4.png", "red-arse-6.png"]
    for name in names:
        assert Image.open(tmp_path / name).size == (1200, 630)
    assert any(", your turn · Ludo | " in line for line in lines)


def test_screenshots_of_a_board_mid_turn_on_a_phone(tmp_path):
    """``python -m app screenshots`` (one of its pictures here: the review's takes a minute)."""
    import os

    from PIL import Image

    from app.phone_browser import CHROMIUM
    from app.screenshots import take

    if not os.path.exists(CHROMIUM):
        pytest.fail("needs Debian's chromium (the README's test command installs it)")
    [path] = take(str(tmp_path), only=("ludo-4-mid-turn",))
    image = Image.open(path)
    assert image.size == (780, 1688)  # 390 x 844 CSS px, at twice the pixels
    # The board's felt, and yellow (the player to move) somewhere on it.
    colors = {pixel for pixel in image.convert("RGB").resize((78, 168)).getdata()}
    assert any(r > 200 and 150 < g < 200 and b < 60 for r, g, b in colors)
