"""The queue's one notifications task: send whatever deliveries are due (the rows say what),
then ask for the next run when the next retry is due. `wake` asks for a run.

It runs on a queue of its own (`QUEUE`), served by its own worker
(`manage.py db_worker --queue-name notifications`, README, Deployment): a store's slow
receiver holds at most that worker, for at most a POST's deadline per message, never an
import or a re-rating on the default queue."""

from django.db.models import Min, Q
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult, get_date_max

from .models import Delivery
from .sending import deliveries_send_due

QUEUE = "notifications"


@task(queue_name=QUEUE)
def deliver_due() -> dict:
    counts = deliveries_send_due()
    schedule_next()
    return counts


def wake(run_after=None) -> None:
    """Enqueue `deliver_due` (now, or at `run_after`)."""
    runner = deliver_due if run_after is None else deliver_due.using(run_after=run_after)
    runner.enqueue()


def pending_runs():
    """The queue's runs of `deliver_due` not started yet."""
    return DBTaskResult.objects.filter(task_path=deliver_due.module_path, status="READY")


def due_by(moment) -> Q:
    # django-tasks-db stores "run as soon as possible" as its far-future date, not NULL.
    return Q(run_after=get_date_max()) | Q(run_after__lte=moment)


def runs_running():
    """Runs of `deliver_due` marked running (alive or dead: see services.deliveries_sweep)."""
    return DBTaskResult.objects.filter(task_path=deliver_due.module_path, status="RUNNING")


def schedule_next() -> None:
    """Ask for a worker when the next queued delivery is due, unless one is asked for already."""
    earliest = Delivery.objects.filter(status=Delivery.Status.QUEUED).aggregate(
        at=Min("next_attempt_at")
    )["at"]
    if earliest is None:
        return
    now = timezone.now()
    pending = pending_runs()
    if pending.filter(due_by(max(earliest, now))).exists():
        return
    wake(run_after=earliest if earliest > now else None)
