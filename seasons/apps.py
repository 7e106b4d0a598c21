"""The seasons app: points seasons of a league, re-scored after every change to their events."""

from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons"

    def ready(self):
        from audit.registry import action_register, fields_register
        from jobs.registry import sweep_register

        from . import receivers, services  # noqa: F401 — connects the receivers
        from .actions import LABELS
        from .history_fields import history_fields

        for action, label in LABELS.items():
            action_register(action, label)
        for object_type, fields in history_fields().items():
            fields_register(object_type, fields)
        sweep_register(services.seasons_sweep)  # seasons whose catch-up was lost
