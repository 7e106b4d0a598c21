"""Writes to league data: one function per use case, each one transaction, in a module per
entity: `common` (the league error, the lock, slugs, the date rule), `players`, `games`
(record, correct, delete, undo, the entry form's use case), `imports` (CSV plans, previews,
the import), `claims` (accounts as players) and `store` (the store's profile, new leagues,
staff and their invitations). This package hands every public name on, so callers write
`services.game_record`.

Every game write locks its league row first (SELECT ... FOR UPDATE), so concurrent entries,
corrections and imports for one league are serialised; that is what keeps duplicate detection
honest now and the rating ledger in order later. Validation raises `LeagueError` with a field
and a message a person can act on; nothing is written when it does.

Every write records an `AuditEntry` (who, when, before, after) in its own transaction through
`audit.services.log_action`, whatever the entry point: the form, the admin, an import, the
API or a tournament table. A game carries a `version`: a correction made from an outdated form
raises `GameConflict` unless it is identical to what is stored, and an identical correction is
a no-op (no entry, no re-rating). `game_correction_undo` and `game_delete_undo` put a
correction or a deletion back; `audit.services.audit_undo` calls them (see leagues.apps).
"""

from audit.errors import UndoRefused

from .claims import (
    CODE_ALPHABET,
    ClaimAlreadyDone,
    claim_code_issue,
    claim_decide,
    claim_request,
    claim_with_code,
    code_clean,
    code_format,
    player_join,
)
from .common import (
    SLUG_SUFFIX_ROOM,
    GameConflict,
    LeagueError,
    ResultIn,
    game_date_check,
    game_date_latest,
    slug_new,
)
from .games import (
    FinishLine,
    UnknownPlayers,
    game_correction_undo,
    game_delete,
    game_delete_undo,
    game_enter,
    game_record,
    game_snapshot,
    game_update,
    games_delete,
)
from .imports import (
    IMPORT_CHUNK,
    PREVIEW_ROWS,
    ImportPlan,
    ImportRefused,
    ImportReport,
    content_sha256,
    games_as_csv_games,
    games_import,
    import_batch_cancel,
    import_batch_create,
    import_batch_preview,
    import_plan,
    import_preview_build,
    import_refusal_message,
    text_line_count,
)
from .players import (
    LookAlikeNames,
    names_folded,
    player_name_clean,
    players_find,
    players_get_or_create,
    players_look_alike,
    players_new_check,
)
from .store import (
    Invited,
    LogoUpload,
    StaffAlreadyInvited,
    StoreCreated,
    invitation_accept,
    invitation_cancel,
    invitation_find,
    invitation_problem,
    league_create,
    league_entry_key_new,
    organization_create,
    organization_profile_update,
    organization_slug_new,
    staff_invite,
    staff_remove,
    staff_role_set,
    store_time_zone,
    time_zones,
)

__all__ = [
    "CODE_ALPHABET",
    "IMPORT_CHUNK",
    "PREVIEW_ROWS",
    "SLUG_SUFFIX_ROOM",
    "ClaimAlreadyDone",
    "FinishLine",
    "GameConflict",
    "ImportPlan",
    "ImportRefused",
    "ImportReport",
    "Invited",
    "LeagueError",
    "LogoUpload",
    "LookAlikeNames",
    "ResultIn",
    "StaffAlreadyInvited",
    "StoreCreated",
    "UndoRefused",
    "UnknownPlayers",
    "claim_code_issue",
    "claim_decide",
    "claim_request",
    "claim_with_code",
    "code_clean",
    "code_format",
    "content_sha256",
    "game_correction_undo",
    "game_date_check",
    "game_date_latest",
    "game_delete",
    "game_delete_undo",
    "game_enter",
    "game_record",
    "game_snapshot",
    "game_update",
    "games_as_csv_games",
    "games_delete",
    "games_import",
    "import_batch_cancel",
    "import_batch_create",
    "import_batch_preview",
    "import_plan",
    "import_preview_build",
    "import_refusal_message",
    "invitation_accept",
    "invitation_cancel",
    "invitation_find",
    "invitation_problem",
    "league_create",
    "league_entry_key_new",
    "names_folded",
    "organization_create",
    "organization_profile_update",
    "organization_slug_new",
    "player_join",
    "player_name_clean",
    "players_find",
    "players_get_or_create",
    "players_look_alike",
    "players_new_check",
    "slug_new",
    "staff_invite",
    "staff_remove",
    "staff_role_set",
    "store_time_zone",
    "text_line_count",
    "time_zones",
]
