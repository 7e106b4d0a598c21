"""Running one job, as the worker's task does: lock, run its handler, commit with "done".

`job_run` takes the job's advisory lock on a connection of its own, runs the handler its app
registered (`jobs.registry`) and marks the job done in the same transaction, and reports
progress on that other connection so pages see it while the work is uncommitted. Running a
job twice is harmless: a second runner finds the lock taken or the job done and does nothing.
"""

import logging
import time

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .errors import JobRefused
from .models import Job
from .registry import kind_get

log = logging.getLogger(__name__)

LOCK_SPACE = 0x6A6F62  # "job": the advisory-lock namespace (first key) of job locks
PROGRESS_EVERY = 0.3  # seconds between progress writes


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
                result = kind_get(job.kind).handler(job, Progress(own, job_id))
                Job.objects.filter(pk=job_id).update(
                    status=Job.Status.DONE, result=result, finished_at=timezone.now()
                )
        except JobRefused as refused:
            _fail(job_id, str(refused))
            return "refused"
        except Exception:
            log.exception("Job %s failed", job_id)
            _fail(job_id, FAILED)
            raise
        return "done"
    finally:
        own.close()  # ends the session: the advisory lock goes with it


# Kept in English on the row (the worker reads for no one), translated where it is shown
# (jobs/_progress.html).
FAILED = gettext_noop("Something went wrong while doing this; nothing was changed.")


def _fail(job_id: int, message: str) -> None:
    Job.objects.filter(pk=job_id).update(
        status=Job.Status.FAILED, error=message, finished_at=timezone.now()
    )
