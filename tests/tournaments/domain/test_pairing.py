"""The 1v1 Swiss pairing engine: worked examples, a brute-force oracle and properties."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.domain.tables import W, bye, points_of
from tournaments.domain import pairing as engine
from tournaments.domain.history import read_history
from tournaments.domain.pairing import Pairing, PairingError, pair_round
from tournaments.domain.records import CHESS, MAGIC, Table

# ---------------------------------------------------------------------------------------------
# Helpers


def pair(players, history, ranking=None, points=None, **kw):
    points = points_of(history) if points is None else points
    if ranking is None:
        ranking = sorted(players, key=lambda p: (-points.get(p, 0.0), p))
    kw.setdefault("seed", 1)
    kw.setdefault("round_number", len(history) + 1)
    return pair_round(players=players, history=history, ranking=ranking, points=points, **kw)


def seated(result: Pairing):
    return [p for table in result.tables for p in table] + list(result.byes)


def times_met(history):
    """Times each pair sat at one table (every pair at a pod has met)."""
    met = {}
    for round_ in history:
        for table in round_:
            seats = table.players
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    if a != b:
                        key = frozenset((a, b))
                        met[key] = met.get(key, 0) + 1
    return met


def all_matchings(items):
    if not items:
        yield []
        return
    first = items[0]
    for k in range(1, len(items)):
        rest = items[1:k] + items[k + 1 :]
        for tail in all_matchings(rest):
            yield [(first, items[k]), *tail]


def score(result, order, history, points):
    """What the engine minimises, in order: bye's byes, rematches, bye rank, spread."""
    met = times_met(history)
    byes = {}
    for round_ in history:
        for table in round_:
            if table.is_bye:
                byes[table.players[0]] = byes.get(table.players[0], 0) + 1
    rematches = sum(met.get(frozenset(t), 0) for t in result.tables)
    if result.byes:
        b = result.byes[0]
        return (byes.get(b, 0), rematches, len(order) - 1 - order.index(b), result.point_spread)
    return (0, rematches, 0, result.point_spread)


def brute_force_best(order, history, points):
    """The best score over every pairing (and every bye), by enumeration."""
    met = times_met(history)
    byes = {}
    for round_ in history:
        for table in round_:
            if table.is_bye:
                byes[table.players[0]] = byes.get(table.players[0], 0) + 1
    n = len(order)
    best = None
    for b in [None] if n % 2 == 0 else range(n):
        rest = [p for i, p in enumerate(order) if i != b]
        for tables in all_matchings(rest):
            rematches = sum(met.get(frozenset(t), 0) for t in tables)
            spread = sum((points.get(x, 0.0) - points.get(y, 0.0)) ** 2 for x, y in tables)
            key = (
                (byes.get(order[b], 0), rematches, n - 1 - b, spread)
                if b is not None
                else (0, rematches, 0, spread)
            )
            if best is None or key < best:
                best = key
    return best


def random_history(rng, ids, rounds, *, draw=0.1, absent=0.1, swiss=True):
    """Rounds of random 1v1 results (some players sitting out, some byes)."""
    history = []
    points = dict.fromkeys(ids, 0.0)
    for _ in range(rounds):
        here = [p for p in ids if rng.random() >= absent] or ids[:2]
        rng.shuffle(here)
        if swiss:
            here.sort(key=lambda p: -points[p])
        tables = []
        while len(here) >= 2:
            a, b = here.pop(0), here.pop(0)
            roll = rng.random()
            tables.append(W(a, b, None if roll < draw else a if roll < (1 + draw) / 2 else b))
        tables += [bye(p) for p in here]
        for table in tables:
            for p in table.players:
                points[p] += MAGIC.points(table, p)
        history.append(tuple(tables))
    return history


# ---------------------------------------------------------------------------------------------
# Worked examples


def test_after_one_round_winners_meet_and_losers_meet():
    history = [(W(1, 2, 1), W(3, 4, 3))]
    result = pair([1, 2, 3, 4], history, ranking=[1, 3, 2, 4])
    # Both sat first once in one match: the higher ranked sits first. 6 points > 0 points.
    assert result.tables == ((1, 3), (2, 4))
    assert result.byes == ()
    assert result.rematches == ()
    assert result.point_spread == 0
    assert result.warnings == ()


