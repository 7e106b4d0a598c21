"""A table's result: reported or corrected (one `domain.result.Result`, checked by the event's
format; a stale form raises ResultConflict, a repeat changes nothing), written to the league as a
game so ratings follow, logged before and after, and undone from History (the logged result
read back into a `Result` by the format).
"""

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actors import acting_user
from audit.models import AuditEntry
from audit.services import log_action
from leagues import services as league_services
from leagues.models import Game

from .. import hooks
from ..domain.result import Result
from ..errors import ResultConflict, TournamentError
from ..formats import format_for
from ..models import Entry, ResultReport, Round, Seat, Table
from ..page_versions import event_changed
from ..summaries import table_phrase
from .common import tournament_lock


def table_snapshot(table: Table, seats: list[Seat]) -> dict:
    """A table's result as plain data for the log: who sat where and how they finished."""
    winner = next((s for s in seats if s.entry_id == table.winner_id), None)
    return {
        "table": table.pk,
        "round": table.round.number,
        "number": table.number,
        "reported": table.reported,
        "draw": table.is_draw,
        "game_draws": table.game_draws,
        "winner_entry": table.winner_id,
        "winner": winner.entry.player.name if winner else None,
        "version": table.version,
        "game": table.game_id,
        "seats": [
            {
                "entry_id": s.entry_id,
                "player": s.entry.player.name,
                "position": s.position,
                "place": s.place,
                "game_wins": s.game_wins,
            }
            for s in seats
        ],
    }


def lost_by_penalty(table: Table) -> frozenset[int]:
    """Who lost a table's game by a judge's penalty (tournaments.hooks.lost_by_penalty)."""
    return hooks.lost_by_penalty(table)


