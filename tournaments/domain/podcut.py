"""Pod top cut: the best 4 or 16 players after the Swiss rounds play pods, one winner each.

A top 4 is one final pod. A top 16 is four semi-final pods, seeded so that each holds one of
the top four, one of seeds 5-8, one of 9-12 and one of 13-16 (1-8-9-16, 2-7-10-15, 3-6-11-14,
4-5-12-13: every pod's seeds add up to 34), whose four winners meet in the final pod. Inside a
pod the better seed sits earlier: seat 1 starts the game (TopDeck.gg's Competitive REL MTR/IPG
Addendum, MTRA 2.2: "Seat One as the starting player") and the first seat wins most often in
cEDH, so the cut rewards the Swiss standings with seats; a TO may still reorder them by hand.
A drawn pod advances its highest seed (Multiplayer Tournament Addendum, mtgmta.notion.site,
the successor of that addendum, MTRA 2.1: "If a draw is to occur during a single elimination
round the highest ranked player is considered to advance"). `suggested_structure` gives the
number of Swiss rounds and the cut for an attendance. Everything is an immutable value;
mistakes raise `PodCutError` with a code.

Who sits where at a cut pod is the event's `cut_seats` rule (`CUT_SEATS`); the bracket keeps
each pod's players in seed order and `seat_order` seats them:
- `by_seed` (the default): best seed in seat 1, as above (MTRA 2.2).
- `seed_picks`: the seeds choose their seats, the best seed first, the usual cEDH convention
  where an event's rules let the higher seed pick (many top cuts run this way: seat 1 is not
  always the best choice, e.g. against a fast combo deck in seat 2). The pod is seated by seed
  until the TO records the choices (`seats_from_picks`).
- `random`: seats drawn at random per pod, for events whose rules seat the cut as the Swiss
  rounds (randomly); reproducible from the draw given (the event, the stage and the pod).
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.domain.records import PlayerId
from tournaments.domain.texts import N_, Refusal

POD_CUT_SIZES = (4, 16)
CUT_SEATS = {
    "by_seed": N_("Best seed in seat 1, then by seed"),
    "seed_picks": N_("The seeds choose their seats, best seed first (the TO records the choices)"),
    "random": N_("Seats drawn at random at each pod"),
}
SEMI_FINAL_SEEDS = ((1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13))

Pod = tuple[PlayerId, ...]  # player ids in seat order, seat 1 first
Stage = tuple[Pod, ...]  # the pods played at the same time: the semi-finals, or the final


class PodCutError(Refusal):
    """A pod cut that cannot be built or advanced; `code` names the problem."""


def _check_seeds(seeds: Sequence[PlayerId], size: int) -> None:
    if len(set(seeds)) != len(seeds):
        raise PodCutError("duplicate_seed", N_("A player is seeded twice."))
    if len(seeds) < size:
        raise PodCutError(
            "too_few_players",
            N_("A top %(size)s needs %(size)s players; there are %(players)s."),
            {"size": size, "players": len(seeds)},
        )


def semi_final_pods(seeds: Sequence[PlayerId]) -> Stage:
    """The top 16 of `seeds` (standings order, best first) in four pods, best seed in seat 1.

    (1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13), as seed numbers.
    """
    _check_seeds(seeds, 16)
    return tuple(tuple(seeds[seed - 1] for seed in pod) for pod in SEMI_FINAL_SEEDS)


@dataclass(frozen=True, slots=True)
class PodBracket:
    """A pod cut: its seeds, the pods of every stage so far and the results of those played.

    `stages[i]` is stage i's pods (top 16: the four semi-finals, then the final; top 4: the
    final only), each pod in seat order. `results[i]` holds, for each pod of stage i in the
    same order, its winner or None for a draw; it is present once stage i is played. The last
    stage is the current one until its results are in; after the final, `champion` is set.
    """

    size: int
    seeds: tuple[PlayerId, ...]  # seeds[0] is seed 1; only the top `size` are kept
    stages: tuple[Stage, ...]
    results: tuple[tuple[PlayerId | None, ...], ...] = ()

    @property
    def finished(self) -> bool:
        """The final has been played."""
        return len(self.results) == len(self.stages) and len(self.stages[-1]) == 1

    @property
    def current(self) -> Stage:
        """The pods waiting for results (empty once the final is played)."""
        return () if self.finished else self.stages[-1]

    @property
    def champion(self) -> PlayerId | None:
        """The final's winner, or its highest seed if the final was drawn; None until then."""
        if not self.finished:
            return None
        return self.advancer(self.stages[-1][0], self.results[-1][0])

    def seed(self, player: PlayerId) -> int:
        """A player's seed number (1 = best)."""
        return self.seeds.index(player) + 1

    def advancer(self, pod: Pod, winner: PlayerId | None) -> PlayerId:
        """Who goes through from `pod`: its winner, or after a draw its highest seed."""
        return winner if winner is not None else min(pod, key=self.seed)

    def stage_label(self, index: int) -> str:
        """ "Final" for the last stage of the cut, "Semi-finals" before it."""
        return N_("Final") if index == (1 if self.size == 16 else 0) else N_("Semi-finals")


