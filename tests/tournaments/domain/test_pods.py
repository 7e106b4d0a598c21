"""The pod pairer's public promises: layouts, invariants, a brute-force optimum, seats, odd-pod
rotation, badness, the repeat-free goal of pairings_edh (16 players, 4 rounds) and the exact
look-ahead's parts.

Only the public names of `tournaments.domain.pods` are used (its search is being tuned);
histories come from playing events with `pair_pods` itself and random results.
"""

import dataclasses
import functools
import itertools
import random
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournaments.domain.pods import (
    FIRST_ROUND_MODES,
    LAYOUTS,
    PodPairing,
    PodPairingError,
    PodWeights,
    badness_by_player,
    expected_next_round_cost,
    pair_pods,
    pairing_cost,
    pod_sizes,
    repeat_free_pairings,
    spread_floor,
    tight_field,
)
from tournaments.domain.records import Table
from tournaments.domain.simulate import POD_OMW_FLOOR, pod_metrics, simulate, standings

# ---------------------------------------------------------------------------------------------
# pod_sizes: every field size from 3 to 21, written out by hand

THREES = {
    3: ((3,), 0),
    4: ((4,), 0),
    5: ((4,), 1),  # 5 = 4a + 3b has no solution: one 4-pod and a bye
    6: ((3, 3), 0),
    7: ((4, 3), 0),
    8: ((4, 4), 0),
    9: ((3, 3, 3), 0),
    10: ((4, 3, 3), 0),
    11: ((4, 4, 3), 0),
    12: ((4, 4, 4), 0),
    13: ((4, 3, 3, 3), 0),
    14: ((4, 4, 3, 3), 0),
    15: ((4, 4, 4, 3), 0),
    16: ((4, 4, 4, 4), 0),
    17: ((4, 4, 3, 3, 3), 0),
    18: ((4, 4, 4, 3, 3), 0),
    19: ((4, 4, 4, 4, 3), 0),
    20: ((4, 4, 4, 4, 4), 0),
    21: ((4, 4, 4, 3, 3, 3), 0),
}
FIVES = {
    3: ((3,), 0),  # no 4/5 cut: threes
    4: ((4,), 0),
    5: ((5,), 0),
    6: ((3, 3), 0),  # no 4/5 cut: threes
    7: ((4, 3), 0),  # no 4/5 cut: threes
    8: ((4, 4), 0),
    9: ((5, 4), 0),
    10: ((5, 5), 0),
    11: ((4, 4, 3), 0),  # no 4/5 cut: threes
    12: ((4, 4, 4), 0),
    13: ((5, 4, 4), 0),
    14: ((5, 5, 4), 0),
    15: ((5, 5, 5), 0),
    16: ((4, 4, 4, 4), 0),
    17: ((5, 4, 4, 4), 0),
    18: ((5, 5, 4, 4), 0),
    19: ((5, 5, 5, 4), 0),
    20: ((4, 4, 4, 4, 4), 0),
    21: ((5, 4, 4, 4, 4), 0),
}
BYES = {
    3: ((3,), 0),  # too few for a 4-pod: they still play
    4: ((4,), 0),
    5: ((4,), 1),
    6: ((4,), 2),
    7: ((4,), 3),
    8: ((4, 4), 0),
    9: ((4, 4), 1),
    10: ((4, 4), 2),
    11: ((4, 4), 3),
    12: ((4, 4, 4), 0),
    13: ((4, 4, 4), 1),
    14: ((4, 4, 4), 2),
    15: ((4, 4, 4), 3),
    16: ((4, 4, 4, 4), 0),
    17: ((4, 4, 4, 4), 1),
    18: ((4, 4, 4, 4), 2),
    19: ((4, 4, 4, 4), 3),
    20: ((4, 4, 4, 4, 4), 0),
    21: ((4, 4, 4, 4, 4), 1),
}
SIZE_CASES = [
    (layout, count, expected)
    for layout, table in (("threes", THREES), ("fives", FIVES), ("byes", BYES))
    for count, expected in table.items()
]


@pytest.mark.parametrize(("layout", "count", "expected"), SIZE_CASES)
def test_pod_sizes(layout, count, expected):
    sizes, byes = pod_sizes(count, layout)
    assert (tuple(sizes), byes) == expected
    assert sum(sizes) + byes == count


def test_pod_sizes_defaults_to_threes():
    assert pod_sizes(13) == THREES[13]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("count", [-1, 0, 1, 2])
def test_pod_sizes_needs_three_players(layout, count):
    with pytest.raises(PodPairingError) as error:
        pod_sizes(count, layout)
    assert error.value.code == "few_players"


@pytest.mark.parametrize("layout", ["twos", "", "Threes", "sixes"])
def test_pod_sizes_refuses_unknown_layouts(layout):
    with pytest.raises(PodPairingError) as error:
        pod_sizes(12, layout)
    assert error.value.code == "layout"


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"players": [1, 2]}, "few_players"),
        ({"players": [1, 2, 3, 3, 4]}, "duplicate_player"),
        ({"layout": "sevens"}, "layout"),
        ({"round_number": 0}, "round_number"),
        ({"rounds": 0}, "rounds"),
        ({"first_round": "alphabetical"}, "first_round"),
        ({"win_points": 0}, "win_points"),
    ],
)
def test_pair_pods_refuses_bad_input(changes, code):
    arguments = {"players": [1, 2, 3, 4, 5, 6], "history": [], "points": {}, "seed": 1}
    arguments |= {"round_number": 1} | changes
    with pytest.raises(PodPairingError) as error:
        pair_pods(**arguments)
    assert error.value.code == code


# ---------------------------------------------------------------------------------------------
# Events played with pair_pods itself: random results, drops between rounds, late joiners


def this_round_only(**values) -> PodWeights:
    """Weights whose whole cost is `pairing_cost`: PodWeights now has a `lookahead` that also
    prices the next round, which `pairing_cost` leaves out, so it is switched off here."""
    if "lookahead" in {f.name for f in dataclasses.fields(PodWeights)}:
        values.setdefault("lookahead", 0.0)
    return PodWeights(**values)