def test_an_odd_score_group_floats_its_lowest_player_to_the_top_of_the_next():
    # 3 points: 1, 3, 5; 0 points: 2, 4, 6. 5 floats down to 2 (not met).
    history = [(W(1, 2, 1), W(3, 4, 3), W(5, 6, 5))]
    result = pair(range(1, 7), history, ranking=[1, 3, 5, 2, 4, 6])
    assert sorted(map(sorted, result.tables)) == [[1, 3], [2, 5], [4, 6]]
    assert result.point_spread == 9  # one table across a 3-point gap: 3**2
    assert result.rematches == ()


def test_a_group_that_already_met_splits_at_the_smallest_cost():
    # 1 point: 3 and 4 drew with each other, so each floats down by one point:
    # 1**2 + 1**2 = 2 beats floating one of them up to the 3-pointers (2**2 + 2**2 = 8).
    history = [(W(1, 2, 1), W(3, 4, None), W(5, 6, 5))]
    ranking = [1, 5, 3, 4, 2, 6]
    result = pair(range(1, 7), history, ranking=ranking)
    assert result.rematches == ()
    assert result.point_spread == 2
    # Among equal-cost choices the tables stay closest in the standings: 3 v 2 and 4 v 6.
    assert sorted(map(sorted, result.tables)) == [[1, 5], [2, 3], [4, 6]]


def test_odd_count_bye_goes_to_the_lowest_ranked_player_without_a_bye():
    history = [(W(1, 2, 1), W(3, 4, 3), bye(5))]
    result = pair([1, 2, 3, 4, 5], history, ranking=[1, 3, 5, 2, 4])
    assert result.byes == (4,)  # the last-ranked player; 5 already had a bye
    assert sorted(map(sorted, result.tables)) == [[1, 3], [2, 5]]

    # Had 4 already had a bye too, the bye moves up to 2.
    history2 = [(W(1, 2, 1), W(3, 5, 3), bye(4)), (W(1, 3, 1), W(2, 4, 4), bye(5))]
    result2 = pair([1, 2, 3, 4, 5], history2)
    assert result2.byes == (2,)


def test_the_bye_moves_up_when_the_lowest_would_force_a_rematch():
    # 1, 2, 3 have no bye; 4 and 5 had one. Giving the bye to 3 (lowest eligible) leaves
    # 1, 2, 4, 5 where 1 met 2, 4 and 5: a rematch. A bye to 2 leaves 1 v 3, 4 v 5: none.
    history = [
        (W(1, 2, 1), W(3, 4, 3), bye(5)),
        (W(1, 4, 1), W(2, 3, 2), bye(5)),
        (W(1, 5, 1), W(2, 3, 3), bye(4)),
    ]
    result = pair([1, 2, 3, 4, 5], history, points={1: 9, 2: 3, 3: 3, 4: 3, 5: 6})
    assert result.rematches == ()
    assert result.byes == (2,)


def test_greedy_top_down_deadlocks_where_a_rematch_free_round_exists():
    # After two rounds: 2 has 6 points; 1, 3, 4, 5 have 3; 6 has 0.
    history = [
        (W(1, 2, 2), W(3, 4, 4), W(5, 6, 5)),
        (W(2, 4, 2), W(5, 1, 1), W(3, 6, 3)),
    ]
    ranking = [2, 1, 3, 4, 5, 6]
    met = times_met(history)

    def rswiss_greedy(order):
        """RSwiss: each player, top down, takes the next player it has not met."""
        left, tables = list(order), []
        while left:
            a = left.pop(0)
            b = next((b for b in left if frozenset((a, b)) not in met), None)
            if b is None:
                return None  # deadlock: only rematches remain
            left.remove(b)
            tables.append((a, b))
        return tables

    assert rswiss_greedy(ranking) is None  # 2-3, 1-4, then 5-6 already met
    result = pair(range(1, 7), history, ranking=ranking)
    assert result.rematches == ()
    assert result.tables == ((2, 3), (4, 5), (6, 1))
    # Lower bound: one table across 6|3 and one across 3|0 points: 9 + 9.
    assert result.point_spread == 18


