"""`make test-fast` as the README describes it (issue 31, bug 12): it keeps its test database
between runs, and the README and the Makefile give the same figure for its time."""

import re
import subprocess

import pytest

from tests.readme.conftest import ROOT

pytestmark = pytest.mark.readme


def pytest_line() -> str:
    dry = subprocess.run(
        ["make", "-n", "test-fast"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert dry.returncode == 0, dry.stderr
    return " ".join(dry.stdout.split("\\\n"))


def test_the_fast_lane_reuses_its_test_database():
    """Building the test database runs every migration: 5 s of CPU and most of PostgreSQL's
    work in the lane, paid again on every run before."""
    line = pytest_line()
    assert "--reuse-db" in line.split()
    assert "--create-db" not in line.split()  # PYTEST_ARGS=--create-db is the way to rebuild


def test_the_readme_and_the_makefile_give_the_same_time():
    readme = (ROOT / "README.md").read_text()
    makefile = (ROOT / "Makefile").read_text()
    said = re.search(r"^make test-fast .*\(([^()]*)\)$", readme, re.MULTILINE)
    assert said, "the README's command list has no time for make test-fast"
    header = " ".join(line.lstrip("# ") for line in makefile.splitlines()[:4])
    assert said.group(1) in header, (said.group(1), header)
