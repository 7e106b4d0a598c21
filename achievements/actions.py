"""The changes to an achievement league that it records in the History, with their labels."""

from enum import StrEnum


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
    Action.ACHIEVEMENT_CREATE: "Achievement added",
    Action.ACHIEVEMENT_CHANGE: "Achievement changed",
    Action.SCORING_CHANGE: "Achievement league's points changed",
    Action.CLAIM: "Achievement claimed",
    Action.CONFIRM: "Achievement confirmed by a podmate",
    Action.DECLINE: "Achievement declined by a podmate",
    Action.WITHDRAW: "Achievement claim withdrawn",
    Action.SETTLE: "Achievement claim settled",
    Action.AWARD: "Achievement awarded",
}