def test_unavoidable_rematches_are_as_few_as_possible_and_reported():
    # A round robin of four is complete: every pairing repeats two matches.
    history = [
        (W(1, 2, 1), W(3, 4, 3)),
        (W(1, 3, 1), W(2, 4, 2)),
        (W(1, 4, 1), W(2, 3, 2)),
    ]
    result = pair([1, 2, 3, 4], history)
    assert len(result.rematches) == 2
    assert any("2 rematches" in w for w in result.warnings)
    assert sorted(seated(result)) == [1, 2, 3, 4]

    # 1 has met everyone, nobody else has met: exactly one rematch.
    history = [(W(1, 2, 1), W(3, 5, 3)), (W(1, 3, 1), W(4, 6, 4)), (W(1, 4, 1), W(2, 5, 2))]
    history.append((W(1, 5, 1), W(2, 6, 6), W(3, 4, None)))
    history.append((W(1, 6, 1), W(2, 3, 2), W(4, 5, 5)))
    result = pair(range(1, 7), history)
    assert len(result.rematches) == 1
    assert 1 in result.rematches[0]
    assert result.warnings and "1 rematch could not be avoided: " in result.warnings[0]


def test_the_warnings_name_the_players_as_the_caller_names_them():
    """A TO reads "Ann v Bob (met before: 1)", not "1 v 2": the site passes the names, the
    phone's pairing the snapshot's (by default the ids, as the benches read them)."""
    names = {1: "Ann", 2: "Bob", 3: "Cy"}.__getitem__
    history = [(W(1, 2, 1), bye(3)), (W(1, 3, 1), bye(2)), (W(2, 3, 2), bye(1))]

    named = pair([1, 2, 3], history, name=names)
    plain = pair([1, 2, 3], history)

    assert named.tables == plain.tables and named.byes == plain.byes  # names change nothing else
    assert len(named.warnings) == 2, named.warnings
    bye_note, rematch = named.warnings
    player = names(named.byes[0])
    assert bye_note == f"Every player has had a bye; player {player} gets bye number 2."
    ((a, b),) = named.tables
    assert rematch == f"1 rematch could not be avoided: {names(a)} v {names(b)} (met before: 1)."
    assert plain.warnings[1] == f"1 rematch could not be avoided: {a} v {b} (met before: 1)."


def test_drops_and_a_late_entry():
    history = [(W(1, 2, 1), W(3, 4, 3), W(5, 6, 5))]
    points = points_of(history)
    # 6 dropped; 7 entered late (in no ranking, no points); 8 also late, with a points grant.
    players = [1, 2, 3, 4, 5, 7, 8]
    ranking = [1, 3, 5, 2, 4, 6]
    result = pair_round(
        players=players,
        history=history,
        ranking=ranking,
        points={**points, 8: 3.0},
        seed=1,
        round_number=2,
    )
    assert sorted(seated(result)) == players
    assert 6 not in seated(result)
    assert result.rematches == ()
    # 7 is the lowest ranked (0 points, unranked) and gets the bye.
    assert result.byes == (7,)
    # 8 ranks after the ranked 3-pointers: 1-3, 5-8, 2-4.
    assert sorted(map(sorted, result.tables)) == [[1, 3], [2, 4], [5, 8]]


def test_chess_half_points_are_exact():
    history = [(W(1, 2, None), W(3, 4, 3))]
    points = points_of(history, CHESS)
    result = pair([1, 2, 3, 4], history, points=points)
    # 3 (1 point) v 1 (a half), 2 (a half) v 4 (0): two tables of half a point, 2 x 0.25.
    assert result.tables == ((3, 1), (2, 4))
    assert result.point_spread == 0.5


def test_tables_are_numbered_strongest_first():
    history = [(W(1, 2, 1), W(3, 4, 3), W(5, 6, 5), W(7, 8, 7))]
    result = pair(range(1, 9), history, ranking=[1, 3, 5, 7, 2, 4, 6, 8])
    # Highest combined points first, then the best-ranked player at the table.
    assert result.tables == ((1, 3), (5, 7), (2, 4), (6, 8))


def test_the_seat_goes_to_the_player_who_was_first_less_often():
    # 1 sat first in 2 of 3 matches, 2 in 1 of 1: 1 has the lower share and sits first.
    history = [(W(1, 3, 1),), (W(1, 4, 1),), (W(2, 1, 2),)]
    assert pair([1, 2], history, points={1: 6, 2: 3}).tables == ((1, 2),)
    # 1 was first 1 of 1, 2 was first 0 of 1: 2 sits first although ranked lower.
    history = [(W(1, 3, 1),), (W(4, 2, 2),)]
    assert pair([1, 2], history, points={1: 3, 2: 3}).tables == ((2, 1),)
    # Equal shares: the higher ranked sits first.
    history = [(W(1, 3, 1),), (W(2, 4, 2),)]
    assert pair([1, 2], history, points={1: 3, 2: 3}, ranking=[2, 1]).tables == ((2, 1),)


