"""The phone's pairing files (`make assets`): present, and the pure code zipped no earlier than
its newest source, so a browser test never runs yesterday's pairing."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "tournaments/static/tournaments/pyodide"
FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "domain.zip"]


def check_assets() -> None:
    absent = [name for name in FILES if not (STATIC / name).exists()]
    if absent:
        pytest.fail(f"{', '.join(absent)} missing in {STATIC}: run `make assets`")
    sources = [ROOT / "tournaments/__init__.py", *(ROOT / "tournaments/domain").glob("*.py")]
    if max(p.stat().st_mtime for p in sources) > (STATIC / "domain.zip").stat().st_mtime:
        pytest.fail("tournaments/domain changed since domain.zip was made: run `make assets`")
