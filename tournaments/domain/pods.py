"""Swiss pairing for pods of 3-5 players (Commander / cEDH): layout, pods and seat order.

`pair_pods` promises, for the active players of one round: everyone is seated exactly once, in
a pod or (only where the layout asks for it) on a bye; pod sizes follow `pod_sizes`; the pods
minimise a weighted cost (`PodWeights`) of
- point spread: max - min points inside each pod, in wins (spread / `win_points`), so Swiss
  pods hold players with equal points;
- repeat opponents: the badness of pairings_edh, a pair meeting for the k-th time costs
  (k - 1)**2 for each of the two players; in fields of at most `SMALL_FIELD` (12) players,
  where repeats are forced within the event anyway, a repeat costs the share
  `PodWeights.small_field` of that except in the last round;
- odd pods: a player seated at a 3- or 5-player pod costs (odd pods had before)**2, weighted
  above a repeat, so nobody gets a second 3-pod while others have had none;
and the seats inside each pod balance turn order over the event: seat 1 goes to a pod player who
has started least often, the other seats even out seat sums (a player who went first sits later
next time). The result is deterministic: the same inputs and seed give the same pods.

How the pods are found (`_Search`): the players in standings order are cut into consecutive
pods by dynamic programming over where the odd-sized pods go (exactly optimal when nobody has
met: consecutive pods minimise the total spread); then a local search swaps players between
pods and moves a player from a 4-pod to an odd pod (which swaps the two pods' sizes), taking
the best improving move until none is left, then perturbed and re-optimised (iterated local
search) until `PATIENCE` perturbations in a row find nothing better, keeping the best pods.
Small fields search every pair of pods; large fields only neighbouring pods (a far swap only
adds spread) and only from pods that have a repeat or an odd-pod penalty. Fields of up to
`EXACT_LIMIT` players are then solved exactly by branch and bound (`_Search.exact`), bounded
by the local search's cost (checked offline: on simulated 12- and 16-player events the local
search alone already found every round's optimum).

From the second round on, small fields look one round ahead. Where a round has at most
`OUTCOME_LIMIT` results (each pod a draw or won by one of its players: 5**4 = 625 for 16
players in 4-pods) the look-ahead is exact over them (`_Search.plan`): the candidates are the
cheapest local optima found and the cheapest pairings of this round without repeats (all of
them are listed when there are few: after two repeat-free rounds of 16 there are 24), and the
pods chosen minimise this round's cost plus `lookahead` times the next round's expected least
cost (`expected_next_round_cost`). That expectation averages, over every result of the
candidate, all taken as equally likely (a draw is worth `draw_points`), an optimistic
estimate of the next round's least cost: the cheapest of its repeat-free pairings (listed by
`repeat_free_pairings` when there are at most `REPEAT_FREE_LIMIT`), or, if less, the least
spread of any pods (`spread_floor`) plus the least repeat cost anything else must carry (one
repeat when repeat-free pairings exist, none when too many to list, else the least the search
finds). No result is known in advance: the pairer sees only history and points. With this
look-ahead the default repeat weight is 1.0, a repeated pair worth 1.5 points of spread. Why it
matters, for 16 players and 4 rounds: two repeat-free rounds form a 4x4 grid and a repeat-free
third round is a Latin square on it; a cyclic one leaves no repeat-free fourth round and a
Klein-group one leaves two, whose spread depends on the third round's results, so the third
round is chosen by what the fourth can expect. Larger fields up to `LOOKAHEAD_LIMIT` players,
whose results are too many to list, keep a cheaper look-ahead: among the cheapest pods found
they prefer those leaving the next round the least repeat cost (`REPEAT_LOOKAHEAD` times
`lookahead`), spread left out.

The order of concerns: repeats, then points, then 3-pods and seats. A repeat is what players
notice first (a 17-player night whose round 2 seated 4 of 5 pods with someone met in round 1,
while repeat-free pods existed, is how we learnt it). The cause there: a player's second 3-pod
(`odd_pod` 8, times odd pods had squared) cost four times a repeated pair (2), and 17 = 4 + 4 +
3 + 3 + 3 seats 9 players in 3-pods every round while only the 8 players of round 1's two
4-pods have had none; 8 players of two pods fit three 3-pods at most 6 without a repeat, so
the rotation bought its last 2 seats with 4 repeated pairs. So:
- Repeats first (`repeats_first`): while the seated players' points are all within one win,
  as in every round 2, a round is paired without a repeat whenever that can be done
  (`_one_repeat_free` finds such pods, `REPEAT_TIER` keeps the search among them), whatever it
  costs in spread, 3-pods or seats. No pod of such a round can be more than a win apart, and a
  win apart is ordinary in a round 2 (12 of 17 players on 0 points). Once the field is more
  than a win apart a repeat-free pairing may seat the leader with the last player, which breaks
  the Swiss promise (equal points meet) more visibly than a repeat; there the weighted trade
  below holds (a repeated pair worth 1.5 points of spread), measured against both references
  on bench/pods_h2h.py, and so do the small-field and late shares, whose fields cannot avoid
  repeats anyway.
- Then points (spread) and the 3-pod rotation on one scale: a second 3-pod for one player
  while another has had none costs 8, two wins of spread; it stays above a pod's spread
  because the rotation is the one fairness a player counts over the whole event and no later
  round repairs, while a pod a draw apart evens out in the next round's pods.
- Then seats: seat 1 and the seat sums are settled inside the chosen pods (`_seat`), and the
  first-seat cover (`_cover_first_seats`) trades at most half a win of spread and never a
  repeat for them.

The rounds left: told the event's planned `rounds` (the site always does; over the cEDH
matching protocol only a request with our optional `planned_rounds` does), the pairer knows how
many rounds follow this one. The last (`round_number` = `rounds`, or `last_round=True`) looks
nowhere and counts a small field's repeats in full (the round before it still prices them at
the small field's share in its look-ahead: pricing them in full, tried, only bought 12-player
events fewer repeats for more spread).

Tight fields: where the planned rounds could use up every opponent (`tight_field`: the largest
pod less one, times the rounds, reaches the field less one; 16 players in 4-pods over 5 rounds,
15 after a drop), repeats are forced before the event ends whatever the pairer does, and the
question is only which rounds take them. In such a field of more than `SMALL_FIELD` players,
the last `LATE_ROUNDS` (2) rounds weigh a pair's first repeat at `PodWeights.late_repeat`
(0.65) of its weight, times 1 + `late_growth` (0.1) * b for a player who already has badness b;
a pair's third meeting or more keeps the full weight (times the same factor), so the late share
buys spread with second meetings, never with a pair's third. At 0.65 a repeated pair (2 x 0.65)
costs a little less than a player a draw away (4/3): the pod takes the repeat. Measured on
bench/pods_h2h.py at 16 players, over four batches of 48 events: the pod spread went from
2.67-2.83 to 2.39-2.53 and the worst-treated player from 5-8 to 5-7, for 40-60 % more repeat
badness (bench/README.md, "16 players: the late share in tight fields"). Other fields keep the
full weight in every round: at 24 and 32 players the same share took a quarter to two thirds
more repeats and fell behind a reference. Without `rounds`, every round but a `last_round` is
paired as one with more to come.
"""

from __future__ import annotations

import itertools
import operator
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