WEIGHTS = st.sampled_from(
    [
        None,  # the defaults
        this_round_only(),
        this_round_only(spread=1.0, repeat=3.0, odd_pod=0.5),
        this_round_only(spread=0.0),  # repeats and odd pods only
        this_round_only(odd_pod=0.0),
    ]
)


@dataclass(frozen=True)
class Plan:
    """An event to play up to the round under test. `field` is entered for that round; a late
    joiner's first round is in `joins`; players in `drops` (ids from 101) play until the round
    given there, then leave. Results: a draw with probability 0.2, else a random winner
    (the seed's model), from `results_seed`. Round 1 is random or by rating (ratings are a
    fixed scramble of the ids)."""

    layout: str
    field: tuple[int, ...]
    joins: tuple[tuple[int, int], ...]  # (player, first round played)
    drops: tuple[tuple[int, int], ...]  # (player, first round missed)
    rounds: int  # rounds played before the round under test
    seed: int
    results_seed: int
    first_round: str = "random"
    weights: PodWeights | None = None

    def active(self, number: int) -> list[int]:
        joins, drops = dict(self.joins), dict(self.drops)
        here = [p for p in self.field if joins.get(p, 1) <= number]
        return here + [p for p in drops if number < drops[p]]


@st.composite
def plans(draw, sizes=(3, 12), rounds=(0, 3), layouts=LAYOUTS):
    count = draw(st.integers(*sizes))
    played = draw(st.integers(*rounds))
    field = tuple(range(1, count + 1))
    joins = ()
    if played:
        late = draw(st.lists(st.sampled_from(field), unique=True, max_size=min(3, count)))
        joins = tuple((p, draw(st.integers(2, played + 1))) for p in sorted(late))
    leavers = draw(st.integers(0, 3)) if played else 0
    drops = tuple((101 + k, draw(st.integers(2, played + 1))) for k in range(leavers))
    return Plan(
        layout=draw(st.sampled_from(layouts)),
        field=field,
        joins=joins,
        drops=drops,
        rounds=played,
        seed=draw(st.integers(0, 2**16)),
        results_seed=draw(st.integers(0, 2**16)),
        first_round=draw(st.sampled_from(FIRST_ROUND_MODES)),
        weights=draw(WEIGHTS),
    )


@dataclass(frozen=True)
class Played:
    """One round's inputs and what pair_pods made of them."""

    number: int
    players: list[int]
    history: list
    points: dict
    ranking: list[int]
    result: PodPairing


def pair(plan: Plan, number: int, players: list[int], history: list) -> Played:
    """pair_pods as the simulator calls it: points, then OMW%, then id."""
    points, ranking = standings(players, history, floor=POD_OMW_FLOOR)
    result = pair_pods(
        players=players,
        history=history,
        points=points,
        ranking=ranking,
        seed=plan.seed,
        round_number=number,
        layout=plan.layout,
        weights=plan.weights,
        first_round=plan.first_round,
        ratings={p: float(p * 7919 % 101) for p in players},
    )
    return Played(number, players, list(history), points, ranking, result)


def play(plan: Plan) -> list[Played]:
    """Every round of the plan and then the round under test, as Played records."""
    rng = random.Random(plan.results_seed)
    history = []
    rounds = []
    for number in range(1, plan.rounds + 1):
        active = plan.active(number)
        if len(active) < 3:
            history.append(())  # too few to play this round
            continue
        played = pair(plan, number, active, history)
        tables = [
            Table(pod, None if rng.random() < 0.2 else rng.choice(pod))
            for pod in played.result.pods
        ]
        tables += [Table((p,), p) for p in played.result.byes]
        history.append(tuple(tables))
        rounds.append(played)
    rounds.append(pair(plan, plan.rounds + 1, list(plan.field), history))
    return rounds


def is_first_round(history) -> bool:
    return not any(len(t.players) > 1 for round_ in history for t in round_)


def byes_before(history) -> Counter:
    return Counter(t.players[0] for round_ in history for t in round_ if t.is_bye)


# ---------------------------------------------------------------------------------------------
# Invariants of every round


@settings(max_examples=30, deadline=None)
@given(plan=plans())
def test_every_active_player_is_seated_once_in_the_layouts_pods(plan):
    for played in play(plan):
        result = played.result
        seated = [p for pod in result.pods for p in pod] + list(result.byes)
        assert sorted(seated) == sorted(played.players)  # nobody twice, nobody dropped
        sizes, bye_count = pod_sizes(len(played.players), plan.layout)
        assert sorted(len(pod) for pod in result.pods) == sorted(sizes)
        assert len(result.byes) == bye_count
        # The figures reported with the pods: the round's repeat badness (what it adds to
        # badness_by_player) and, after round 1, the sum over pods of max - min points.
        before = badness_by_player(played.history)
        after = badness_by_player([*played.history, tuple(Table(pod, None) for pod in result.pods)])
        assert result.badness == sum(after[p] - before.get(p, 0) for p in after)
        if not is_first_round(played.history):
            points = played.points
            spread = sum(
                max(points[p] for p in pod) - min(points[p] for p in pod) for pod in result.pods
            )
            assert result.spread == pytest.approx(spread)


@settings(max_examples=20, deadline=None)
@given(plan=plans())
def test_the_same_inputs_give_the_same_pods(plan):
    last = play(plan)[-1]
    again = pair(plan, last.number, list(last.players), last.history)
    assert again.result == last.result


@settings(max_examples=25, deadline=None)
@given(plan=plans(sizes=(4, 11), rounds=(1, 4), layouts=("byes",)))
def test_byes_go_to_the_fewest_byes_then_the_lowest_ranked(plan):
    for played in play(plan):
        had = byes_before(played.history)
        rank = {p: k for k, p in enumerate(played.ranking)}
        seated = [p for pod in played.result.pods for p in pod]
        for b in played.result.byes:
            for p in seated:
                assert had[b] <= had[p], f"round {played.number}: {b} had more byes than {p}"
                # Ranked order only means something once there are results.
                if had[b] == had[p] and not is_first_round(played.history):
                    assert rank[b] > rank[p], f"round {played.number}: {b} ranks above {p}"


