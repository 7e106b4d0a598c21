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
