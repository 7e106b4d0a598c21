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
}
