"""The changes to league history that leagues records in the audit trail, with their labels.

Registered with `audit.registry` (and the undo of a correction or a deletion) in
`LeaguesConfig.ready()`; the codes are the strings stored in `AuditEntry.action`.
"""

from enum import StrEnum

from django.utils.translation import gettext_lazy as _


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
    Action.GAME_CREATE: _("Game entered"),
    Action.GAME_CORRECT: _("Game corrected"),
    Action.GAME_DELETE: _("Game deleted"),
    Action.GAME_UNDO: _("Correction undone"),
    Action.GAME_RESTORE: _("Deleted game restored"),
    Action.IMPORT_APPLY: _("CSV imported"),
    Action.CLAIM_REQUEST: _("Player claimed by an account"),
    Action.CLAIM_APPROVE: _("Claim approved"),
    Action.CLAIM_REFUSE: _("Claim refused"),
    Action.CLAIM_CODE_ISSUE: _("Claim code made"),
    Action.CLAIM_CODE_USE: _("Claim code used"),
    Action.PLAYER_JOIN: _("New player from an account"),
    Action.STORE_PROFILE: _("Store profile changed"),
    Action.STORE_CREATE: _("Store created"),
    Action.LEAGUE_CREATE: _("League created"),
    Action.STAFF_INVITE: _("Staff invited"),
    Action.STAFF_INVITE_CANCEL: _("Invitation cancelled"),
    Action.STAFF_JOIN: _("Staff joined"),
    Action.STAFF_ROLE: _("Staff role changed"),
    Action.STAFF_REMOVE: _("Staff removed"),
}
