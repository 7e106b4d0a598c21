"""Fault drill: `recalculate_ratings` killed with SIGKILL in the middle of its rewrite.

The rebuild is one transaction, so a kill leaves the ledger exactly as it was, and the next
run completes and equals a replay of the games from scratch. The command runs as a real
subprocess against the test database; the test holds an exclusive lock on the ratings table,
so the kill lands at a known point: after the ledger rows were rewritten inside the command's
transaction, while it waits to read the leaderboard it is about to rewrite.
"""

import datetime
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.db import connection

from leagues import services as league_services
from ratings import ledger
from ratings.domain.registry import make_system
from ratings.domain.replay import replay
from ratings.models import LeagueRating, Rating, RatingChange
from tests.factories import LeagueFactory, PlayerFactory

ROOT = Path(__file__).resolve().parents[2]
DAY = datetime.date(2026, 1, 1)


def database_url() -> str:
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s["PASSWORD"] else ""
    return (
        # A socket directory as the host (make test's embedded server) must be percent-encoded.
        f"postgres://{s['USER']}{password}@{quote(s['HOST'] or '127.0.0.1', safe='')}:"
        f"{s['PORT'] or 5432}"
        f"/{s['NAME']}"
    )


def command(*args: str) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url(), "DEBUG": "1"}
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def ledger_snapshot(league):
    changes = list(
        RatingChange.objects.filter(league=league)
        .order_by("played_on", "game_id", "player_id")
        .values_list(
            "game_id",
            "player_id",
            "played_on",
            "before",
            "after",
            "delta",
            "rating",
            "deviation",
            "games",
            "wins",
            "draws",
        )
    )
    ratings = list(
        Rating.objects.filter(league=league)
        .order_by("player_id")
        .values_list(
            "player_id",
            "value",
            "rating",
            "deviation",
            "games",
            "wins",
            "draws",
            "last_played",
            "last_game_id",
        )
    )
    return changes, ratings


def replayed(league):
    """The ledger as a replay from scratch of the league's games would write it (no database
    writes: the pure replay over the stored games)."""
    settings = LeagueRating.objects.get(league=league)
    system = make_system(settings.system, settings.params)
    games = ledger.games_from(
        league.pk, ledger.START, with_stats=getattr(system, "uses_stats", False)
    )
    rows, tallies = replay(system, games, {})
    changes = sorted(rows, key=lambda r: (r[2], r[0], r[1]))
    ratings = sorted(
        (
            player,
            system.display(t.state),
            t.state.rating,
            t.state.deviation,
            t.games,
            t.wins,
            t.draws,
            t.last_played,
            t.last_game,
        )
        for player, t in tallies.items()
    )
    return [tuple(r) for r in changes], ratings


def wait_until(check, *, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.django_db(transaction=True)
def test_a_recalculation_killed_mid_write_leaves_the_ledger_whole_and_the_next_run_completes():
    league = LeagueFactory()
    roster = PlayerFactory.create_batch(12, organization=league.organization)
    rng = random.Random(6)
    for n in range(60):  # committed one by one: each is rated after its commit
        pod = rng.sample(roster, rng.choice([3, 4]))
        league_services.game_record(
            league=league,
            results=[league_services.ResultIn(player=p, place=i) for i, p in enumerate(pod, 1)],
            played_on=DAY + datetime.timedelta(days=n // 6),
        )
    before = ledger_snapshot(league)
    assert before == replayed(league) and len(before[0]) > 180
    # Switch the system behind the ledger's back: a full rebuild now writes different numbers,
    # so "as before" and "fully new" are told apart.
    LeagueRating.objects.filter(league=league).update(system="openskill")
    assert replayed(league) != before

    url = database_url().replace("postgres://", "postgresql://")
    # pg_stat_activity is read once per transaction: the watcher commits after every read.
    with psycopg.connect(url) as blocker, psycopg.connect(url, autocommit=True) as watcher:
        blocker.execute("LOCK TABLE ratings_rating IN ACCESS EXCLUSIVE MODE")
        victim = command("recalculate_ratings", "--league", league.slug)
        try:

            def waiting_backend():
                if victim.poll() is not None:
                    raise AssertionError(f"the command ended first: {victim.stderr.read()}")
                row = watcher.execute(
                    """SELECT pid FROM pg_stat_activity
                        WHERE datname = current_database() AND wait_event_type = 'Lock'
                          AND query LIKE '%%FROM ratings_rating WHERE%%'"""
                ).fetchone()
                return row and row[0]

            backend = wait_until(waiting_backend, seconds=60, what="the rewrite to block")
            # Its transaction has already replaced the ledger rows; kill it there.
            victim.send_signal(signal.SIGKILL)
            assert victim.wait(timeout=30) == -signal.SIGKILL
        finally:
            if victim.poll() is None:  # pragma: no cover - only when the wait above failed
                victim.kill()
                victim.wait()
        blocker.rollback()  # release the lock: the orphaned backend reads EOF and rolls back

        def gone():
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [backend]
            ).fetchone()
            return row[0] == 0

        wait_until(gone, seconds=30, what="the killed command's backend to end")

    assert ledger_snapshot(league) == before  # nothing half-written

    again = command("recalculate_ratings", "--league", league.slug)
    out, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    assert f"{league.slug}: 60 games" in out
    after = ledger_snapshot(league)
    assert after == replayed(league)
    assert after != before
    assert LeagueRating.objects.get(league=league).dirty_from is None
