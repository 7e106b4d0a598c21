"""The changes to an achievement league that it records in the History, with their labels."""

from enum import StrEnum

from django.utils.translation import gettext_lazy as _


class Action(StrEnum):
    ACHIEVEMENT_CREATE = "achievement.create"
    ACHIEVEMENT_CHANGE = "achievement.change"
    SCORING_CHANGE = "achievement.scoring"
    CLAIM = "achievement.claim"
    CONFIRM = "achievement.confirm"
    DECLINE = "achievement.decline"
    WITHDRAW = "achievement.withdraw"
    SETTLE = "achievement.settle"
    AWARD = "achievement.award"


LABELS = {
    Action.ACHIEVEMENT_CREATE: _("Achievement added"),
    Action.ACHIEVEMENT_CHANGE: _("Achievement changed"),
    Action.SCORING_CHANGE: _("Achievement league's points changed"),
    Action.CLAIM: _("Achievement claimed"),
    Action.CONFIRM: _("Achievement confirmed by a podmate"),
    Action.DECLINE: _("Achievement declined by a podmate"),
    Action.WITHDRAW: _("Achievement claim withdrawn"),
    Action.SETTLE: _("Achievement claim settled"),
    Action.AWARD: _("Achievement awarded"),
}


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
