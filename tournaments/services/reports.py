"""Results reported by the players at the table and confirmed by the others (issue 15).

A seated player sends their table's result as one `domain.result.Result` (a pod's winner, a
draw or the full order; a match's games), read from their form by the event's format exactly
as the TO's card is: a `ResultReport`, keeping that value (as JSON), who sent it, when, how
(their account or their registration link) and the table's version. The others at the table
confirm it with one tap (`ReportConfirmation`); when the event's rule is met (`self_report`:
every player at the table agrees, or a strict majority of them) the report becomes the
table's result through `results.table_report`, exactly as a TO's entry, so the league game,
ratings and standings follow, and the log says who reported and who confirmed. A different
report from someone at the table leaves two open versions: the table is disputed until the
players agree or the TO accepts one (`report_accept`). The TO's own entry on the card always
decides and closes the open reports (in `table_report`).

Each player holds one stance at a table: their own open report, or a confirmation of
someone's. A new stance replaces the old one (the report is superseded, the confirmation
withdrawn), both kept. Sending a result someone at the table already reported is a
confirmation of it; sending or confirming again what one already holds changes nothing
(`AlreadyDone`). Players act only at their own table, only in the open round, only while it
has no result; at most RATE_LIMIT writes a minute each (`RateLimited`, HTTP 429).

Every write locks the event row, then the table row, as `table_report` does (the same order,
so a player's confirmation and a TO's entry never deadlock), and bumps the "reports" page
version (core.pagecache), which the players' pages poll; a report that completes bumps the
event's too.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from audit.actors import acting_user
from audit.services import log_action
from audit.summary import N_, Summary, as_data
from core.pagecache import touch

from ..actions import Action
from ..domain.reports import result_summary, still_needed
from ..domain.result import Result
from ..errors import AlreadyDone, TournamentError
from ..formats import format_for
from ..models import Entry, ReportConfirmation, ResultReport, Round, Seat, Table, Tournament
from ..summaries import result_phrase, table_phrase
from .common import tournament_lock
from .results import lost_by_penalty, table_report

# A player's writes (reports and confirmations) per minute: a phone's double taps and a
# change of mind fit well inside; a script hammering the table does not.
RATE_LIMIT = 6
RATE_WINDOW = timedelta(minutes=1)
REPORTS_SCOPE = "reports"  # core.pagecache scope of the players' report state, by event


class RateLimited(TournamentError):
    status = 429
    default_code = "rate_limited"


class ReportClosed(TournamentError):
    """The table or round no longer takes players' reports (its result is in, the round is
    over): a conflict with what is stored now."""

    status = 409
    default_code = "closed"


@dataclass(frozen=True)
class Outcome:
    """What a player's tap did: `report` is the report they stand behind now, `completed`
    whether it just became the table's result, `disputed` whether the table now holds two
    different open reports."""

    report: ResultReport
    completed: bool
    disputed: bool


def _lock(table_id: int) -> tuple[Tournament, Table, list[Seat]]:
    """The event's row, then the table's (the order `table_report` takes them), and the
    table's seats with their players."""
    table = Table.objects.select_related("round").get(pk=table_id)
    tournament = tournament_lock(table.round.tournament_id, pages=False)
    table = Table.objects.select_for_update(of=("self",)).select_related("round").get(pk=table_id)
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    # The console's view of the reports and the pages of this table's players (not the
    # event's public pages: reports are not on them).
    touch((REPORTS_SCOPE, tournament.pk), *(("entry", s.entry_id) for s in seats))
    return tournament, table, seats


def _check_open(tournament: Tournament, table: Table, seats: list[Seat]) -> None:
    if tournament.self_report == "off":
        raise TournamentError(
            _("At this event the TO enters the results: tell them yours."), code="off"
        )
    round_ = table.round
    latest = tournament.rounds.order_by("-number").values_list("pk", flat=True).first()
    if round_.status != Round.Status.PLAYING or round_.pk != latest:
        raise ReportClosed(
            _("%(round)s is no longer being played: nothing to report there.")
            % {"round": round_.label},
            code="round_closed",
        )
    if len(seats) < 2:
        raise TournamentError(_("A bye has no result to report."), code="bye")


