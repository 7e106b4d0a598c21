"""Fault drills for the job queue: a real `db_worker` killed with SIGKILL in the middle of a job.

These tests are about the queue, so they use the real database backend and real worker
processes (subprocesses of `manage.py db_worker` against the test database), never an
immediate backend. Each job's work is one transaction: the test holds a table lock the job
needs so the kill lands at a known point (its writes done but uncommitted). After the kill
nothing is half-written, the job is still marked running, and a second worker's reaper finds
its advisory lock free, queues it again and runs it to the same result as a clean run.
"""

import csv
import datetime
import io
import os
import random
import signal
import subprocess
import sys

import psycopg
import pytest
from django_tasks_db.models import DBTaskResult

from jobs.models import Job
from leagues import jobs as league_jobs
from leagues import services as league_services
from leagues.models import Game, ImportBatch
from ratings import job_kinds
from ratings.models import LeagueRating
from tests.factories import LeagueFactory, PlayerFactory, organizer_of
from tests.ratings.test_recalculate_killed import (
    ROOT,
    database_url,
    ledger_snapshot,
    replayed,
    wait_until,
)

DAY = datetime.date(2026, 1, 1)


def worker(queue: str = "default") -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url(), "DEBUG": "1"}
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--queue-name",
            queue,
            "--no-reload",
            "--no-startup-delay",
            "--interval",
            "0.1",
            "--reap-every",
            "0.2",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def stop(process: subprocess.Popen) -> str:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck worker
            process.kill()
            process.wait()
    return process.stdout.read() if process.stdout else ""


def kill_while_blocked(table: str, statement: str, run):
    """Hold `table` locked, start a worker, wait until the job's `statement` waits for the lock,
    SIGKILL the worker there, release the lock and wait until its backend is gone."""
    url = database_url().replace("postgres://", "postgresql://")
    with psycopg.connect(url) as blocker, psycopg.connect(url, autocommit=True) as watcher:
        blocker.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        victim = worker()
        try:

            def waiting_backend():
                if victim.poll() is not None:
                    raise AssertionError(f"the worker ended first: {victim.stdout.read()}")
                row = watcher.execute(
                    """SELECT pid FROM pg_stat_activity
                        WHERE datname = current_database() AND wait_event_type = 'Lock'
                          AND query LIKE %s""",
                    [statement + "%"],
                ).fetchone()
                return row and row[0]

            backend = wait_until(waiting_backend, seconds=60, what="the job to block")
            run()  # look at the world while the job is stuck mid-write
            victim.send_signal(signal.SIGKILL)
            assert victim.wait(timeout=30) == -signal.SIGKILL
        finally:
            if victim.poll() is None:  # pragma: no cover - only when a wait above failed
                victim.kill()
                victim.wait()
        blocker.rollback()

        def gone():
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [backend]
            ).fetchone()
            return row[0] == 0

        wait_until(gone, seconds=30, what="the killed worker's backend to end")


def job_state(pk: int) -> str:
    return Job.objects.values_list("status", flat=True).get(pk=pk)


