"""Deck checks: the tables the picker proposes for a round (judging.domain.deckcheck, from the
round's tables, the standings and the players already checked), a check started at a table
and done, its minutes becoming the table's time extension (tournaments' own extension
service: added to what the table has)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from audit.services import log_action
from audit.summary import N_, Summary
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Round, Seat, Table
from tournaments.services.clock import MAX_EXTENSION, table_extension_set
from tournaments.summaries import table_phrase

from ..actions import Action
from ..models import DeckCheck
from ..page_versions import desk_changed
from .common import event_lock, seated


@transaction.atomic
def deck_check_start(*, table: Table, by=None) -> DeckCheck:
    event = event_lock(table.round.tournament_id)
    table = Table.objects.select_related("round").get(pk=table.pk)
    if table.round.status != Round.Status.PLAYING:
        raise TournamentError(_("Deck checks are for the round being played."), code="not_playing")
    entries = seated(table)
    if len(entries) < 2:
        raise TournamentError(_("A bye has no deck to check here."), code="bye")
    if DeckCheck.objects.filter(table=table).exists():
        text = event.play.table_sentence(
            pgettext("a 1v1 table", "Table %(number)s is already being checked."),
            pgettext("a pod", "Pod %(number)s is already being checked."),
        )
        raise AlreadyDone(text % {"number": table.number}, code="started")
    check = DeckCheck.objects.create(
        tournament=event, round=table.round, table=table, started_by=by
    )
    desk_changed(event.pk)
    where = table_phrase(table.round, table.number, event.play)
    summary = Summary(N_("%(where)s: deck check started"), where=where)
    after = {"started_at": check.started_at.isoformat()}
    log_action(event, Action.DECK_CHECK_START, check, summary, None, after, by)
    return check


@transaction.atomic
def deck_check_done(*, check: DeckCheck, minutes: int, note: str = "", by=None) -> DeckCheck:
    """The check is done after `minutes`: the table gets them as extra time."""
    event = event_lock(check.tournament_id)
    check = DeckCheck.objects.select_for_update().select_related("table__round").get(pk=check.pk)
    table = check.table
    if check.done_at is not None:
        text = event.play.table_sentence(
            pgettext("a 1v1 table", "The check of table %(number)s is already done."),
            pgettext("a pod", "The check of pod %(number)s is already done."),
        )
        raise AlreadyDone(text % {"number": table.number}, code="done")
    if not 0 <= minutes <= MAX_EXTENSION:
        raise TournamentError(
            _("A deck check's time is 0 to %(max)s minutes.") % {"max": MAX_EXTENSION},
            code="minutes",
            field="minutes",
        )
    if minutes and not table.reported and table.round.status == Round.Status.PLAYING:
        total = min(MAX_EXTENSION, table.extra_minutes + minutes)
        if total != table.extra_minutes:
            table_extension_set(round_=table.round, number=table.number, minutes=total, by=by)
    check.done_at, check.done_by, check.minutes = timezone.now(), by, minutes
    check.note = note.strip()[:1000]
    check.save()
    desk_changed(event.pk)
    summary = Summary(
        N_("%(where)s: deck check done, %(minutes)s min"),
        where=table_phrase(table.round, table.number, event.play),
        minutes=minutes,
    )
    after = {"done_at": check.done_at.isoformat(), "minutes": minutes}
    log_action(event, Action.DECK_CHECK_DONE, check, summary, None, after, by)
    return check


def checked_entries(event) -> set[int]:
    """Entries whose decks were checked in this event (any round)."""
    return set(
        Seat.objects.filter(table__deck_checks__tournament=event).values_list("entry_id", flat=True)
    )
