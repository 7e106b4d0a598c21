"""The round's clock: when time is up. Pairing a round starts it (`round_minutes` from then);
at a real event the TO starts it again once the players are seated, and gives or takes a few
minutes (a late start, a judge call at many tables). The pairings page, the players' pages
and the projector show it, so a change bumps their version like any change to the event.
"""

from datetime import datetime, timedelta, tzinfo

from django.db import transaction
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from audit.services import log_action
from audit.summary import N_, Summary
from leagues.services import store_time_zone

from ..actions import Action
from ..errors import AlreadyDone, TournamentError
from ..formats import format_for
from ..models import Round, Table
from ..page_versions import event_changed
from ..summaries import round_phrase, table_phrase
from .common import tournament_lock

MAX_SHIFT = 60  # minutes given or taken in one tap
MAX_AHEAD = timedelta(hours=4)  # the latest a round's time may run out, from now


def _stamp(ends_at: datetime | None) -> int:
    """The clock as the console's form carries it (`date:"U"`: whole seconds; 0: no clock)."""
    return int(ends_at.timestamp()) if ends_at else 0


def _shown(ends_at: datetime, zone: tzinfo) -> str:
    """A time as the store's clock reads it (its time zone: the console, the History page)."""
    return time_format(timezone.localtime(ends_at, zone), "H:i")


