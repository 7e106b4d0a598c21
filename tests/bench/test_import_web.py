"""bench/import_web.py --quick runs to its table, so the web-import bench cannot rot.

It is the whole bench at a small size: a private PostgreSQL cluster, gunicorn as the README
deploys it, a real db_worker, the upload form, the preview and import jobs (the threshold is
lowered so 300 games take the job path) and visitors timing a public page.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_web_import_bench_runs_to_its_table():
    run = subprocess.run(
        [sys.executable, "bench/import_web.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "| import done (games and ratings) after |" in run.stdout
    assert "| errors | 0 |" in run.stdout
    assert "did not finish" not in run.stdout
