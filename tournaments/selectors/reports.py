"""Reads for players' reports (services.reports): where each table of a round stands, for the
TO's console and the player's "my event" page, and the player's own table in the open round.

A table is `unreported` (no result, no open report), `waiting` (one report, waiting for the
players named), `disputed` (two or more different open reports), `confirmed` or `accepted`
(its result came from a report: the table's or the TO's pick), or `entered` (by the TO,
with no report behind it). One query reads a round's reports with who agrees with each.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.postgres.aggregates import ArrayAgg
from django.core import signing
from django.db.models import Prefetch, Q, Value, prefetch_related_objects

from ..domain.reports import result_summary, still_needed
from ..domain.result import Result
from ..models import Entry, Registration, ResultReport, Round, Seat, Table, Tournament
from .console import seats_of

OPEN = ResultReport.Status.SUBMITTED
DECIDED = (ResultReport.Status.CONFIRMED, ResultReport.Status.ACCEPTED)


@dataclass
class ReportLine:
    """One report as the pages show it: its number, who sent it, what it says, who agrees
    (the sender first), and its status."""

    pk: int
    number: int
    entry_id: int
    by: str
    summary: str
    status: str
    status_label: str
    agreeing: list[int]
    agreeing_names: list[str]
    via_link: bool


@dataclass
class TableState:
    state: str  # unreported, waiting, disputed, confirmed, accepted, entered
    open: list[ReportLine] = field(default_factory=list)
    decided: ReportLine | None = None
    waiting_for: list[str] = field(default_factory=list)  # a waiting table: who has not agreed
    needed: int = 0  # a waiting table: how many more must agree

    @property
    def label(self) -> str:
        return STATE_LABELS[self.state]


STATE_LABELS = {
    "unreported": "not reported",
    "waiting": "reported, waiting",
    "disputed": "disputed",
    "confirmed": "confirmed by the table",
    "accepted": "a report accepted by the TO",
    "entered": "entered by the TO",
}


def _lines(tables_filter: Q, names: dict[int, str]) -> dict[int, list[ReportLine]]:
    """The reports of the tables `tables_filter` selects, by table, oldest first, each with
    the entries agreeing with it (the sender and their confirmations not withdrawn)."""
    rows = (
        ResultReport.objects.filter(tables_filter)
        .filter(status__in=[OPEN, *DECIDED])
        .annotate(
            confirmers=ArrayAgg(
                "confirmations__entry_id",
                filter=Q(confirmations__withdrawn_at__isnull=True),
                order_by="confirmations__created_at",
                default=Value([]),
            )
        )
        .order_by("table_id", "number")
        .values_list(
            "pk",
            "table_id",
            "number",
            "entry_id",
            "summary",
            "status",
            "confirmers",
            "via_link",
        )
    )
    labels = dict(ResultReport.Status.choices)
    found: dict[int, list[ReportLine]] = {}
    for pk, table_id, number, entry_id, summary, status, confirmers, via_link in rows:
        agreeing = [entry_id, *(e for e in confirmers if e is not None and e != entry_id)]
        found.setdefault(table_id, []).append(
            ReportLine(
                pk=pk,
                number=number,
                entry_id=entry_id,
                by=names.get(entry_id, "?"),
                summary=summary,
                status=status,
                status_label=labels[status],
                agreeing=agreeing,
                agreeing_names=[names.get(e, "?") for e in agreeing],
                via_link=via_link,
            )
        )
    return found


def table_state(
    *, reported: bool, lines: list[ReportLine], seats: list[tuple[int, str]], rule: str
) -> TableState:
    """Where one table stands; `seats` are its (entry id, name) in seat order."""
    decided = next((line for line in lines if line.status in DECIDED), None)
    if reported:
        if decided is not None:
            return TableState(decided.status, decided=decided)
        return TableState("entered")
    open_lines = [line for line in lines if line.status == OPEN]
    if not open_lines:
        return TableState("unreported")
    if len(open_lines) > 1:
        return TableState("disputed", open=open_lines)
    (line,) = open_lines
    waiting = [name for entry, name in seats if entry not in line.agreeing]
    needed = still_needed(agreeing=len(seats) - len(waiting), players=len(seats), rule=rule)
    return TableState("waiting", open=open_lines, waiting_for=waiting, needed=needed)


def round_states(event: Tournament, round_: Round | None, cards: list[Table]) -> dict:
    """Give each card of the console (`cards`: tables with their seats and players read) its
    `report_state`, and count the round's tables by state for the line above them: one query,
    none when the event takes no players' reports."""
    if round_ is None or event.self_report == "off" or not cards:
        return {"report_counts": None}
    names = {s.entry_id: s.entry.player.name for t in cards for s in seats_of(t)}
    lines = _lines(Q(table__round=round_), names)
    counts: dict[str, list[int]] = {state: [] for state in STATE_LABELS}
    for table in cards:
        seats = [(s.entry_id, s.entry.player.name) for s in seats_of(table)]
        table.report_state = table_state(
            reported=table.reported,
            lines=lines.get(table.pk, []),
            seats=seats,
            rule=event.self_report,
        )
        counts[table.report_state.state].append(table.number)
    counts["decided"] = sorted(counts["confirmed"] + counts["accepted"])
    return {"report_counts": counts}