def test_five_players_in_threes_sit_out_in_turn():
    """5 players, 5 rounds of "threes" (a 4-pod and a bye): everyone sits out exactly once."""
    event = simulated(5, 5, seed=3)
    byes = [t["players"][0] for r in event["rounds"] for t in r if len(t["players"]) == 1]
    assert sorted(byes) == [1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------------------------
# Optimality: the brute-force minimum over every split into the pod sizes


def partitions(players, sizes: Counter):
    """Every split of `players` into pods of the multiset `sizes`, each split once (the pod
    of the first player is chosen first, so no split comes up in two orders)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(s for s, n in sizes.items() if n):
        for mates in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in mates]
            for tail in partitions(left, sizes - Counter({size: 1})):
                yield [(first, *mates), *tail]


def test_partitions_counts():
    # 7 into 4 + 3: C(7, 4) = 35. 9 into 3 + 3 + 3: 9! / (3!^3 * 3!) = 280.
    # 10 into 4 + 3 + 3: 10! / (4! 3! 3! 2!) = 2100.
    assert len(list(partitions(list(range(7)), Counter([4, 3])))) == 35
    assert len(list(partitions(list(range(9)), Counter([3, 3, 3])))) == 280
    splits = list(partitions(list(range(10)), Counter([4, 3, 3])))
    assert len(splits) == 2100
    assert len({frozenset(map(frozenset, s)) for s in splits}) == 2100


def cost_of(pods, history, points, weights) -> float:
    return pairing_cost(pods, history=history, points=points, weights=weights)


def met_pairs(history) -> set[frozenset]:
    return {
        frozenset(pair)
        for round_ in history
        for table in round_
        for pair in itertools.combinations(table.players, 2)
    }


def brute_force_minimum(seated, sizes, history, points, weights) -> float:
    """The least cost over every split. The cost is a sum over pods (spread inside a pod,
    repeats between its players, odd-pod counts of its players), so each pod is priced once.
    Repeats first: with everyone's points within one win (3 here), only the splits without a
    repeat count, if there are any."""
    price = {}
    best = float("inf")
    splits = list(partitions(sorted(seated), Counter(sizes)))
    values = [points.get(p, 0.0) for p in seated]
    met = met_pairs(history)
    if met and max(values) - min(values) <= 3.0:
        fresh = [
            pods
            for pods in splits
            if not any(
                frozenset(pair) in met for pod in pods for pair in itertools.combinations(pod, 2)
            )
        ]
        splits = fresh or splits
    for pods in splits:
        total = 0.0
        for pod in pods:
            if pod not in price:
                price[pod] = cost_of([pod], history, points, weights)
            total += price[pod]
        best = min(best, total)
    return best


def check_optimal(plan: Plan, scores: list[int], weights: PodWeights):
    last = play(plan)[-1]
    history = last.history
    assume(not is_first_round(history))  # round 1 is a shuffle, not a minimum
    points = {p: float(s) for p, s in zip(plan.field, scores, strict=False)}
    result = pair_pods(
        players=list(plan.field),
        history=history,
        points=points,
        seed=plan.seed,
        round_number=last.number,
        layout=plan.layout,
        weights=weights,
    )
    got = cost_of(result.pods, history, points, weights)
    assert got == pytest.approx(
        sum(cost_of([pod], history, points, weights) for pod in result.pods)
    )
    seated = [p for pod in result.pods for p in pod]
    best = brute_force_minimum(seated, [len(pod) for pod in result.pods], history, points, weights)
    # The search finds the cheapest pods; then seat 1 must be able to go to a player who has
    # started least often (pods._cover_first_seats), which may swap players between pods at
    # up to half a win of spread each (win 3 here), never adding a repeat. With everyone
    # started equally often there is nothing to cover: the pods are the cheapest.
    started = Counter(
        table.players[0] for round_ in history for table in round_ if len(table.players) > 1
    )
    if len({started[p] for p in seated}) <= 1:
        assert got == pytest.approx(best, abs=1e-9), (result.pods, got, best)
    else:
        allowance = len(result.pods) * weights.spread * 3.0 / 2
        assert best - 1e-9 <= got <= best + allowance + 1e-9, (result.pods, got, best)


ORACLE_WEIGHTS = st.sampled_from(
    [
        this_round_only(),
        this_round_only(spread=1.0, repeat=3.0, odd_pod=0.5),
        this_round_only(spread=0.0),
        this_round_only(spread=10.0, odd_pod=0.0),
    ]
)
SCORES = st.lists(st.integers(0, 15), min_size=12, max_size=12)  # random points, not results


@settings(max_examples=50, deadline=None)
@given(plan=plans(sizes=(6, 9), rounds=(1, 4)), scores=SCORES, weights=ORACLE_WEIGHTS)
def test_optimal_on_fields_of_6_to_9(plan, scores, weights):
    check_optimal(plan, scores, weights)


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(plan=plans(sizes=(10, 12), rounds=(2, 3)), scores=SCORES, weights=ORACLE_WEIGHTS)
def test_optimal_on_fields_of_10_to_12(plan, scores, weights):
    check_optimal(plan, scores, weights)


@pytest.mark.parametrize("lookahead", [0.0, 0.5])
def test_a_look_ahead_may_pay_more_this_round_but_never_without_one(lookahead):
    """`pairing_cost` is one round's cost: without a look-ahead pair_pods reaches its minimum;
    with one it may pay more now for a cheaper next round (here it does)."""
    # small_field 1.0: the full repeat weight in this 7-player field, as worked out below.
    weights = PodWeights(spread=4.0, repeat=1.0, odd_pod=2.0, lookahead=lookahead, small_field=1.0)
    # Round 1: 4, 6, 1 drew in a 3-pod; 3 won the 4-pod 3, 7, 5, 2. Points are set by hand.
    history = [(Table((4, 6, 1), None), Table((3, 7, 5, 2), 3))]
    points = {1: 4.0, 2: 0.0, 3: 1.0, 4: 3.0, 5: 0.0, 6: 4.0, 7: 6.0}
    # 7 players: a 4-pod and a 3-pod, 35 splits. At spread 4 a win (4/3 a point), repeat 1 (2 a
    # pair, both players count it), odd pod 2 (x earlier odd pods squared, per player):
    #   1 4 6 7: spread 6 - 3 = 3 -> 4; 1-4, 1-6, 4-6 met -> 6; a 4-pod            = 10
    #   2 3 5:   spread 1 - 0 = 1 -> 4/3; 2-3, 2-5, 3-5 met -> 6; no earlier 3-pod = 7.33
    #   the minimum, 17.33. pair_pods returns 7 4 3 / 2 1 6 5:
    #   7 4 3:   spread 6 - 1 = 5 -> 20/3; 7-3 met -> 2; 4 had a 3-pod -> 2         = 10.67
    #   2 1 6 5: spread 4 - 0 = 4 -> 16/3; 2-5 and 1-6 met -> 4                     = 9.33
    #   total 20.
    result = pair_pods(
        players=[1, 2, 3, 4, 5, 6, 7],
        history=history,
        points=points,
        seed=3,
        round_number=2,
        weights=weights,
    )
    got = cost_of(result.pods, history, points, weights)
    best = brute_force_minimum(range(1, 8), [4, 3], history, points, weights)
    assert best == pytest.approx(52 / 3)
    if lookahead:
        assert got == pytest.approx(20.0), (result.pods, got)  # 7 4 3 / 2 1 6 5, above
    else:
        assert got == pytest.approx(best), (result.pods, got, best)


# ---------------------------------------------------------------------------------------------
# Small fields: a repeat costs `small_field` of its weight, except in the last round


@pytest.mark.parametrize(
    ("players", "small_field", "expected"),
    [
        (12, 0.6, 1.2),  # 2 x repeat 1.0 (both players carry it) x 0.6
        (12, 1.0, 2.0),
        (16, 0.6, 2.0),  # 16 players: the full weight
    ],
)
def test_a_repeat_costs_its_small_field_share_up_to_12_players(players, small_field, expected):
    # Of the pods' players only 1 and 2 met before; with 0 points the repeat is the whole cost.
    history = [(Table((1, 2, 3, 4), 1),)]
    pods = [(1, 2, 5, 6), (3, 7, 8, 9), (4, 10, 11, 12), (13, 14, 15, 16)][: players // 4]
    weights = this_round_only(small_field=small_field)
    assert cost_of(pods, history, {}, weights) == pytest.approx(expected)


# The small-field example: 8 players after round 1, and its two candidate round-2 splits.
SMALL_FIELD_ROUND_1 = (Table((1, 2, 3, 4), 1), Table((5, 6, 7, 8), 5))
SMALL_FIELD_POINTS = {1: 0.0, 2: 0.0, 3: 0.0, 4: 4.0, 5: 0.0, 6: 3.0, 7: 1.0, 8: 3.0}
MORE_REPEATS = {frozenset({4, 7, 8, 6}), frozenset({2, 3, 5, 1})}
FEWER_REPEATS = {frozenset({4, 8, 6, 1}), frozenset({7, 3, 2, 5})}


def test_a_small_field_takes_repeats_for_spread_but_not_in_its_last_round():
    """8 players after 1 2 3 4 / 5 6 7 8: every split repeats pairs. Spread 4 a win of 3 points
    (4/3 a point), a repeated pair 2 (both players), 1.2 at the small-field share 0.6.
      4 7 8 6 / 2 3 5 1: spread 3 + 0, 3 + 3 repeated pairs: 4 + 7.2 = 11.2, or 4 + 12 = 16
      4 8 6 1 / 7 3 2 5: spread 4 + 1, 2 + 2 repeated pairs: 6.67 + 4.8 = 11.47, or 14.67
    Before the last round the cheaper spread wins; in the last round, with no round left to
    pay an avoided repeat in, the repeat counts in full and the fewer repeats win."""
    assert small_field_round_2(last_round=False) == MORE_REPEATS
    assert small_field_round_2(last_round=True) == FEWER_REPEATS


def small_field_round_2(**when) -> set[frozenset]:
    """Round 2 of the example above (8 players), paired as `when` says it falls."""
    result = pair_pods(
        players=list(range(1, 9)),
        history=[SMALL_FIELD_ROUND_1],
        points=SMALL_FIELD_POINTS,
        seed=1,
        round_number=2,
        weights=this_round_only(late_repeat=1.0),
        **when,
    )
    return {frozenset(pod) for pod in result.pods}


# ---------------------------------------------------------------------------------------------
# The planned rounds: in a tight field the last LATE_ROUNDS weigh a pair's first repeat at
# `late_repeat` of its weight


@pytest.mark.parametrize(
    ("seated", "sizes", "rounds", "tight"),
    [
        (16, (4, 4, 4, 4), 5, True),  # 3 new opponents a round x 5 = the 15 others
        (16, (4, 4, 4, 4), 4, False),  # 12 of 15: a player need never meet anyone twice
        (15, (4, 4, 4, 3), 5, True),  # 16 players after a drop
        (17, (4, 4, 3, 3, 3), 5, False),
        (20, (5, 5, 5, 5), 5, True),  # 5-pods: 4 a round
        (12, (4, 4, 4), 5, False),  # a small field has its own share
        (16, (4, 4, 4, 4), None, False),  # the planned rounds not known
    ],
)
def test_a_field_is_tight_when_its_rounds_could_use_up_every_opponent(seated, sizes, rounds, tight):
    assert tight_field(seated, sizes, rounds) is tight


@pytest.mark.parametrize(
    ("round_number", "rounds", "repeats"),
    [
        (2, None, False),  # no planned rounds: every round weighs a repeat in full
        (2, 5, False),
        (3, 5, False),
        (4, 5, True),  # one of the last two rounds of a tight field
        (5, 5, True),
        (4, None, False),
        (4, 4, False),  # the last round, but 4 rounds of 16 are not tight
    ],
)
def test_a_repeat_costs_its_late_share_in_a_tight_fields_last_two_rounds(
    round_number, rounds, repeats
):
    """The 8 players of the small-field example above, in a field of 16: players 9-16 sit two
    pods of their own, 100 points above (whatever repeats they take are the same either way).
    A pair's first repeat in the last two rounds costs 0.6 of its weight (a repeated pair 1.2
    instead of 2):
      4 7 8 6 / 2 3 5 1: spread 4 + 6 repeated pairs x 2 = 16, late 4 + 7.2 = 11.2
      4 8 6 1 / 7 3 2 5: spread 6.67 + 4 repeated pairs x 2 = 14.67, late 6.67 + 4.8 = 11.47
    Round 4 of 5 takes the two more repeats for less spread; round 2 or 3 of 5, any round of an
    event whose rounds are not given, or of one too short to be tight, does not."""
    history = [(*SMALL_FIELD_ROUND_1, Table((9, 10, 11, 12), 9), Table((13, 14, 15, 16), 13))]
    points = SMALL_FIELD_POINTS | dict.fromkeys(range(9, 17), 100.0)
    result = pair_pods(
        players=list(range(1, 17)),
        history=history,
        points=points,
        seed=1,
        round_number=round_number,
        rounds=rounds,
        weights=this_round_only(late_repeat=0.6, late_growth=0.0),
    )
    pods = {frozenset(pod) for pod in result.pods if max(pod) <= 8}
    assert pods == (MORE_REPEATS if repeats else FEWER_REPEATS)
    # Players 9-16 split their two met groups 2 + 2 (any other split repeats more pairs): 4
    # repeated pairs, 8 badness, beside the example's 12 or 8.
    assert result.badness == (12 if repeats else 8) + 8


@pytest.mark.parametrize(
    ("pod", "rounds_left", "expected"),
    [
        # 1 and 2 met twice (a third meeting: 2**2 = 4 each); each already has badness 1.
        ((1, 2, 7, 8), None, 8.0),  # 2 players x 4, the full weight
        ((1, 2, 7, 8), 2, 8.0),  # three rounds to go: not one of the last two
        # A third meeting keeps the full weight, times (1 + 0.5 x 1) for each: 2 x 4 x 1.5.
        ((1, 2, 7, 8), 1, 12.0),
        ((1, 2, 7, 8), 0, 12.0),
        # 1 and 3 met once (1 each); 1 has badness 1, 3 none: 0.5 x (1.5 + 1.0) = 1.25
        ((1, 3, 7, 8), 1, 1.25),
        ((1, 3, 7, 8), None, 2.0),
    ],
)
def test_a_late_repeat_costs_more_for_a_player_who_has_repeats(pod, rounds_left, expected):
    history = [(Table((1, 2, 3, 4), 1),), (Table((1, 2, 5, 6), 1),)]
    weights = this_round_only(small_field=1.0, late_repeat=0.5, late_growth=0.5)
    cost = pairing_cost(
        [pod], history=history, points={}, weights=weights, rounds_left=rounds_left, tight=True
    )
    assert cost == pytest.approx(expected)


def test_a_late_repeat_is_priced_in_full_outside_a_tight_field():
    history = [(Table((1, 2, 3, 4), 1),)]
    weights = this_round_only(late_repeat=0.5, late_growth=0.0)
    late = pairing_cost(
        [(1, 2, 5, 6)], history=history, points={}, weights=weights, rounds_left=0, tight=True
    )
    # Not told the field is tight, pairing_cost prices it as pair_pods prices a field that is not.
    loose = pairing_cost([(1, 2, 5, 6)], history=history, points={}, weights=weights, rounds_left=0)
    assert (late, loose) == pytest.approx((1.0, 2.0))


def test_the_planned_last_round_is_paired_as_the_last_round():
    """`rounds` equal to `round_number` is the last round, as `last_round=True` says: the
    small field's repeat share no longer applies (the example above)."""
    assert small_field_round_2(rounds=3) == MORE_REPEATS
    assert small_field_round_2(rounds=2) == FEWER_REPEATS


