"""The workbench's tools as a developer runs them: python -m app simulate / bench / repeat /
calibrate / previews / screenshots (the same as python -m workbench ...)."""

import json
import os
import subprocess
import sys

import pytest

from app.engine.core import ROLL
from app.keys import Keys
from app.play import Game
from workbench.calibrate import calibrate
from workbench.engine_bench import bench, bot_turn_bench, repeat
from workbench.games import SIM_KEYS_LABEL, play_random
from workbench.previews import preview_bench, write_previews
from workbench.simulate import simulate


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
    first = simulate("parcheesi", 2, 3, "same")
    second = simulate("parcheesi", 2, 3, "same")
    for key in ("decisions", "rolls", "wins_by_seat", "link_chars"):
        assert first[key] == second[key]


def test_simulate_prints_readable_lines_by_default():
    result = run("simulate", "--games", "2", "--players", "2")
    assert result.returncode == 0
    assert "games finished: 2" in result.stdout
    assert "Ana (yellow)" in result.stdout


def test_bench_reports_every_figure():
    report = bench("parcheesi", 4, games=3, seconds=0)
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
    report = repeat("links", "parcheesi", 4, count=2, times=2)
    assert report["count"] == 2 and report["times"] == 2
    keys = Keys.for_tests(SIM_KEYS_LABEL)
    bench_links = [play_random("parcheesi", 4, "bench", n, keys).token() for n in range(2)]
    assert opened == bench_links * 2
    opened.clear()
    repeat("links", "parcheesi", 4, count=2, times=0)
    assert opened == []


def test_repeat_works_out_the_chances_from_the_analysis_bench_positions(monkeypatch):
    from app.engine import analysis

    asked = []
    monkeypatch.setattr(analysis, "chances", lambda rules, state: asked.append(state) or [])
    repeat("chances", "red-arse", 4, count=1, times=3)
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
    report = bench("red-arse", 6, games=3, seconds=0)
    assert report["players"] == 6
    assert report["link_chars"]["max"] < 1600
    assert set(report["api_ms_median"]) == {"read_finished", "roll", "finish_turn"}


def test_bench_times_a_turn_followed_by_five_bot_turns():
    report = bot_turn_bench(games=2)
    assert report["games"] == 2
    assert report["turn_and_five_bot_turns_ms"]["median"] > 0
    assert report["bot_steps_per_turn_median"] >= 5  # five bots' turns: a roll each at least


def test_calibrate_scores_the_chances_against_what_happened():
    report = calibrate("ludo", 2, positions=12, playouts=20, decisions=1)
    assert report["positions"] == 12 and report["playouts"] == 20
    assert 0 <= report["brier_score"] <= 1
    assert report["brier_if_everyone_had_1_in_players"] == 0.25
    counted = [int(row.split(",")[0].removeprefix("n ")) for row in
               report["calibration_by_decile"].values()]
    assert sum(counted) == 12 * 2  # every seat of every position, in one decile
    stability = report["stability"]
    assert stability["decisions"] == 1 and stability["options"] >= 2
    assert 0 <= stability["same_grade_with_another_seed"] <= 1


def test_calibrate_grades_the_reviews_against_the_reference(monkeypatch):
    from app.engine import analysis

    # The reference's playouts are four times the product's: made few here, for speed.
    monkeypatch.setattr(analysis, "REVIEW_PLAYOUTS", 10)
    monkeypatch.setattr(analysis, "REVIEW_EXTRA", 0)
    report = calibrate("ludo", 2, positions=0, playouts=20, decisions=2, against_reference=True)
    stability = report["stability"]
    assert report["positions"] == 0 and stability["decisions"] == 2
    # Each seed's graded options, each against the reference's grade.
    assert stability["options_against_the_reference"] >= 2 * stability["options"]
    assert 0 <= stability["same_grade_as_the_reference"] <= 1
    assert stability["two_grades_from_the_reference"] >= 0
    # The ceiling: the reference against a second reference on another seed.
    assert 0 < stability["same_grade_between_two_references"] <= 1
    assert stability["review_steps_per_decision"] > 0
    from app.cli import lines

    printed = lines(report).splitlines()
    assert any(line.strip().startswith("same grade as the reference: ") for line in printed)
    assert any(line.strip().startswith("two grades from the reference: ") for line in printed)
    assert any(line.strip().startswith("same grade between two references: ")
               for line in printed)


def test_the_previews_bench_reports_every_figure():
    report = preview_bench("ludo", 6, games=1, positions=2)
    assert report["images"] == 2
    for figure in ("render_ms", "png_kb", "image_request_ms"):
        assert set(report[figure]) == {"median", "p99", "max"} and report[figure]["max"] > 0
    assert report["png_kb"]["max"] < 150


