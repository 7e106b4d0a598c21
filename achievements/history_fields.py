"""How the History shows the data this app's entries keep before and after a change
(audit.registry.fields_register, from `AchievementsConfig.ready()`): per kind of entry, each
key's label and a coded value's labels. Its own module: it reads the models, which the
actions module must not (the formats import the actions)."""

from django.utils.translation import gettext_lazy as _


def history_fields() -> dict[str, dict]:
    """How the History shows the data an achievement league's entries keep
    (audit.registry.fields_register)."""
    from .domain.scoring import RULES
    from .models import Claim

    return {
        "achievement": {
            "name": _("Name"),
            "description": _("Description"),
            "points": _("Points"),
            "how often": (_("How often"), {rule: _(rule) for rule in RULES.values()}),
            "active": _("Active"),
        },
        "scoring": {"per game": _("Points per game"), "by placing": _("Points by placing")},
        "claim": {
            "achievement": _("Achievement"),
            "points": _("Points"),
            "player": _("Player"),
            "night": _("Night"),
            "game": _("Game"),
            "status": (_("Status"), Claim.Status.choices),
        },
    }
