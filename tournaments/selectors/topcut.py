"""The top cut as played so far: the seeds (final Swiss standings, dropped players left out),
the bracket the event's format builds from them and advances by each completed top-cut
round's winners, and what each stage is called.
"""

from ..formats import format_for
from ..models import Round, Table, Tournament
from .standings import standings


def top_cut_seeds(tournament: Tournament) -> list[int]:
    """Entries by final Swiss standing, dropped players left out (they cannot play on)."""
    dropped = set(
        tournament.entries.filter(dropped_after__isnull=False).values_list("player_id", flat=True)
    )
    return [p for p in standings(tournament).ranking if p not in dropped]


def top_cut_bracket_create(tournament: Tournament, seeds: list[int]):
    """The first stage of the cut: 1v1 matches (`topcut`) or pods (`podcut`)."""
    return format_for(tournament).bracket_create(seeds, tournament.top_cut)


def top_cut_bracket(tournament: Tournament):
    """The bracket as played so far: seeds from the final Swiss standings, then each completed
    top-cut round's results (1v1: the winners; pods: each pod's winner, None for a draw,
    which advances the pod's best seed)."""
    bracket = top_cut_bracket_create(tournament, top_cut_seeds(tournament))
    rounds = (
        tournament.rounds.filter(kind=Round.Kind.TOP_CUT, status=Round.Status.COMPLETE)
        .order_by("number")
        .prefetch_related("tables__winner")
    )
    play = format_for(tournament)
    for round_ in rounds:
        bracket = play.bracket_advance(bracket, [_winner_player(t) for t in round_.tables.all()])
    return bracket


def _winner_player(table: Table) -> int | None:
    return table.winner.player_id if table.winner_id else None


def top_cut_label(tournament: Tournament, bracket, index: int) -> str:
    """What stage `index` of the cut is called: "Quarterfinals", "Semifinals", "Final" for
    1v1; "Semi-finals" and "Final" for pods."""
    return format_for(tournament).bracket_label(bracket, index)
