"""The achievements app: a casual league's achievements, claimed by players after a game and
confirmed by their pod, and its leaderboard per season."""

from django.apps import AppConfig


class AchievementsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "achievements"

    def ready(self):
        from audit.registry import action_register, fields_register

        from .actions import LABELS
        from .history_fields import history_fields

        for action, label in LABELS.items():
            action_register(action, label)
        for object_type, fields in history_fields().items():
            fields_register(object_type, fields)