from tournaments.domain.byes import pick_byes
from tournaments.domain.history import History, read_history
from tournaments.domain.records import PlayerId, Round
from tournaments.domain.texts import N_, Nn_, Note, Refusal

FEWEST_PLAYERS = 3  # a pod seats 3 to 5
LAYOUTS = ("threes", "fives", "byes")
LAYOUT_LABELS = {
    "threes": N_("4-player pods, the rest in 3-player pods"),
    "fives": N_("4-player pods, the rest in 5-player pods"),
    "byes": N_("4-player pods, the rest get byes"),
}
FIRST_ROUND_MODES = ("random", "rating")
EXACT_LIMIT = 12  # players: at most 15,400 ways to cut 12 players into pods
# Up to this many players, repeats are forced within a Swiss event's ceil(log2 N) rounds (a
# player meets 3 new opponents a round: 3 * 4 > 12 - 1), so a repeat avoided now is mostly paid
# in a later round; there a repeat costs `PodWeights.small_field` of its weight, except in the
# last round, which has no later round.
SMALL_FIELD = 12
LATE_ROUNDS = 2
_EPS = 1e-9


class PodPairingError(Refusal):
    """Input that cannot be paired (too few players, a player listed twice); `code` names it.
    The messages of the pairer's own arguments (weights, layout, modes) are for the operator of
    `pair_pods` and stay English; those a TO may meet are marked for translation."""


