"""The tournament app's errors: what a TO did that cannot be done, on the one error contract.

Every refusal here is a `core.errors.DomainError` (a `code`, a `message`, maybe a `field`, and
a `status`), and still a `ValueError` as before, so `core.errors_http.error_response` answers
all of them the same way. `TournamentError` is refused work (nothing was written, 400);
`AlreadyDone` a repeated tap (nothing changed, the console shows the event as it is now);
`ResultConflict` a result changed since the form was loaded (409, naming the result stored now
and who entered it); `UnknownPlayer` a name to confirm before it becomes a player. The message
may be given first, positionally, as every raise site writes it (like `LeagueError`). The pure
pairing cores keep their own `ValueError`s; the formats translate them into `TournamentError`.
"""

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext, pgettext

from core.errors import ConflictError, DomainError

from .domain import labels
from .domain.texts import Note, fill, notes_load


def domain_message(error) -> str:
    """A pure domain error's message (`domain.texts.Refusal`) in the active language: its
    English template translated, then its values filled in; a list of problems (`parts`,
    e.g. a hand-made round's) each translated. Any other error: its text as it is."""
    parts = getattr(error, "parts", ())
    if parts:
        return " ".join(fill(template, params, _, ngettext) for template, params in parts)
    if getattr(error, "plural", None) is not None:
        text = ngettext(error.template, error.plural, error.count)
        return text % error.params if error.params else text
    if hasattr(error, "template"):
        return fill(error.template, error.params, _)
    return str(error)


def note_text(note) -> str:
    """A pure domain warning (`domain.texts.Note`, or one as JSON stores it: `Note.data()`)
    in the active language; any other text (a stored text of before) as it is."""
    if isinstance(note, dict):
        try:
            note = Note.load(note)
        except (KeyError, TypeError, ValueError, AttributeError):  # not a note (an import)
            return str(note.get("msgid") or note.get("text") or "")
    if isinstance(note, Note):
        # Translators: between the items of a list inside a sentence ("3 v 8 (met before: 2);
        # 4 v 9 (met before: 1)"); an item may hold a comma of its own.
        between = pgettext("between the items of a list", "; ")
        try:
            return note.render(_, ngettext, between.join, pgettext, npgettext)
        except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
            return str(note)
    return str(note)


def note_texts(notes) -> list[str]:
    return [note_text(note) for note in notes]


def stored_note_texts(value) -> list[str]:
    """A stored list of notes (a round's `notes`) in the active language, one text each; a
    text of before, one per line, as written."""
    return [note_text(note) for note in notes_load(value)]


class TournamentError(DomainError, ValueError):
    """Bad input for a tournament write; `field` says where, the message says why."""

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None):
        super().__init__(message=message, code=code, field=field)


class AlreadyDone(TournamentError):
    """The action was already done (a double tap, or two TOs pressing the same button): nothing
    changed, and the console shows the event as it is now."""

    default_code = "already_done"


class DecklistsMissing(TournamentError):
    """The event requires a legal list and these entries have none (`rows`: each entry's id,
    player and why): round 1 (`top_cut` 0) or the top cut of `top_cut` players waits until
    the TO has seen them and chosen to go on (IPG 3.4, Decklist Problem). Nothing was
    written. Each of the two has its own sentence (the step put into one as a phrase read
    wrongly in other languages)."""

    def __init__(self, rows: list[dict], *, top_cut: int = 0):
        names = "; ".join(f"{row['player']} ({row['why'].rstrip('.')})" for row in rows)
        count = len(rows)
        if top_cut:
            message = ngettext(
                "%(count)s player without a legal list: %(names)s. Let them fix it first, or "
                "start the top %(size)s and record a Decklist Problem.",
                "%(count)s players without a legal list: %(names)s. Let them fix it first, or "
                "start the top %(size)s and record a Decklist Problem.",
                count,
            )
        else:
            message = ngettext(
                "%(count)s player without a legal list: %(names)s. Let them fix it first, or "
                "pair round 1 and record a Decklist Problem.",
                "%(count)s players without a legal list: %(names)s. Let them fix it first, or "
                "pair round 1 and record a Decklist Problem.",
                count,
            )
        values = {"count": count, "names": names, "size": top_cut}
        super().__init__(message % values, code="decklists")
        self.rows = rows
        self.top_cut = top_cut


def describe_result(table) -> str:
    """The result stored on `table` in a few words: "Ann won", "a draw", "no result yet";
    a match's games when they were given ("Ann won 2-0-1", "a draw 0-0-3", en dashes)."""
    if not table.reported:
        return _("no result yet")
    seats = list(table.seats.all())
    if not table.is_draw and table.winner_id is not None:
        # The winner's games first ("Bob won 2-1"), whichever seat they had.
        seats.sort(key=lambda seat: seat.entry_id != table.winner_id)
    games = labels.result_label(
        reported=True,
        is_draw=table.is_draw,
        game_wins=[seat.game_wins for seat in seats],
        game_draws=table.game_draws,
    )
    games = games if games and games != "draw" else ""  # the English one: before translation
    if table.is_draw or table.winner_id is None:
        return _("a draw %(games)s") % {"games": games} if games else _("a draw")
    if games:
        return _("%(player)s won %(games)s") % {"player": table.winner.player, "games": games}
    return _("%(player)s won") % {"player": table.winner.player}


class ResultConflict(TournamentError, ConflictError):
    """Someone changed this table's result since the form was loaded (HTTP 409); the message
    says what is stored now and who entered it, and `table` is that table."""

    status = 409
    default_code = "stale_result"

    def __init__(self, table, *, play, message: str | None = None):
        if message is None:
            when = timezone.localtime(table.reported_at) if table.reported_at else None
            values = {
                "number": table.number,
                "result": describe_result(table),
                "by": table.reported_by or _("someone"),
            }
            # A table's sentence and a pod's, each whole (`Format.table_sentence`).
            pick = play.table_sentence
            if when:
                values["time"] = f"{when:%H:%M}"
                message = pick(
                    pgettext(
                        "a 1v1 table",
                        "Table %(number)s already has a different result: %(result)s (reported "
                        "by %(by)s at %(time)s). Check it below before changing it.",
                    ),
                    pgettext(
                        "a pod",
                        "Pod %(number)s already has a different result: %(result)s (reported "
                        "by %(by)s at %(time)s). Check it below before changing it.",
                    ),
                )
            else:
                message = pick(
                    pgettext(
                        "a 1v1 table",
                        "Table %(number)s already has a different result: %(result)s (reported "
                        "by %(by)s). Check it below before changing it.",
                    ),
                    pgettext(
                        "a pod",
                        "Pod %(number)s already has a different result: %(result)s (reported "
                        "by %(by)s). Check it below before changing it.",
                    ),
                )
            message %= values
        super().__init__(message, code="stale_result")
        self.table = table


class UnknownPlayer(TournamentError):
    """A name that is no player of the store yet: registering it creates a player, so the TO
    confirms it first (a typo would otherwise become a new player)."""

    def __init__(self, name: str, organization):
        super().__init__(
            _("New player? %(name)s is not a player of %(store)s yet — tick to confirm.")
            % {"name": name, "store": organization},
            code="new_player",
            field="name",
        )
        self.name = name