def test_previews_writes_an_image_per_board_and_says_what_it_shows(tmp_path):
    from PIL import Image

    lines = write_previews(str(tmp_path))
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == ["generic.png", "ludo-4.png", "ludo-6.png", "parcheesi-4.png",
                     "red-arse-4.png", "red-arse-6.png"]
    for name in names:
        assert Image.open(tmp_path / name).size == (1200, 630)
    assert any(", your turn · Ludo | " in line for line in lines)


def test_screenshots_of_a_board_mid_turn_on_a_phone(tmp_path):
    """``python -m app screenshots`` (one of its pictures here: the review's takes a minute)."""
    from PIL import Image

    from workbench.phone_browser import CHROMIUM
    from workbench.screenshots import take

    if not os.path.exists(CHROMIUM):
        pytest.fail("needs Debian's chromium (the README's test command installs it)")
    [path] = take(str(tmp_path), only=("ludo-4-mid-turn",))
    image = Image.open(path)
    assert image.size == (780, 1688)  # 390 x 844 CSS px, at twice the pixels
    # The board's felt, and yellow (the player to move) somewhere on it.
    colors = {pixel for pixel in image.convert("RGB").resize((78, 168)).getdata()}
    assert any(r > 200 and 150 < g < 200 and b < 60 for r, g, b in colors)



def test_bench_lighthouse_takes_its_runs_and_server_and_prints_a_table_of_medians():
    from workbench.cli import parser
    from workbench.lighthouse_bench import COLUMNS, figures, medians, table

    parse = parser()[0].parse_args
    args = parse(["bench", "lighthouse"])
    assert (args.what, args.runs, args.server) == ("lighthouse", 3, "reference")
    args = parse(["bench", "lighthouse", "--runs", "1", "--server", "quick"])
    assert (args.runs, args.server) == (1, "quick")
    with pytest.raises(SystemExit):
        parse(["bench", "lighthouse", "--server", "gunicorn"])

    def report(performance, paint, shift):
        """What a Lighthouse JSON report holds of the table's figures."""
        return {"categories": {"performance": {"score": performance},
                               "accessibility": {"score": 1}, "best-practices": {"score": 0.96},
                               "seo": {"score": None}},
                "audits": {"largest-contentful-paint": {"numericValue": paint},
                           "cumulative-layout-shift": {"numericValue": shift},
                           "total-blocking-time": {"numericValue": 12.5},
                           "total-byte-weight": {"numericValue": 216064}}}

    runs = [figures(report(0.98, 1234.5, 0.0)), figures(report(0.91, 2400.0, 0.099)),
            figures(report(1, 1100.0, 0.02))]
    assert runs[0]["performance"] == 98 and runs[0]["seo"] is None
    header, rule, row = table([("game, after a turn", medians(runs))]).splitlines()
    assert header.split(" | ")[1:3] == ["Performance", "Accessibility"]
    assert len(header.split(" | ")) == len(COLUMNS) + 1 and rule.count("---") == len(COLUMNS) + 1
    assert row == ("| game, after a turn | 98 | 100 | 96 | – | 1.23 s | 0.020 | 12 ms | "
                   "211 KiB |")


def test_bench_lighthouse_says_what_is_missing_without_a_traceback(monkeypatch, capsys):
    from workbench import lighthouse_bench
    from workbench.cli import main

    assert main(["bench", "lighthouse", "--runs", "0"]) == 2
    assert capsys.readouterr().err == "error: --runs must be at least 1\n"
    monkeypatch.setattr(lighthouse_bench, "LIGHTHOUSE", lighthouse_bench.ROOT / "nowhere")
    assert main(["bench", "lighthouse"]) == 2
    assert capsys.readouterr().err.endswith("nowhere is missing: run npm ci\n")


def test_lighthouse_runs_once_on_the_home_page_of_the_quick_start_server():
    """One run of ``python -m app bench lighthouse --server quick`` (of its five pages, the
    home page; about 25 s): Chromium started, the page audited, the report read."""
    from workbench.lighthouse_bench import LIGHTHOUSE, figures, run_lighthouse
    from workbench.phone_browser import CHROMIUM
    from workbench.reference_server import serving

    if not (LIGHTHOUSE.exists() and os.path.exists(CHROMIUM)):
        pytest.fail("needs npm ci and Debian's chromium (the README's test command does both)")
    with serving("quick") as (port, _):
        found = figures(run_lighthouse(f"http://127.0.0.1:{port}/"))
    assert all(0 <= found[score] <= 100
               for score in ("performance", "accessibility", "best-practices", "seo"))
    assert found["largest-contentful-paint"] > 0 and found["total-byte-weight"] > 10_000
    assert found["cumulative-layout-shift"] >= 0 and found["total-blocking-time"] >= 0
