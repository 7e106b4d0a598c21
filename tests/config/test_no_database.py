"""Without DATABASE_URL: what needs no database runs, what needs one says what to set (issue 31,
bug 11). Each runs in a process of its own with DATABASE_URL removed from its environment."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NO_DATABASE = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL"}}


def manage(*args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**NO_DATABASE, **env},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_pair_pods_needs_no_database():
    """The cedh_matching drop-in: JSON in, JSON out, silence on stderr, on a machine with no
    PostgreSQL at all."""
    request = {"players": [1, 2, 3, 4, 5, 6, 7], "rounds": []}
    result = manage("pair_pods", stdin=json.dumps(request), DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    placements = json.loads(result.stdout)["placements"]
    seated = sorted(p for placement in placements for p in placement["players"])
    assert seated == [1, 2, 3, 4, 5, 6, 7]
    assert sorted(len(placement["players"]) for placement in placements) == [3, 4]


def test_a_bad_pair_pods_request_is_still_its_own_error_line():
    result = manage("pair_pods", stdin='{"players": [1, 2]}', DEBUG="1")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert "DATABASE_URL" not in result.stderr


@pytest.mark.parametrize("command", [["migrate", "--no-input"], ["seed_demo"]])
def test_a_command_that_uses_the_database_says_what_to_set(command):
    """No silent SQLite default, and no "supply the ENGINE value": what to set, and that `make
    run` sets it."""
    result = manage(*command, DEBUG="1")
    assert result.returncode != 0
    assert "ImproperlyConfigured: This needs the database and DATABASE_URL is not set." in (
        result.stderr
    )
    assert "Set DATABASE_URL to a PostgreSQL database" in result.stderr
    assert "make run" in result.stderr
