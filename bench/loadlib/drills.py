"""The fault drills. `restart`: PostgreSQL restarted in immediate mode (every backend killed as
in a crash, then WAL recovery) while the load runs; the site must recover by itself. `kill`:
`manage.py recalculate_ratings` SIGKILLed after the load while its transaction has rewritten
the ledger (held there by a lock the drill takes on `ratings_rating`): the ledger must be
exactly as before, and the next run must complete and equal a replay."""

import signal
import subprocess
import sys
import time

from .client import Recorder
from .cluster import Cluster
from .scenario import LEAGUE
from .server import ROOT
from .verify import Checks, ledger_rows, replayed_rows


def restart_drill(recorder: Recorder, cluster: Cluster, *, at: float) -> tuple[float, float]:
    """Wait until `at` seconds into the run, restart PostgreSQL; the outage's (down, up)."""
    recorder.stop.wait(at)
    down = recorder.now()
    cluster.restart()
    up = recorder.now()
    # No grace: a request sent once PostgreSQL is back must succeed (a worker's dead
    # connection is replaced at its next request: CONN_HEALTH_CHECKS).
    print(f"drill: PostgreSQL restarted (immediate) at {down:.1f} s, up at {up:.1f} s")
    return down, up


def kill_drill(checks: Checks, env: dict, cluster: Cluster) -> None:
    """SIGKILL `recalculate_ratings` while its transaction has rewritten the ledger."""
    import psycopg

    from leagues.models import League
    from ratings.models import LeagueRating

    league = League.objects.get(slug=LEAGUE)
    before = ledger_rows(league)
    # Rate with another system behind the ledger's back, so "as before" and "new" differ.
    LeagueRating.objects.filter(league=league).update(system="openskill")
    url = cluster.url
    command = [sys.executable, "manage.py", "recalculate_ratings", "--league", LEAGUE]
    with psycopg.connect(url) as blocker, psycopg.connect(url, autocommit=True) as watcher:
        blocker.execute("LOCK TABLE ratings_rating IN ACCESS EXCLUSIVE MODE")
        victim = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        backend, deadline = None, time.monotonic() + 60
        while backend is None and time.monotonic() < deadline and victim.poll() is None:
            row = watcher.execute(
                """SELECT pid FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'
                      AND query LIKE '%%FROM ratings_rating WHERE%%'"""
            ).fetchone()
            backend = row and row[0]
            time.sleep(0.05)
        killed_mid_write = backend is not None
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        blocker.rollback()
        while (
            backend
            and watcher.execute(
                "SELECT 1 FROM pg_stat_activity WHERE pid = %s", [backend]
            ).fetchone()
        ):
            time.sleep(0.05)
    checks.check(killed_mid_write, "recalculate_ratings was killed in the middle of its rewrite")
    checks.check(ledger_rows(league) == before, "after SIGKILL the ledger is exactly as before")
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    checks.check(done.returncode == 0, "the next recalculate_ratings completes")
    after = ledger_rows(league)
    checks.check(
        after == replayed_rows(league) and after != before,
        "and its ledger is the new system's replay, row by row",
    )
    # Back to the league's own system for the final check.
    LeagueRating.objects.filter(league=league).update(system="guildmaster")
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
