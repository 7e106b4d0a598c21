"""A judge call: a player (or the TO, from the console) calls a judge to a table; a judge
takes it ("on my way", the others see who), then closes it with an optional note and, in the
same step, a time extension for the table (tournaments' own extension service); the caller
may cancel their own. Every step is in the History with its time.

Calls are rate-limited per entry (`RATE_LIMIT` in `RATE_WINDOW`) and a table has at most one
open call (the database's constraint): a second tap, or the opponent's call, is told a judge
is already called. Each step bumps the judges' desk and the table's players' pages.
"""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from audit.services import log_action
from audit.summary import N_, Summary
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Entry, Round, Table
from tournaments.services.clock import MAX_EXTENSION, table_extension_set
from tournaments.summaries import table_phrase

from ..actions import Action
from ..models import JudgeCall
from ..page_versions import desk_changed
from .common import event_lock, seated

RATE_LIMIT = 3  # calls per entry...
RATE_WINDOW = timedelta(minutes=10)  # ...in this long


def _hm(moment) -> str:
    return time_format(timezone.localtime(moment), "H:i")


# Why a judge is called, inside the History's sentence ("judge called by Ann (a ruling)").
REASONS = {
    JudgeCall.Reason.RULING: Summary(N_("a ruling")),
    JudgeCall.Reason.DISPUTE: Summary(N_("a dispute")),
    JudgeCall.Reason.TIME: Summary.pgettext("why a judge is called", "time"),
}


def _where(table: Table, play) -> Summary:
    return table_phrase(table.round, table.number, play)