def _already(reported: bool) -> str:
    """A second tap on one's own report, or on a report one confirmed."""
    if reported:
        return _("You already reported this result.")
    return _("You already confirmed this result.")


def _check_seated(entry: Entry, seats: list[Seat], play) -> None:
    if all(s.entry_id != entry.pk for s in seats):
        raise TournamentError(
            play.table_sentence(
                pgettext(
                    "a 1v1 table", "You do not sit at this table: report your own table's result."
                ),
                pgettext("a pod", "You do not sit at this pod: report your own pod's result."),
            ),
            code="not_seated",
        )


def _check_version(play, table: Table, expected_version: int | None) -> None:
    """A report sent from a phone's offline queue carries the table version the player saw:
    a table changed since (its result entered, corrected) is a conflict, never overwritten."""
    if expected_version is not None and table.version != expected_version:
        raise ReportClosed(
            play.table_sentence(
                pgettext(
                    "a 1v1 table",
                    "Your table changed after you reported offline (a result was entered "
                    "meanwhile): see it as it is now.",
                ),
                pgettext(
                    "a pod",
                    "Your pod changed after you reported offline (a result was entered "
                    "meanwhile): see it as it is now.",
                ),
            ),
            code="changed",
        )


def _check_rate(entry: Entry) -> None:
    since = timezone.now() - RATE_WINDOW
    recent = ResultReport.objects.filter(entry=entry, created_at__gte=since).count()
    recent += ReportConfirmation.objects.filter(entry=entry, created_at__gte=since).count()
    if recent >= RATE_LIMIT:
        raise RateLimited(
            _(
                "That is %(count)s reports and confirmations from you in a minute: wait a "
                "minute, or ask the TO."
            )
            % {"count": recent},
        )


def _outcome(play, table: Table, seats: list[Seat], result: Result) -> tuple:
    """What `result` makes of the table (the winner, every place, the games), which two
    reports compare: a winner alone and the order 1, 2, 2, 2 are the same report. A
    TournamentError (bad input, 400) when it is no result for this table."""
    entries = {s.entry_id: s for s in seats}
    if result.winner is not None and result.winner not in entries:
        raise TournamentError(
            play.table_sentence(
                pgettext("a 1v1 table", "That player does not sit at this table."),
                pgettext("a pod", "That player does not sit at this pod."),
            ),
            code="not_seated",
            field="winner",
        )
    winner_id, finish = play.check_result(
        entries,
        result,
        top_cut=table.round.kind == Round.Kind.TOP_CUT,
        lost=lost_by_penalty(table),
    )
    return winner_id, sorted(finish.items()), result.game_wins, result.game_draws


def _stored_outcome(play, table: Table, seats: list[Seat], report: ResultReport):
    """A stored report's outcome, or None when it no longer fits the table (its seats were
    changed since)."""
    try:
        return _outcome(play, table, seats, Result.from_json(report.result))
    except TournamentError:
        return None


def _open_reports(table: Table) -> list[ResultReport]:
    return list(
        table.reports.filter(status=ResultReport.Status.SUBMITTED)
        .select_related("entry__player")
        .prefetch_related("confirmations")
        .order_by("number")
    )


def _active(report: ResultReport) -> list[ReportConfirmation]:
    return [c for c in report.confirmations.all() if c.withdrawn_at is None]


def _agreeing(report: ResultReport) -> set[int]:
    return {report.entry_id} | {c.entry_id for c in _active(report)}


def _rule_met(tournament: Tournament, report: ResultReport, seats: list[Seat]) -> bool:
    """Every player at the table agrees ("all"), or strictly more than half of them
    ("majority": 2 of 2, 2 of 3, 3 of 4, 3 of 5)."""
    agree = len(_agreeing(report) & {s.entry_id for s in seats})
    return still_needed(agreeing=agree, players=len(seats), rule=tournament.self_report) == 0