@dataclass(frozen=True, slots=True)
class PodWeights:
    """What one unit of each cost is worth. Spread is counted in wins (points / win points)."""

    spread: float = 4.0
    repeat: float = 1.0
    odd_pod: float = 8.0
    lookahead: float = 1.0  # the next round's expected least cost counts this much
    # In fields of at most SMALL_FIELD seated players a repeat costs this share of `repeat`.
    small_field: float = 0.6
    # In the last LATE_ROUNDS rounds of a tight field (`tight_field`: `pair_pods` told the
    # planned `rounds`) a pair's first repeat costs this share of its weight; any repeat,
    # times 1 + late_growth * b for a player who already has badness b (each of the pair's two
    # players carries half at their own factor). See the module docstring.
    late_repeat: float = 0.65
    late_growth: float = 0.1

    @classmethod
    def from_mapping(cls, values: Mapping) -> PodWeights:
        """Weights from a JSON object; unknown names and negative or non-numbers are refused."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise PodPairingError(
                "weights", f"unknown weight {unknown[0]!r} (known: {', '.join(sorted(known))})"
            )
        checked = {}
        for name, value in values.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
                raise PodPairingError("weights", f"weight {name!r} must be a number")
            if value < 0 or value > 1e9:
                raise PodPairingError("weights", f"weight {name!r} must be between 0 and 1e9")
            checked[name] = float(value)
        return cls(**checked)


@dataclass(frozen=True, slots=True)
class PodPairing:
    """One round's pods, strongest pod first, each in seat order (seat 1 goes first).

    `badness` is the round's repeat badness summed over players (a pair meeting for the k-th
    time adds (k-1)**2 to each); `spread` the sum over pods of max - min points.
    """

    pods: tuple[tuple[PlayerId, ...], ...]
    byes: tuple[PlayerId, ...]
    badness: int
    spread: float
    warnings: tuple[str, ...]


def pod_sizes(count: int, layout: str = "threes") -> tuple[tuple[int, ...], int]:
    """The pod sizes (largest first) and the number of byes for `count` players.

    "threes": as many 4-pods as possible, the rest 3-pods (N = 4a + 3b); 5 players, who cannot
    be cut that way, play a 4-pod and one bye. "fives": 4-pods and 5-pods (N = 4a + 5c), or
    "threes" where that cannot be done (3, 6, 7, 11). "byes": 4-pods and up to 3 byes (3
    players still play one 3-pod).
    """
    if layout not in LAYOUTS:
        raise PodPairingError("layout", f"layout must be one of {', '.join(LAYOUTS)}")
    if count < FEWEST_PLAYERS:
        raise PodPairingError("few_players", N_("at least 3 players are needed for a pod"))
    if layout == "fives":
        for fives in range(5):
            rest = count - 5 * fives
            if rest >= 0 and rest % 4 == 0:
                return (5,) * fives + (4,) * (rest // 4), 0
        return pod_sizes(count, "threes")
    if layout == "byes":
        if count == 3:
            return (3,), 0
        return (4,) * (count // 4), count % 4
    if count == 5:
        return (4,), 1
    threes = (-count) % 4  # N = 4a + 3b with b as small as possible
    return (4,) * ((count - 3 * threes) // 4) + (3,) * threes, 0


# ---------------------------------------------------------------------------------------------
# History (read by domain.history; the badness is pairings_edh's measure of it)


def seating_warnings(history: Sequence[Round], seatings, name) -> list[str]:
    """A warning for each pod of `seatings` ((number, players) pairs) that seats players who
    met before, and for each player given a second bye: which pods, and who, is what a TO
    needs to check or swap. `name(player)` is how a player is written."""
    seen = read_history(history)
    out = []
    for number, players in seatings:
        if len(players) == 1:
            if seen.byes[players[0]]:
                out.append(
                    Note(N_("%(player)s has had a bye before."), {"player": name(players[0])})
                )
            continue
        again = tuple(
            Note(N_("%(a)s and %(b)s"), {"a": name(x), "b": name(y)})
            for i, x in enumerate(players)
            for y in players[i + 1 :]
            if seen.met.get(x, {}).get(y)
        )
        if again:
            out.append(
                Note(
                    N_("Pod %(number)s seats players who met before: %(pairs)s."),
                    {"number": number, "pairs": again},
                )
            )
    return out


def badness_by_player(history: Sequence[Round]) -> dict[PlayerId, int]:
    """pairings_edh's badness per player over a whole event: at every pod, each pod-mate met
    k times before adds k**2."""
    met: dict[PlayerId, Counter] = {}
    total: Counter = Counter()
    for round_ in history:
        for table in round_:
            for a in table.players:
                row = met.setdefault(a, Counter())
                total[a] += sum(row[b] ** 2 for b in table.players if b != a)
            for a in table.players:
                for b in table.players:
                    if b != a:
                        met[a][b] += 1
    return {p: total[p] for p in met}


# ---------------------------------------------------------------------------------------------
# The public entry point


def pair_pods(
    *,
    players: Sequence[PlayerId],
    history: Sequence[Round],
    points: Mapping[PlayerId, float],
    seed: int,
    round_number: int,
    ranking: Sequence[PlayerId] | None = None,
    layout: str = "threes",
    weights: PodWeights | None = None,
    win_points: float = 3.0,
    first_round: str = "random",
    ratings: Mapping[PlayerId, float] | None = None,
    rounds: int | None = None,
    last_round: bool = False,
    draw_points: float | None = None,
) -> PodPairing:
    """Pair one round of the active `players` (entered, not dropped) into pods.

    `points` are the points so far (missing means 0) and `ranking` the standings order, best
    first (default: by points, then id); it orders players of equal points for the first cut
    and picks byes (the lowest-ranked of those with the fewest byes). A round with no earlier
    pods is a first round: `first_round="random"` shuffles with the seed, `"rating"` puts
    players of similar `ratings` together. Players not in `players` have dropped; their past
    pods still count as meetings for nobody active, so they are simply ignored. The look-ahead
    scores a drawn pod `draw_points` each (default a third of `win_points`), a loss 0. `rounds`
    is the event's planned number of rounds (None: not known); a round at or past it, or one
    marked `last_round`, is the last.
    """
    if round_number < 1:
        raise PodPairingError("round_number", "round_number starts at 1")
    if rounds is not None and rounds < 1:
        raise PodPairingError("rounds", "an event plans at least 1 round")
    if first_round not in FIRST_ROUND_MODES:
        raise PodPairingError("first_round", f"first_round must be one of {FIRST_ROUND_MODES}")
    if win_points <= 0:
        raise PodPairingError("win_points", "a win must be worth more than 0 points")
    active = list(players)
    if len(set(active)) != len(active):
        dupes = sorted(p for p, c in Counter(active).items() if c > 1)
        raise PodPairingError(
            "duplicate_player", N_("players listed twice: %(players)s"), {"players": dupes}
        )
    sizes, bye_count = pod_sizes(len(active), layout)
    weights = weights or PodWeights()
    past = read_history(history)
    rng = random.Random(f"{seed}:{round_number}")
    score = {p: float(points.get(p, 0.0)) for p in active}

    first = not any(len(t.players) > 1 for round_ in history for t in round_)
    if first and first_round == "random":
        order = sorted(active)
        rng.shuffle(order)
        score = dict.fromkeys(active, 0.0)
    elif first and first_round == "rating":
        rating = ratings or {}
        order = sorted(active, key=lambda p: (-float(rating.get(p, 0.0)), p))
    else:
        order = _standings_order(active, ranking, score)

    byes = pick_byes(order, past.byes.__getitem__, bye_count)
    seated = [p for p in order if p not in set(byes)]
    if last_round:
        left = 0
    elif rounds is not None:
        left = max(0, rounds - round_number)
    else:
        left = None
    tight = tight_field(len(seated), sizes, rounds)
    search = _Search(
        seated,
        sizes,
        score,
        past.met,
        past.odd,
        weights,
        win_points,
        rounds_left=left,
        tight=tight,
        repeats_first=repeats_first([score[p] for p in seated], win_points),
    )
    if draw_points is not None:
        search.draw_points = float(draw_points)
    pods = search.run(rng)
    firsts = {p: past.seat_count.get(p, Counter())[1] for p in seated}
    pods = _cover_first_seats(pods, search, firsts)
    pods = [_seat(pod, past, rng) for pod in pods]
    rank = {p: i for i, p in enumerate(order)}
    pods.sort(key=lambda pod: min(rank[p] for p in pod))

    badness = sum(2 * past.met.get(a, {}).get(b, 0) ** 2 for pod in pods for a, b in _pairs(pod))
    spread = sum(max(score[p] for p in pod) - min(score[p] for p in pod) for pod in pods)
    warnings = []
    repeats = [pod for pod in pods if any(past.met.get(a, {}).get(b) for a, b in _pairs(pod))]
    if repeats:
        warnings.append(
            Note(
                Nn_(
                    "%(n)s pod seats players who met before.",
                    "%(n)s pods seat players who met before.",
                ),
                {"n": len(repeats)},
                count=len(repeats),
            )
        )
    return PodPairing(
        pods=tuple(tuple(pod) for pod in pods),
        byes=tuple(byes),
        badness=badness,
        spread=spread,
        warnings=tuple(warnings),
    )


def pairing_cost(
    pods: Sequence[Sequence[PlayerId]],
    *,
    history: Sequence[Round],
    points: Mapping[PlayerId, float],
    weights: PodWeights | None = None,
    win_points: float = 3.0,
    rounds_left: int | None = None,
    tight: bool = False,
) -> float:
    """One round's weighted cost of any pods (seat order does not matter): what `pair_pods`
    minimises with `lookahead=0` in a round with `rounds_left` rounds after it (None: not
    known; 0: the last round, where a small field's repeats count in full; the last
    LATE_ROUNDS of a `tight` field, as `tight_field` says of the event and `pair_pods` passes
    it, weigh repeats by `late_repeat` and `late_growth`); with a look-ahead it may pay more
    now to keep the next round free of repeats."""
    seated = [p for pod in pods for p in pod]
    score = {p: float(points.get(p, 0.0)) for p in seated}
    past = read_history(history)
    search = _Search(
        seated,
        [],
        score,
        past.met,
        past.odd,
        weights or PodWeights(),
        win_points,
        rounds_left=rounds_left,
        tight=tight,
    )
    return sum(search.cost(list(pod)) for pod in pods)


def repeat_free_pairings(
    *,
    players: Sequence[PlayerId],
    sizes: Sequence[int],
    history: Sequence[Round],
    limit: int = 64,
) -> list[tuple[tuple[PlayerId, ...], ...]] | None:
    """Every way to seat `players` at pods of `sizes` so that nobody meets anyone met in
    `history`, or None when there are more than `limit` (or too many to settle quickly).

    Pods list their players in the order of `players`; each pairing is listed once. The exact
    look-ahead uses these as the next round's pairings without repeats.
    """
    if sum(sizes) != len(players):
        raise PodPairingError("sizes", "the pod sizes must add up to the number of players")
    past = read_history(history)
    found = _repeat_free(list(players), sorted(sizes, reverse=True), past.met, limit)
    return None if found is None else [tuple(pairing) for pairing in found]


def spread_floor(values: Sequence[float], sizes: Sequence[int]) -> float:
    """The least total spread (sum over pods of max - min) of any cut of `values` into pods of
    `sizes` (at most two distinct sizes, as `pod_sizes` gives)."""
    if sum(sizes) != len(values) or len(set(sizes)) > 2:
        raise PodPairingError("sizes", "pod sizes must fit the values, at most two sizes")
    return _spread_floor_points(sorted(values), sorted(sizes, reverse=True))


def expected_next_round_cost(
    *,
    pods: Sequence[Sequence[PlayerId]],
    history: Sequence[Round],
    points: Mapping[PlayerId, float],
    weights: PodWeights | None = None,
    win_points: float = 3.0,
    draw_points: float | None = None,
) -> float:
    """What the exact look-ahead expects the round after `pods` to cost, at least.

    Every result of `pods` is taken as equally likely (each pod a draw, worth `draw_points`
    to everyone, by default a third of `win_points`, or won by one of its players). For each,
    the next round costs the least of: the cheapest pairing without repeats
    (`repeat_free_pairings`, spread and odd pods priced), or the least spread of any pods
    (`spread_floor`) plus the least repeat cost any other pairing must carry (one repeat if
    pairings without repeats exist; the search's least repeat and odd-pod cost if none do;
    nothing if too many exist to list).
    """
    seated = [p for pod in pods for p in pod]
    score = {p: float(points.get(p, 0.0)) for p in seated}
    past = read_history(history)
    search = _Search(
        seated,
        [len(pod) for pod in pods],
        score,
        past.met,
        past.odd,
        weights or PodWeights(),
        win_points,
    )
    if draw_points is not None:
        search.draw_points = float(draw_points)
    return search.expected_next_cost([list(pod) for pod in pods])


def tight_field(seated: int, sizes: Sequence[int], rounds: int | None) -> bool:
    """Whether the `seated` players, more than a small field, meet so many a round at pods of
    `sizes` (the largest pod less one at most) that `rounds` rounds could use up every
    opponent: there repeats are forced before the event ends, and its last rounds weigh them
    by the late share. A small field (`SMALL_FIELD`) has its own share; without the planned
    rounds nothing is known."""
    if rounds is None or not sizes or seated <= SMALL_FIELD:
        return False
    return (max(sizes) - 1) * rounds >= seated - 1


def repeats_first(points: Sequence[float], win_points: float) -> bool:
    """Whether a round is paired repeats first (without a repeat whenever pods without one
    exist, whatever they cost in spread, 3-pods or seats): while the seated players' `points`
    are all within one win, as in every second round. See the module docstring, "The order of
    concerns"."""
    return bool(points) and max(points) - min(points) <= win_points + _EPS


