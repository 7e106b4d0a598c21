"""The judges' reads: the desk's queue of calls (oldest first: the longest wait on top) with
each table's players, the penalty log, a player's own calls and penalties, and the deck-check
picker's proposal for the round."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from tournaments.models import Entry, Round, Seat, Table, Tournament
from tournaments.selectors.console import CardNote
from tournaments.selectors.standings import standings

from . import labels
from .domain import deckcheck, ipg
from .models import DeckCheck, JudgeCall, Penalty


@dataclass(frozen=True)
class CallLine:
    call: JudgeCall
    table_number: int
    round_label: str
    players: list[str]
    caller: str
    waiting_since: datetime


def _seats() -> Prefetch:
    return Prefetch(
        "table__seats", queryset=Seat.objects.select_related("entry__player").order_by("position")
    )


def call_queue(event: Tournament) -> list[CallLine]:
    """The open calls, the longest waiting first."""
    calls = (
        JudgeCall.objects.filter(tournament=event, status__in=JudgeCall.OPEN)
        .select_related("table__round", "entry__player", "taken_by")
        .prefetch_related(_seats())
        .order_by("called_at", "id")
    )
    return [_line(call) for call in calls]


def _line(call: JudgeCall) -> CallLine:
    round_ = call.table.round
    label = round_.label
    return CallLine(
        call=call,
        table_number=call.table.number,
        round_label=label,
        players=[seat.entry.player.name for seat in call.table.seats.all()],
        caller=call.entry.player.name if call.entry else _("the TO"),
        waiting_since=call.called_at,
    )


def calls_closed(event: Tournament, limit: int = 20) -> list[JudgeCall]:
    return list(
        JudgeCall.objects.filter(tournament=event, status__in=["done", "cancelled"])
        .select_related("table__round", "entry__player", "taken_by", "closed_by")
        .order_by("-closed_at")[:limit]
    )


def table_call(table: Table) -> JudgeCall | None:
    """The open call at `table`, if any, with its caller."""
    return (
        JudgeCall.objects.filter(table=table, status__in=JudgeCall.OPEN)
        .select_related("entry__player")
        .first()
    )


def my_table(entry: Entry) -> Table | None:
    """The player's table in the round being played (not a bye), if any."""
    seat = (
        Seat.objects.filter(entry=entry, round__status=Round.Status.PLAYING)
        .select_related("table")
        .order_by("-round__number")
        .first()
    )
    if seat is None or seat.table.seats.count() < 2:
        return None
    return seat.table


def penalty_log(event: Tournament, entry: Entry | None = None) -> list[Penalty]:
    rows = Penalty.objects.filter(tournament=event).select_related("entry__player", "judge")
    if entry is not None:
        rows = rows.filter(entry=entry)
    return list(rows.order_by("-created_at", "-id"))


def infraction_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The infractions grouped for a <select>: Competitive REL (IPG), then Regular REL."""
    # Translators: an infraction and its default penalty, in the judges' list of infractions.
    with_default = _("%(infraction)s — %(penalty)s")

    def label(i: ipg.Infraction) -> str:
        infraction, penalty = labels.INFRACTIONS[i.code], labels.PENALTIES[i.default]
        return with_default % {"infraction": infraction, "penalty": penalty}

    competitive = [(i.code, f"{i.section} {label(i)}") for i in ipg.COMPETITIVE]
    regular = [(i.code, label(i)) for i in ipg.REGULAR]
    return [(_("Competitive REL (IPG)"), competitive), (_("Regular REL"), regular)]


@dataclass(frozen=True)
class Proposal:
    table: Table
    players: list[str]
    check: DeckCheck | None


def deck_check_round(
    event: Tournament, *, count: int, mode: str, top_percent: int, seed: int
) -> tuple[Round | None, list[Proposal], list[DeckCheck]]:
    """The round being played, the picker's tables for it (by `mode`, skipping players
    already checked) and the checks already made in it."""
    round_ = event.rounds.filter(status=Round.Status.PLAYING).order_by("-number").first()
    if round_ is None:
        return None, [], []
    tables = list(
        round_.tables.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player"))
        )
    )
    checks = list(
        DeckCheck.objects.filter(round=round_).select_related("table").order_by("table__number")
    )
    checked_tables = {c.table_id for c in checks}
    checked = set(
        Seat.objects.filter(table__deck_checks__tournament=event).values_list("entry_id", flat=True)
    )
    ranks: dict[int, int] = {}
    if mode == "top":
        by_player = dict(event.entries.values_list("player_id", "pk"))
        for row in standings(event).rows:
            if row.player in by_player:
                ranks[by_player[row.player]] = row.rank
    picked = deckcheck.tables_pick(
        [
            deckcheck.TableSeats(t.number, tuple(s.entry_id for s in t.seats.all()))
            for t in tables
            if not t.reported and t.pk not in checked_tables
        ],
        count=count,
        mode=mode,
        top_percent=top_percent,
        ranks=ranks,
        checked=checked,
        seed=seed,
    )
    by_number = {t.number: t for t in tables}
    proposals = [
        Proposal(
            table=by_number[n],
            players=[s.entry.player.name for s in by_number[n].seats.all()],
            check=None,
        )
        for n in picked
    ]
    return round_, proposals, checks


def lost_by_penalty(table) -> set[int]:
    """The players at `table` who lost its game by a penalty (`Penalty.loses_game`)."""
    return set(
        Penalty.objects.filter(table_id=table.pk, loses_game=True).values_list(
            "entry_id", flat=True
        )
    )


def call_notes(tables) -> dict:
    """The console cards' notes of the open judge calls at `tables` (one query):
    "judge called · 2 min" while waiting, "judge on the way: NAME" once taken."""
    notes = {}
    calls = (
        JudgeCall.objects.filter(table__in=[t.pk for t in tables], status__in=JudgeCall.OPEN)
        .select_related("taken_by")
        .order_by("called_at")
    )
    for call in calls:
        if call.status == JudgeCall.Status.TAKEN:
            judge = call.taken_by or _("a judge")
            note = CardNote("judge-call info", _("judge on the way: %(judge)s") % {"judge": judge})
        else:
            note = CardNote("judge-call warning", _("judge called"), since=call.called_at)
        notes.setdefault(call.table_id, []).append(note)
    return notes
