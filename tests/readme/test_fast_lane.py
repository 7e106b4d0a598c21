"""`make test-fast` as the README describes it (issue 31, bug 12): it keeps its test database
between runs, and the README and the Makefile give the same figure for its time; it is a set
of lanes (issue 44), every test in exactly one of them (tests/conftest.py's LANES)."""

import json
import os
import re
import subprocess
import sys

import pytest
from _pytest.mark.expression import Expression

from tests.conftest import FAST_LANE, LANES
from tests.readme.conftest import ROOT

pytestmark = pytest.mark.readme


def pytest_line() -> str:
    dry = subprocess.run(
        ["make", "-n", "test-fast"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert dry.returncode == 0, dry.stderr
    return " ".join(dry.stdout.split("\\\n"))


def test_the_fast_lane_is_a_set_of_lanes_over_every_test():
    """Markers, not the Makefile's list of paths: a new test file is in a lane by where it is
    and what it uses."""
    line = pytest_line()
    assert f'-m "{FAST_LANE}"' in line, line
    paths = [word for word in line.split() if word.startswith("tests")]
    assert paths == ["tests"], paths


# The tests the fast lane was made for (the Makefile's list of paths before it had lanes): the
# domain and service tests, and three of the leagues'.
FAST_BEFORE = re.compile(
    r"tests/([^/]+/){1,2}(domain|services)/"
    r"|tests/([^/]+/){1,2}test_[^/]*services[^/]*\.py"
    r"|tests/leagues/test_(models|import|exchange)\.py"
)


PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]


@pytest.fixture(scope="module")
def lanes(tmp_path_factory) -> dict[str, list[str]]:
    report = tmp_path_factory.mktemp("lanes") / "lanes.json"
    collected = subprocess.run(
        [*PYTEST, "--collect-only", "-q", "-p", "tests.readme.lanes_report", "tests"],
        cwd=ROOT,
        env={**os.environ, "LANES_REPORT": str(report)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    return json.loads(report.read_text())


def lane(marks: list[str]) -> str:
    (only,) = set(marks) & set(LANES)
    return only


def test_every_test_is_in_exactly_one_lane(lanes):
    assert len(lanes) > 4000  # the whole suite was collected
    several = {test: marks for test, marks in lanes.items() if len(set(marks) & set(LANES)) != 1}
    assert not several, several


def test_the_folders_make_the_lanes(lanes):
    by_folder = {"tests/browser/": "browser", "tests/bench/": "bench"}
    for test, marks in lanes.items():
        path = test.split("::")[0]
        expected = next((v for k, v in by_folder.items() if path.startswith(k)), None)
        if path == "tests/readme/test_bench.py":
            expected = "bench"  # the benches' quick runs
        elif path.startswith("tests/readme/"):
            expected = "readme"
        elif "/domain/" in path and expected is None:
            expected = "unit"  # the pure code: no database
        if expected:
            assert lane(marks) == expected, (test, marks)
        else:
            assert lane(marks) in ("unit", "db"), (test, marks)


def test_the_fast_lane_runs_the_domain_and_service_tests(lanes):
    expression = Expression.compile(FAST_LANE)
    fast = {t for t, marks in lanes.items() if expression.evaluate(set(marks).__contains__)}
    wanted = {t for t, marks in lanes.items() if FAST_BEFORE.match(t) and "slow" not in marks}
    assert len(wanted) > 1000
    assert wanted <= fast, sorted(wanted - fast)[:20]
    assert not {t for t in fast if t.startswith(("tests/browser/", "tests/readme/"))}


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
