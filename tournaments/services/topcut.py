"""The top cut: seeded from the final Swiss standings once every Swiss round is over, its first
stage paired as the format builds it (1v1 bracket or pods); later stages follow `round_end`.
"""

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import log_action
from audit.summary import N_, Summary

from .. import signals
from ..actions import Action
from ..domain import podcut
from ..errors import AlreadyDone, TournamentError, domain_message
from ..formats import format_for
from ..models import Round, Seat, Table, Tournament
from ..selectors.topcut import (
    top_cut_bracket,
    top_cut_bracket_create,
    top_cut_label,
    top_cut_seeds,
)
from ..summaries import table_phrase
from .common import tables_create, tournament_lock
from .decks import decklists_record, decklists_unmet


def top_cut_round(tournament: Tournament, bracket, number: int) -> Round:
    entries = {e.player_id: e for e in tournament.entries.all()}
    stage = tournament.rounds.filter(kind=Round.Kind.TOP_CUT).count()
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        kind=Round.Kind.TOP_CUT,
        status=Round.Status.PLAYING,
        ends_at=timezone.now() + timezone.timedelta(minutes=tournament.round_minutes),
        stage=top_cut_label(tournament, bracket, stage),
    )
    # Seated by the event's rule (the bracket gives each pod by seed, the better seed first).
    seated = format_for(tournament).cut_seating(
        list(bracket.current),
        rule=tournament.cut_seats,
        draw=f"event {tournament.pk} seed {tournament.seed} stage {stage}",
    )
    tables_create(round_, list(enumerate(seated, 1)), entries, None)
    signals.round_paired.send(sender=Round, round_=round_)
    return round_


@transaction.atomic
def top_cut_start(*, tournament: Tournament, by=None, decklists_accepted=None) -> Round:
    """Seed the top cut from the final Swiss standings and pair its first round. An event
    that requires a legal list starts it past a player of the cut without one only once the
    TO has seen who (`decklists_accepted`: the entry ids of the confirm step; else
    DecklistsMissing), and keeps them on the round (`decks.decklists_unmet`)."""
    tournament = tournament_lock(tournament)
    if not tournament.top_cut:
        raise TournamentError(_("This event has no top cut."), code="no_top_cut")
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise AlreadyDone(
            _("The top %(size)s is already paired.") % {"size": tournament.top_cut},
            code="started",
        )
    if tournament.status != Tournament.Status.SWISS:
        raise TournamentError(_("The top cut starts after the Swiss rounds."), code="not_swiss")
    last = tournament.rounds.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    if last is None or last.number < (tournament.swiss_rounds or 0):
        raise TournamentError(_("Play every Swiss round first."), code="swiss_not_over")
    if last.status != Round.Status.COMPLETE:
        raise TournamentError(
            _("End round %(round)s first.") % {"round": last.number}, code="round_open"
        )
    seeds = top_cut_seeds(tournament)
    try:
        bracket = top_cut_bracket_create(tournament, seeds)
    except format_for(tournament).bracket_errors as error:
        raise TournamentError(domain_message(error), code=error.code) from None
    in_cut = set(seeds[: tournament.top_cut])
    unmet = decklists_unmet(
        tournament=tournament,
        entry_ids=tournament.entries.filter(player_id__in=in_cut).values_list("pk", flat=True),
        accepted=decklists_accepted,
        top_cut=tournament.top_cut,
    )
    round_ = top_cut_round(tournament, bracket, last.number + 1)
    decklists_record(tournament=tournament, round_=round_, rows=unmet, by=by)
    tournament.status = Tournament.Status.TOP_CUT
    tournament.save(update_fields=["status"])
    return round_


def cut_seat_order(table: Table) -> list[Seat]:
    """A cut pod's seats, best seed first (the order the seeds choose in)."""
    bracket = top_cut_bracket(table.round.tournament)
    seats = list(table.seats.select_related("entry__player"))
    return sorted(seats, key=lambda seat: bracket.seed(seat.entry.player_id))


@transaction.atomic
def cut_seats_choose(*, table: Table, picks: dict[int, int], by=None) -> bool:
    """Record the seats a cut pod's seeds chose (`picks`: entry id -> seat, 1 first), under
    the event's `seed_picks` rule, before the pod's result. Returns whether anything changed
    (the same choices again change nothing and log nothing: a double tap)."""
    tournament = tournament_lock(table.round.tournament_id)
    table = Table.objects.select_for_update(of=("self",)).select_related("round").get(pk=table.pk)
    if tournament.cut_seats != "seed_picks":
        raise TournamentError(
            _("This event seats its top cut by its own rule: the seeds do not choose."),
            code="not_seed_picks",
        )
    if table.round.kind != Round.Kind.TOP_CUT or table.round.status != Round.Status.PLAYING:
        raise TournamentError(_("Only a top-cut pod being played is seated."), code="not_cut")
    if table.reported:
        raise TournamentError(
            _("Pod %(number)s has a result: its seats no longer change.")
            % {"number": table.number},
            code="reported",
        )
    table.round.tournament = tournament
    by_seed = cut_seat_order(table)
    if set(picks) != {seat.entry_id for seat in by_seed}:
        raise TournamentError(
            _("Give a seat for each of pod %(number)s's players.") % {"number": table.number},
            code="picks_count",
        )
    try:
        order = podcut.seats_from_picks(
            tuple(seat.entry_id for seat in by_seed), [picks[s.entry_id] for s in by_seed]
        )
    except podcut.PodCutError as error:
        raise TournamentError(domain_message(error), code=error.code, field="seats") from None
    before = [s.entry_id for s in sorted(by_seed, key=lambda seat: seat.position)]
    if list(order) == before:
        return False
    names = {seat.entry_id: seat.entry.player.name for seat in by_seed}
    # Two steps: the seats' positions are unique per table at every moment.
    Seat.objects.filter(table=table).update(position=F("position") + 100)
    for position, entry_id in enumerate(order, 1):
        Seat.objects.filter(table=table, entry_id=entry_id).update(position=position)
    seats = [
        # Translators: a seat of a pod in the History: its number, then its player ("1. Ann").
        Summary(N_("%(seat)s. %(player)s"), seat=n, player=names[e])
        for n, e in enumerate(order, 1)
    ]
    summary = Summary(
        N_("%(where)s: seats chosen %(seats)s"),
        where=table_phrase(table.round, table.number, format_for(tournament)),
        seats=seats,
    )
    old, new = {"seats": [names[e] for e in before]}, {"seats": [names[e] for e in order]}
    log_action(tournament, Action.CUT_SEATS, table, summary, old, new, by)
    return True