def rated_league(games: int):
    league = LeagueFactory()
    roster = PlayerFactory.create_batch(12, organization=league.organization)
    rng = random.Random(11)
    for n in range(games):
        pod = rng.sample(roster, rng.choice([3, 4]))
        league_services.game_record(
            league=league,
            results=[league_services.ResultIn(player=p, place=i) for i, p in enumerate(pod, 1)],
            played_on=DAY + datetime.timedelta(days=n // 6),
        )
    return league


@pytest.mark.django_db(transaction=True)
def test_a_rerating_job_killed_mid_write_is_retried_and_equals_a_clean_run(client, settings):
    settings.GUILDHALL_INLINE_RERATE_GAMES = 10  # 60 games: a job, not the request
    league = rated_league(60)
    before = ledger_snapshot(league)
    assert before == replayed(league)
    organizer = organizer_of(league.organization)
    client.force_login(organizer)

    response = client.post(f"/leagues/{league.slug}/rating-settings/", {"system": "openskill"})
    assert response.status_code == 302
    again = client.post(f"/leagues/{league.slug}/rating-settings/", {"system": "openskill"})
    assert again.status_code == 302
    job = Job.objects.get(league=league, kind=job_kinds.RERATE)  # one job for both presses
    assert job.status == Job.Status.QUEUED and job.params["system"] == "openskill"
    assert LeagueRating.objects.get(league=league).system == "guildmaster"  # not yet
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "Re-rating… 0 %" in page  # the standings keep the last ratings meanwhile

    def while_stuck():
        assert job_state(job.pk) == Job.Status.RUNNING
        card = client.get(f"/jobs/{job.pk}/", headers={"HX-Request": "true"})
        assert b"<progress" in card.content and b'hx-trigger="every 1s"' in card.content

    # The ledger is rewritten; the job waits to read the leaderboard it is about to sync.
    kill_while_blocked("ratings_rating", "SELECT league_id, player_id, value", while_stuck)

    assert ledger_snapshot(league) == before  # nothing half-written
    assert LeagueRating.objects.get(league=league).system == "guildmaster"
    assert job_state(job.pk) == Job.Status.RUNNING  # orphaned: its worker is gone

    rescuer = worker()
    try:
        wait_until(lambda: job_state(job.pk) == Job.Status.DONE, seconds=90, what="the retried job")
    finally:
        log = stop(rescuer)
    job.refresh_from_db()
    assert job.attempts == 2, log
    # The killed worker's task row is closed, not left running forever.
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()
    assert LeagueRating.objects.get(league=league).system == "openskill"
    after = ledger_snapshot(league)
    assert after == replayed(league) and after != before
    finished = client.get(f"/jobs/{job.pk}/", headers={"HX-Request": "true"})
    assert finished.headers.get("HX-Refresh") == "true"  # the page reloads to its result


def guildmaster_csv(games: int, seed: int = 3) -> str:
    rng = random.Random(seed)
    names = [f"Player {n:02d}" for n in range(16)]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for n in range(games):
        played = DAY + datetime.timedelta(days=n // 8)
        writer.writerow(["", played.isoformat(), *rng.sample(names, rng.choice([2, 3, 4]))])
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_an_import_job_killed_mid_write_is_retried_and_equals_a_clean_run(client, settings):
    settings.GUILDHALL_INLINE_IMPORT_ROWS = 5
    league = LeagueFactory()
    client.force_login(organizer_of(league.organization))
    text = guildmaster_csv(80)
    upload = io.BytesIO(text.encode())
    upload.name = "big.csv"

    response = client.post(f"/leagues/{league.slug}/import/", {"file": upload})
    assert response.status_code == 302
    batch = ImportBatch.objects.get(league=league)
    assert batch.preview is None  # a job reads the file
    page = client.get(response["Location"]).content.decode()
    assert "Reading the file" in page and "<progress" in page

    reader = worker()
    try:
        wait_until(
            lambda: ImportBatch.objects.get(pk=batch.pk).preview is not None,
            seconds=60,
            what="the preview job",
        )
    finally:
        stop(reader)
    preview = client.get(response["Location"])
    assert preview.context["preview"]["counts"]["games"] == 80
    assert b'value="import"' in preview.content

    confirm = client.post(response["Location"], {"action": "import"})
    assert confirm.status_code == 302
    client.post(response["Location"], {"action": "import"})  # a second press: the same job
    job = Job.objects.get(import_batch=batch, kind=league_jobs.IMPORT_APPLY)

    def while_stuck():
        assert job_state(job.pk) == Job.Status.RUNNING
        assert not Game.objects.filter(league=league).exists()  # uncommitted: invisible

    # The import writes its games, then its History entry: it waits there, games written.
    kill_while_blocked("leagues_auditentry", 'INSERT INTO "leagues_auditentry"', while_stuck)

    assert not Game.objects.filter(league=league).exists()
    assert ImportBatch.objects.get(pk=batch.pk).status == ImportBatch.Status.PENDING

    rescuer = worker()
    try:
        wait_until(
            lambda: job_state(job.pk) == Job.Status.DONE, seconds=90, what="the retried import"
        )
    finally:
        stop(rescuer)
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.IMPORTED and batch.games_imported == 80
    assert Game.objects.filter(league=league).count() == 80
    assert Job.objects.get(pk=job.pk).attempts == 2

    # A clean run of the same file into a fresh league gives the same games and ratings.
    clean = LeagueFactory(organization=league.organization)
    league_services.games_import(league=clean, text=text, filename="big.csv")

    def games_of(each):
        return [
            (g.played_on, [(r.player.name, r.placement) for r in g.results.order_by("placement")])
            for g in Game.objects.filter(league=each).order_by("played_on", "id")
        ]

    assert games_of(league) == games_of(clean)
    assert ledger_snapshot(league)[0] and ledger_snapshot(league) == replayed(league)
    done = client.get(response["Location"]).content.decode()
    assert "80 games imported" in done
