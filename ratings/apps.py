"""The ratings app: connects its signal receivers and registers its background jobs."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self):
        from jobs.models import Job
        from jobs.registry import handler_register

        from . import (
            jobs,
            receivers,  # noqa: F401 — connects the signal receivers
        )

        handler_register(Job.Kind.IMPORT_APPLY, jobs.import_apply)
        handler_register(Job.Kind.RERATE, jobs.rerate)
        handler_register(Job.Kind.CATCH_UP, jobs.catch_up)
        handler_register(Job.Kind.LAB, jobs.lab)