@dataclass
class MySeat:
    """A player's place in the open (latest) round: the round, their table and seat, the
    others at it, and where its result stands."""

    round: Round | None
    table: Table | None = None
    position: int | None = None
    seats: list[tuple[int, str, int]] = field(default_factory=list)  # (entry, name, position)
    state: TableState | None = None
    is_bye: bool = False
    can_report: bool = False
    entry_id: int = 0
    result: str = ""  # the table's result in a few words, once it has one

    @property
    def opponents(self) -> list[str]:
        return [name for entry, name, _ in self.seats if entry != self.entry_id]

    @property
    def time_up(self) -> datetime | None:
        """When this table's time is up: the round's clock plus a judge's time extension."""
        if self.round is None or self.round.ends_at is None or self.table is None:
            return None
        return self.table.time_up(self.round.ends_at)


def my_seat(event: Tournament, entry: Entry) -> MySeat:
    """Where `entry` sits in the event's latest round, and its table's report state (four
    queries at most: the round, the seat with its table, the table's seats, the reports)."""
    round_ = event.rounds.order_by("-number").first()
    if round_ is None:
        return MySeat(None, entry_id=entry.pk)
    seat = Seat.objects.filter(round=round_, entry=entry).select_related("table").first()
    if seat is None:
        return MySeat(round_, entry_id=entry.pk)
    table = seat.table
    # The table's seats with their players, read into the table (its report form draws them).
    prefetch_related_objects(
        [table],
        Prefetch("seats", Seat.objects.select_related("entry__player").order_by("position")),
    )
    rows = [
        (s.entry_id, s.entry.player.name, s.position, s.place, s.game_wins)
        for s in table.seats.all()
    ]
    seats = [(e, name, position) for e, name, position, _, _ in rows]
    mine = MySeat(round_, table, seat.position, seats, entry_id=entry.pk)
    if len(seats) == 1:
        mine.is_bye = True
        return mine
    if table.reported:
        wins = {e: w for e, _, _, _, w in rows}
        counted = None not in wins.values()
        result = Result(
            winner=table.winner_id,
            draw=table.is_draw,
            places={e: place for e, _, _, place, _ in rows},
            game_wins=wins if counted else {},
            game_draws=table.game_draws if counted else 0,
        )
        names = {e: name for e, name, _ in seats}
        mine.result = result_summary(result, names)
    if event.self_report != "off":
        names = {e: name for e, name, _ in seats}
        lines = _lines(Q(table=table), names).get(table.pk, [])
        mine.state = table_state(
            reported=table.reported,
            lines=lines,
            seats=[(e, name) for e, name, _ in seats],
            rule=event.self_report,
        )
        mine.can_report = round_.status == Round.Status.PLAYING and not table.reported
    return mine


# The player's link of a walk-in (an entry the TO typed in, with no registration and so no
# registration code): the entry's id signed with the site's key (`Signer`, so the same code
# every time, and only whoever the TO hands it to holds it). A "." stands for the signer's
# ":", and tells it from a registration's code (token_urlsafe has neither).
LINK_SALT = "tournaments.my_event_link"


def own_entry(event: Tournament, user) -> Entry | None:
    """The signed-in `user`'s own entry in `event` (through the store's player their account
    is linked to), or None."""
    return (
        Entry.objects.filter(
            tournament=event,
            player__user=user,
            player__organization_id=event.league.organization_id,
        )
        .select_related("player")
        .first()
    )


NOT_PLAYING = "You are not playing in this event: your account is not linked to one of its players."


class BadLink(LookupError):
    """A player's link that names no registration or walk-in of the event."""


def link_entry(event: Tournament, token: str) -> Entry | None:
    """The entry a player's link reaches: a walk-in's signed code (it has a ".") or their
    registration's code (token_urlsafe never has one). None: a registration not seated (yet).
    BadLink when the link is not valid for `event`."""
    if "." in token:
        entry = walk_in_entry(event, token)
        if entry is None:
            raise BadLink(token)
        return entry
    registration = (
        Registration.objects.filter(tournament=event, token=token)
        .select_related("entry__player")
        .first()
    )
    if registration is None:
        raise BadLink(token)
    return registration.entry


def walk_in_token(entry: Entry) -> str:
    return signing.Signer(salt=LINK_SALT).sign(str(entry.pk)).replace(":", ".")


def walk_in_entry(event: Tournament, token: str) -> Entry | None:
    """The walk-in whose signed code `token` is, in `event`; None for any other code."""
    try:
        entry_id = signing.Signer(salt=LINK_SALT).unsign(token.replace(".", ":"))
    except signing.BadSignature:
        return None
    return (
        Entry.objects.filter(tournament=event, pk=int(entry_id), registration__isnull=True)
        .select_related("player")
        .first()
    )