# ---------------------------------------------------------------------------------------------
# Seats and odd pods over whole simulated events


@functools.cache
def simulated(players: int, rounds: int, seed: int) -> dict:
    return simulate(players=players, rounds=rounds, seed=seed, format="pods")


def seat_log(event) -> dict[int, list[int | None]]:
    """player -> seat position in round 1, 2, ... (None for a bye)."""
    seats = {p: [] for p in event["players"]}
    for tables in event["rounds"]:
        for table in tables:
            for position, p in enumerate(table["players"], 1):
                seats[p].append(None if len(table["players"]) == 1 else position)
    return seats


SEAT_SEEDS = (1, 2, 3)


@pytest.mark.slow
def test_nobody_goes_first_more_than_twice_in_6_rounds_of_16():
    # 6 rounds x 4 pods = 24 first seats for 16 players, 1.5 each: 2 is all a fair rotation
    # ever needs.
    for seed in SEAT_SEEDS:
        for p, positions in seat_log(simulated(16, 6, seed)).items():
            assert positions.count(1) <= 2, (seed, p, positions)


@pytest.mark.slow
def test_seat_sums_stay_near_the_expected_over_6_rounds_of_16():
    # Expected 2.5 a round. One round moves a player's balance by at most 1.5, and the seats
    # go against the balance (whoever sat latest so far goes first), so nobody should drift
    # more than two extreme seats (3) from 2.5 x rounds, after any round. Random seats would
    # not pass: after 6 rounds the sum's standard deviation is sqrt(6 x 1.25) = 2.7, and 16
    # players would almost surely include one beyond 3.
    for seed in SEAT_SEEDS:
        for p, positions in seat_log(simulated(16, 6, seed)).items():
            for played in range(1, 7):
                drift = sum(positions[:played]) - 2.5 * played
                assert abs(drift) <= 3, (seed, p, positions)


