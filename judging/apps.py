"""The judges' desk: judge calls from the tables, the penalty log and deck checks."""

from django.apps import AppConfig


class JudgingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "judging"

    def ready(self):
        from audit.registry import action_register

        from .actions import LABELS

        for action, label in LABELS.items():
            action_register(action, label)