def _drop_stance(entry: Entry, reports: list[ResultReport], now, keep: ResultReport | None):
    """Supersede `entry`'s own open report and withdraw their confirmations, except on
    `keep`."""
    for report in reports:
        if report is keep:
            continue
        if report.entry_id == entry.pk:
            report.status = ResultReport.Status.SUPERSEDED
            report.decided_at = now
            report.save(update_fields=["status", "decided_at"])
        for confirmation in _active(report):
            if confirmation.entry_id == entry.pk:
                confirmation.withdrawn_at = now
                confirmation.save(update_fields=["withdrawn_at"])


def _log(tournament, action, report, table, *, by, via_link, said, values, who, queued=""):
    """One History entry: its summary `said` (a msgid whose `%(where)s` is the table) with
    `values`, its lines read as sentences there (History lists an unknown kind's snapshot as
    "key: value"); the report row keeps the rest (the result, version)."""
    play = format_for(tournament)
    where = table_phrase(table.round, table.number, play)
    # Kept as sentences before translation and data, written in whoever reads the History
    # (tournaments.apps registers the fields' labels).
    after = {
        "report": Summary(N_("report %(number)s, %(where)s"), number=report.number, where=where),
        "result": values["result"],
        "by": who,
    }
    if via_link:
        after["through_link"] = True
    if queued:
        after["sent"] = Summary(
            N_("from the phone's queue, tapped at %(time)s offline"), time=queued
        )
    after = {key: as_data(value) for key, value in after.items()}
    summary = Summary(said, where=where, **values)
    via = "player's link" if via_link else ""
    log_action(tournament, action, report, summary, None, after, by, via=via)


def _complete(tournament, table, seats, report: ResultReport, reports, *, by, now) -> Table:
    """Make `report` the table's result: the others still open are superseded, and the
    result is entered as the TO's card would, saying who reported and who confirmed."""
    report.status = ResultReport.Status.CONFIRMED
    report.decided_at = now
    report.save(update_fields=["status", "decided_at"])
    for other in reports:
        if other is not report and other.status == ResultReport.Status.SUBMITTED:
            other.status = ResultReport.Status.SUPERSEDED
            other.decided_at = now
            other.save(update_fields=["status", "decided_at"])
    names = {s.entry_id: s.entry.player.name for s in seats}
    confirmed = [names[c.entry_id] for c in _active(report)]
    via = f"reported by {names[report.entry_id]}, confirmed by {', '.join(confirmed)}"
    return table_report(table=table, result=Result.from_json(report.result), by=by, via=via[:150])


