"""Production settings: `check --deploy` is clean, and nothing insecure is a silent default."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # Start from this environment less what tests set for themselves (the browser tests allow
    # sync ORM calls beside Playwright's event loop, which `check --deploy` rightly flags).
    unset = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_variables():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="leagues.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", DEBUG="0", ALLOWED_HOSTS="leagues.example.com")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_development_check_passes_without_any_variables():
    result = manage("check", DEBUG="1")
    assert result.returncode == 0, result.stderr