def _late(rounds_left: int | None) -> bool:
    """Whether a round with `rounds_left` rounds after it is one of the last LATE_ROUNDS."""
    return rounds_left is not None and rounds_left < LATE_ROUNDS


def _pairs(pod: Sequence[PlayerId]):
    return itertools.combinations(pod, 2)


def _standings_order(active, ranking, score) -> list[PlayerId]:
    position = {p: i for i, p in enumerate(ranking or ())}
    last = len(position)
    return sorted(active, key=lambda p: (-score[p], position.get(p, last), p))


# ---------------------------------------------------------------------------------------------
# Seats


def _cover_first_seats(
    pods: list[list[PlayerId]], search: _Search, firsts: Mapping[PlayerId, int]
) -> list[list[PlayerId]]:
    """Swap players between pods so that seat 1 can go, in every pod, to a player who has
    started least often (`firsts`: times in seat 1 so far), which keeps the times each player
    started within 1 of each other over the event. With at least as many such players as
    pods, every pod needs one; with fewer, no pod may hold two. Each swap trades one of them
    out of a pod holding two or more for a player of a pod holding none, never adds a repeat,
    costs at most half a win of point spread, and is the cheapest such swap by the pods' cost
    (large fields: the first such pod's best swap with a pod near it, as the search looks);
    when no swap is left the pods stay as they are (the layout does not allow it)."""
    if len(pods) < 2:
        return pods
    low = min(firsts[p] for pod in pods for p in pod)
    due = {p for pod in pods for p in pod if firsts[p] == low}
    met = search.met

    def repeats(pod) -> int:
        return sum(1 for a, b in _pairs(pod) if met.get(a, {}).get(b))

    # A swap may cost at most half a win of point spread in one pod (a player a draw away
    # from their pod's points, say): seat fairness is worth that, not a repeat or more spread.
    limit = search.w_spread * search.win_points / 2 + _EPS
    pods = [list(pod) for pod in pods]
    near = len(pods) > search.FULL_LIMIT  # large fields: neighbouring pods only, as the search
    stuck: set[int] = set()  # large fields: donors with no swap left near them
    while True:
        holding = [sum(p in due for p in pod) for pod in pods]
        donors = [i for i, n in enumerate(holding) if n >= 2 and i not in stuck]
        takers = [i for i, n in enumerate(holding) if n == 0]
        # With as many of them as pods, a pod without one means another holds two; with fewer,
        # a pod holding two means another holds none: either way a donor and a taker.
        if not donors or not takers:
            return pods
        if near:
            donors = donors[:1]  # one at a time: the first still fixable, its best near swap
        best = None
        for i in donors:
            a = pods[i]
            for j in takers:
                if near and abs(i - j) > search.WINDOW:
                    continue
                b = pods[j]
                before = search.cost(a) + search.cost(b)
                repeats_before = repeats(a) + repeats(b)
                for x in a:
                    if x not in due:
                        continue
                    for y in b:
                        new_a = [y if p == x else p for p in a]
                        new_b = [x if p == y else p for p in b]
                        if repeats(new_a) + repeats(new_b) > repeats_before:
                            continue
                        delta = search.cost(new_a) + search.cost(new_b) - before
                        if delta > limit:
                            continue
                        if best is None or delta < best[0] - _EPS:
                            best = (delta, i, j, new_a, new_b)
        if best is None:
            if not near:
                return pods
            stuck.add(donors[0])
            continue
        _, i, j, pods[i], pods[j] = best


def _seat(pod: list[PlayerId], past: History, rng: random.Random) -> list[PlayerId]:
    """The seat order that best evens out each player's turn order over the event.

    First, seat 1 (who starts, the seat that wins most often) goes to a player of the pod who
    has started least often so far, so that over an event the times each player sat first differ
    by at most 1 wherever the pods allow it. Then each player's sum of seat positions should stay
    near its expected value (the average seat at every pod played); sitting in the same seat
    again costs extra. Exact over every order (at most 5! = 120); ties go to a seeded random
    choice.
    """
    size = len(pod)
    middle = (size + 1) / 2
    cost = {}
    for p in pod:
        behind = past.seat_sum[p] - past.seat_expected[p]  # > 0: has sat late so far
        seats = past.seat_count.get(p, Counter())
        for position in range(1, size + 1):
            balance = behind + position - middle
            cost[p, position] = balance * balance + 2 * seats[position] ** 2
    fewest = min(past.seat_count.get(p, Counter())[1] for p in pod)
    best, best_cost = None, None
    shuffled = list(pod)
    rng.shuffle(shuffled)
    for order in itertools.permutations(shuffled):
        if past.seat_count.get(order[0], Counter())[1] != fewest:
            continue
        total = sum(cost[p, i] for i, p in enumerate(order, 1))
        if best_cost is None or total < best_cost - _EPS:
            best, best_cost = order, total
    return list(best)


# ---------------------------------------------------------------------------------------------
# The search


class _CostWeight:
    """A weight `_Search.cost` reads: setting it empties the search's memo of pod costs, which
    were priced with the old value (the search changes `w_first` once pods without a repeat
    are known; the look-ahead's searches set theirs before pricing anything)."""

    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, search, owner=None):
        if search is None:
            return self
        try:
            return search.__dict__[self.name]
        except KeyError:
            raise AttributeError(self.name[1:]) from None

    def __set__(self, search, value):
        search.__dict__[self.name] = value
        search.pod_costs = {}
        search.pod_changes = {}


