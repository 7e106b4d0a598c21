"""bench/lighthouse.py runs a page again when Lighthouse says its trace of the load was
incomplete ("Please run Lighthouse again", NO_NAVSTART: 6 of 48 runs here with Chromium 156),
up to ATTEMPTS times, and counts it; any other failure stops the bench at once."""

import json
import subprocess

import pytest

from bench import lighthouse as bench

NO_NAVSTART = (
    "Runtime error encountered: Something went wrong with recording the trace over your page "
    "load. Please run Lighthouse again. (NO_NAVSTART)"
)


def fake_lighthouse(monkeypatch, answers):
    """Each call of Lighthouse answers the next of `answers`: "ok", "again" (its exit code and
    message), "again-in-report" (a report with that runtimeError) or "broken"."""
    calls = []

    def run(command, **kwargs):
        answer = answers[len(calls)]
        calls.append(command)
        out = next(a.split("=", 1)[1] for a in command if a.startswith("--output-path="))
        if answer == "ok":
            with open(out, "w") as file:
                json.dump({"lighthouseVersion": "12", "categories": {}}, file)
        elif answer == "again-in-report":
            with open(out, "w") as file:
                json.dump({"runtimeError": {"code": "NO_NAVSTART", "message": NO_NAVSTART}}, file)
        if answer in ("ok", "again-in-report"):
            return subprocess.CompletedProcess(command, 0, "", "")
        said = NO_NAVSTART if answer == "again" else "Chrome could not be started"
        return subprocess.CompletedProcess(command, 1, "", said)

    monkeypatch.setattr(bench.subprocess, "run", run)
    monkeypatch.setattr(bench, "retried", [])
    return calls


def test_a_run_lighthouse_says_to_run_again_is_run_again_and_counted(monkeypatch, tmp_path):
    calls = fake_lighthouse(monkeypatch, ["again", "again-in-report", "ok"])
    report = bench.lighthouse("http://127.0.0.1:1/", tmp_path / "home-0.json")
    assert report["lighthouseVersion"] == "12"
    assert len(calls) == 3
    assert len(bench.retried) == 2 and all("NO_NAVSTART" in line for line in bench.retried)


def test_it_gives_up_after_its_attempts(monkeypatch, tmp_path):
    calls = fake_lighthouse(monkeypatch, ["again"] * bench.ATTEMPTS)
    with pytest.raises(SystemExit, match=f"{bench.ATTEMPTS} times"):
        bench.lighthouse("http://127.0.0.1:1/", tmp_path / "home-0.json")
    assert len(calls) == bench.ATTEMPTS


def test_any_other_failure_stops_the_bench_at_once(monkeypatch, tmp_path):
    calls = fake_lighthouse(monkeypatch, ["broken", "ok"])
    with pytest.raises(SystemExit, match="Chrome could not be started"):
        bench.lighthouse("http://127.0.0.1:1/", tmp_path / "home-0.json")
    assert len(calls) == 1 and bench.retried == []
