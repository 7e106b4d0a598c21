"""The changes to league history that leagues records in the audit trail, with their labels.

Registered with `audit.registry` (and the undo of a correction or a deletion) in
`LeaguesConfig.ready()`; the codes are the strings stored in `AuditEntry.action`.
"""

from enum import StrEnum


class Action(StrEnum):
    GAME_CREATE = "game.create"
    GAME_CORRECT = "game.correct"
    GAME_DELETE = "game.delete"
    GAME_UNDO = "game.undo"
    GAME_RESTORE = "game.restore"
    IMPORT_APPLY = "import.apply"


LABELS = {
    Action.GAME_CREATE: "Game entered",
    Action.GAME_CORRECT: "Game corrected",
    Action.GAME_DELETE: "Game deleted",
    Action.GAME_UNDO: "Correction undone",
    Action.GAME_RESTORE: "Deleted game restored",
    Action.IMPORT_APPLY: "CSV imported",
}
