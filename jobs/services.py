"""Starting, running and rescuing jobs.

`job_start` records a job and enqueues it in the caller's transaction (so a job exists only if
the change that asked for it commits, and two presses of one button share the active job).
`job_run` is what the worker calls: it takes the job's advisory lock on a connection of its
own, runs the work and marks the job done in one transaction, and reports progress on that
other connection so pages see it while the work is uncommitted. A worker killed with SIGKILL
rolls back everything the job wrote; its lock goes with its connection, and `jobs_reap` (run
by `manage.py db_worker` every few seconds) puts the job back in the queue. Running a job
twice is harmless: a second runner finds the lock taken or the job done and does nothing.
"""

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.utils import timezone

from core.errors import DomainError

from .models import Job

log = logging.getLogger(__name__)

LOCK_SPACE = 0x6A6F62  # "job": the advisory-lock namespace (first key) of job locks
PROGRESS_EVERY = 0.3  # seconds between progress writes
STALE_QUEUED = timedelta(seconds=30)  # a queued job whose task is gone after this is re-queued


class JobRefused(DomainError):
    """The work cannot be done as asked; the message says why, for the person who asked."""

    default_code = "job_refused"


def job_start(*, kind: str, league, key: str, params: dict | None = None, batch=None, by=None):
    """The active job for `key`, or a new one, queued with the caller's transaction."""
    with transaction.atomic():
        existing = Job.objects.filter(key=key, status__in=Job.ACTIVE).first()
        if existing is not None:
            return existing
        try:
            with transaction.atomic():
                job = Job.objects.create(
                    kind=kind,
                    league=league,
                    import_batch=batch,
                    key=key,
                    params=params or {},
                    created_by=by if getattr(by, "is_authenticated", False) else None,
                )
        except IntegrityError:  # someone else started it a moment ago
            return Job.objects.get(key=key, status__in=Job.ACTIVE)
        _enqueue(job)
    return job


def _enqueue(job: Job) -> None:
    from .tasks import run_job

    result = run_job.enqueue(job.pk)
    job.task_id, job.enqueued_at = str(result.id), timezone.now()
    Job.objects.filter(pk=job.pk).update(task_id=job.task_id, enqueued_at=job.enqueued_at)


def job_active(*, key: str) -> Job | None:
    return Job.objects.filter(key=key, status__in=Job.ACTIVE).first()


class Progress:
    """done / total, written on the job's own connection (visible before the work commits)."""

    def __init__(self, conn, job_id: int):
        self.conn, self.job_id, self.last = conn, job_id, 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_EVERY and done < total:
            return
        self.last = now
        with self.conn.cursor() as cursor:
            cursor.execute(
                "UPDATE jobs_job SET done = %s, total = %s WHERE id = %s",
                [done, total, self.job_id],
            )


def job_run(*, job_id: int) -> str:
    """Run one job (the worker's task). Returns what happened, for the task's record."""
    from .handlers import HANDLERS

    own = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with own.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_SPACE, job_id])
            if not cursor.fetchone()[0]:
                return "busy"  # another worker runs it
            cursor.execute(
                """UPDATE jobs_job SET status = 'running', started_at = now(),
                          attempts = attempts + 1, error = ''
                    WHERE id = %s AND status IN ('queued', 'running') RETURNING id""",
                [job_id],
            )
            if cursor.fetchone() is None:
                return "finished"  # done, failed or deleted meanwhile
        job = Job.objects.select_related("league", "import_batch").get(pk=job_id)
        try:
            with transaction.atomic():
                result = HANDLERS[job.kind](job, Progress(own, job_id))
                Job.objects.filter(pk=job_id).update(
                    status=Job.Status.DONE, result=result, finished_at=timezone.now()
                )
        except JobRefused as refused:
            _fail(job_id, str(refused))
            return "refused"
        except Exception:
            log.exception("Job %s failed", job_id)
            _fail(job_id, "Something went wrong while doing this; nothing was changed.")
            raise
        return "done"
    finally:
        own.close()  # ends the session: the advisory lock goes with it


def _fail(job_id: int, message: str) -> None:
    Job.objects.filter(pk=job_id).update(
        status=Job.Status.FAILED, error=message, finished_at=timezone.now()
    )


def jobs_reap(*, stale_queued: timedelta = STALE_QUEUED) -> list[int]:
    """Queue again the jobs whose worker died: running with nobody holding their lock, or
    queued long ago with no task left to run them. The ids re-queued."""
    from django_tasks_db.models import DBTaskResult

    requeued = []
    for job in Job.objects.filter(status=Job.Status.RUNNING):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_SPACE, job.pk])
            if not cursor.fetchone()[0]:
                continue  # its worker is alive
            try:
                # Read again under the lock: a runner marks the job done before it lets go.
                orphaned = Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(
                    status=Job.Status.QUEUED
                )
            finally:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_SPACE, job.pk])
        if orphaned:
            log.warning("Job %s lost its worker; queued again", job.pk)
            # Its task will never finish by itself: close it, so prune_db_task_results can
            # clear it and the admin does not show it running forever.
            DBTaskResult.objects.filter(id=job.task_id, status="RUNNING").update(
                status="FAILED", finished_at=timezone.now()
            )
            _enqueue(job)
            requeued.append(job.pk)
    old = timezone.now() - stale_queued
    for job in Job.objects.filter(status=Job.Status.QUEUED, enqueued_at__lt=old):
        ready = DBTaskResult.objects.filter(id=job.task_id, status="READY").exists()
        if not ready:
            _enqueue(job)
            requeued.append(job.pk)
    return requeued


def reap_forever(*, every: float, stop: Callable[[], bool] = lambda: False) -> None:
    """The worker's reaper thread."""
    from django.db import close_old_connections

    while not stop():
        try:
            jobs_reap()
        except Exception:  # the database may be restarting: try again next round
            log.exception("Reaping jobs failed")
        finally:
            close_old_connections()
        time.sleep(every)