def test_nobody_goes_first_twice_in_a_row_beside_someone_who_never_went_first():
    for seed in SEAT_SEEDS:
        went_first = Counter()
        last_round = set()
        for number, tables in enumerate(simulated(16, 6, seed)["rounds"], 1):
            for table in tables:
                pod = table["players"]
                never = [p for p in pod if not went_first[p]]
                assert not (pod[0] in last_round and never), (seed, number, pod, never)
            last_round = {t["players"][0] for t in tables}
            went_first.update(last_round)


def test_seat_one_goes_to_the_pod_player_who_started_least():
    """Player 4 has never started but has sat early (seat 2 twice); 1, 2 and 3 each started
    once and sat late otherwise. Evening out seat sums alone would start one of 1-3 (their sums
    are the furthest behind); the start belongs to 4, the only one still owed one."""
    history = [
        (Table((1, 4, 2, 3), 1), Table((5, 6, 7, 8), 5)),
        (Table((2, 4, 3, 1), 2), Table((6, 5, 8, 7), 6)),
        (Table((3, 4, 1, 2), 3), Table((7, 8, 5, 6), 7)),
    ]
    starters = set()
    for seed in range(20):
        result = pair_pods(
            players=[1, 2, 3, 4],
            history=history,
            points=dict.fromkeys(range(1, 5), 3.0),
            seed=seed,
            round_number=4,
        )
        starters.add(result.pods[0][0])
    assert starters == {4}


