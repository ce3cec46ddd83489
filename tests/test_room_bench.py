"""``python -m app bench rooms`` end to end, tiny: a real server process, one room's phones
polling and its player stepping, and the hour of a room worked out from what was counted."""

import subprocess
import sys


def report(text: str) -> dict:
    """The bench's indented ``label: value`` lines as nested dicts."""
    root = {}
    stack = [(-1, root)]
    for line in text.splitlines():
        depth = (len(line) - len(line.lstrip(" "))) // 2
        label, _, value = line.strip().partition(": ")
        while stack[-1][0] >= depth:
            stack.pop()
        if line.endswith(":"):
            stack[-1][1][label.rstrip(":")] = child = {}
            stack.append((depth, child))
        else:
            stack[-1][1][label] = value
    return root


def test_bench_rooms_polls_plays_and_prices_an_hour_of_a_room():
    result = subprocess.run([sys.executable, "-m", "app", "bench", "rooms", "--rooms", "1",
                             "--seconds", "1.5", "--step-every", "0.5"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    figures = report(result.stdout)
    assert figures["store"].startswith("sqlite:///")
    unchanged = figures["unchanged polls"]
    assert unchanged["share 304"] == "1.0" and int(unchanged["polls"]) > 0
    assert float(unchanged["server cpu ms per poll"]) > 0
    live = figures["live"]
    assert live["phones"] == "4" and live["errors"] == "none"  # one Parcheesi room
    assert int(live["polls"]) >= 4 and int(live["steps"]) >= 2
    assert float(live["step ms"]["p99"]) > 0 and int(live["turns"]) >= 1
    calls = figures["in process"]["store calls"]
    assert calls["unchanged poll"] == {"get": "1"}
    assert calls["step"] == {"get": "1", "swap": "1"}
    hour = figures["hour of a 4 player room"]
    assert hour["polls"] == "14400" and hour["steps"] == "7200"
    assert hour["requests"] == hour["dynamodb reads"] == hour["read units"] == "21600"
    # a step each 0.5 s, and each of 4 visible phones marked seen every 3 s
    assert hour["seen writes"] == "4800"
    assert hour["dynamodb writes"] == hour["write units"] == str(7200 + 4800)
    assert int(hour["room item bytes"]) < 1024
    assert float(hour["usd"]["total"]) > float(hour["usd"]["dynamodb"]) > 0
