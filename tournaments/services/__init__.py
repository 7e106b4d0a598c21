"""Running a Swiss event: register, pair a round, report results, drop, end rounds.

One function per thing a TO does, in a module per use case: `events` (creating an event),
`entries` (registration, drop, undrop, remove), `rounds` (pairing, ending, manual edits),
`results` (reporting, correcting and undoing a table's result) and `topcut`. Each is one
transaction that first locks the tournament row, so two TOs at two phones are serialised. A
reported table becomes (or corrects) a league `Game`, so ratings and the league standings
follow. What differs between 1v1 matches and pods is asked of the event's format
(`tournaments.formats`); the pairing and standings are computed by the pure modules in
tournaments/domain from the stored history (`tournaments.selectors`). Errors are
`TournamentError`s (`tournaments.errors`) with a code and a message a TO can act on; nothing
is written then. Each result, correction, pairing edit and drop writes an audit entry (before
and after) in the same transaction, through `audit.services.log_action`.

Every name is re-exported here, so `from tournaments import services; services.round_pair(...)`
reads as before; the reads the services share are the selectors' and re-exported too.
"""

from ..errors import AlreadyDone, ResultConflict, TournamentError, UnknownPlayer
from ..formats import EDITS
from ..selectors import (
    Standing,
    gw_floor,
    history,
    omw_floor,
    points_scheme,
    round_seating_key,
    seating_key,
    standings,
    suggested_structure,
    tiebreakers,
    top_cut_bracket,
    top_cut_label,
    top_cut_seeds,
)
from .clock import round_clock_set, table_extension_set
from .decks import deck_settings_set, entry_deck_set
from .entries import (
    entry_drop,
    entry_drop_self,
    entry_drop_undo,
    entry_register,
    entry_remove,
    entry_undrop,
    requested_bye_add,
    requested_bye_remove,
)
from .events import (
    EVENT_DAYS_AHEAD_UNCONFIRMED,
    POINT_PRESETS,
    far_date_problem,
    listing_check,
    tournament_create,
)
from .registration import (
    CheckInClosed,
    check_in,
    check_in_close,
    check_in_open,
    registration_join,
    registration_leave,
    registration_list,
    registration_paid_set,
    registration_settings_set,
    seats_taken,
)
from .reports import RateLimited, ReportClosed, report_accept, report_confirm, report_submit
from .results import table_report, table_snapshot, table_undo
from .rounds import (
    round_advance,
    round_edit,
    round_end,
    round_give_bye,
    round_pair,
    round_snapshot,
    round_swap,
)
from .series import MAX_WEEKS, Copies, tournament_copy_weekly, tournament_listing_set
from .topcut import cut_seat_order, cut_seats_choose, top_cut_start

__all__ = [
    "EDITS",
    "EVENT_DAYS_AHEAD_UNCONFIRMED",
    "MAX_WEEKS",
    "POINT_PRESETS",
    "AlreadyDone",
    "CheckInClosed",
    "Copies",
    "RateLimited",
    "ReportClosed",
    "ResultConflict",
    "Standing",
    "TournamentError",
    "UnknownPlayer",
    "check_in",
    "check_in_close",
    "check_in_open",
    "cut_seat_order",
    "cut_seats_choose",
    "deck_settings_set",
    "entry_deck_set",
    "entry_drop",
    "entry_drop_self",
    "entry_drop_undo",
    "entry_register",
    "entry_remove",
    "entry_undrop",
    "far_date_problem",
    "gw_floor",
    "history",
    "listing_check",
    "omw_floor",
    "points_scheme",
    "registration_join",
    "registration_leave",
    "registration_list",
    "registration_paid_set",
    "registration_settings_set",
    "report_accept",
    "report_confirm",
    "report_submit",
    "requested_bye_add",
    "requested_bye_remove",
    "round_advance",
    "round_clock_set",
    "round_edit",
    "round_end",
    "round_give_bye",
    "round_pair",
    "round_seating_key",
    "round_snapshot",
    "round_swap",
    "seating_key",
    "seats_taken",
    "standings",
    "suggested_structure",
    "table_extension_set",
    "table_report",
    "table_snapshot",
    "table_undo",
    "tiebreakers",
    "top_cut_bracket",
    "top_cut_label",
    "top_cut_seeds",
    "top_cut_start",
    "tournament_copy_weekly",
    "tournament_create",
    "tournament_listing_set",
]
