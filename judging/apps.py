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

        # The console's table cards show an open judge call, and its live part follows the
        # desk's scope (bumped by every call).
        from tournaments.selectors import console

        from .page_versions import desk_scopes
        from .selectors import call_notes

        if call_notes not in console.CARD_NOTES:
            console.CARD_NOTES.append(call_notes)
            console.CARD_NOTE_SCOPES.append(desk_scopes)