class _Search:
    """Pods minimising the weighted cost; see the module docstring."""

    w_spread = _CostWeight()
    w_repeat = _CostWeight()
    w_again = _CostWeight()
    w_first = _CostWeight()
    w_odd = _CostWeight()

    FULL_LIMIT = 48  # pods: up to this many, every pair of pods is searched
    WINDOW = 6  # pods on either side searched in large fields
    PERTURBATIONS = 40
    PATIENCE = 10  # without look-ahead, stop after this many perturbations gain nothing
    LOOKAHEAD_LIMIT = 32  # players: look one round ahead in fields up to this size
    LOOKAHEAD_CANDIDATES = 12
    REPEAT_LOOKAHEAD = 0.5  # where results are not enumerated: next round's repeat cost, halved

    def __init__(
        self,
        order,
        sizes,
        score,
        met,
        odd,
        weights: PodWeights,
        win_points: float,
        rounds_left: int | None = None,
        tight: bool = False,
        repeats_first: bool = False,
    ):
        self.order = order
        self.sizes = sorted(sizes, reverse=True)
        self.score = score
        self.met = met
        self.odd = odd
        self.weights = weights
        self.win_points = win_points
        self.draw_points = win_points / 3  # what the look-ahead gives each player of a draw
        self.w_spread = weights.spread / win_points
        # Rounds after this one (None: not known; 0: this is the last round).
        self.rounds_left = rounds_left
        self.tight = tight  # the late share applies in a tight field only (`tight_field`)
        self.w_repeat = self.repeat_weight(rounds_left)
        # A pair meeting a third time or more: the late share does not apply.
        self.w_again = self.repeat_weight(rounds_left, late=False)
        # The repeat weight the look-ahead prices the next round's repeats at.
        # The look-ahead keeps a small field's share even when the next round is the last:
        # pricing the last round's repeats in full there (measured on bench/pods_h2h.py at 12
        # players) only moved the round before it to more spread for fewer repeats.
        self.next_w_repeat = self.repeat_weight(
            None if rounds_left is None else max(0, rounds_left - 1), last_in_full=False
        )
        self.w_odd = weights.odd_pod
        # For `_price`: a bit per player, and per player the bits of those met (m > 0).
        self.bit = {p: 1 << i for i, p in enumerate(order)}
        self.met_bits = {
            p: sum(self.bit.get(q, 0) for q, m in met.get(p, {}).items() if m) for p in order
        }
        self.odd_square = {p: odd[p] * odd[p] for p in order}
        # Each player's repeat factor, 1 + late_growth * badness so far, in a tight field's late
        # rounds (None: 1 for everyone).
        self.factor = None
        if weights.late_growth and tight and _late(rounds_left):
            self.factor = {
                a: 1.0
                + weights.late_growth * sum((m - 1) * m * (2 * m - 1) / 6 for m in row.values())
                for a, row in met.items()
            }
        # Whether a pod's cost is the same in any seat order, to the last bit (see `cost`).
        self.orderless = self.factor is None and all(v == v for v in score.values())
        looks = len(order) <= self.LOOKAHEAD_LIMIT and rounds_left != 0
        self.lookahead = weights.lookahead if looks else 0.0
        self.perturbations = self.PERTURBATIONS
        self.kick = 3  # a perturbation swaps 2 to `kick` random pairs of players
        # Repeats first (`repeats_first`): once pods without a repeat are known, every
        # pair that met before costs REPEAT_TIER on top, more than any spread and odd-pod cost
        # of a round, so the search only compares pairings without repeats. 0: off.
        self.repeats_first = repeats_first
        self.w_first = 0.0
        # Whether every weight is at least 0 (as `PodWeights.from_mapping` demands), so that no
        # pod costs less than 0: the local search then skips pairs of pods too cheap to gain.
        self.nonnegative = all(getattr(weights, f.name) >= 0 for f in fields(weights))

    # -- costs --

    def repeat_weight(
        self, rounds_left: int | None, *, last_in_full: bool = True, late: bool = True
    ) -> float:
        """A repeated pair's weight in a round with `rounds_left` rounds after it: both players
        carry the badness; a small field's share except in the last round (with
        `last_in_full`); in a tight field's last LATE_ROUNDS rounds, the late share (with
        `late`: a pair's first repeat)."""
        weights = self.weights
        weight = 2 * weights.repeat
        if len(self.order) <= SMALL_FIELD and not (last_in_full and rounds_left == 0):
            weight *= weights.small_field
        if late and self.tight and _late(rounds_left):
            weight *= weights.late_repeat
        return weight

    def cost(self, pod: Sequence[PlayerId]) -> float:
        """A pod's weighted cost: spread, repeats and odd pods (see the module docstring).

        Memoised per seat order (`pod_costs`, emptied when a weight changes): the local search,
        the exact search and the look-ahead price the same pods over and over, most of the
        pairing's time before the memo. The key keeps the seat order, as the sum over the
        pod's pairs is taken in that order; where that sum is of whole numbers (no late
        factors) and no points are NaN (`orderless`), the cost does not depend on the seat
        order, and a pod's players price every order of them once."""
        key = tuple(pod)
        costs = self.pod_costs
        total = costs.get(key)
        if total is None:
            if self.orderless:
                # The same players in another seat order cost the same here: priced once.
                players = frozenset(key)
                total = costs.get(players)
                if total is None:
                    total = costs[players] = self._price(key)
            else:
                total = self._price(key)
            costs[key] = total
        return total

    def _price(self, pod: tuple[PlayerId, ...]) -> float:
        # The weights are read past their `_CostWeight` descriptors, for speed.
        score = self.score
        values = [score[p] for p in pod]
        total = self._w_spread * (max(values) - min(values))
        repeats = again = 0.0  # a pair's first repeat; its third meeting or more
        # Most pods seat nobody who met: one test of the players' met-masks settles that.
        bit, met_bits = self.bit, self.met_bits
        mask = 0
        for p in pod:
            mask |= bit[p]
        if any(met_bits[p] & mask for p in pod):
            met = self.met
            factor = self.factor
            for i, a in enumerate(pod):
                row = met.get(a)
                if row:
                    for b in pod[i + 1 :]:
                        m = row.get(b)
                        if m:
                            # each of the two carries the badness at their own factor
                            badness = (
                                m * m if factor is None else m * m * (factor[a] + factor[b]) / 2
                            )
                            if m == 1:
                                repeats += badness
                            else:
                                again += badness
        total += self._w_repeat * repeats + self._w_again * again
        if self._w_first and (repeats or again):
            met = self.met
            total += self._w_first * sum(
                1 for i, a in enumerate(pod) for b in pod[i + 1 :] if met.get(a, {}).get(b)
            )
        if len(pod) != 4:
            odd_square = self.odd_square
            total += self._w_odd * sum(odd_square[p] for p in pod)
        return total

    def penalty(self, pod: Sequence[PlayerId]) -> bool:
        """Whether a pod has anything but spread to improve (a repeat or a second odd pod)."""
        met = self.met
        for i, a in enumerate(pod):
            row = met.get(a)
            if row and any(row.get(b) for b in pod[i + 1 :]):
                return True
        return len(pod) != 4 and any(self.odd[p] for p in pod)

    # -- the first cut: consecutive pods, odd sizes placed by dynamic programming --

    def initial(self, cost=None) -> list[list[PlayerId]]:
        """The cheapest cut of `order` into consecutive pods by `cost` (default `self.cost`)."""
        cost = cost or self.cost
        order = self.order
        n = len(order)
        common = 4 if 4 in self.sizes else self.sizes[0]
        others = [s for s in self.sizes if s != common]
        other = others[0] if others else None
        k = len(others)
        inf = float("inf")
        # best[i][j]: cheapest cut of order[:i] into pods using j odd pods.
        best = [[inf] * (k + 1) for _ in range(n + 1)]
        back: list[list[int]] = [[0] * (k + 1) for _ in range(n + 1)]
        best[0][0] = 0.0
        for i in range(n + 1):
            for j in range(k + 1):
                here = best[i][j]
                if here == inf:
                    continue
                for size, dj in ((common, 0), (other, 1)):
                    if size is None or j + dj > k or i + size > n:
                        continue
                    value = here + cost(order[i : i + size])
                    if value < best[i + size][j + dj] - _EPS:
                        best[i + size][j + dj] = value
                        back[i + size][j + dj] = size
        pods = []
        i, j = n, k
        while i > 0:
            size = back[i][j]
            pods.append(list(order[i - size : i]))
            i -= size
            j -= size != common
        pods.reverse()
        return pods

    # -- local search --

    def _improve(self, pods: list[list[PlayerId]], costs: list[float], pending: set[int]) -> None:
        """Best-improving swaps and moves until none is left (in place), starting from the
        `pending` pods: a pod that has not changed since it found no improving partner needs
        no second look, as no partner of it has changed either."""
        count = len(pods)
        full = count <= self.FULL_LIMIT
        score = self.score
        changes = self.pod_changes
        # Per pod: lowest and highest points, and whether it has a repeat or odd-pod cost. Two
        # pods with neither, whose points ranges do not overlap, cannot gain from a swap: the
        # two pods already split their players' points at one boundary.
        low = [min(score[p] for p in pod) for pod in pods]
        high = [max(score[p] for p in pod) for pod in pods]
        flagged = [self.penalty(pod) for pod in pods]
        if not full:
            pending = {i for i in pending if flagged[i]}
        while pending:
            i = min(pending)
            pending.discard(i)
            if full:
                partners = range(count)
            else:
                partners = range(max(0, i - self.WINDOW), min(count, i + self.WINDOW + 1))
            best = None
            best_gain = _EPS
            # Tuples: `cost` keys its memo by the tuple it is given, without a copy.
            pod_i = tuple(pods[i])
            for j in partners:
                if j == i:
                    continue
                if not (flagged[i] or flagged[j]) and (low[i] >= high[j] or low[j] >= high[i]):
                    continue
                base = costs[i] + costs[j]
                # No pod costs less than 0, so no change to these two pods gains more than
                # they cost now: a partner that cannot beat the best gain so far is skipped.
                if self.nonnegative and base <= best_gain:
                    continue
                pod_j = tuple(pods[j])
                key = (pod_i, pod_j, base)
                change = changes.get(key, False)
                if change is False:
                    change = changes[key] = self._best_change(pod_i, pod_j, base)
                if change is not None and change[0] > best_gain:
                    best_gain, best = change[0], (j, *change[1:])
            if best is None:
                continue
            j, new_i, new_j, ci, cj = best
            pods[i], pods[j], costs[i], costs[j] = list(new_i), list(new_j), ci, cj
            for k in (i, j):
                low[k] = min(score[p] for p in pods[k])
                high[k] = max(score[p] for p in pods[k])
                flagged[k] = self.penalty(pods[k])
            pending.add(i)
            pending.add(j)
            if not full:
                # Neighbours may now find a better partner in the changed pods.
                for k in range(max(0, i - self.WINDOW), min(count, i + self.WINDOW + 1)):
                    if flagged[k]:
                        pending.add(k)

    def _best_change(self, pod_i: tuple, pod_j: tuple, base: float) -> tuple | None:
        """The best swap of a player of `pod_i` with one of `pod_j`, or move of one player
        from the larger to the smaller (their sizes swap), as (gain, new pod i, new pod j,
        their costs), if it gains more than _EPS over `base`, the two pods' cost now: of equal
        gains, the first found. Memoised by the pods (`pod_changes`), as the local search
        meets the same two pods again after most perturbations."""
        options = [
            (
                (*pod_i[:a_index], b, *pod_i[a_index + 1 :]),
                (*pod_j[:b_index], a, *pod_j[b_index + 1 :]),
            )
            for a_index, a in enumerate(pod_i)
            for b_index, b in enumerate(pod_j)
        ]
        if len(pod_i) == len(pod_j) + 1:
            options += [(pod_i[:k] + pod_i[k + 1 :], (*pod_j, a)) for k, a in enumerate(pod_i)]
        elif len(pod_j) == len(pod_i) + 1:
            options += [((*pod_i, b), pod_j[:k] + pod_j[k + 1 :]) for k, b in enumerate(pod_j)]
        cost = self.cost
        nonnegative = self.nonnegative
        best = None
        best_gain = _EPS
        for new_i, new_j in options:
            ci = cost(new_i)
            # Pod j costs at least 0: if pod i alone leaves no better gain, skip pricing it.
            if nonnegative and base - ci <= best_gain:
                continue
            cj = cost(new_j)
            gain = base - ci - cj
            if gain > best_gain:
                best_gain, best = gain, (gain, new_i, new_j, ci, cj)
        return best

    def exact(self, bound: float) -> tuple[float, list[list[PlayerId]]] | None:
        """The cheapest pods of all, if any costs less than `bound` (branch and bound: the
        best-placed player left opens the next pod, partial costs over `bound` are cut)."""
        order = self.order
        best: list = [bound - _EPS, None]
        sizes = Counter(self.sizes)
        chosen: list[tuple[PlayerId, ...]] = []
        cost = self.cost
        # The pods player k can open: (mask, pod) for every choice of mates after k in
        # `order`, in `itertools.combinations` order, built once. The players seated are a bit
        # mask; a pod whose mask meets it is skipped. This lists exactly the pods, in exactly
        # the order, that `itertools.combinations` over the players left gives, without
        # building them again at every node.
        openings: dict[tuple[int, int], list[tuple[int, tuple]]] = {}

        def opening(k: int, size: int) -> list[tuple[int, tuple]]:
            found = openings.get((k, size))
            if found is None:
                found = openings[k, size] = []
                for mates in itertools.combinations(range(k + 1, len(order)), size - 1):
                    pod = (order[k], *(order[m] for m in mates))
                    mask = 1 << k
                    for m in mates:
                        mask |= 1 << m
                    found.append((mask, pod))
            return found

        # The least cost so far at which the rest of the search from a set of players seated
        # (and the pod sizes left) was searched in full. Coming back to it at no less cost
        # cannot find anything cheaper: the same pods follow, each partial cost at least what
        # it was, against a best no higher (floating-point sums are monotone), so that search
        # is skipped with the same result.
        searched: dict[tuple, float] = {}
        kinds = sorted(sizes)

        def extend(seated: int, spent: float) -> None:
            unseated = ~seated & everyone
            if not unseated:
                best[0], best[1] = spent, [list(pod) for pod in chosen]
                return
            key = (seated, *(sizes[s] for s in kinds))
            before = searched.get(key)
            if before is not None and before <= spent:
                return
            k = (unseated & -unseated).bit_length() - 1  # the best-placed player left
            for size in kinds:
                if not sizes[size]:
                    continue
                sizes[size] -= 1
                for mask, pod in opening(k, size):
                    if mask & seated:
                        continue
                    total = spent + cost(pod)
                    if total < best[0]:
                        chosen.append(pod)
                        extend(seated | mask, total)
                        chosen.pop()
                sizes[size] += 1
            if before is None or spent < before:
                searched[key] = spent

        everyone = (1 << len(order)) - 1
        extend(0, 0.0)
        return None if best[1] is None else (best[0], best[1])

    def spread_floor(self) -> float:
        """A lower bound on the cost: the least total spread of any pods of these sizes.

        Consecutive players in points order minimise the sum of (max - min) over groups of
        given sizes (two groups whose ranges interleave can always trade players so that they
        do not, without widening either), so a dynamic programme over where the odd-sized
        pods go finds it.
        """
        w_spread, score = self.w_spread, self.score

        def spread(pod) -> float:  # `cost` with every weight but spread at 0
            values = [score[p] for p in pod]
            return w_spread * (max(values) - min(values))

        return sum(spread(pod) for pod in self.initial(spread))

    def history_after(self, pods: list[list[PlayerId]]) -> tuple[dict, Counter]:
        """Who will have met whom and the odd pods had, once these pods are played."""
        met = {p: dict(row) for p, row in self.met.items()}
        odd = Counter(self.odd)
        for pod in pods:
            for a in pod:
                row = met.setdefault(a, {})
                for b in pod:
                    if b != a:
                        row[b] = row.get(b, 0) + 1
                if len(pod) != 4:
                    odd[a] += 1
        return met, odd

    def next_round_cost(self, pods: list[list[PlayerId]]) -> float:
        """The least repeat and odd-pod cost the next round could have after these pods (its
        points are unknown yet, so spread is left out)."""
        met, odd = self.history_after(pods)
        left = self.rounds_left
        after = _Search(
            self.order,
            self.sizes,
            self.score,
            met,
            odd,
            self.weights,
            self.win_points,
            rounds_left=None if left is None else max(0, left - 1),
            tight=self.tight,
        )
        after.w_spread = 0.0
        # The look-ahead prices every repeat of the next round alike, a third meeting too.
        after.w_repeat = after.w_again = self.next_w_repeat
        after.lookahead = 0.0
        after.perturbations = 8
        return sum(after.cost(pod) for pod in after.run(random.Random(0)))

    # -- the exact look-ahead over the next round's results (small fields) --

    OUTCOME_LIMIT = 625  # results of one round enumerated exactly (4 pods of 4: 5**4)
    REPEAT_FREE_LIMIT = 64  # repeat-free pairings of one round enumerated at most

    def outcome_count(self, pods) -> int:
        total = 1
        for pod in pods:
            total *= len(pod) + 1
        return total

    def repeat_free(self, met, limit: int) -> list[list[tuple]] | None:
        return _repeat_free(self.order, self.sizes, met, limit)

    def expected_next_cost(self, pods: list[list[PlayerId]]) -> float:
        """The next round's least cost, averaged over every result of these pods (each pod
        drawn or won by any one of its players, all equally likely): the cheapest pairing
        without repeats, or if cheaper, the least spread of any pods plus the least repeat
        cost a pairing other than those must have."""
        # Column-major outcome table: column[p][o] is p's points after outcome o, where the
        # outcomes are numbered in mixed radix over the pods (pod k has len(pod) + 1 results:
        # a draw, or one of its players wins).
        win, draw = self.win_points, self.draw_points
        count = self.outcome_count(pods)
        column: dict[PlayerId, list[float]] = {}
        inner = 1  # outcomes of the pods after this one: each result repeats this many times
        for pod in reversed(pods):
            results = len(pod) + 1
            outer = count // (inner * results)
            for k, p in enumerate(pod):
                base = self.score[p]
                block = [base + draw] * inner
                for winner in range(len(pod)):
                    block += [base + (win if winner == k else 0.0)] * inner
                column[p] = block * outer
            inner *= results
        met, odd = self.history_after(pods)
        pool = self.repeat_free(met, self.REPEAT_FREE_LIMIT)
        # What any pairing outside the pool must pay at least: nothing when too many pairings
        # without repeats exist to list, one repeat when some do, else the least the search
        # finds.
        if pool is None:
            least = 0.0
        elif pool:
            least = self.next_w_repeat
        else:
            least = self.next_round_cost(pods)
        w_spread = self.w_spread
        sizes = self.sizes
        rows = zip(*(column[p] for p in self.order), strict=True)
        if len(set(sizes)) == 1:
            size = sizes[0]
            tops = range(size - 1, len(self.order), size)
            floors = []
            for row in rows:
                row = sorted(row)
                floors.append(sum(row[i] - row[i - size + 1] for i in tops))
        else:
            floors = [_spread_floor_points(sorted(row), sizes) for row in rows]
        best = [w_spread * f + least for f in floors]
        if pool:
            vectors: dict[tuple, list[float]] = {}
            for pairing in pool:
                fixed = sum(
                    self.w_odd * sum(odd[p] * odd[p] for p in pod)
                    for pod in pairing
                    if len(pod) != 4
                )
                total = None
                for pod in pairing:
                    vector = vectors.get(pod)
                    if vector is None:
                        vector = [
                            w_spread * (max(values) - min(values))
                            for values in zip(*(column[p] for p in pod), strict=True)
                        ]
                        vectors[pod] = vector
                    total = vector if total is None else list(map(operator.add, total, vector))
                if fixed:
                    total = [t + fixed for t in total]
                best = list(map(min, best, total))
        return sum(best) / len(best)

    def plan(self, seen: dict, best: list[list[PlayerId]]) -> list[list[PlayerId]]:
        """Among the cheapest pods found and the cheapest pairings without repeats, the pods
        whose cost plus `lookahead` times the next round's expected least cost is least."""
        found = sorted(seen.values(), key=lambda item: item[0])[: self.LOOKAHEAD_CANDIDATES]
        candidates = {_canonical(pods): (total, pods) for total, pods in found}
        fresh = []
        for pairing in self.repeat_free(self.met, self.REPEAT_FREE_LIMIT) or ():
            pods = [list(pod) for pod in pairing]
            fresh.append((sum(self.cost(p) for p in pods), pods))
        fresh.sort(key=lambda item: item[0])
        for total, pods in fresh[: self.LOOKAHEAD_CANDIDATES]:
            candidates.setdefault(_canonical(pods), (total, pods))
        ranked = sorted(candidates.values(), key=lambda item: item[0])
        choice, choice_score = best, None
        for total, pods in ranked:
            if choice_score is not None and total >= choice_score - _EPS:
                break
            score = total + self.lookahead * self.expected_next_cost(pods)
            if choice_score is None or score < choice_score - _EPS:
                choice, choice_score = pods, score
        return choice

    REPEAT_TIER = 1e4  # per pair that met before, once pods without a repeat are known
    REPEAT_FREE_BUDGET = 20_000  # players seated and taken back by `_one_repeat_free`
    REPEAT_FREE_PLAYERS = 64  # fields up to this size look for pods without a repeat

    def has_repeat(self, pods) -> bool:
        met = self.met
        return any(met.get(a, {}).get(b) for pod in pods for a, b in _pairs(pod))

    def without_repeats(self, pods, costs):
        """Repeats first: if these pods repeat a pairing but pods without a repeat exist
        (`_one_repeat_free`, in fields of up to REPEAT_FREE_PLAYERS), those pods, improved by
        the local search; from then on (and at once when these pods have no repeat) a pair
        that met before costs REPEAT_TIER, so the rest of the search, the exact search and
        the look-ahead choose among pods without repeats only."""
        if not self.met:
            return pods, costs
        if not self.has_repeat(pods):
            self.w_first = self.REPEAT_TIER
            return pods, costs
        if len(self.order) > self.REPEAT_FREE_PLAYERS:
            return pods, costs
        found = _one_repeat_free(self.order, self.sizes, self.met, self.REPEAT_FREE_BUDGET)
        if found is None:
            return pods, costs
        self.w_first = self.REPEAT_TIER
        pods = [list(pod) for pod in found]
        costs = [self.cost(pod) for pod in pods]
        self._improve(pods, costs, set(range(len(pods))))
        return pods, costs

    def run(self, rng: random.Random) -> list[list[PlayerId]]:
        pods = self.initial()
        if len(pods) < 2:
            return pods
        costs = [self.cost(pod) for pod in pods]
        self._improve(pods, costs, set(range(len(pods))))
        if self.repeats_first:
            pods, costs = self.without_repeats(pods, costs)
        best, best_total = [list(p) for p in pods], sum(costs)
        if len(pods) > self.FULL_LIMIT:
            return best
        floor = self.spread_floor()
        # Local optima seen, for the look-ahead: canonical form -> (cost, pods).
        seen: dict[frozenset, tuple[float, list[list[PlayerId]]]] = {}
        seen[_canonical(best)] = (best_total, best)
        idle = 0
        for _ in range(self.perturbations):
            if not self.lookahead and (best_total <= floor + _EPS or idle >= self.PATIENCE):
                break
            pods = [list(p) for p in best]
            touched = set()
            for _ in range(rng.randint(2, self.kick)):
                i, j = rng.sample(range(len(pods)), 2)
                a, b = rng.randrange(len(pods[i])), rng.randrange(len(pods[j]))
                pods[i][a], pods[j][b] = pods[j][b], pods[i][a]
                touched.update((i, j))
            costs = [self.cost(pod) for pod in pods]
            self._improve(pods, costs, touched)
            total = sum(costs)
            seen.setdefault(_canonical(pods), (total, [list(p) for p in pods]))
            idle += 1
            if total < best_total - _EPS:
                best, best_total, idle = [list(p) for p in pods], total, 0
        if len(self.order) <= EXACT_LIMIT:
            proved = self.exact(best_total)
            if proved is not None:
                best_total, best = proved
                seen.setdefault(_canonical(best), (best_total, best))
        if self.lookahead and self.met and self.outcome_count(best) <= self.OUTCOME_LIMIT:
            return self.plan(seen, best)
        if not self.lookahead or len(seen) < 2:
            return best
        # One round of look-ahead: among the cheapest local optima, prefer pods that leave the
        # next round a pairing without repeats (in 16 players, 4 rounds, a round-3 pairing can
        # be repeat-free yet leave no repeat-free round 4).
        ranked = sorted(seen.values(), key=lambda item: item[0])[: self.LOOKAHEAD_CANDIDATES]
        choice, choice_score = best, None
        for total, pods in ranked:
            if choice_score is not None and total >= choice_score - _EPS:
                break
            score = total + self.REPEAT_LOOKAHEAD * self.lookahead * self.next_round_cost(pods)
            if choice_score is None or score < choice_score - _EPS:
                choice, choice_score = pods, score
        return choice


