"""The top cut: seeded from the final Swiss standings once every Swiss round is over, its first
stage paired as the format builds it (1v1 bracket or pods); later stages follow `round_end`.
"""

from django.db import transaction
from django.utils import timezone

from ..errors import AlreadyDone, TournamentError
from ..formats import format_for
from ..models import Round, Tournament
from ..selectors.topcut import top_cut_bracket_create, top_cut_label, top_cut_seeds
from .common import tables_create, tournament_lock


def top_cut_round(tournament: Tournament, bracket, number: int) -> Round:
    entries = {e.player_id: e for e in tournament.entries.all()}
    stage = tournament.rounds.filter(kind=Round.Kind.TOP_CUT).count()
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        kind=Round.Kind.TOP_CUT,
        status=Round.Status.PLAYING,
        ends_at=timezone.now() + timezone.timedelta(minutes=tournament.round_minutes),
        notes=top_cut_label(tournament, bracket, stage),
    )
    # In the order the bracket gives: the better seed sits first.
    tables_create(round_, list(enumerate(bracket.current, 1)), entries, None)
    return round_


@transaction.atomic
def top_cut_start(*, tournament: Tournament, by=None) -> Round:
    """Seed the top cut from the final Swiss standings and pair its first round."""
    tournament = tournament_lock(tournament)
    if not tournament.top_cut:
        raise TournamentError("This event has no top cut.", code="no_top_cut")
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise AlreadyDone(f"The top {tournament.top_cut} is already paired.", code="started")
    if tournament.status != Tournament.Status.SWISS:
        raise TournamentError("The top cut starts after the Swiss rounds.", code="not_swiss")
    last = tournament.rounds.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    if last is None or last.number < (tournament.swiss_rounds or 0):
        raise TournamentError("Play every Swiss round first.", code="swiss_not_over")
    if last.status != Round.Status.COMPLETE:
        raise TournamentError(f"End round {last.number} first.", code="round_open")
    try:
        bracket = top_cut_bracket_create(tournament, top_cut_seeds(tournament))
    except format_for(tournament).bracket_errors as error:
        raise TournamentError(str(error), code=error.code) from None
    round_ = top_cut_round(tournament, bracket, last.number + 1)
    tournament.status = Tournament.Status.TOP_CUT
    tournament.save(update_fields=["status"])
    return round_