@transaction.atomic
def report_submit(
    *,
    table: Table | int,
    entry: Entry,
    result: Result,
    by=None,
    via_link: bool = False,
    expected_version: int | None = None,
    queued: str = "",
) -> Outcome:
    """A seated player reports their table's result (as the event's format read it from
    their form, `Format.read_result`).

    The same result as an open report of someone else at the table confirms that report; a
    repeat of one's own stance is AlreadyDone; anything else is a new report, which replaces
    the player's earlier stance and, if another player reported differently, disputes the
    table. When the event's rule is met, the report becomes the result (`table_report`).
    From a phone's offline queue (`queued`: the time it was tapped), `expected_version` is
    the table's version the player saw: a table changed since is a conflict (ReportClosed).
    """
    tournament, table, seats = _lock(table if isinstance(table, int) else table.pk)
    play = format_for(tournament)
    _check_seated(entry, seats, play)
    _check_open(tournament, table, seats)
    if table.reported:
        if queued and _already_the_result(play, table, seats, entry, result):
            # A queued report sent again (its answer was lost): stored once already.
            raise AlreadyDone(_("You reported it: it is the result."), code="same_report")
        raise ReportClosed(
            play.table_sentence(
                pgettext(
                    "a 1v1 table",
                    "Table %(number)s already has its result: ask the TO if it is wrong.",
                ),
                pgettext(
                    "a pod", "Pod %(number)s already has its result: ask the TO if it is wrong."
                ),
            )
            % {"number": table.number},
            code="decided",
        )
    _check_version(play, table, expected_version)
    outcome = _outcome(play, table, seats, result)
    reports = _open_reports(table)
    same = next((r for r in reports if _stored_outcome(play, table, seats, r) == outcome), None)
    if same is not None and entry.pk in _agreeing(same):
        raise AlreadyDone(_already(same.entry_id == entry.pk), code="same_report")
    if same is not None:
        return _confirm(
            tournament, table, seats, same, reports, entry, by=by, via_link=via_link, queued=queued
        )
    _check_rate(entry)
    now = timezone.now()
    _drop_stance(entry, reports, now, keep=None)
    last = table.reports.order_by("-number").values_list("number", flat=True).first() or 0
    names = {s.entry_id: s.entry.player.name for s in seats}
    report = ResultReport.objects.create(
        table=table,
        entry=entry,
        number=last + 1,
        user=acting_user(by),
        via_link=via_link,
        result=result.as_json(),
        summary=result_summary(result, names)[:200],
        table_version=table.version,
        created_at=now,
    )
    report.entry = next(s.entry for s in seats if s.entry_id == entry.pk)
    _log(
        tournament,
        Action.REPORT_SUBMIT,
        report,
        table,
        by=by,
        via_link=via_link,
        said=N_("%(where)s: %(player)s reported %(result)s (report %(number)s)"),
        values={
            "player": names[entry.pk],
            "result": result_phrase(result, names),
            "number": report.number,
        },
        who=names[entry.pk],
        queued=queued,
    )
    reports = [r for r in reports if r.status == ResultReport.Status.SUBMITTED]
    reports.append(report)
    completed = _rule_met(tournament, report, seats)
    if completed:
        _complete(tournament, table, seats, report, reports, by=by, now=now)
    return Outcome(report, completed, not completed and len(reports) > 1)


