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