def first_seat_spread(event) -> int:
    started = Counter(t["players"][0] for r in event["rounds"] for t in r if len(t["players"]) > 1)
    counts = [started[p] for p in event["players"]]
    return max(counts) - min(counts)


@pytest.mark.slow
@pytest.mark.parametrize("players", [12, 16, 20])
def test_starts_differ_by_at_most_one_over_5_rounds(players):
    """12, 16 and 20 players in 4-pods for 5 rounds: 15, 20 and 25 starts, so everybody
    starts once and a few twice; the spread of starts over the event is 1, never 2 (seating by
    seat sums alone reached 2 on some of these events)."""
    spreads = [
        first_seat_spread(simulate(players=players, rounds=5, seed=s, format="pods"))
        for s in range(4)
    ]
    assert max(spreads) == 1, spreads


@pytest.mark.slow
@pytest.mark.parametrize("players, seeds", [(24, range(3)), (48, range(2)), (64, range(1))])
def test_starts_differ_by_at_most_one_in_larger_fields(players, seeds):
    """24, 48 and 64 players, 5 rounds: seating alone left some pods with nobody among the
    players who had started least (spread 2 at 24, 48, 64 in bench/pods_h2h.py); pods are now
    formed so that each can give seat 1 to one of them."""
    spreads = [
        first_seat_spread(simulate(players=players, rounds=5, seed=s, format="pods")) for s in seeds
    ]
    assert max(spreads) == 1, spreads


@pytest.mark.slow
def test_three_pods_rotate_over_13_players_after_a_round_2_without_repeats():
    """4 + 3 + 3 + 3 for 6 rounds, everybody plays every round. Round 2 is paired repeats first
    (pods.py, "The order of concerns"): the 4 players of round 1's 4-pod are the only ones
    without a 3-pod, but no two of them may meet again, so each 3-pod of round 2 takes exactly
    one of them (3 of the 4) and nobody meets again. The rotation then goes on from there: by
    the end (54 seats at 3-pods for 13 players, 4.15 each) everyone has had 3 to 5."""
    for seed in (1, 2, 3, 4):
        event = simulated(13, 6, seed)
        first, second = event["rounds"][:2]
        fresh = {p for t in first if len(t["players"]) == 4 for p in t["players"]}
        met = met_pairs([tuple(Table(tuple(t["players"]), None) for t in first)])
        assert repeated_pods([t["players"] for t in second], met) == [], seed
        threes = [t["players"] for t in second if len(t["players"]) == 3]
        assert [len(fresh & set(pod)) for pod in threes] == [1, 1, 1], (seed, threes)
        had = Counter(
            p
            for tables in event["rounds"]
            for t in tables
            if len(t["players"]) == 3
            for p in t["players"]
        )
        assert all(3 <= had[p] <= 5 for p in event["players"]), (seed, had)


# ---------------------------------------------------------------------------------------------
# badness_by_player, by hand


def test_badness_by_player_worked_example():
    history = [
        # Round 1: nobody has met anybody: all 0. 8 has a bye (a table of one: no opponents).
        (Table((1, 2, 3, 4), 1), Table((5, 6, 7), None), Table((8,), 8)),
        # Round 2, pod 1 2 5 6: 1 and 2 met once (1**2 = 1 each), 5 and 6 met once (1 each).
        # Pod 3 4 7: 3 and 4 met once (1 each); 7 met neither 3 nor 4 (0).
        (Table((1, 2, 5, 6), 5), Table((3, 4, 7), 7), Table((8,), 8)),
        # Round 3, pod 1 2 3 5: 1 met 2 twice (2**2 = 4), 3 once (1), 5 once (1): 6; 2 the
        # same: 6; 3 met 1 once, 2 once, 5 never: 2; 5 met 1 once, 2 once, 3 never: 2.
        # Pod 4 6 7: 4 met 7 once, 6 never: 1; 6 met 7 once: 1; 7 met 4 and 6 once: 2.
        (Table((1, 2, 3, 5), None), Table((4, 6, 7), 4), Table((8,), 8)),
    ]
    badness = badness_by_player(history)
    expected = {1: 1 + 6, 2: 1 + 6, 3: 1 + 2, 4: 1 + 1, 5: 1 + 2, 6: 1 + 1, 7: 0 + 2, 8: 0}
    assert {p: badness.get(p, 0) for p in range(1, 9)} == expected
    assert sum(badness.values()) == 26
    assert badness_by_player([]) == {}


# ---------------------------------------------------------------------------------------------
# The goal from pairings_edh: 16 players, 4 rounds, mostly no repeat at all


@pytest.mark.slow
def test_most_16_player_4_round_events_have_no_repeat():
    """pairings_edh's goal, as bench/pairing_pods.py measures it: at least 16 of 30 events of
    16 players, 4 rounds have no repeat at all, while the pod spread over rounds 2 on stays
    under the reference's 2.50."""
    metrics = [pod_metrics(simulated(16, 4, seed)) for seed in range(30)]
    clean = [seed for seed, m in enumerate(metrics) if m["badness"] == 0]
    spread = sum(m["spread"] for m in metrics) / len(metrics)
    assert len(clean) >= 16, f"only {len(clean)} of 30 events were repeat-free: seeds {clean}"
    assert spread < 2.50, spread


# ---------------------------------------------------------------------------------------------
# The exact look-ahead's parts: spread floor, repeat-free pairings, the expected next round


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.sampled_from([0.0, 1.0, 3.0, 4.0, 6.0, 7.0, 9.0]), min_size=3, max_size=10),
    layout=st.sampled_from(LAYOUTS),
)
def test_spread_floor_is_the_least_spread_of_any_cut(values, layout):
    sizes, byes = pod_sizes(len(values), layout)
    values = values[: len(values) - byes]
    best = min(
        sum(max(values[i] for i in pod) - min(values[i] for i in pod) for pod in split)
        for split in partitions(list(range(len(values))), Counter(sizes))
    )
    assert spread_floor(values, sizes) == pytest.approx(best)