# ---------------------------------------------------------------------------------------------
# Round 1


def test_round_one_random_is_reproducible_and_a_shuffle():
    players = list(range(1, 17))
    first = pair_round(players=players, history=[], ranking=[], points={}, seed=42, round_number=1)
    again = pair_round(
        players=list(reversed(players)),
        history=[],
        ranking=[],
        points={},
        seed=42,
        round_number=1,
    )
    other = pair_round(players=players, history=[], ranking=[], points={}, seed=43, round_number=1)
    assert first == again
    assert first != other
    assert sorted(seated(first)) == players
    assert first.tables != tuple((i, i + 1) for i in range(1, 17, 2))
    odd = pair_round(
        players=players[:-1], history=[], ranking=[], points={}, seed=42, round_number=1
    )
    assert len(odd.byes) == 1


def test_round_one_by_rating_is_top_half_against_bottom_half():
    ratings = {p: 2000 - 100 * p for p in range(1, 9)}
    result = pair_round(
        players=range(1, 9),
        history=[],
        ranking=[],
        points={},
        seed=0,
        round_number=1,
        first_round="rating",
        ratings=ratings,
    )
    assert result.tables == ((1, 5), (2, 6), (3, 7), (4, 8))
    odd = pair_round(
        players=range(1, 10),
        history=[],
        ranking=[],
        points={},
        seed=0,
        round_number=1,
        first_round="rating",
        ratings={**ratings, 9: 1000},
    )
    assert odd.byes == (9,)
    assert odd.tables == ((1, 5), (2, 6), (3, 7), (4, 8))
    unrated = pair_round(
        players=range(1, 10),
        history=[],
        ranking=[],
        points={},
        seed=0,
        round_number=1,
        first_round="rating",
        ratings=ratings,
    )
    assert unrated.byes == (9,)
    assert unrated.warnings


def test_bad_arguments_raise_pairing_errors():
    with pytest.raises(PairingError) as info:
        pair_round(
            players=[1, 2],
            history=[],
            ranking=[],
            points={},
            seed=0,
            round_number=1,
            first_round="alphabetical",
        )
    assert info.value.code == "first_round"
    with pytest.raises(PairingError) as info:
        pair_round(players=[1, 2, 2], history=[], ranking=[], points={}, seed=0, round_number=1)
    assert info.value.code == "duplicate_player"


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_tiny_fields(count):
    history = [(W(1, 2, 1), bye(3))]
    result = pair(list(range(1, count + 1)), history)
    assert sorted(seated(result)) == list(range(1, count + 1))
    assert len(result.byes) == count % 2


# ---------------------------------------------------------------------------------------------
# Optimality: a brute-force oracle on small fields


def test_matches_the_brute_force_optimum_on_random_small_fields():
    rng = random.Random(2024)
    for _ in range(250):
        n = rng.randint(2, 10)
        ids = list(range(1, n + 1))
        history = random_history(rng, ids, rng.randint(1, 8), swiss=rng.random() < 0.7)
        points = points_of(history)
        ranking = sorted(ids, key=lambda p: (-points.get(p, 0.0), rng.random()))
        result = pair(ids, history, ranking=ranking, points=points)
        order = sorted(ids, key=lambda p: (-points.get(p, 0.0), ranking.index(p)))
        assert score(result, order, history, points) == brute_force_best(order, history, points)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 9),
    rounds=st.integers(0, 9),
    seed=st.integers(0, 10**6),
    draw=st.sampled_from([0.0, 0.1, 0.5]),
)
def test_optimal_against_brute_force(n, rounds, seed, draw):
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    history = random_history(rng, ids, rounds, draw=draw)
    points = points_of(history)
    result = pair(ids, history, points=points)
    order = sorted(ids, key=lambda p: (-points.get(p, 0.0), p))
    if history:
        assert score(result, order, history, points) == brute_force_best(order, history, points)


