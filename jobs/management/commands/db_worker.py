"""`manage.py db_worker`: django-tasks-db's worker, plus a reaper for jobs whose worker died.

Every few seconds a thread re-queues jobs that were running in a process that is gone (their
advisory lock is free) and queued jobs whose task vanished, so a job interrupted by SIGKILL,
an out-of-memory kill or a machine restart runs again without anyone pressing anything.
"""

import threading

from django_tasks_db.management.commands import db_worker

from jobs.services import reap_forever

REAP_EVERY = 5.0


class Command(db_worker.Command):
    help = db_worker.Command.help + ", re-queueing the jobs of workers that died"

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--reap-every",
            type=float,
            default=REAP_EVERY,
            help="seconds between looks for jobs whose worker died (default: %(default)s)",
        )

    def handle(self, *args, reap_every: float, **options):
        threading.Thread(
            target=reap_forever, kwargs={"every": reap_every}, name="job-reaper", daemon=True
        ).start()
        return super().handle(*args, **options)