@transaction.atomic
def table_report(
    *,
    table: Table,
    result: Result | None = None,
    winner: Entry | None = None,
    draw: bool = False,
    game_wins: Mapping[int, int] | None = None,
    game_draws: int = 0,
    places: Mapping[int, int] | None = None,
    expected_version: int | None = None,
    by=None,
    via: str = "",
    reverts: AuditEntry | None = None,
) -> Table:
    """Record (or correct) a table's result; the league game follows.

    `result` is the value the event's format read from the form (`Format.read_result`), a
    player's report or History's undo; scripts and tests may give its fields as keywords
    instead (`winner` an Entry, `draw`, `game_wins`, `game_draws`, `places`), which make the
    same value. A 1v1 match: a winner or a draw, optionally with each player's game wins and
    then the drawn games (MTR 2.4: an intentional draw is 0-0-3, no game wins and 3 drawn). A
    pod: a winner (the others share second), a draw (everyone shares first), or the full
    finishing order as `places` (entry id -> place, a competition ranking; a shared first
    place is a draw). `expected_version` is the version the TO's form showed: if the result
    changed since, an identical submission is a no-op and a different one raises
    ResultConflict. At a pod a winner or a draw that agrees with the stored result is
    identical, keeping its full order. Players' reports still open on the table are closed by
    this entry (kept, marked overridden: `services.reports` decides its own reports before
    calling this); `via` says in the log how the result came (players' reports and
    confirmations).
    """
    if result is None:
        result = Result(
            winner=winner.pk if winner is not None else None,
            draw=draw,
            places=places or {},
            game_wins=game_wins or {},
            game_draws=game_draws,
        )
    tournament = tournament_lock(table.round.tournament_id, pages=False)
    # The table (locked) with its round, and its seats with their players, in one query; every
    # table has seats, so none means the table was paired away meanwhile.
    seats = list(
        Seat.objects.select_for_update(of=("table",))
        .select_related("table__round", "table__reported_by", "entry__player")
        .filter(table_id=table.pk)
        .order_by("position")
    )
    if not seats:
        raise Table.DoesNotExist(f"Table {table.pk} is no longer in its round.")
    table = seats[0].table
    for seat in seats:
        seat.table = table  # one instance, so the log's snapshot reads what was written
    # The seats as written, for the table's card (`selectors.console.seats_of`): the console
    # answers a tap with the card and reads no seat again.
    table.seat_rows = seats
    # The event's pages and its players' pages of this table (a refusal rolls it back).
    event_changed(tournament.pk, table_of=[s.entry_id for s in seats])
    if len(seats) == 1:
        raise TournamentError(_("A bye has no result to enter."), code="bye")
    if table.round.status == Round.Status.PAIRING:
        raise TournamentError(_("This round has not started."), code="not_started")
    entries = {s.entry_id: s for s in seats}
    if result.winner is not None and result.winner not in entries:
        who = Entry.objects.select_related("player").filter(pk=result.winner).first()
        raise TournamentError(
            (
                _("%(player)s is not at this table.") % {"player": who.player}
                if who
                else _("That player is not at this table.")
            ),
            code="not_seated",
            field="winner",
        )
    play = format_for(tournament)
    winner_id, finish = play.check_result(
        entries,
        result,
        top_cut=table.round.kind == Round.Kind.TOP_CUT,
        lost=lost_by_penalty(table) if play.penalty_loses_game else frozenset(),
    )
    same = play.same_result(table, entries, result, winner_id=winner_id, finish=finish)
    if expected_version is not None and expected_version != table.version:
        if same:
            return table  # a double tap, or two judges entering the same result
        raise ResultConflict(table, play=play)
    if same:
        return table
    before = table_snapshot(table, seats) if table.reported else None
    table.reported, table.is_draw = True, winner_id is None
    table.game_draws = result.game_draws
    table.winner = entries[winner_id].entry if winner_id else None
    table.version += 1
    table.reported_by = acting_user(by)
    table.reported_at = timezone.now()
    wins = result.wins_of
    for seat in seats:
        seat.game_wins = wins.get(seat.entry_id)
        seat.place = finish[seat.entry_id]
    Seat.objects.bulk_update(seats, ["game_wins", "place"])
    results = [
        league_services.ResultIn(player=s.entry.player, place=s.place, seat=s.position)
        for s in seats
    ]
    kind = play.noun
    # "round 2", or the top cut's stage ("Final"): the league's games list says which.
    played_in = table.round.stage or table.round.label_in_sentence
    notes = f"{tournament.name}, {played_in}, {kind} {table.number}"
    # A result reported now was played by today, even in an event dated ahead (played early,
    # or a wrong year): no table puts a game in the league's future.
    played_on = min(tournament.date, timezone.localdate())
    if table.game_id is None:
        table.game = league_services.game_record(
            league=tournament.league,
            results=results,
            played_on=played_on,
            by=table.reported_by,
            source=Game.Source.TOURNAMENT,
            notes=notes,
            audit=False,  # the table's entry below says it
        )
    else:
        league_services.game_update(
            game=table.game, results=results, played_on=played_on, notes=notes, audit=False
        )
    table.save()
    ResultReport.objects.filter(table=table, status=ResultReport.Status.SUBMITTED).update(
        status=ResultReport.Status.OVERRIDDEN,
        decided_at=table.reported_at,
        decided_by=table.reported_by,
    )
    action = play.report_actions[before is not None, reverts is not None]
    summary = table_phrase(table.round, table.number, play)
    after = table_snapshot(table, seats)
    log_action(tournament, action, table, summary, before, after, by, via=via, reverts=reverts)
    return table


def table_undo(*, entry: AuditEntry, by=None) -> Table:
    """Put a corrected table back to its result before the correction (`entry.before`).

    Called by `audit.services.audit_undo`; refused (UndoRefused) when the table was paired
    anew or its result changed again since.
    """
    table = Table.objects.select_related("round__tournament").filter(pk=entry.object_id).first()
    if table is None:
        raise league_services.UndoRefused(
            _("This table is no longer in its round (the pairings were changed)."), code="gone"
        )
    tournament_lock(table.round.tournament)
    table.refresh_from_db()
    if table.version != entry.after["version"]:
        raise league_services.UndoRefused(
            _(
                "This result was changed again after this correction: undoing it would lose the "
                "later change. Enter the result by hand instead."
            ),
            code="stale",
        )
    before = entry.before
    seats = {s.entry_id: s for s in table.seats.select_related("entry__player")}
    if set(seats) != {line["entry_id"] for line in before["seats"]}:
        raise league_services.UndoRefused(
            _("Other players sit at this table now."), code="seats_changed"
        )
    result = format_for(table.round.tournament).undo_result(before, seats)
    return table_report(
        table=table, result=result, expected_version=table.version, by=by, reverts=entry
    )