def _repeat_free(order, sizes, met, limit: int) -> list[list[tuple]] | None:
    """Every cut of `order` into pods of `sizes` where no two players at a pod met before
    (`met[a][b]` > 0), each pod in `order`'s order, or None when there are more than `limit`
    (or the search passes 20 * `limit` nodes without settling it)."""
    left_sizes = Counter(sizes)
    found: list[list[tuple]] = []
    chosen: list[tuple] = []
    budget = [20 * limit]  # search nodes

    def extend(left: list) -> bool:
        if not left:
            found.append(list(chosen))
            return len(found) <= limit
        budget[0] -= 1
        if budget[0] < 0:
            return False
        first, rest = left[0], left[1:]
        row = met.get(first, {})
        free = [p for p in rest if not row.get(p)]
        for size in sorted(s for s in left_sizes if left_sizes[s]):
            left_sizes[size] -= 1
            for others in itertools.combinations(free, size - 1):
                if any(met.get(a, {}).get(b) for a, b in itertools.combinations(others, 2)):
                    continue
                chosen.append((first, *others))
                ok = extend([p for p in rest if p not in others])
                chosen.pop()
                if not ok:
                    left_sizes[size] += 1
                    return False
            left_sizes[size] += 1
        return True

    return found if extend(list(order)) else None


