"""A job: one piece of heavy work for a league, its progress, and its outcome.

The task queue (django-tasks with its database backend) only carries a job's id; this row is
what the pages read (done / total, elapsed, the result or a clear error) and what makes the
work safe to retry: the work commits in one transaction together with `status = done`, and a
running job holds a PostgreSQL advisory lock on its own connection, which the server drops the
moment the worker's process dies, so a reaper can tell a dead job from a slow one.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from .registry import kind_get


class Job(models.Model):
    counted = ngettext_lazy("%(n)s job", "%(n)s jobs", "n")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    # A kind registered by an app above (`jobs.registry`): this app names none of them.
    kind = models.CharField(max_length=20)
    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="jobs")
    import_batch = models.ForeignKey(
        "leagues.ImportBatch", null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
    # What the job is about: two requests for the same thing share one active job.
    key = models.CharField(max_length=200)
    params = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["key"],
                condition=models.Q(status__in=["queued", "running"]),
                name="job_one_active_per_key",
            )
        ]
        indexes = [models.Index(fields=["league", "kind", "status"], name="job_league_kind")]

    def __str__(self) -> str:
        return f"{self.label} · {self.league_id} ({self.status})"

    @property
    def label(self) -> str:
        """What the kind's app calls it; the bare kind for a kind no app registers any more."""
        try:
            return kind_get(self.kind).label
        except LookupError:
            return self.kind

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return min(99, 100 * self.done // self.total) if self.total else 0

    @property
    def elapsed(self) -> float:
        """Seconds since the job started (or was queued), up to its end."""
        start = self.started_at or self.created_at
        end = self.finished_at or timezone.now()
        return max(0.0, (end - start).total_seconds())


def job_page_url(job: Job) -> str:
    """The page that shows this job's outcome, as the kind's app says."""
    return kind_get(job.kind).page(job)
