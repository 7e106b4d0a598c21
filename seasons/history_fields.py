"""How the History shows the data this app's entries keep before and after a change
(audit.registry.fields_register, from `SeasonsConfig.ready()`): per kind of entry, each
key's label and a coded value's labels. Its own module: it reads the models, which the
actions module must not (the formats import the actions)."""

from django.utils.translation import gettext_lazy as _


def history_fields() -> dict[str, dict]:
    """How the History shows the data a season's entries keep (audit.registry.fields_register)."""
    from .models import SeriesMember

    counts = {
        "entering": _("Points for entering"),
        "per_round": _("Points per round"),
        "per_win": _("Points per win"),
        "per_draw": _("Points per draw"),
        "per_bye": _("Points per bye"),
    }
    return {
        "season": {
            "name": _("Name"),
            "starts_on": _("Starts"),
            "ends_on": _("Ends"),
            "tiebreaks": _("Tiebreakers"),
            "event_types": _("Event types"),
            "events_removed": _("Events removed"),
            "changes": _("Changes"),
        },
        "eventtype": {
            "name": _("Name"),
            "placings": _("Points by placing"),
            "best_finishes": _("Best finishes counted"),
            **counts,
        },
        "series": {"name": _("Name"), "store": _("Store")},
        "seriesmember": {
            "series": _("Series"),
            "status": (_("Status"), SeriesMember.Status.choices),
            "events_removed": _("Events removed"),
        },
        "serieslink": {"player": _("Player"), "same_as": _("Same player as")},
    }