@transaction.atomic
def call_create(
    *, table: Table, entry: Entry | None = None, reason: str = "", by=None, via_link: bool = False
) -> JudgeCall:
    """Call a judge to `table` (by its player `entry`, or by the TO when None)."""
    event = event_lock(table.round.tournament_id)
    play = event.play
    table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    if reason not in JudgeCall.Reason.values:
        raise TournamentError(_("Choose a reason from the list."), code="reason", field="reason")
    if table.round.status != Round.Status.PLAYING:
        raise TournamentError(
            _("This round is not being played: ask at the judges' desk."), code="not_playing"
        )
    entries = seated(table)
    # Each sentence whole for a table and for a pod (`Format.table_sentence`).
    say = play.table_sentence
    where = {"number": table.number}
    if len(entries) < 2:
        raise TournamentError(
            say(
                pgettext("a 1v1 table", "A bye needs no judge: it has no table."),
                pgettext("a pod", "A bye needs no judge: it has no pod."),
            ),
            code="bye",
        )
    if entry is not None and entry.pk not in entries:
        text = say(
            pgettext("a 1v1 table", "You are not at table %(number)s."),
            pgettext("a pod", "You are not at pod %(number)s."),
        )
        raise TournamentError(text % where, code="not_seated")
    open_call = JudgeCall.objects.filter(table=table, status__in=JudgeCall.OPEN).first()
    if open_call is not None:
        text = say(
            pgettext(
                "a 1v1 table", "A judge is already called to table %(number)s (since %(since)s)."
            ),
            pgettext("a pod", "A judge is already called to pod %(number)s (since %(since)s)."),
        )
        raise AlreadyDone(
            text % {**where, "since": _hm(open_call.called_at)}, code="already_called"
        )
    now = timezone.now()
    if entry is not None:
        recent = list(
            JudgeCall.objects.filter(entry=entry, called_at__gte=now - RATE_WINDOW)
            .order_by("called_at")
            .values_list("called_at", flat=True)
        )
        if len(recent) >= RATE_LIMIT:
            minutes = int(RATE_WINDOW.total_seconds() // 60)
            raise TournamentError(
                _(
                    "You called a judge %(times)s times in %(minutes)s minutes: call again "
                    "after %(after)s, or find a judge at the desk."
                )
                % {
                    "times": len(recent),
                    "minutes": minutes,
                    "after": _hm(recent[0] + RATE_WINDOW),
                },
                code="rate_limited",
            )
    call = JudgeCall.objects.create(
        tournament=event,
        table=table,
        entry=entry,
        reason=reason,
        called_at=now,
        called_by=by if getattr(by, "is_authenticated", False) else None,
        via_link=via_link,
    )
    desk_changed(event.pk, entries=entries)
    # By a player or by the TO: two sentences, as "by the TO" takes its own case in some
    # languages; each with and without the reason.
    if entry is None:
        template = (
            N_("%(where)s: judge called by the TO (%(reason)s)")
            if reason
            else N_("%(where)s: judge called by the TO")
        )
    else:
        template = (
            # Translators: the History: a player called a judge to their table, and why.
            N_("%(where)s: judge called by %(who)s (%(reason)s)")
            if reason
            else N_("%(where)s: judge called by %(who)s")
        )
    values = {"where": _where(table, play)}
    if entry is not None:
        values["who"] = entry.player.name
    if reason:
        values["reason"] = REASONS[reason]
    summary = Summary(template, **values)
    after = {"called_at": now.isoformat(), "reason": reason, "entry": entry.pk if entry else None}
    log_action(
        event, Action.CALL, call, summary, None, after, by, via="player's link" if via_link else ""
    )
    return call


def _locked(call: JudgeCall) -> tuple:
    event = event_lock(call.tournament_id)
    call = JudgeCall.objects.select_for_update().select_related("table__round").get(pk=call.pk)
    return event, call


def _closed(call: JudgeCall, play) -> AlreadyDone:
    where = {"number": call.table.number}
    if call.status == JudgeCall.Status.CANCELLED:
        text = play.table_sentence(
            pgettext("a 1v1 table", "The call from table %(number)s is already cancelled."),
            pgettext("a pod", "The call from pod %(number)s is already cancelled."),
        )
        return AlreadyDone(text % where, code="closed")
    text = play.table_sentence(
        pgettext("a 1v1 table", "The call from table %(number)s is already done."),
        pgettext("a pod", "The call from pod %(number)s is already done."),
    )
    return AlreadyDone(text % where, code="closed")


@transaction.atomic
def call_take(*, call: JudgeCall, by) -> JudgeCall:
    """A judge is on the way: the desk shows who, the players see "a judge is coming"."""
    event, call = _locked(call)
    if call.status == JudgeCall.Status.TAKEN:
        if call.taken_by_id == by.pk:
            text = _("You are already on the way to this call.")
        else:
            text = _("%(judge)s is already on the way to this call.") % {"judge": call.taken_by}
        raise AlreadyDone(text, code="taken")
    if not call.is_open:
        raise _closed(call, event.play)
    call.status, call.taken_at, call.taken_by = JudgeCall.Status.TAKEN, timezone.now(), by
    call.save(update_fields=["status", "taken_at", "taken_by"])
    desk_changed(event.pk, entries=seated(call.table))
    summary = Summary(
        N_("%(where)s: %(judge)s on the way"), where=_where(call.table, event.play), judge=str(by)
    )
    log_action(
        event, Action.CALL_TAKE, call, summary, None, {"taken_at": call.taken_at.isoformat()}, by
    )
    return call


@transaction.atomic
def call_done(*, call: JudgeCall, by, note: str = "", extension_minutes: int = 0) -> JudgeCall:
    """Close a call, with the judge's note and, in the same step, `extension_minutes` more
    for the table (added to what it has; the table's extension is set by
    `tournaments.services.clock.table_extension_set`, refused there for a reported table)."""
    event, call = _locked(call)
    if not call.is_open:
        raise _closed(call, event.play)
    if not 0 <= extension_minutes <= MAX_EXTENSION:
        raise TournamentError(
            _("A time extension is 0 to %(max)s minutes.") % {"max": MAX_EXTENSION},
            code="extension_minutes",
            field="minutes",
        )
    table = call.table
    if extension_minutes:
        total = table.extra_minutes + extension_minutes
        if total > MAX_EXTENSION:
            text = event.play.table_sentence(
                pgettext(
                    "a 1v1 table",
                    "Table %(number)s already has %(minutes)s extra minutes: at most %(max)s "
                    "in all.",
                ),
                pgettext(
                    "a pod",
                    "Pod %(number)s already has %(minutes)s extra minutes: at most %(max)s in all.",
                ),
            )
            raise TournamentError(
                text
                % {
                    "number": table.number,
                    "minutes": table.extra_minutes,
                    "max": MAX_EXTENSION,
                },
                code="extension_minutes",
                field="minutes",
            )
        table_extension_set(round_=table.round, number=table.number, minutes=total, by=by)
    now = timezone.now()
    call.status, call.closed_at, call.closed_by = JudgeCall.Status.DONE, now, by
    if call.taken_at is None:  # closed without "on my way" first: taken and done at once
        call.taken_at, call.taken_by = now, by
    call.note = note.strip()[:1000]
    call.extension_minutes = extension_minutes or None
    call.save()
    desk_changed(event.pk, entries=seated(table))
    where, judge = _where(table, event.play), str(by)
    if extension_minutes:
        summary = Summary(
            N_("%(where)s: judge call done by %(judge)s, +%(minutes)s min"),
            where=where,
            judge=judge,
            minutes=extension_minutes,
        )
    else:
        summary = Summary(N_("%(where)s: judge call done by %(judge)s"), where=where, judge=judge)
    after = {
        "called_at": call.called_at.isoformat(),
        "taken_at": call.taken_at.isoformat(),
        "done_at": now.isoformat(),
        "extension_minutes": extension_minutes,
    }
    log_action(event, Action.CALL_DONE, call, summary, None, after, by)
    return call


@transaction.atomic
def call_cancel(
    *, call: JudgeCall, entry: Entry | None, by=None, via_link: bool = False
) -> JudgeCall:
    """The player who called cancels their own call (`entry`: theirs; None for the TO, who
    may cancel any call from the desk)."""
    event, call = _locked(call)
    if entry is not None and call.entry_id != entry.pk:
        raise TournamentError(_("You can cancel only your own call."), code="not_yours")
    if not call.is_open:
        raise _closed(call, event.play)
    call.status, call.closed_at = JudgeCall.Status.CANCELLED, timezone.now()
    call.closed_by = by if getattr(by, "is_authenticated", False) else None
    call.save(update_fields=["status", "closed_at", "closed_by"])
    desk_changed(event.pk, entries=seated(call.table))
    who = entry.player.name if entry is not None else str(by)
    summary = Summary(
        N_("%(where)s: judge call cancelled by %(who)s"),
        where=_where(call.table, event.play),
        who=who,
    )
    log_action(
        event,
        Action.CALL_CANCEL,
        call,
        summary,
        None,
        {"closed_at": call.closed_at.isoformat()},
        by,
        via="player's link" if via_link else "",
    )
    return call
