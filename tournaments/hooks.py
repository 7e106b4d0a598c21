"""What the apps above tournaments (judging, notifications, seasons, achievements) may hook
(core.hooks): its signals, the readers it asks, and its page slots. They fill these in their
`AppConfig.ready()`."""

from core.hooks import Reader, Slot, Slots, concat, union

from .signals import event_finished, event_touched, round_paired, waitlist_promoted

# Signals (tournaments.signals, sent inside the services' transactions).
signals = {
    "round_paired": round_paired,  # kwargs: round_
    "waitlist_promoted": waitlist_promoted,  # kwargs: registration
    "event_finished": event_finished,  # kwargs: tournament
    "event_touched": event_touched,  # kwargs: tournament_id
}

# Readers.
lost_by_penalty = Reader(
    "tournaments.lost_by_penalty",
    doc="Who lost a table's game by a judge's penalty: read(table) -> set of entry ids, so "
    "that a pod's result places them last whoever enters it (Pods.check_result). With no "
    "reader, no one did.",
    combine=union,
)


def _merge_notes(answers) -> dict:
    merged: dict[int, list] = {}
    for answer in answers:
        for table_id, notes in answer.items():
            merged.setdefault(table_id, []).extend(notes)
    return merged


card_notes = Reader(
    "tournaments.card_notes",
    doc="The notes on the console's table cards: read(tables) -> {table id: [CardNote]}, "
    "one query per reader; combined in registration order.",
    combine=_merge_notes,
)
card_note_scopes = Reader(
    "tournaments.card_note_scopes",
    doc="The page scopes those notes hang on, so that the console's live part answers when "
    "they change: read(event_id) -> [scope].",
    combine=concat,
)

# Page slots: {% slot "name" key=value %} (core.templatetags.slots).
slots = Slots(
    Slot(
        "event.player.table",
        doc="A player's own event page (reports room's my_event.html), inside its live part, "
        "under their seat: event, entry, token (their link's), mine (selectors.reports.my_seat).",
    ),
)