def _one_repeat_free(order, sizes, met, budget: int) -> list[list[PlayerId]] | None:
    """One cut of `order` into pods of `sizes` where no two players at a pod met before, or
    None when there is none or the search seats and takes back more than `budget` players
    without settling it. Backtracking: each pod is opened by the unseated player with the
    fewest possible pod-mates left (the hardest to seat first) and filled with players near
    it in `order` (standings order: near in points), so the first cut found is already close
    to Swiss; the local search then lowers its spread without adding a repeat."""
    rank = {p: i for i, p in enumerate(order)}
    left_sizes = Counter(sizes)
    unseated = set(order)
    pods: list[list[PlayerId]] = []
    steps = [budget]

    def apart(a, b) -> bool:
        return not met.get(a, {}).get(b)

    def fill(pod: list, candidates: list, size: int) -> bool | None:
        if len(pod) == size:
            unseated.difference_update(pod)
            pods.append(list(pod))
            done = seat_next()
            if done is False:
                pods.pop()
                unseated.update(pod)
            return done
        for k, q in enumerate(candidates):
            if len(candidates) - k < size - len(pod):
                break
            if all(apart(q, p) for p in pod[1:]):
                steps[0] -= 1
                if steps[0] < 0:
                    return None
                pod.append(q)
                done = fill(pod, candidates[k + 1 :], size)
                pod.pop()
                if done is not False:
                    return done
        return False

    def seat_next() -> bool | None:
        if not unseated:
            return True
        mates = {p: [q for q in unseated if q != p and apart(p, q)] for p in unseated}
        opener = min(unseated, key=lambda p: (len(mates[p]), rank[p]))
        candidates = sorted(mates[opener], key=lambda q: (abs(rank[q] - rank[opener]), rank[q]))
        for size in sorted((s for s in left_sizes if left_sizes[s]), reverse=True):
            left_sizes[size] -= 1
            done = fill([opener], candidates, size)
            left_sizes[size] += 1
            if done is not False:
                return done
        return False

    return pods if seat_next() is True else None


