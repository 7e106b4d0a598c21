"""`manage.py pair_pods`, run for real: JSON out and silence on stderr, or one error line and 1."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tournaments.management.commands import pair_pods

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "DEBUG": "1"}
PAIR_PODS = [sys.executable, "manage.py", "pair_pods"]

# Two rounds of 9 players in pods of three, written by hand; player 6 dropped after round 2.
REQUEST = {
    "players": [1, 2, 3, 4, 5, 7, 8, 9],
    "rounds": [
        [
            {"players": [1, 2, 3], "winner": 1},
            {"players": [4, 5, 6], "winner": 0},
            {"players": [7, 8, 9], "winner": 9},
        ],
        [
            {"players": [1, 4, 7], "winner": 4},
            {"players": [2, 5, 8], "winner": 2},
            {"players": [3, 6, 9], "winner": 0},
        ],
    ],
}


def run(*args, stdin: str | bytes = b"") -> subprocess.CompletedProcess:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [*PAIR_PODS, *args], input=data, cwd=ROOT, env=ENV, capture_output=True, timeout=120
    )


def placements(stdout: bytes) -> list[list[int]]:
    text = stdout.decode()
    assert text.endswith("\n") and text.count("\n") == 1  # one compact line
    response = json.loads(text)
    assert set(response) == {"placements"}
    return [placement["players"] for placement in response["placements"]]


def test_a_valid_request_is_answered_on_stdout_and_nothing_on_stderr():
    done = run(stdin=json.dumps(REQUEST))
    assert done.returncode == 0, done.stderr
    # cedh_matching's web interface takes any stderr output for a failure.
    assert done.stderr == b""
    tables = placements(done.stdout)
    assert sorted(p for table in tables for p in table) == [1, 2, 3, 4, 5, 7, 8, 9]
    assert sorted(len(table) for table in tables) == [4, 4]


def test_input_file_and_extra_keys(tmp_path):
    request = tmp_path / "request.json"
    # The web interface's own shape: its weight names, and placements echoed back with extras.
    request.write_text(
        json.dumps(
            {
                **REQUEST,
                "weights": {"rematch": 0.5, "non_equal_scores": 0.1, "3_player_table": 0.2},
                "layout": "byes",
                "seed": 3,
                "event": "Friday cEDH",
            }
        )
    )
    done = run("--input", str(request))
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert sorted(len(table) for table in placements(done.stdout)) == [4, 4]
    five = tmp_path / "five.json"
    five.write_text(json.dumps({"players": [1, 2, 3, 4, 5], "rounds": [], "layout": "byes"}))
    done = run("--input", str(five))
    assert done.returncode == 0, done.stderr
    tables = placements(done.stdout)
    assert [len(table) for table in tables] == [4, 1]  # a bye is a placement of one, last


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"", "error: request: empty input; expected one JSON object"),
        (b"{players: [1, 2, 3]}", "error: request: not valid JSON: Expecting property name"),
        (b"\xff\xfe{}", "error: request: not UTF-8 text (byte 0xff at offset 0)"),
        ("[" * 100_000, "error: request: not valid JSON: nested too deeply"),
        (
            json.dumps(
                {
                    **REQUEST,
                    "rounds": [REQUEST["rounds"][0], [{"players": [1, 4, 7], "winner": 17}]],
                }
            ),
            "error: rounds[1][0].winner: 17 is not at this pod",
        ),
        (
            json.dumps({"players": [1, 2, 3, 3], "rounds": []}),
            "error: players[3]: 3 is already listed at players[2]",
        ),
        (
            json.dumps({"players": [1, 2], "rounds": []}),
            "error: players: at least 3 active players are needed for a pod, got 2",
        ),
        (
            json.dumps({**REQUEST, "weights": {"spread\nrepeat": 1}}),
            'error: weights: unknown weight "spread\\nrepeat"',
        ),
    ],
)
def test_a_bad_request_is_one_line_on_stderr_and_status_1(stdin, message):
    done = run(stdin=stdin)
    assert done.returncode == 1
    assert done.stdout == b""
    stderr = done.stderr.decode()
    assert stderr.count("\n") == 1 and stderr.endswith("\n"), stderr
    assert stderr.startswith(message), stderr
    assert "Traceback" not in stderr


def test_an_unreadable_input_file_is_one_line_and_status_1(tmp_path):
    done = run("--input", str(tmp_path / "missing.json"))
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode() == (
        f"error: --input: cannot read {tmp_path / 'missing.json'}: No such file or directory\n"
    )


def test_a_simulated_event_piped_in_is_paired():
    simulate = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "simulate_tournament",
            "--format",
            "pods",
            "--players",
            "16",
            "--rounds",
            "3",
            "--seed",
            "1",
            "--output",
            "-",
        ],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.PIPE,
    )
    pair = subprocess.run(
        PAIR_PODS, stdin=simulate.stdout, cwd=ROOT, env=ENV, capture_output=True, timeout=120
    )
    simulate.stdout.close()
    assert simulate.wait(timeout=120) == 0
    assert (pair.returncode, pair.stderr) == (0, b""), pair.stderr
    tables = placements(pair.stdout)
    assert sorted(p for table in tables for p in table) == list(range(1, 17))
    assert [len(table) for table in tables] == [4, 4, 4, 4]


def test_the_help_documents_the_optional_keys():
    done = subprocess.run(
        [*PAIR_PODS, "--help"], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0
    for words in ('"placements"', "layout", "threes | fives | byes", "seed", "--input FILE"):
        assert words in done.stdout


def test_an_internal_failure_is_still_one_line_unless_traceback_is_asked(tmp_path, monkeypatch):
    def broken(request):
        raise KeyError("boom")

    monkeypatch.setattr(pair_pods, "respond", broken)
    request = tmp_path / "request.json"
    request.write_text(json.dumps(REQUEST))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("pair_pods", "--input", str(request), stdout=out, stderr=err)
    assert exited.value.code == 1
    assert (out.getvalue(), err.getvalue()) == ("", "error: internal error: KeyError: 'boom'\n")
    with pytest.raises(KeyError):
        call_command("pair_pods", "--input", str(request), traceback=True, stdout=out, stderr=err)
