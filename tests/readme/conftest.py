"""What the README and docs/ promise, run as their readers run it, from this checkout."""

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.dbtemplate import clone_url

ROOT = Path(__file__).resolve().parents[2]


def sibling_database_url(suffix: str, *, fresh: bool = False) -> str:
    """A database beside the one the tests were given (its own name), for a bench to own; one
    per test process when `make test` runs several (pytest-xdist names them gw0, gw1...).
    A copy of the migrated template (tests/dbtemplate.py), so the bench's own `migrate` finds
    nothing to do; kept from an earlier test or run while the migrations are the same, unless
    `fresh`."""
    url = os.environ["DATABASE_URL"]
    base, _, name = url.rpartition("/")
    name, _, query = name.partition("?")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    suffix = f"{suffix}_{worker}" if worker else suffix
    return clone_url(f"{base}/{name}_{suffix}" + (f"?{query}" if query else ""), fresh=fresh)


def own_static_root() -> str:
    """A folder for a bench's collectstatic, one per checkout and test process: the benches
    collect the static files as a deploy does, and a test process whose whitenoise was reading
    the shared `staticfiles/` while another process rewrote it failed on a vanished file.
    Kept between runs, so collecting again copies only what changed."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    return str(Path(tempfile.gettempdir()) / f"guildhall-static-{checkout}-{worker}")


def run(args: list[str], *, timeout: float, **env: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "1", "STATIC_ROOT": own_static_root(), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    print(result.stdout[-4000:])
    return result


@pytest.fixture
def root() -> Path:
    return ROOT
