"""The changes to an event that tournaments records in the audit trail, with their labels.

Registered with `audit.registry` (and the undo of a correction or a drop) in
`TournamentsConfig.ready()`; the codes are the strings stored in `AuditEntry.action`.
"""

from enum import StrEnum

from django.utils.translation import gettext_lazy as _


class Action(StrEnum):
    MATCH_REPORT = "match.report"
    MATCH_CORRECT = "match.correct"
    MATCH_UNDO = "match.undo"
    POD_REPORT = "pod.report"
    POD_CORRECT = "pod.correct"
    POD_UNDO = "pod.undo"
    PAIRING_SWAP = "pairing.swap"
    PAIRING_MANUAL = "pairing.manual"
    PAIRING_BYE = "pairing.bye"
    ENTRY_DROP = "entry.drop"
    ENTRY_UNDROP = "entry.undrop"
    ENTRY_REMOVE = "entry.remove"
    BYE_REQUEST = "entry.bye_request"
    BYE_REQUEST_CANCEL = "entry.bye_request_cancel"
    REGISTRATION_SETTINGS = "registration.settings"
    REGISTRATION_JOIN = "registration.join"
    REGISTRATION_LEAVE = "registration.leave"
    REGISTRATION_PROMOTE = "registration.promote"
    REGISTRATION_PAID = "registration.paid"
    CHECK_IN_OPEN = "check_in.open"
    CHECK_IN = "check_in.player"
    CHECK_IN_CLOSE = "check_in.close"
    ENTRY_DECK = "entry.deck"
    DECK_SETTINGS = "deck.settings"
    CUT_SEATS = "cut.seats"
    REPORT_SUBMIT = "report.submit"
    REPORT_CONFIRM = "report.confirm"
    REPORT_ACCEPT = "report.accept"
    ROUND_CLOCK = "round.clock"
    TABLE_EXTENSION = "table.extension"
    EVENT_LISTING = "event.listing"
    EVENT_COPY = "event.copy"
    ROUND_OFFLINE = "round.offline"
    ROUND_OFFLINE_REFUSED = "round.offline_refused"
    SWISS_FINISH = "event.swiss_finish"
    ROUND_DECKLISTS = "round.decklists"


LABELS = {
    Action.MATCH_REPORT: _("Match reported"),
    Action.MATCH_CORRECT: _("Match corrected"),
    Action.MATCH_UNDO: _("Match correction undone"),
    Action.POD_REPORT: _("Pod reported"),
    Action.POD_CORRECT: _("Pod corrected"),
    Action.POD_UNDO: _("Pod correction undone"),
    Action.PAIRING_SWAP: _("Players swapped"),
    Action.PAIRING_MANUAL: _("Paired by hand"),
    Action.PAIRING_BYE: _("Bye given"),
    Action.ENTRY_DROP: _("Player dropped"),
    Action.ENTRY_UNDROP: _("Drop undone"),
    Action.ENTRY_REMOVE: _("Entry removed"),
    Action.BYE_REQUEST: _("Half-point bye requested"),
    Action.BYE_REQUEST_CANCEL: _("Half-point bye request cancelled"),
    Action.REGISTRATION_SETTINGS: _("Online registration changed"),
    Action.REGISTRATION_JOIN: _("Registered online"),
    Action.REGISTRATION_LEAVE: _("Unregistered"),
    Action.REGISTRATION_PROMOTE: _("Moved up from the waitlist"),
    Action.REGISTRATION_PAID: _("Paid mark changed"),
    Action.CHECK_IN_OPEN: _("Check-in opened"),
    Action.CHECK_IN: _("Checked in"),
    Action.CHECK_IN_CLOSE: _("Check-in closed"),
    Action.ENTRY_DECK: _("Deck named"),
    Action.CUT_SEATS: _("Cut seats chosen"),
    Action.DECK_SETTINGS: _("Deck settings changed"),
    Action.REPORT_SUBMIT: _("Result reported by a player"),
    Action.REPORT_CONFIRM: _("Result confirmed by a player"),
    Action.REPORT_ACCEPT: _("Player's result accepted by the TO"),
    Action.ROUND_CLOCK: _("Round clock changed"),
    Action.TABLE_EXTENSION: _("Time extension"),
    Action.EVENT_LISTING: _("Time, place or fee changed"),
    Action.EVENT_COPY: _("Event copied to later weeks"),
    Action.ROUND_OFFLINE: _("Round paired on the TO's phone adopted"),
    Action.SWISS_FINISH: _("Swiss rounds ended early"),
    Action.ROUND_OFFLINE_REFUSED: _("Round paired on the TO's phone refused"),
    Action.ROUND_DECKLISTS: _("Paired without a legal list"),
}
