"""What the README and docs/ promise, run as their readers run it, from this checkout."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def sibling_database_url(suffix: str) -> str:
    """A database beside the one the tests were given (its own name), for a bench to own; one
    per test process when `make test` runs several (pytest-xdist names them gw0, gw1...)."""
    url = os.environ["DATABASE_URL"]
    base, _, name = url.rpartition("/")
    name, _, query = name.partition("?")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    suffix = f"{suffix}_{worker}" if worker else suffix
    return f"{base}/{name}_{suffix}" + (f"?{query}" if query else "")


def run(args: list[str], *, timeout: float, **env: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "1", **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    print(result.stdout[-4000:])
    return result


@pytest.fixture
def root() -> Path:
    return ROOT