@transaction.atomic
def report_confirm(
    *,
    report: ResultReport | int,
    entry: Entry,
    by=None,
    via_link: bool = False,
    expected_version: int | None = None,
    queued: str = "",
) -> Outcome:
    """A player at the table agrees with an open report (one tap). Their earlier stance is
    replaced; a repeat is AlreadyDone; when the rule is met the report becomes the result.
    `expected_version` and `queued` as for `report_submit`."""
    report_id = report if isinstance(report, int) else report.pk
    table_id = ResultReport.objects.filter(pk=report_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise TournamentError(_("No such report."), code="no_report")
    tournament, table, seats = _lock(table_id)
    play = format_for(tournament)
    _check_seated(entry, seats, play)
    _check_open(tournament, table, seats)
    reports = _open_reports(table)
    target = next((r for r in reports if r.pk == report_id), None)
    if target is None:
        stored = ResultReport.objects.get(pk=report_id)
        if stored.status == ResultReport.Status.CONFIRMED and entry.pk in {
            stored.entry_id,
            *stored.confirmations.filter(withdrawn_at__isnull=True).values_list(
                "entry_id", flat=True
            ),
        }:
            raise AlreadyDone(_("You confirmed it: it is the result."), code="same_report")
        raise ReportClosed(
            _("That report is no longer open (%(status)s): see the result as it is now.")
            % {"status": stored.get_status_display().lower()},
            code="report_closed",
        )
    if entry.pk in _agreeing(target):
        raise AlreadyDone(_already(target.entry_id == entry.pk), code="same_report")
    _check_version(play, table, expected_version)
    return _confirm(
        tournament, table, seats, target, reports, entry, by=by, via_link=via_link, queued=queued
    )


def _already_the_result(play, table: Table, seats: list[Seat], entry: Entry, result) -> bool:
    """Whether `entry` stands behind the report that became the table's result, and `result`
    is that report's."""
    done = table.reports.filter(
        status__in=[ResultReport.Status.CONFIRMED, ResultReport.Status.ACCEPTED]
    ).first()
    if done is None or entry.pk not in _agreeing(done):
        return False
    return _stored_outcome(play, table, seats, done) == _outcome(play, table, seats, result)


def _confirm(
    tournament, table, seats, report, reports, entry, *, by, via_link, queued=""
) -> Outcome:
    _check_rate(entry)
    now = timezone.now()
    _drop_stance(entry, reports, now, keep=report)
    ReportConfirmation.objects.create(
        report=report, entry=entry, user=acting_user(by), via_link=via_link, created_at=now
    )
    names = {s.entry_id: s.entry.player.name for s in seats}
    _log(
        tournament,
        Action.REPORT_CONFIRM,
        report,
        table,
        by=by,
        via_link=via_link,
        said=N_("%(where)s: %(player)s confirmed %(reporter)s's report: %(result)s"),
        values={
            "player": names[entry.pk],
            "reporter": names[report.entry_id],
            "result": result_phrase(Result.from_json(report.result), names),
        },
        who=names[entry.pk],
        queued=queued,
    )
    # The rule reads the confirmations as they are now.
    report._prefetched_objects_cache.pop("confirmations", None)
    reports = [r for r in reports if r.status == ResultReport.Status.SUBMITTED]
    completed = _rule_met(tournament, report, seats)
    if completed:
        _complete(tournament, table, seats, report, reports, by=by, now=now)
    return Outcome(report, completed, not completed and len(reports) > 1)


@transaction.atomic
def report_accept(*, report: ResultReport | int, by=None) -> Table:
    """The TO makes one open report the table's result (one tap on a disputed table): the
    other open reports are rejected, the result entered in the TO's name. A report already
    accepted is AlreadyDone; one closed otherwise (or a table with a result) is refused."""
    report_id = report if isinstance(report, int) else report.pk
    table_id = ResultReport.objects.filter(pk=report_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise TournamentError(_("No such report."), code="no_report")
    tournament, table, _seats = _lock(table_id)
    stored = ResultReport.objects.select_related("entry__player").get(pk=report_id)
    play = format_for(tournament)
    if stored.status in (ResultReport.Status.ACCEPTED, ResultReport.Status.CONFIRMED):
        raise AlreadyDone(
            play.table_sentence(
                pgettext("a 1v1 table", "Table %(number)s: that report is already the result."),
                pgettext("a pod", "Pod %(number)s: that report is already the result."),
            )
            % {"number": table.number},
            code="accepted",
        )
    if stored.status != ResultReport.Status.SUBMITTED or table.reported:
        raise ReportClosed(
            play.table_sentence(
                pgettext(
                    "a 1v1 table",
                    "Table %(number)s already has its result: correct it on its card.",
                ),
                pgettext("a pod", "Pod %(number)s already has its result: correct it on its card."),
            )
            % {"number": table.number},
            code="decided",
        )
    now = timezone.now()
    stored.status = ResultReport.Status.ACCEPTED
    stored.decided_at, stored.decided_by = now, acting_user(by)
    stored.save(update_fields=["status", "decided_at", "decided_by"])
    table.reports.filter(status=ResultReport.Status.SUBMITTED).update(
        status=ResultReport.Status.REJECTED, decided_at=now, decided_by=acting_user(by)
    )
    _log(
        tournament,
        Action.REPORT_ACCEPT,
        stored,
        table,
        by=by,
        via_link=False,
        said=N_("%(where)s: the TO chose %(reporter)s's report: %(result)s"),
        values={
            "reporter": stored.entry.player.name,
            "result": result_phrase(
                Result.from_json(stored.result), {s.entry_id: s.entry.player.name for s in _seats}
            ),
        },
        who=Summary(N_("the TO, from %(player)s's report"), player=stored.entry.player.name),
    )
    via = f"chose {stored.entry.player.name}'s report {stored.number}"
    return table_report(table=table, result=Result.from_json(stored.result), by=by, via=via)
