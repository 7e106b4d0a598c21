"""The rating lab: how well each system would have predicted a league's own games.

`evaluate` replays the games in order with every system. Before a game is rated, each system
names its favourite (the highest pre-game strength) and gives every player a win probability;
only then is the game rated. Games with exactly one player in first place are scored:

- top-1: 1 if the favourite won, averaged exactly over tie-breaks (k players share the top
  strength and the winner is one of them: 1/k), so cold-start ties are not luck;
- log-loss: mean of -ln P(winner), P clipped at 1e-15;
- warm top-1: top-1 on the scored games in which every player had at least 5 earlier games.

The random baseline guesses uniformly: top-1 = mean(1/pod size), log-loss = mean ln(pod size).
This follows the method of shared/bench-data/RESULTS.md ("top-1 E[tie-break]"), whose figures
the tests reproduce. Pure: plain values in, plain values out.
"""

import csv
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ratings.domain.base import N_, Finish, RatingState, RatingSystem

WARM_GAMES = 5  # earlier games every player needs for a game to count as "warm"
MIN_PROBABILITY = 1e-15  # log-loss clip


@dataclass(frozen=True, slots=True)
class LabResult:
    """One row of the lab table. `system` is the registry name, or "random" for the baseline.

    Figures are None when no game was scored (or no warm game, for the warm figures).
    """

    system: str
    label: str
    params: dict
    scored: int
    top1: float | None
    log_loss: float | None
    warm_scored: int
    warm_top1: float | None

    @property
    def is_baseline(self) -> bool:
        return self.system == "random"


class _Tally:
    def __init__(self):
        self.scored = self.warm = 0
        self.top1 = self.loss = self.warm_top1 = 0.0

    def add(self, hit: float, loss: float, warm: bool) -> None:
        self.scored += 1
        self.top1 += hit
        self.loss += loss
        if warm:
            self.warm += 1
            self.warm_top1 += hit

    def result(self, system: str, label: str, params: dict) -> LabResult:
        return LabResult(
            system=system,
            label=label,
            params=params,
            scored=self.scored,
            top1=self.top1 / self.scored if self.scored else None,
            log_loss=self.loss / self.scored if self.scored else None,
            warm_scored=self.warm,
            warm_top1=self.warm_top1 / self.warm if self.warm else None,
        )


def evaluate(games: Iterable[Sequence[Finish]], systems: Sequence[RatingSystem]) -> list[LabResult]:
    """One LabResult per system, in the order given, then the random baseline's."""
    ratings: list[dict[Hashable, RatingState]] = [{} for _ in systems]
    tallies = [_Tally() for _ in systems]
    baseline = _Tally()
    played: dict[Hashable, int] = {}
    for game in games:
        players = [f.player for f in game]
        winners = [i for i, f in enumerate(game) if f.place == 1]
        scored = len(winners) == 1 and len(game) >= 2
        warm = all(played.get(p, 0) >= WARM_GAMES for p in players)
        if scored:
            baseline.add(1.0 / len(game), math.log(len(game)), warm)
        for system, table, tally in zip(systems, ratings, tallies, strict=True):
            initial = system.initial()
            before = {p: table.get(p, initial) for p in players}
            if scored:
                states = [before[p] for p in players]
                tally.add(*_score(system, states, winners[0]), warm)
            table.update(system.rate(before, game))
        for p in players:
            played[p] = played.get(p, 0) + 1
    results = [
        tally.result(system.name, system.label, system.params())
        for system, tally in zip(systems, tallies, strict=True)
    ]
    results.append(baseline.result("random", N_("Random guess"), {}))
    return results


def _score(system: RatingSystem, states: list[RatingState], winner: int) -> tuple[float, float]:
    """(top-1 credit, -ln P(winner)) for one scored game."""
    strengths = [system.strength(s) for s in states]
    top = max(strengths)
    favourites = sum(1 for s in strengths if s == top)
    hit = 1.0 / favourites if strengths[winner] == top else 0.0
    p = system.win_probabilities(states)[winner]
    return hit, -math.log(max(p, MIN_PROBABILITY))


def read_bench_csv(path: str | Path) -> list[list[Finish]]:
    """Games from a `game_id,date,player,placement` file, in file order.

    Consecutive rows with the same game_id are one game (players in file order).
    """
    games: list[list[Finish]] = []
    current = None
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["game_id"] != current:
                current = row["game_id"]
                games.append([])
            games[-1].append(Finish(player=row["player"], place=int(row["placement"])))
    return games