def test_spread_floor_refuses_sizes_that_do_not_fit():
    with pytest.raises(PodPairingError):
        spread_floor([0.0, 1.0, 2.0], [4])


def history_of(*rounds) -> list:
    return [tuple(Table(tuple(pod), None) for pod in round_) for round_ in rounds]


@pytest.mark.parametrize("seed", range(6))
def test_repeat_free_pairings_are_every_split_without_a_meeting(seed):
    rng = random.Random(seed)
    players = list(range(1, 9))
    rounds = []
    for _ in range(rng.randint(0, 2)):
        order = list(players)
        rng.shuffle(order)
        rounds.append([order[:4], order[4:]])
    history = history_of(*rounds)
    met = {frozenset(pair) for round_ in rounds for pod in round_ for pair in _pairs_of(pod)}
    expected = {
        frozenset(map(frozenset, split))
        for split in partitions(players, Counter([4, 4]))
        if not any(frozenset(pair) in met for pod in split for pair in _pairs_of(pod))
    }
    found = repeat_free_pairings(players=players, sizes=[4, 4], history=history, limit=100)
    assert found is not None
    assert len(found) == len(expected)
    assert {frozenset(map(frozenset, split)) for split in found} == expected
    if len(expected) > 1:
        few = repeat_free_pairings(
            players=players, sizes=[4, 4], history=history, limit=len(expected) - 1
        )
        assert few is None


def _pairs_of(pod):
    return itertools.combinations(pod, 2)