def create_pod_bracket(seeds: Sequence[PlayerId], size: int) -> PodBracket:
    """A top `size` pod cut of `seeds` (standings order, best first), first stage seated.

    Size 4: one final pod of the top four in seed order. Size 16: the four semi-final pods of
    `semi_final_pods`.
    """
    if size not in POD_CUT_SIZES:
        raise PodCutError(
            "bad_size",
            N_("A pod top cut takes %(sizes)s, not %(size)s."),
            {"sizes": " or ".join(map(str, POD_CUT_SIZES)), "size": size},
        )
    _check_seeds(seeds, size)
    first = semi_final_pods(seeds) if size == 16 else (tuple(seeds[:4]),)
    return PodBracket(size=size, seeds=tuple(seeds[:size]), stages=(first,))


def advance_pods(bracket: PodBracket, results: Sequence[PlayerId | None]) -> PodBracket:
    """Record the current stage: one result per pod, in the pods' order (winner or None).

    A winner must sit at that pod. A drawn pod advances its highest seed: the usual cEDH
    top-cut rule that a tie goes to the better Swiss seed (MTRA 2.1, see the module). After
    the semi-finals the four advancers make the final pod, seated by seed, best first; after
    the final the returned bracket is finished and has its champion.
    """
    if bracket.finished:
        raise PodCutError("bracket_finished", N_("The final pod has already been played."))
    current = bracket.current
    given = tuple(results)
    if len(given) != len(current):
        raise PodCutError(
            "wrong_result_count",
            N_("Give one result per pod: %(expected)s expected, %(given)s given."),
            {"expected": len(current), "given": len(given)},
        )
    for pod, winner in zip(current, given, strict=True):
        if winner is not None and winner not in pod:
            raise PodCutError(
                "winner_not_at_pod",
                N_("Player %(player)s did not play at that pod."),
                {"player": winner},
            )
    bracket_results = (*bracket.results, given)
    if len(current) == 1:
        return PodBracket(bracket.size, bracket.seeds, bracket.stages, bracket_results)
    advancers = [bracket.advancer(pod, winner) for pod, winner in zip(current, given, strict=True)]
    final = (tuple(sorted(advancers, key=bracket.seed)),)
    return PodBracket(bracket.size, bracket.seeds, (*bracket.stages, final), bracket_results)


# (most players, Swiss rounds, top cut) by attendance; above the last row: 7 rounds, top 16.
STRUCTURE = (
    (11, 3, 0),
    (34, 3, 4),
    (64, 4, 4),
    (128, 5, 16),
    (256, 6, 16),
)


def suggested_structure(players: int) -> tuple[int, int]:
    """(Swiss rounds, top cut size: 0, 4 or 16) for a pod event of `players` players.

    From 17 players on this follows the structure TopDeck.gg publishes for cEDH with its
    Competitive REL MTR/IPG Addendum, as quoted by the events run under it (e.g.
    topdeck.gg/event/i7B5T8dOVCYPodexpjV6: 17-34 players, 3 Swiss rounds and a top 4; 35-64,
    4 rounds and a top 10; 65 and up, 5 rounds and a top 16) and by Appalachia Games' summary
    of the TopDeck.gg guidelines (appalachiagames.com/guidelines: 65-128 players 5 rounds,
    129-208 6 rounds, 209-304 7 rounds, each cut to 16). Where we differ, and why:
    - 35-64 players cut to 4, not 10: we run only top 4s and top 16s (a top 16 of 35 would
      take nearly half the room).
    - 6 rounds up to 256 players (TopDeck.gg: up to 208), then 7: the pod-events issue fixes
      129-256 at 6 rounds.
    - Below 17 players, ours: fewer than 12 play 3 rounds and no cut (the Swiss leader wins),
      12-16 play 3 rounds and a top 4. Fewer than 3 players cannot fill a pod.
    """
    if players < 3:
        raise PodCutError(
            "too_few_players",
            N_("A pod event needs 3 players, not %(players)s."),
            {"players": players},
        )
    for most, rounds, cut in STRUCTURE:
        if players <= most:
            return rounds, cut
    return 7, 16


def seat_order(pod: Pod, rule: str, *, draw: str = "") -> Pod:
    """A cut pod's players (`pod`, in seed order, best first) in seat order under `rule` (one
    of CUT_SEATS). `seed_picks` seats them by seed until the choices are recorded; `random`
    shuffles them with a generator seeded by `draw`, so the same draw seats them the same."""
    if rule not in CUT_SEATS:
        raise PodCutError(
            "bad_seat_rule",
            N_("Cut seats are chosen %(rules)s, not %(rule)s."),
            {"rules": ", ".join(CUT_SEATS), "rule": repr(rule)},
        )
    if rule == "random":
        return tuple(random.Random(draw).sample(pod, len(pod)))
    return tuple(pod)


def seats_from_picks(pod: Pod, picks: Sequence[int]) -> Pod:
    """The seat order after the seeds chose: `picks[i]` is the seat (1 = first) that the pod's
    i-th best seed chose (`pod` in seed order). Every seat is chosen once."""
    if len(picks) != len(pod):
        raise PodCutError(
            "picks_count",
            N_("Give a seat for each of the pod's %(players)s players."),
            {"players": len(pod)},
        )
    if any(not 1 <= seat <= len(pod) for seat in picks):
        raise PodCutError("bad_seat", N_("Seats are numbered 1 to %(last)s."), {"last": len(pod)})
    if len(set(picks)) != len(picks):
        raise PodCutError("seat_taken", N_("Two players chose the same seat."))
    seated: list[PlayerId | None] = [None] * len(pod)
    for player, seat in zip(pod, picks, strict=True):
        seated[seat - 1] = player
    return tuple(seated)
