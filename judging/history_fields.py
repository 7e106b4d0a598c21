"""How the History shows the data this app's entries keep before and after a change
(audit.registry.fields_register, from `JudgingConfig.ready()`): per kind of entry, each
key's label and a coded value's labels. Its own module: it reads the models, which the
actions module must not (the formats import the actions)."""

from django.utils.translation import gettext_lazy as _


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
