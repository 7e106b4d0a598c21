"""The seasons app: points seasons of a league, re-scored after every change to their events."""

from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons"

    def ready(self):
        from audit.registry import action_register
        from jobs.registry import sweep_register

        from . import receivers, services  # noqa: F401 — connects the receivers
        from .actions import LABELS

        for action, label in LABELS.items():
            action_register(action, label)
        sweep_register(services.seasons_sweep)  # seasons whose catch-up was lost