def test_runs_between_large_groups_match_the_full_search():
    """Fields of 40-160: the result equals one exact search over every pair and every bye."""
    rng = random.Random(11)
    checked = 0
    for _ in range(6):
        n = rng.choice([40, 65, 100, 160])
        ids = list(range(1, n + 1))
        history = random_history(rng, ids, math.ceil(math.log2(n)) + rng.randint(0, 3))
        points = points_of(history)
        order = sorted(ids, key=lambda p: (-points.get(p, 0.0), p))
        result = pair(ids, history, points=points, ranking=order)
        problem = _problem(order, history, points)
        eligible = []
        if n % 2:
            fewest = min(problem.byes)
            eligible = [i for i in range(n) if problem.byes[i] == fewest]
        pairs, bye_index = engine._search(problem, list(range(n)), eligible, None)
        full = _score_indices(problem, pairs, bye_index)
        got = _score_indices(
            problem,
            [(order.index(a), order.index(b)) for a, b in result.tables],
            order.index(result.byes[0]) if result.byes else None,
        )
        assert got == full
        checked += 1
    assert checked == 6


def _problem(order, history, points):
    past = read_history(history)
    index = {p: i for i, p in enumerate(order)}
    met = [{index[q]: t for q, t in past.met.get(p, {}).items() if q in index} for p in order]
    units = [round(points.get(p, 0.0)) for p in order]
    return engine._Problem(len(order), units, met, [past.byes[p] for p in order])


def _score_indices(problem, pairs, bye_index):
    rematches = sum(problem.met[a].get(b, 0) for a, b in pairs)
    spread = sum((problem.units[a] - problem.units[b]) ** 2 for a, b in pairs)
    if bye_index is None:
        return (0, rematches, 0, spread)
    return (problem.byes[bye_index], rematches, problem.n - 1 - bye_index, spread)


# ---------------------------------------------------------------------------------------------
# Properties

tables_strategy = st.lists(
    st.tuples(st.integers(1, 12), st.integers(1, 12), st.booleans(), st.booleans()),
    max_size=8,
)


@st.composite
def any_history(draw):
    """Arbitrary (even odd-looking) histories: repeated meetings, pods, byes, strangers."""
    rounds = []
    for _ in range(draw(st.integers(0, 7))):
        tables = []
        for a, b, is_bye, drawn in draw(tables_strategy):
            if is_bye:
                tables.append(Table((a,), a))
            elif a != b:
                tables.append(Table((a, b), None if drawn else a))
        if draw(st.booleans()):
            tables.append(Table((1, 2, 3, 4), 1))  # a pod, as a later format will write
        rounds.append(tuple(tables))
    return rounds


@settings(max_examples=150, deadline=None)
@given(
    history=any_history(),
    players=st.lists(st.integers(1, 14), unique=True, max_size=14),
    seed=st.integers(0, 2**32),
    shuffle=st.randoms(use_true_random=False),
)
def test_everyone_once_deterministic_and_never_raises(history, players, seed, shuffle):
    points = points_of(history)
    ranking = sorted(set(points) | set(players), key=lambda p: (-points.get(p, 0.0), p))
    result = pair_round(
        players=players,
        history=history,
        ranking=ranking,
        points=points,
        seed=seed,
        round_number=len(history) + 1,
    )
    assert sorted(seated(result)) == sorted(players)
    assert all(len(set(t)) == 2 for t in result.tables)
    assert len(result.byes) == len(players) % 2
    shuffled = list(players)
    shuffle.shuffle(shuffled)
    again = pair_round(
        players=shuffled,
        history=history,
        ranking=ranking,
        points=points,
        seed=seed,
        round_number=len(history) + 1,
    )
    assert again == result  # the order of `players` never matters
    met = times_met(history)
    assert set(result.rematches) == {t for t in result.tables if met.get(frozenset(t))}
    assert result.point_spread == pytest.approx(
        sum((points.get(a, 0.0) - points.get(b, 0.0)) ** 2 for a, b in result.tables)
    )


def test_large_field_is_rematch_free_and_at_the_lower_bound():
    rng = random.Random(3)
    ids = list(range(1, 1025))
    history = random_history(rng, ids, 5, draw=0.05, absent=0.0)
    points = points_of(history)
    result = pair(ids, history, points=points)
    assert result.rematches == ()
    order = sorted(ids, key=lambda p: (-points[p], p))
    # One table across each boundary with an odd number of players above it.
    bound = sum(
        (points[order[k]] - points[order[k + 1]]) ** 2
        for k in range(len(order) - 1)
        if k % 2 == 0 and points[order[k]] != points[order[k + 1]]
    )
    assert result.point_spread == bound
