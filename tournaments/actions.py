"""The changes to an event that tournaments records in the audit trail, with their labels.

Registered with `audit.registry` (and the undo of a correction or a drop) in
`TournamentsConfig.ready()`; the codes are the strings stored in `AuditEntry.action`.
"""

from enum import StrEnum


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
    Action.MATCH_REPORT: "Match reported",
    Action.MATCH_CORRECT: "Match corrected",
    Action.MATCH_UNDO: "Match correction undone",
    Action.POD_REPORT: "Pod reported",
    Action.POD_CORRECT: "Pod corrected",
    Action.POD_UNDO: "Pod correction undone",
    Action.PAIRING_SWAP: "Players swapped",
    Action.PAIRING_MANUAL: "Paired by hand",
    Action.PAIRING_BYE: "Bye given",
    Action.ENTRY_DROP: "Player dropped",
    Action.ENTRY_UNDROP: "Drop undone",
    Action.ENTRY_REMOVE: "Entry removed",
    Action.BYE_REQUEST: "Half-point bye requested",
    Action.BYE_REQUEST_CANCEL: "Half-point bye request cancelled",
    Action.REGISTRATION_SETTINGS: "Online registration changed",
    Action.REGISTRATION_JOIN: "Registered online",
    Action.REGISTRATION_LEAVE: "Unregistered",
    Action.REGISTRATION_PROMOTE: "Moved up from the waitlist",
    Action.REGISTRATION_PAID: "Paid mark changed",
    Action.CHECK_IN_OPEN: "Check-in opened",
    Action.CHECK_IN: "Checked in",
    Action.CHECK_IN_CLOSE: "Check-in closed",
    Action.ENTRY_DECK: "Deck named",
    Action.CUT_SEATS: "Cut seats chosen",
    Action.DECK_SETTINGS: "Deck settings changed",
    Action.REPORT_SUBMIT: "Result reported by a player",
    Action.REPORT_CONFIRM: "Result confirmed by a player",
    Action.REPORT_ACCEPT: "Player's result accepted by the TO",
    Action.ROUND_CLOCK: "Round clock changed",
    Action.TABLE_EXTENSION: "Time extension",
    Action.EVENT_LISTING: "Time, place or fee changed",
    Action.EVENT_COPY: "Event copied to later weeks",
    Action.ROUND_OFFLINE: "Round paired on the TO's phone adopted",
    Action.SWISS_FINISH: "Swiss rounds ended early",
    Action.ROUND_OFFLINE_REFUSED: "Round paired on the TO's phone refused",
    Action.ROUND_DECKLISTS: "Paired without a legal list",
}