@transaction.atomic
def round_clock_set(
    *, round_: Round, start: bool = False, minutes: int = 0, expected: int | None = None, by=None
) -> Round:
    """Start the round's clock again now (`start`: the event's round length from now), or
    move the time it runs out by `minutes` (more time, or less: time may be called early, but
    not put before now).

    `expected` is the clock the TO's console showed (`_stamp`): if it moved since (a
    double tap, or another judge), nothing changes (AlreadyDone), so a tap never adds twice.
    """
    tournament = tournament_lock(round_.tournament_id)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    zone = store_time_zone(tournament.league.organization)
    if round_.status != Round.Status.PLAYING:
        raise TournamentError(
            _("This round is not being played: it has no clock."), code="not_playing"
        )
    if expected is not None and expected != _stamp(round_.ends_at):
        if round_.ends_at:
            message = _(
                "The round's clock changed since this page was loaded (was it tapped twice?): "
                "time is up at %(time)s. Nothing was changed again."
            ) % {"time": _shown(round_.ends_at, zone)}
        else:
            message = _(
                "The round's clock changed since this page was loaded (was it tapped twice?): "
                "it has no clock. Nothing was changed again."
            )
        raise AlreadyDone(message, code="stale_clock")
    now = timezone.now().replace(microsecond=0)
    if start:
        ends_at = now + timedelta(minutes=tournament.round_minutes)
    else:
        if not minutes or abs(minutes) > MAX_SHIFT:
            raise TournamentError(
                _("Give or take between 1 and %(most)s minutes.") % {"most": MAX_SHIFT},
                code="clock_minutes",
            )
        ends_at = (round_.ends_at or now) + timedelta(minutes=minutes)
        if minutes < 0 and ends_at < now:
            # Time may be called early, not in the past: the players' pages would say it.
            raise TournamentError(
                ngettext(
                    "Taking %(minutes)s minute would have time up at %(time)s, before now "
                    "(%(now)s): nothing was changed.",
                    "Taking %(minutes)s minutes would have time up at %(time)s, before now "
                    "(%(now)s): nothing was changed.",
                    -minutes,
                )
                % {"minutes": -minutes, "time": _shown(ends_at, zone), "now": _shown(now, zone)},
                code="clock_past",
            )
    if ends_at > now + MAX_AHEAD:
        raise TournamentError(
            _("Time may run out at most %(hours)s hours from now.")
            % {"hours": MAX_AHEAD.seconds // 3600},
            code="clock_far",
        )
    before = round_.ends_at
    round_.ends_at = ends_at
    round_.save(update_fields=["ends_at"])
    shown = _shown(ends_at, zone)
    if start:
        summary = Summary(
            N_("%(round)s: clock started again, time is up at %(time)s"),
            round=round_phrase(round_),
            time=shown,
        )
    else:
        summary = Summary(
            # Translators: the History: a round's clock moved by minutes ("+5", "-3").
            N_("%(round)s: %(minutes)s min, time is up at %(time)s"),
            round=round_phrase(round_),
            minutes=f"{minutes:+d}",
            time=shown,
        )
    old, new = {"ends_at": before.isoformat() if before else None}, {"ends_at": ends_at.isoformat()}
    log_action(tournament, Action.ROUND_CLOCK, round_, summary, old, new, by)
    return round_


MAX_EXTENSION = 30  # minutes a judge gives one table


@transaction.atomic
def table_extension_set(*, round_: Round, number: int, minutes: int, by=None) -> Table:
    """Give the table `number` of the round a time extension of `minutes` in all (0 takes it
    away): it plays that long past the round's clock.

    The total is set, not added to: the same form sent twice (a double tap, two judges at the
    same ruling) changes nothing the second time (AlreadyDone says what it is). The table's
    players' pages and the event's show it, so their versions move.
    """
    tournament = tournament_lock(round_.tournament_id, pages=False)
    round_ = Round.objects.get(pk=round_.pk)
    play = format_for(tournament)
    if round_.status != Round.Status.PLAYING:
        raise TournamentError(
            _("This round is not being played: no table needs more time."), code="not_playing"
        )
    if not 0 <= minutes <= MAX_EXTENSION:
        raise TournamentError(
            _("A time extension is 0 to %(most)s minutes (0 takes it away).")
            % {"most": MAX_EXTENSION},
            code="extension_minutes",
            field="minutes",
        )
    table = (
        Table.objects.select_for_update()
        .filter(round=round_, number=number)
        .prefetch_related("seats")
        .first()
    )
    if table is None:
        raise TournamentError(
            play.table_sentence(
                pgettext("a 1v1 table", "There is no table %(number)s in this round."),
                pgettext("a pod", "There is no pod %(number)s in this round."),
            )
            % {"number": number},
            code="no_table",
            field="table",
        )
    entries = [seat.entry_id for seat in table.seats.all()]
    if len(entries) < 2:
        raise TournamentError(
            play.table_sentence(
                pgettext("a 1v1 table", "Table %(number)s is a bye: it has no clock."),
                pgettext("a pod", "Pod %(number)s is a bye: it has no clock."),
            )
            % {"number": number},
            code="bye",
            field="table",
        )
    if minutes and table.reported:
        raise TournamentError(
            play.table_sentence(
                pgettext("a 1v1 table", "Table %(number)s has its result: it needs no more time."),
                pgettext("a pod", "Pod %(number)s has its result: it needs no more time."),
            )
            % {"number": number},
            code="reported",
            field="table",
        )
    before = table.extra_minutes
    if minutes == before:
        raise AlreadyDone(
            (
                play.table_sentence(
                    pgettext(
                        "a 1v1 table",
                        "Table %(number)s already has %(minutes)s extra minutes. Nothing was "
                        "changed again.",
                    ),
                    pgettext(
                        "a pod",
                        "Pod %(number)s already has %(minutes)s extra minutes. Nothing was "
                        "changed again.",
                    ),
                )
                if minutes
                else play.table_sentence(
                    pgettext(
                        "a 1v1 table",
                        "Table %(number)s already has no time extension. Nothing was changed "
                        "again.",
                    ),
                    pgettext(
                        "a pod",
                        "Pod %(number)s already has no time extension. Nothing was changed again.",
                    ),
                )
            )
            % {"number": number, "minutes": minutes},
            code="same_extension",
        )
    table.extra_minutes = minutes
    table.save(update_fields=["extra_minutes"])
    event_changed(tournament.pk, table_of=entries)
    where = table_phrase(round_, number, play)
    if minutes:
        summary = Summary(
            N_("%(where)s: +%(minutes)s min (was +%(before)s min)"),
            where=where,
            minutes=minutes,
            before=before,
        )
    else:
        summary = Summary(
            N_("%(where)s: no time extension (was +%(before)s min)"), where=where, before=before
        )
    old, new = {"extra_minutes": before}, {"extra_minutes": minutes}
    log_action(tournament, Action.TABLE_EXTENSION, table, summary, old, new, by)
    return table
