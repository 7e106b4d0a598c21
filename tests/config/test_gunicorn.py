"""The deployment's `gunicorn config.wsgi --workers 3` (docs/operations.md), started from the
project root, runs threaded workers: gunicorn picks up the project's gunicorn.conf.py
(bench/burst.py measures why: sync workers queue every cached page behind a console load or a
login)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_command_gets_the_project_settings():
    printed = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--print-config", "config.wsgi", "--workers", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    settings = dict(
        (name.strip(), value.strip())
        for name, _, value in (line.partition("=") for line in printed.splitlines())
        if _
    )
    assert settings["worker_class"] == "gthread"
    assert settings["threads"] == "4"
    assert settings["workers"] == "3"
    assert settings["keepalive"] == "30"
    operations = (ROOT / "docs" / "operations.md").read_text()
    assert "gunicorn config.wsgi --bind 0.0.0.0:8000 --workers 3" in operations
