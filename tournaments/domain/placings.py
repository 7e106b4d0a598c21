"""Final placings: where each player finished, as a tournament reads it (1st, 2nd, 3rd-4th...).

`final_placings(swiss, cut)` takes the Swiss standings (players best first, each with their
Swiss rank, tied players sharing one) and the top cut as played (each stage's tables, each
table as every player's place at it) and returns one `Placing` per player, best first:

- The final's players by their place at the final table: the winner 1st, a 1v1 loser 2nd;
  at a pod, each place of its finishing order (1, 2, 2, 4 gives 1st, 2nd-3rd, 2nd-3rd, 4th),
  the others sharing 2nd-4th when only the winner was given, and everyone 1st-4th after a
  drawn final (a draw is shared, so the placings say so; who takes the title by seed is the
  bracket's rule, `podcut.PodBracket.advancer`, not a place).
- Every earlier stage's players who did not go on share that stage's band: the players of
  the next stage + 1 to this stage's players (a 1v1 top 8: the semi-final losers 3rd-4th,
  the quarter-final losers 5th-8th; a pod top 16: the semi-final pods' other twelve 5th-16th).
  This is the single-elimination convention of Magic's published top 8s and of cEDH events.
- Everyone outside the cut by Swiss standing, numbered on after it (a top 8: 9th, 10th...),
  dropped players in their Swiss place too. Players tied in the Swiss standings share the
  band of the places they fill ("9th-10th").

Without a cut (`cut` empty) this is the Swiss standings as placings, which is also what a
player's place is during the event. Within a band players are listed by Swiss standing.
Everything is a plain value; inconsistent input raises `PlacingError` with a code.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from tournaments.domain.labels import place_label
from tournaments.domain.records import PlayerId

CutTable = Mapping[PlayerId, int]  # every player at a top-cut table -> their place (1 = won)
CutStage = Sequence[CutTable]  # the tables of one stage, played at the same time


class PlacingError(ValueError):
    """Standings and a cut that do not fit together; `code` names the problem."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's finish: the band of places `first`..`last` (one place when not shared)."""

    player: PlayerId
    first: int
    last: int

    @property
    def shared(self) -> bool:
        return self.last > self.first

    @property
    def label(self) -> str:
        """ "3rd", or a shared band "3rd\u20134th" (an en dash, as bands are written)."""
        if self.shared:
            return f"{place_label(self.first)}\u2013{place_label(self.last)}"
        return place_label(self.first)


def final_placings(
    swiss: Sequence[tuple[PlayerId, int]], cut: Sequence[CutStage] = ()
) -> list[Placing]:
    """Every player's placing, best first (see the module): `swiss` is (player, Swiss rank)
    in standings order; `cut` the top cut's stages in the order played, the last one the
    final (a single table)."""
    order = [player for player, _ in swiss]
    if len(set(order)) != len(order):
        raise PlacingError("duplicate_player", "A player is listed twice in the standings.")
    swiss_index = {player: i for i, player in enumerate(order)}
    rank = dict(swiss)
    placings: list[Placing] = []
    if cut:
        placings = _cut_placings(cut, swiss_index)
    in_cut = {p.player for p in placings}
    rest = [(player, rank[player]) for player in order if player not in in_cut]
    placings += _bands(rest, start=len(placings) + 1)
    return placings


def _cut_placings(cut: Sequence[CutStage], swiss_index: Mapping[PlayerId, int]) -> list[Placing]:
    stages = [[dict(table) for table in stage] for stage in cut]
    if len(stages[-1]) != 1:
        raise PlacingError("no_final", "The last stage of the cut must be one final table.")
    players = [[p for table in stage for p in table] for stage in stages]
    for stage_players in players:
        if len(set(stage_players)) != len(stage_players):
            raise PlacingError("duplicate_player", "A player sits at two tables of one stage.")
        stray = [p for p in stage_players if p not in swiss_index]
        if stray:
            raise PlacingError("not_in_standings", f"Player {stray[0]} is not in the standings.")
    for earlier, later in pairwise(players):
        if not set(later) < set(earlier):
            raise PlacingError(
                "not_advanced", "Each stage of the cut holds only players of the stage before."
            )
    final = stages[-1][0]
    placings = []
    for place in sorted(set(final.values())):
        sharing = sorted((p for p, q in final.items() if q == place), key=swiss_index.__getitem__)
        better = sum(1 for q in final.values() if q < place)
        if place != better + 1:
            raise PlacingError(
                "bad_places", "The final's places must be a finishing order: 1, 2, 2, 4."
            )
        placings += [Placing(p, place, place + len(sharing) - 1) for p in sharing]
    # Earlier stages, the latest first: who did not go on shares the places below the next.
    for stage, following in zip(players[-2::-1], players[:0:-1], strict=True):
        out = sorted(set(stage) - set(following), key=swiss_index.__getitem__)
        first, last = len(following) + 1, len(stage)
        placings += [Placing(p, first, last) for p in out]
    return placings


def _bands(rest: Sequence[tuple[PlayerId, int]], *, start: int) -> list[Placing]:
    """Consecutive players of equal Swiss rank share the places they fill, numbered from
    `start`."""
    placings: list[Placing] = []
    i = 0
    while i < len(rest):
        j = i
        while j + 1 < len(rest) and rest[j + 1][1] == rest[i][1]:
            j += 1
        first, last = start + i, start + j
        placings += [Placing(player, first, last) for player, _ in rest[i : j + 1]]
        i = j + 1
    return placings
