"""How the History shows the data this app's entries keep before and after a change
(audit.registry.fields_register, from `TournamentsConfig.ready()`): per kind of entry, each
key's label and a coded value's labels. Its own module: it reads the models, which the
actions module must not (the formats import the actions)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


def history_fields() -> dict[str, dict]:
    """How the History shows the data an event's entries keep (audit.registry.fields_register):
    per kind of entry, each key's label and a coded value's labels."""
    from .models import Registration, Tournament

    return {
        "registration": {
            "player": _("Player"),
            "status": (_("Status"), Registration.Status.choices),
            "invited": pgettext_lazy("a player invited to an event", "Invited"),
            "paid": _("Paid"),
            "checked_in": _("Checked in"),
        },
        "tournament": {
            "open": _("Registration open"),
            "cap": _("Player cap"),
            "deadline": _("Deadline"),
            "note": _("Note"),
            "check_in": (_("Check-in"), Tournament.CheckIn.choices),
            "no_shows": _("Did not check in"),
            "promoted": _("From the waitlist"),
            "swiss_rounds": _("Swiss rounds"),
            "status": (_("Status"), Tournament.Status.choices),
            "visibility": (_("Decklists shown"), Tournament.DeckVisibility.choices),
            "decklist_format": (_("Decklist format"), Tournament.DecklistFormat.choices),
            "decklist_required": _("Decklist required"),
        },
        "report": {
            "report": _("Report"),
            "result": _("Result"),
            "by": pgettext_lazy("who sent a report", "By"),
            "through_link": _("Through their link"),
            "sent": _("Sent"),
        },
    }
