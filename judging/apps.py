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

        # A pod's result places a player who lost its game by a penalty last.
        from tournaments.services import results

        from .selectors import lost_by_penalty

        if lost_by_penalty not in results.LOST_BY_PENALTY:
            results.LOST_BY_PENALTY.append(lost_by_penalty)
