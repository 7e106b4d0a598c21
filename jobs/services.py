"""Starting and rescuing jobs (running one is jobs.runner's `job_run`, the worker's task).

`job_start` records a job and enqueues it in the caller's transaction (so a job exists only if
the change that asked for it commits, and two presses of one button share the active job).
The runner takes the job's advisory lock on a connection of its own, runs the work and marks
the job done in one transaction. A worker killed with SIGKILL rolls back everything the job
wrote; its lock goes with its connection, and `jobs_reap` (run by `manage.py db_worker` every
few seconds) puts the job back in the queue. Running a job twice is harmless: a second runner
finds the lock taken or the job done and does nothing.
"""

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, close_old_connections, connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from .models import Job
from .registry import kind_get, sweeps
from .runner import LOCK_SPACE
from .tasks import run_job

log = logging.getLogger(__name__)

STALE_QUEUED = timedelta(seconds=30)  # a queued job whose task is gone after this is re-queued


def job_start(*, kind: str, league, key: str, params: dict | None = None, batch=None, by=None):
    """The active job for `key`, or a new one, queued with the caller's transaction.

    `kind` must be registered (`jobs.registry.kind_register`): a job no worker could run is
    refused here, not found out by the worker."""
    kind_get(kind)
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
    result = run_job.enqueue(job.pk)
    job.task_id, job.enqueued_at = str(result.id), timezone.now()
    Job.objects.filter(pk=job.pk).update(task_id=job.task_id, enqueued_at=job.enqueued_at)


def job_active(*, key: str) -> Job | None:
    return Job.objects.filter(key=key, status__in=Job.ACTIVE).first()


def jobs_reap(*, stale_queued: timedelta = STALE_QUEUED) -> list[int]:
    """Queue again the jobs whose worker died: running with nobody holding their lock, or
    queued long ago with no task left to run them. The ids re-queued."""
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
    while not stop():
        try:
            jobs_reap()
            for sweep in sweeps():  # the apps' own background work (jobs.registry)
                sweep()
        except Exception:  # the database may be restarting: try again next round
            log.exception("Reaping jobs failed")
        finally:
            close_old_connections()
        time.sleep(every)
