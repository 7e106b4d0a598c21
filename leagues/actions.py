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
    CLAIM_REQUEST = "player.claim"
    CLAIM_APPROVE = "player.claim_approve"
    CLAIM_REFUSE = "player.claim_refuse"
    CLAIM_CODE_ISSUE = "player.claim_code"
    CLAIM_CODE_USE = "player.claim_code_use"
    PLAYER_JOIN = "player.join"


LABELS = {
    Action.GAME_CREATE: "Game entered",
    Action.GAME_CORRECT: "Game corrected",
    Action.GAME_DELETE: "Game deleted",
    Action.GAME_UNDO: "Correction undone",
    Action.GAME_RESTORE: "Deleted game restored",
    Action.IMPORT_APPLY: "CSV imported",
    Action.CLAIM_REQUEST: "Player claimed by an account",
    Action.CLAIM_APPROVE: "Claim approved",
    Action.CLAIM_REFUSE: "Claim refused",
    Action.CLAIM_CODE_ISSUE: "Claim code made",
    Action.CLAIM_CODE_USE: "Claim code used",
    Action.PLAYER_JOIN: "New player from an account",
}
