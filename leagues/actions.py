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
    STORE_PROFILE = "store.profile"
    STORE_CREATE = "store.create"
    LEAGUE_CREATE = "league.create"
    STAFF_INVITE = "staff.invite"
    STAFF_INVITE_CANCEL = "staff.invite_cancel"
    STAFF_JOIN = "staff.join"
    STAFF_ROLE = "staff.role"
    STAFF_REMOVE = "staff.remove"


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
    Action.STORE_PROFILE: "Store profile changed",
    Action.STORE_CREATE: "Store created",
    Action.LEAGUE_CREATE: "League created",
    Action.STAFF_INVITE: "Staff invited",
    Action.STAFF_INVITE_CANCEL: "Invitation cancelled",
    Action.STAFF_JOIN: "Staff joined",
    Action.STAFF_ROLE: "Staff role changed",
    Action.STAFF_REMOVE: "Staff removed",
}
