"""What the judges' desk records in the History (audit.registry), with the labels it shows."""

from enum import StrEnum

from django.utils.translation import gettext_lazy as _


class Action(StrEnum):
    CALL = "judge.call"
    CALL_TAKE = "judge.call_take"
    CALL_DONE = "judge.call_done"
    CALL_CANCEL = "judge.call_cancel"
    PENALTY = "judge.penalty"
    DECK_CHECK_START = "judge.deck_check_start"
    DECK_CHECK_DONE = "judge.deck_check_done"


LABELS = {
    Action.CALL: _("Judge called"),
    Action.CALL_TAKE: _("Judge on the way"),
    Action.CALL_DONE: _("Judge call done"),
    Action.CALL_CANCEL: _("Judge call cancelled"),
    Action.PENALTY: _("Penalty given"),
    Action.DECK_CHECK_START: _("Deck check started"),
    Action.DECK_CHECK_DONE: _("Deck check done"),
}


def history_fields() -> dict[str, dict]:
    """How the History shows the data the desk's entries keep (audit.registry.fields_register)."""
    from django.utils.translation import pgettext_lazy

    from tournaments.errors import note_text

    from .labels import INFRACTIONS, PENALTIES
    from .models import JudgeCall

    return {
        "judgecall": {
            "called_at": pgettext_lazy("when a judge was called", "Called"),
            "reason": (_("Reason"), JudgeCall.Reason.choices),
            "entry": _("Entry"),
            "taken_at": pgettext_lazy("when a judge took a call", "Taken"),
            "done_at": pgettext_lazy("when a judge call was closed", "Closed"),
            "extension_minutes": _("Time extension (minutes)"),
        },
        "deckcheck": {
            "started_at": _("Started"),
            "done_at": _("Done"),
            "minutes": _("Minutes"),
        },
        "penalty": {
            "infraction": (_("Infraction"), INFRACTIONS),
            "penalty": (_("Penalty"), PENALTIES),
            "expected": (_("Expected penalty"), PENALTIES),
            # Notes kept before translation (a text of before: as written).
            "upgrade": (_("Upgrade"), note_text),
            "deviation_reason": _("Reason for the deviation"),
            "result_entered": (_("Result entered"), note_text),
        },
    }