def _spread_floor_points(values: list[float], sizes: list[int]) -> float:
    """The least sum of (max - min) over pods of `sizes` (at most two distinct sizes, as
    `pod_sizes` gives) cut from `values`, sorted: consecutive cuts, odd pods placed by dynamic
    programming (see `_Search.spread_floor`)."""
    if len(set(sizes)) == 1:
        size = sizes[0]
        return sum(values[i + size - 1] - values[i] for i in range(0, len(values), size))
    common = max(set(sizes), key=sizes.count)
    other = next(s for s in sizes if s != common)
    k = sizes.count(other)
    n = len(values)
    inf = float("inf")
    best = [[inf] * (k + 1) for _ in range(n + 1)]
    best[0][0] = 0.0
    for i in range(n):
        for j in range(k + 1):
            here = best[i][j]
            if here == inf:
                continue
            if i + common <= n:
                value = here + values[i + common - 1] - values[i]
                if value < best[i + common][j]:
                    best[i + common][j] = value
            if j < k and i + other <= n:
                value = here + values[i + other - 1] - values[i]
                if value < best[i + other][j + 1]:
                    best[i + other][j + 1] = value
    return best[n][k]


def _canonical(pods: list[list[PlayerId]]) -> frozenset:
    return frozenset(frozenset(pod) for pod in pods)