def test_16_players_after_a_grid_have_a_fourth_repeat_free_round_only_after_a_klein_square():
    """Two repeat-free rounds of 16 form a 4x4 grid (rows, then columns); a repeat-free third
    round is a Latin square on it. The cyclic square has no transversal, so no repeat-free
    fourth round; the Klein-group square has two (its orthogonal mates)."""

    def cell(r, c):
        return 4 * r + c + 1

    rows = [[cell(r, c) for c in range(4)] for r in range(4)]
    columns = [[cell(r, c) for r in range(4)] for c in range(4)]

    def square(symbol):
        return [
            [cell(r, c) for r in range(4) for c in range(4) if symbol(r, c) == k] for k in range(4)
        ]

    players = list(range(1, 17))

    def free(*rounds, limit=64):
        return repeat_free_pairings(
            players=players, sizes=[4] * 4, history=history_of(*rounds), limit=limit
        )

    assert free(rows, limit=100) is None  # 13,824 ways to pick the second round
    assert len(free(rows, columns)) == 24  # 576 Latin squares / 4! names of the pods
    assert free(rows, columns, square(lambda r, c: (r + c) % 4)) == []
    klein = free(rows, columns, square(lambda r, c: r ^ c))
    assert len(klein) == 2
    for pairing in klein:
        for pod in pairing:  # a transversal: one per row, column and symbol
            assert len({(p - 1) // 4 for p in pod}) == 4
            assert len({(p - 1) % 4 for p in pod}) == 4
            assert len({((p - 1) // 4) ^ ((p - 1) % 4) for p in pod}) == 4


def brute_force_next_round(pods, history, points, weights, win=3.0, draw=1.0) -> float:
    """expected_next_round_cost by its definition, over every result and every split."""
    weights = weights or PodWeights()
    sizes = Counter(len(pod) for pod in pods)
    seated = [p for pod in pods for p in pod]
    after = [*history, tuple(Table(tuple(pod), None) for pod in pods)]
    w_spread = weights.spread / win
    splits = list(partitions(seated, sizes))
    met = {frozenset(pair) for round_ in after for t in round_ for pair in _pairs_of(t.players)}
    free = [s for s in splits if not any(frozenset(x) in met for pod in s for x in _pairs_of(pod))]
    no_spread = dataclasses.replace(weights, spread=0.0, lookahead=0.0)
    penalty = {id(s): cost_of(s, after, points, no_spread) for s in splits}
    least = weights.repeat * 2 if free else min(penalty.values())
    totals = []
    for results in itertools.product(*[[None, *pod] for pod in pods]):
        score = dict(points)
        for pod, winner in zip(pods, results, strict=True):
            for p in pod:
                score[p] = score.get(p, 0.0) + (draw if winner is None else win * (p == winner))
        values = [score.get(p, 0.0) for p in seated]
        options = [w_spread * spread_floor(values, list(sizes.elements())) + least]
        for split in free:
            spread = sum(max(score[p] for p in pod) - min(score[p] for p in pod) for pod in split)
            options.append(w_spread * spread + penalty[id(split)])
        totals.append(min(options))
    return sum(totals) / len(totals)


@pytest.mark.parametrize(
    ("rounds", "pods", "points"),
    [
        # 8 players after one round: two 4-pods, 25 results, some splits repeat-free.
        ([[[1, 2, 3, 4], [5, 6, 7, 8]]], [[1, 2, 5, 6], [3, 4, 7, 8]], {1: 3, 5: 3, 3: 1, 4: 1}),
        # The same, a second time through: every next split repeats someone.
        (
            [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 5, 6], [3, 4, 7, 8]]],
            [[1, 3, 5, 7], [2, 4, 6, 8]],
            {1: 6, 2: 1, 3: 3, 5: 4, 6: 1, 7: 3},
        ),
        # 7 players: a 4-pod and a 3-pod (odd pods priced), 20 results.
        ([[[1, 2, 3, 4], [5, 6, 7]]], [[1, 5, 2, 6], [3, 4, 7]], {1: 3, 5: 1, 6: 1, 7: 1}),
    ],
)
def test_expected_next_round_cost_is_the_average_over_every_result(rounds, pods, points):
    history = history_of(*rounds)
    points = {p: float(v) for p, v in points.items()}
    got = expected_next_round_cost(pods=pods, history=history, points=points)
    assert got == pytest.approx(brute_force_next_round(pods, history, points, None))
    # cEDH points, 5/1/0: a draw is worth a fifth of a win, not the default third.
    got = expected_next_round_cost(
        pods=pods, history=history, points=points, win_points=5.0, draw_points=1.0
    )
    assert got == pytest.approx(brute_force_next_round(pods, history, points, None, 5.0, 1.0))


@pytest.mark.parametrize("count", [12, 13, 16])
def test_first_round_by_rating_puts_similar_ratings_together(count):
    players = list(range(1, count + 1))
    shuffled = list(players)
    random.Random(count).shuffle(shuffled)
    ratings = {p: 1000.0 + 25 * k for k, p in enumerate(shuffled)}  # distinct, unlike the ids
    place = {p: k for k, p in enumerate(sorted(players, key=lambda p: -ratings[p]))}
    result = pair_pods(
        players=players,
        history=[],
        points={},
        seed=7,
        round_number=1,
        first_round="rating",
        ratings=ratings,
    )
    assert sorted(len(pod) for pod in result.pods) == sorted(pod_sizes(count)[0])
    for pod in result.pods:
        places = sorted(place[p] for p in pod)
        assert places == list(range(places[0], places[0] + len(pod))), (pod, places)


# ---------------------------------------------------------------------------------------------
# Repeats first: a round 2 without a repeat whenever one exists (issue 31)


def a_repeat_free_split_exists(players, sizes, met: set[frozenset]) -> bool:
    """Exhaustive: can `players` sit at pods of `sizes` with no two who met at one pod? The
    lowest player left opens the next pod with every possible set of mates, so a split is
    missed only if none exists."""
    left_sizes = Counter(sizes)

    def seat(left: list) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        free = [p for p in rest if frozenset((first, p)) not in met]
        for size in [s for s in left_sizes if left_sizes[s]]:
            left_sizes[size] -= 1
            for mates in itertools.combinations(free, size - 1):
                if any(frozenset(pair) in met for pair in itertools.combinations(mates, 2)):
                    continue
                if seat([p for p in rest if p not in mates]):
                    left_sizes[size] += 1
                    return True
            left_sizes[size] += 1
        return False

    return seat(sorted(players))


def repeated_pods(pods, met: set[frozenset]) -> list:
    return [
        pod
        for pod in pods
        if any(frozenset(pair) in met for pair in itertools.combinations(pod, 2))
    ]


def test_round_2_of_a_17_player_pod_night_repeats_nobody():
    """The night of issue 31: 17 players, round 1 random pods of 4, 4, 3, 3, 3, each won by its
    first seat (5 players on 3 points, 12 on 0). Round 2 once seated 4 of its 5 pods with
    someone met in round 1: only the 8 players of the two 4-pods had not sat at a 3-pod, 9 seats
    at 3-pods had to be filled, and those 8 players fit three 3-pods at most 6 without a repeat
    (two from each 4-pod), so the 3-pod rotation (8 a player) outbid 4 repeated pairs (2 each).
    Pods without a repeat exist, so round 2 has none."""
    players = list(range(1, 18))
    first = pair_pods(players=players, history=[], points={}, seed=31, round_number=1, rounds=3)
    assert sorted(len(pod) for pod in first.pods) == [3, 3, 3, 4, 4]
    history = [tuple(Table(tuple(pod), pod[0]) for pod in first.pods)]
    points, ranking = standings(players, history, floor=POD_OMW_FLOOR)
    assert sorted(points.values()).count(0.0) == 12
    met = met_pairs(history)
    assert a_repeat_free_split_exists(players, [4, 4, 3, 3, 3], met)
    second = pair_pods(
        players=players,
        history=history,
        points=points,
        ranking=ranking,
        seed=31,
        round_number=2,
        rounds=3,
    )
    assert repeated_pods(second.pods, met) == []
    assert second.badness == 0 and second.warnings == ()
    assert sorted(len(pod) for pod in second.pods) == [3, 3, 3, 4, 4]


def round_two(players: int, seed: int, change: str):
    """Round 1 of `players` (random pods, each drawn 1 time in 5, else won by a random player),
    then, after one player drops or one enters late (`change`), round 2 paired from the
    standings; the event plans ceil(log2 N) rounds. Returns round 1 and round 2's pairing."""
    rng = random.Random(f"round two:{players}:{seed}:{change}")
    field = list(range(1, players + 1))
    rounds = max(3, (players - 1).bit_length())
    first = pair_pods(
        players=field, history=[], points={}, seed=seed, round_number=1, rounds=rounds
    )
    history = [
        tuple(
            Table(tuple(pod), None if rng.random() < 0.2 else rng.choice(pod)) for pod in first.pods
        )
    ]
    active = list(field)
    if change == "drop":
        active.remove(rng.choice(active))
    elif change == "late":
        active.append(players + 1)
    points, ranking = standings(active, history, floor=POD_OMW_FLOOR)
    second = pair_pods(
        players=active,
        history=history,
        points=points,
        ranking=ranking,
        seed=seed,
        round_number=2,
        rounds=rounds,
    )
    return history, active, second


def check_round_two_repeats_nobody_if_it_can(players: int, seed: int, change: str) -> None:
    history, active, second = round_two(players, seed, change)
    met = met_pairs(history)
    assert sorted(p for pod in second.pods for p in pod) == sorted(active)  # no byes at 8+
    sizes = [len(pod) for pod in second.pods]
    if a_repeat_free_split_exists(active, sizes, met):
        assert repeated_pods(second.pods, met) == [], (players, seed, change, second.pods)
        assert second.badness == 0 and second.warnings == ()


CHANGES = ("none", "drop", "late")


@pytest.mark.parametrize("players", range(9, 41))
def test_round_2_repeats_nobody_whenever_it_can(players):
    """Every field size from 9 to 40, one event each: as it is, with a drop or with a late
    entry (by turns). Where no split of round 2 avoids every repeat (10 or 11 players: a 4-pod
    needs 4 players from 4 different pods of round 1, which had 3), repeats are allowed."""
    check_round_two_repeats_nobody_if_it_can(players, 1, CHANGES[players % 3])


@pytest.mark.slow
@pytest.mark.parametrize("players", range(9, 41))
def test_round_2_repeats_nobody_whenever_it_can_over_more_events(players):
    """The same over 3 more seeds, each as it is, with a drop and with a late entry."""
    for seed in (2, 3, 4):
        for change in CHANGES:
            check_round_two_repeats_nobody_if_it_can(players, seed, change)
