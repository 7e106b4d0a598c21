"""The judges' desk: judge calls from the tables, the penalty log and deck checks."""

from django.apps import AppConfig


class JudgingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "judging"

    def ready(self):
        from audit.registry import action_register, fields_register
        from tournaments import hooks as tournaments

        from .actions import LABELS
        from .fillings import CALL_BOX, judge_call_box
        from .history_fields import history_fields
        from .page_versions import desk_scopes
        from .selectors import call_notes, lost_by_penalty

        for action, label in LABELS.items():
            action_register(action, label)
        for object_type, fields in history_fields().items():
            fields_register(object_type, fields)

        # A pod's result places a player who lost its game by a penalty last.
        tournaments.lost_by_penalty.register(lost_by_penalty)

        # The console's table cards show an open judge call, and its live part follows the
        # desk's scope (bumped by every call).
        tournaments.card_notes.register(call_notes)
        tournaments.card_note_scopes.register(desk_scopes)

        # A player's own event page shows the judge call box and their penalties.
        tournaments.slots["event.player.table"].fill(CALL_BOX, judge_call_box)
