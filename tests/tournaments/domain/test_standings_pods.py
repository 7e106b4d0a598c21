"""Pod standings: seat sum, 4-pod win share, opponents' rating, the pod OMW floor, the preset.

Every expected value is worked by hand in the comments beside the events (3- and 4-player
pods, drawn pods, byes; cEDH 5/1/0 with a bye worth 5 and Magic 3/1/0). The hypothesis
properties at the end check, on random pod events, that the order of the tables inside a
round and of the entrants never changes the standings.
"""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.records import CEDH_PODS, MAGIC, Table
from tournaments.domain.standings import (
    POD_OMW_FLOOR,
    PRESETS,
    TIEBREAKERS,
    Context,
    average_opponent_rating,
    compute_standings,
    match_points,
    match_win_percentage,
    opponents_match_win_percentage,
    pod4_win_share,
    seat_sum,
)

POD_PARAMS = {"omw_floor": POD_OMW_FLOOR}


def pod(*players, winner):
    """A pod in seat order; `winner` None is a draw (everyone at the pod drew)."""
    return Table(tuple(players), winner)


def bye(player):
    return Table((player,), player)


def values(metric, ctx, players):
    return {p: metric(ctx, p) for p in players}


def ranks(rows):
    return [(row.player, row.rank, row.tied) for row in rows]


# --- Event M: eight players, two rounds, a drawn 4-pod, a 3-pod and a bye. ---
#
# R1: pod 1 2 3 4 drawn | pod 5 6 7 won by 7 | 8 has the bye
# R2: pod 7 1 5 3 won by 1 | pod 4 6 8 2 won by 8
#
# Seats (1-based, byes have none): 1: 1 + 2 = 3   2: 2 + 4 = 6   3: 3 + 4 = 7   4: 4 + 1 = 5
#   5: 1 + 3 = 4   6: 2 + 2 = 4   7: 3 + 1 = 4   8: (bye) + 3 = 3
# Wins over the board: 1 (R2, a 4-pod), 7 (R1, a 3-pod), 8 (R2, a 4-pod; the bye is no win).
#   4-pod win share: 1: 1/1   7: 0/1   8: 1/1   everyone else 0 (no wins)
# Opponents (once per table): 1: 2 3 4 | 7 5 3    2: 1 3 4 | 4 6 8    3: 1 2 4 | 7 1 5
#   4: 1 2 3 | 6 8 2    5: 6 7 | 7 1 3    6: 5 7 | 4 8 2    7: 5 6 | 1 5 3    8: 4 6 2 (bye: none)
#
# cEDH 5/1/0, bye 5. Points: 1: 1 + 5 = 6   2, 3, 4: 1 + 0 = 1   5, 6: 0   7: 5 + 0 = 5
#   8: 5 + 5 = 10. MWP = points / (5 x 2), floored at 1/4:
#   1: 6/10 = 3/5   2, 3, 4: 1/10 -> 1/4   5, 6: 0 -> 1/4   7: 5/10 = 1/2   8: 10/10 = 1
# OMW (floor 1/4):
#   1: (¼ ¼ ¼ | ½ ¼ ¼) = 7/4 / 6 = 7/24
#   2: (3/5 ¼ ¼ | ¼ ¼ 1) = 13/5 / 6 = 13/30      4: (3/5 ¼ ¼ | ¼ 1 ¼) = 13/30
#   3: (3/5 ¼ ¼ | ½ 3/5 ¼) = 49/20 / 6 = 49/120
#   5: (¼ ½ | ½ 3/5 ¼) = 21/10 / 5 = 21/50       6: (¼ ½ | ¼ 1 ¼) = 9/4 / 5 = 9/20
#   7: (¼ ¼ | 3/5 ¼ ¼) = 8/5 / 5 = 8/25          8: (¼ ¼ ¼) / 3 = 1/4
# Pods preset: 8 (10), 1 (6), 7 (5); on 1 point 2 and 4 (13/30 = 52/120) before 3 (49/120),
# and the seat sum puts 2 (6) before 4 (5); on 0, 6 (9/20 = .45) before 5 (21/50 = .42).
#
# Magic 3/1/0, bye 3. Points: 1: 4   2, 3, 4: 1   5, 6: 0   7: 3   8: 6. MWP in sixths:
#   1: 4/6 = 2/3   7: 3/6 = 1/2   8: 1   the rest below 1/4 -> 1/4
#   2 and 4: (2/3 + 4 x ¼ + 1) / 6 = 8/3 / 6 = 4/9 = 32/72
#   3: (2/3 + 2/3 + ½ + 3 x ¼) / 6 = 31/12 / 6 = 31/72
#   5: (¼ ½ ½ 2/3 ¼) / 5 = 13/6 / 5 = 13/30 = 26/60   6: 9/20 = 27/60 as above
# So the same order: 8, 1, 7, 2, 4, 3, 6, 5.

EVENT_M = [
    (pod(1, 2, 3, 4, winner=None), pod(5, 6, 7, winner=7), bye(8)),
    (pod(7, 1, 5, 3, winner=1), pod(4, 6, 8, 2, winner=8)),
]
PLAYERS_M = list(range(1, 9))

# --- Event F: seven players, three rounds of cEDH, 3- and 4-player pods and a bye. ---
#
# R1: pod 2 7 6 1 won by 2 | pod 3 4 5 won by 5
# R2: pod 1 3 4 7 won by 4 | pod 5 6 2 won by 6
# R3: 1 has the bye        | pod 3 6 7 won by 6 | pod 2 5 4 won by 2
#
# Points (5/1/0, bye 5): 1: 0 + 0 + 5 = 5   2: 5 + 0 + 5 = 10   3: 0   4: 0 + 5 + 0 = 5
#   5: 5 + 0 + 0 = 5   6: 0 + 5 + 5 = 10   7: 0
# MWP = points / 15: 1, 4, 5: 5/15 = 1/3 (one pod, or the bye, in three)   2, 6: 2/3   3, 7: 0
# Seats: 1: 4 + 1 = 5   2: 1 + 3 + 1 = 5   3: 1 + 2 + 1 = 4   4: 2 + 3 + 3 = 8
#   5: 3 + 1 + 2 = 6   6: 3 + 2 + 2 = 7   7: 2 + 4 + 3 = 9
# 4-pod win share: 2 won R1 at four and R3 at three: 1/2. 4 won R2 at four: 1. 5 (R1) and 6
#   (R2, R3) won only at three: 0. 1's bye is no win: 0. 3 and 7 never won: 0.
#
# The floor matters in pods. 2 and 6 both have 10 points.
#   2 met 7 6 1 | 5 6 | 5 4 -> MWP 0, 2/3, 1/3, 1/3, 2/3, 1/3, 1/3
#   6 met 2 7 1 | 5 2 | 3 7 -> MWP 2/3, 0, 1/3, 1/3, 2/3, 0, 0
#   Floor 1/3: both (2 x 2/3 + 5 x 1/3) / 7 = 3/7 -- tied: 6's three opponents who never won
#     count as much as 2's opponents who won one pod in three.
#   Floor 1/4: 2: (2 x 2/3 + 4 x 1/3 + 1/4) / 7 = (8/3 + 1/4) / 7 = 35/12 / 7 = 5/12 = 35/84
#              6: (2 x 2/3 + 2 x 1/3 + 3 x 1/4) / 7 = (2 + 3/4) / 7 = 11/28 = 33/84
#   so with par at a quarter, 2 is ahead.

EVENT_F = [
    (pod(2, 7, 6, 1, winner=2), pod(3, 4, 5, winner=5)),
    (pod(1, 3, 4, 7, winner=4), pod(5, 6, 2, winner=6)),
    (bye(1), pod(3, 6, 7, winner=6), pod(2, 5, 4, winner=2)),
]
PLAYERS_F = list(range(1, 8))


@pytest.mark.parametrize(
    ("rounds", "players", "expected"),
    [
        (EVENT_M, PLAYERS_M, {1: 3, 2: 6, 3: 7, 4: 5, 5: 4, 6: 4, 7: 4, 8: 3}),
        (EVENT_F, PLAYERS_F, {1: 5, 2: 5, 3: 4, 4: 8, 5: 6, 6: 7, 7: 9}),
    ],
)
def test_seat_sum_adds_the_seats_of_every_pod_and_nothing_for_a_bye(rounds, players, expected):
    ctx = Context(players=players, rounds=rounds, scheme=CEDH_PODS)
    assert values(seat_sum, ctx, players) == expected


@pytest.mark.parametrize(
    ("rounds", "players", "expected"),
    [
        (EVENT_M, PLAYERS_M, {1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 1}),
        (EVENT_F, PLAYERS_F, {1: 0, 2: F(1, 2), 3: 0, 4: 1, 5: 0, 6: 0, 7: 0}),
    ],
)
def test_pod4_win_share_counts_wins_at_four_over_all_wins(rounds, players, expected):
    ctx = Context(players=players, rounds=rounds, scheme=CEDH_PODS)
    assert values(pod4_win_share, ctx, players) == expected


@pytest.mark.parametrize(
    ("scheme", "expected"),
    [
        (CEDH_PODS, {1: 6, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0, 7: 5, 8: 10}),
        (MAGIC, {1: 4, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0, 7: 3, 8: 6}),
    ],
)
def test_a_drawn_pod_gives_everyone_at_it_a_draw(scheme, expected):
    ctx = Context(players=PLAYERS_M, rounds=EVENT_M, scheme=scheme)
    assert values(match_points, ctx, PLAYERS_M) == expected
    rows = {
        row.player: row
        for row in compute_standings(
            players=PLAYERS_M, rounds=EVENT_M, scheme=scheme, precedence=("points",)
        )
    }
    assert [rows[p].draws for p in (1, 2, 3, 4)] == [1, 1, 1, 1]
    assert rows[1].record == "1-0-1" and rows[2].record == "0-1-1"
    assert rows[8].record == "2-0-0" and rows[8].byes == 1 and rows[8].wins == 1
    assert rows[7].record == "1-1-0"


def test_pod_omw_with_the_pod_floor():
    ctx = Context(players=PLAYERS_M, rounds=EVENT_M, scheme=CEDH_PODS, params=POD_PARAMS)
    assert values(match_win_percentage, ctx, PLAYERS_M) == {
        1: F(3, 5),
        2: F(1, 4),
        3: F(1, 4),
        4: F(1, 4),
        5: F(1, 4),
        6: F(1, 4),
        7: F(1, 2),
        8: 1,
    }
    assert values(opponents_match_win_percentage, ctx, PLAYERS_M) == {
        1: F(7, 24),
        2: F(13, 30),
        3: F(49, 120),
        4: F(13, 30),
        5: F(21, 50),
        6: F(9, 20),
        7: F(8, 25),
        8: F(1, 4),  # the bye adds no opponent: only 4, 6 and 2 count
    }


@pytest.mark.parametrize(
    ("scheme", "omw_2_4_3", "omw_6_5"),
    [
        (CEDH_PODS, (F(13, 30), F(13, 30), F(49, 120)), (F(9, 20), F(21, 50))),
        (MAGIC, (F(4, 9), F(4, 9), F(31, 72)), (F(9, 20), F(13, 30))),
    ],
)
def test_event_m_pods_preset(scheme, omw_2_4_3, omw_6_5):
    rows = compute_standings(
        players=PLAYERS_M,
        rounds=EVENT_M,
        scheme=scheme,
        precedence=PRESETS["pods"],
        params=POD_PARAMS,
    )
    assert ranks(rows) == [(p, rank, False) for rank, p in enumerate([8, 1, 7, 2, 4, 3, 6, 5], 1)]
    metrics = {row.player: row.metrics for row in rows}
    assert list(metrics[1]) == ["points", "omw", "seat_sum", "pod4_win_share"]
    assert [metrics[p]["omw"] for p in (2, 4, 3)] == pytest.approx([float(v) for v in omw_2_4_3])
    assert [metrics[p]["omw"] for p in (6, 5)] == pytest.approx([float(v) for v in omw_6_5])
    assert [metrics[p]["seat_sum"] for p in (2, 4)] == [6, 5]  # the tie-break between 2 and 4


def test_the_pod_floor_separates_what_the_one_third_floor_ties():
    # Event F: 2 and 6 both on 10 points; OMW 3/7 each with the 1/3 floor, 5/12 v 11/28 with
    # the 1/4 floor (worked above).
    one_third = {"omw_floor": F(1, 3)}  # the floor the MTR's 0.33 was once read as
    third = Context(players=PLAYERS_F, rounds=EVENT_F, scheme=CEDH_PODS, params=one_third)
    quarter = Context(players=PLAYERS_F, rounds=EVENT_F, scheme=CEDH_PODS, params=POD_PARAMS)
    assert match_points(third, 2) == match_points(third, 6) == 10
    assert opponents_match_win_percentage(third, 2) == F(3, 7)
    assert opponents_match_win_percentage(third, 6) == F(3, 7)
    assert opponents_match_win_percentage(quarter, 2) == F(5, 12)
    assert opponents_match_win_percentage(quarter, 6) == F(11, 28)
    # 3 never won: floored to 1/3, or to 1/4 for pods.
    assert match_win_percentage(third, 3) == F(1, 3)
    assert match_win_percentage(quarter, 3) == F(1, 4)

    def top_two(params, precedence):
        rows = compute_standings(
            players=PLAYERS_F,
            rounds=EVENT_F,
            scheme=CEDH_PODS,
            precedence=precedence,
            params=params,
        )
        return ranks(rows[:2])

    assert top_two(one_third, ("points", "omw")) == [(2, 1, True), (6, 1, True)]
    assert top_two(POD_PARAMS, ("points", "omw")) == [(2, 1, False), (6, 2, False)]
    # With the whole pods preset the 1/3 floor hands the tie to the seat sum (6: 7 > 2: 5),
    # while the pod floor already ranks 2 first on OMW.
    assert top_two(one_third, PRESETS["pods"]) == [(6, 1, False), (2, 2, False)]
    assert top_two(POD_PARAMS, PRESETS["pods"]) == [(2, 1, False), (6, 2, False)]


# --- Event S: one round of three pods, where the seat sum and the 4-pod share decide. ---
#
# pod 1 2 3 4 won by 1 | pod 5 6 7 won by 5 | pod 8 9 10 won by 9        (cEDH, pod floor)
# Points: 1, 5, 9: 5; the rest 0. MWP: winners 1, the rest 0 -> 1/4.
# OMW: 1: (¼ ¼ ¼)/3 = ¼   5: (¼ ¼)/2 = ¼   9: ¼   2, 3, 4: (1 ¼ ¼)/3 = ½
#   6, 7: (1 ¼)/2 = 5/8   8, 10: (1 ¼)/2 = 5/8
# Seats: 1, 5, 8: 1   2, 6, 9: 2   3, 7, 10: 3   4: 4.   4-pod win share: 1: 1, everyone else 0.
# On 5 points and OMW ¼: 9 (seat 2), then 1 and 5 (seat 1) split by the share: 1 (1), 5 (0).
# On 0 points: OMW 5/8 for 6, 7, 8, 10: 7 and 10 (seat 3, share 0) share 4th, then 6 (2),
# 8 (1); OMW ½ for 2, 3, 4: by seat 4, 3, 2.

EVENT_S = [(pod(1, 2, 3, 4, winner=1), pod(5, 6, 7, winner=5), pod(8, 9, 10, winner=9))]


def test_seat_sum_then_4_pod_share_break_the_last_ties():
    rows = compute_standings(
        players=range(1, 11),
        rounds=EVENT_S,
        scheme=CEDH_PODS,
        precedence=PRESETS["pods"],
        params=POD_PARAMS,
    )
    assert ranks(rows) == [
        (9, 1, False),
        (1, 2, False),
        (5, 3, False),
        (7, 4, True),
        (10, 4, True),
        (6, 6, False),
        (8, 7, False),
        (4, 8, False),
        (3, 9, False),
        (2, 10, False),
    ]
    assert [rows[i].metrics["pod4_win_share"] for i in (1, 2)] == [1, 0]


# Ratings for event M (7 has none). Opponents' ratings, once per table met:
#   1: 2 3 4 | 7 5 3 -> 1400 + 1650.5 + 1200 + d + 1550 + 1650.5 = 7451 + d, over 6
#   3: 1 2 4 | 7 1 5 -> 1499.9 + 1400 + 1200 + d + 1499.9 + 1550 = 7149.8 + d, over 6
#   6: 5 7 | 4 8 2   -> 1550 + d + 1200 + 1800 + 1400 = 5950 + d, over 5
#   7: 5 6 | 1 5 3   -> 1550 + 1725.25 + 1499.9 + 1550 + 1650.5 = 7975.65, over 5 = 1595.13
#   8: 4 6 2 (bye)   -> 1200 + 1725.25 + 1400 = 4325.25, over 3 = 1441.75
# with d the default rating (0, or 1000 when given). 3: 7149.8 / 6 = 71498/60 = 35749/30 and
# 8149.8 / 6 = 81498/60 = 40749/30 exactly (1499.9 read as the decimal, not the binary float).
RATINGS_M = {1: 1499.9, 2: 1400, 3: 1650.5, 4: 1200, 5: 1550, 6: 1725.25, 8: 1800}


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (
            {"ratings": RATINGS_M},
            {1: F(7451, 6), 3: F(35749, 30), 6: 1190, 7: F(159513, 100), 8: F(5767, 4)},
        ),
        (
            {"ratings": RATINGS_M, "default_rating": 1000},
            {1: F(8451, 6), 3: F(40749, 30), 6: 1390, 7: F(159513, 100), 8: F(5767, 4)},
        ),
    ],
)
def test_average_opponent_rating_is_exact_with_a_default_for_the_unrated(params, expected):
    ctx = Context(players=PLAYERS_M, rounds=EVENT_M, scheme=CEDH_PODS, params=params)
    assert values(average_opponent_rating, ctx, expected) == expected


def test_no_opponents_no_wins_no_ratings():
    # Only a bye: no seat, no win over the board, no opponent -- every pod metric is 0.
    ctx = Context(players=[1, 2], rounds=[(bye(1),)], scheme=CEDH_PODS, params={"ratings": {}})
    for metric in (seat_sum, pod4_win_share, average_opponent_rating):
        assert values(metric, ctx, [1, 2]) == {1: 0, 2: 0}
    # Without a ratings mapping at all every opponent counts the default, 0.
    unrated = Context(players=PLAYERS_M, rounds=EVENT_M, scheme=CEDH_PODS)
    assert values(average_opponent_rating, unrated, PLAYERS_M) == dict.fromkeys(PLAYERS_M, 0)


def test_the_pod_metrics_are_registered_and_the_preset():
    assert POD_OMW_FLOOR == 0.25 and isinstance(POD_OMW_FLOOR, F)
    assert PRESETS["pods"] == ("points", "omw", "seat_sum", "pod4_win_share")
    assert PRESETS["magic"] == ("points", "omw", "gw", "ogw")
    for name, compute in (
        ("seat_sum", seat_sum),
        ("pod4_win_share", pod4_win_share),
        ("avg_opp_rating", average_opponent_rating),
    ):
        tiebreaker = TIEBREAKERS[name]
        assert tiebreaker.compute is compute and tiebreaker.higher_is_better
        assert tiebreaker.label and tiebreaker.reference


def test_avg_opp_rating_ranks_through_compute_standings():
    # Event M, points then opponents' rating (7 unrated counts 0). On 1 point:
    #   4: 1 1499.9 + 2 1400 + 3 1650.5 + 6 1725.25 + 8 1800 + 2 1400 = 9475.65 / 6 = 1579.28
    #   2: 1 1499.9 + 3 1650.5 + 4 1200 + 4 1200 + 6 1725.25 + 8 1800 = 9075.65 / 6 = 1512.61
    #   3: 35749/30 = 1191.63 (above)
    # On 0 points: 6: 1190 (above); 5: 6 1725.25 + 7 0 + 7 0 + 1 1499.9 + 3 1650.5 = 4875.65 / 5
    #   = 975.13. So 8, 1, 7, then 4, 2, 3, then 6, 5.
    rows = compute_standings(
        players=PLAYERS_M,
        rounds=EVENT_M,
        scheme=CEDH_PODS,
        precedence=("points", "avg_opp_rating"),
        params={"ratings": RATINGS_M},
    )
    assert [row.player for row in rows] == [8, 1, 7, 4, 2, 3, 6, 5]
    assert rows[3].metrics["avg_opp_rating"] == pytest.approx(9475.65 / 6)


# --- Properties on random pod events. ---


@st.composite
def pod_events(draw):
    """Random entrants and rounds: each round seats a random subset (drops, late entries) at
    pods of three and four, the odd ones out on byes, with random winners and drawn pods."""
    players = draw(st.lists(st.integers(1, 80), min_size=1, max_size=14, unique=True))
    rounds = []
    for _ in range(draw(st.integers(0, 4))):
        seated = draw(st.permutations(players))
        seated = seated[: draw(st.integers(0, len(seated)))]
        tables = []
        while seated:
            size = draw(st.sampled_from([3, 4, 4])) if len(seated) >= 3 else 1
            at, seated = tuple(seated[:size]), seated[size:]
            winner = at[0] if size == 1 else draw(st.sampled_from([*at, None]))
            tables.append(Table(at, winner))
        rounds.append(tuple(tables))
    ratings = draw(
        st.dictionaries(
            st.sampled_from(players),
            st.floats(0, 3000, allow_nan=False).map(lambda r: round(r, 2)),
        )
    )
    return players, rounds, ratings


POD_PRECEDENCE = (*PRESETS["pods"], "avg_opp_rating")


@settings(max_examples=150, deadline=None)
@given(
    pod_events(),
    st.sampled_from([CEDH_PODS, MAGIC]),
    st.sampled_from([POD_OMW_FLOOR, F(1, 3)]),
    st.randoms(use_true_random=False),
)
def test_pod_standings_ignore_the_order_of_tables_and_entrants(event, scheme, floor, rnd):
    players, rounds, ratings = event
    params = {"omw_floor": floor, "ratings": ratings, "default_rating": 1000}
    shuffled = []
    for round_ in rounds:
        tables = list(round_)  # seats stay as they were: the seat sum reads them
        rnd.shuffle(tables)
        shuffled.append(tuple(tables))
    entrants = list(players)
    rnd.shuffle(entrants)

    def standings(players, rounds):
        return compute_standings(
            players=players, rounds=rounds, scheme=scheme, precedence=POD_PRECEDENCE, params=params
        )

    assert standings(entrants, shuffled) == standings(players, rounds)


@settings(max_examples=100, deadline=None)
@given(pod_events())
def test_seat_sums_add_up_to_every_pods_seats(event):
    # A pod of k seats hands out 1 + 2 + ... + k = k(k + 1)/2; a bye hands out nothing. And a
    # share is a share: between 0 and 1, 1 for whoever won only at tables of four.
    players, rounds, _ = event
    ctx = Context(players=players, rounds=rounds, scheme=CEDH_PODS)
    handed_out = sum(
        len(t.players) * (len(t.players) + 1) // 2 for r in rounds for t in r if not t.is_bye
    )
    assert sum(values(seat_sum, ctx, players).values()) == handed_out
    for player in players:
        share = pod4_win_share(ctx, player)
        won_at = [len(t.players) for r in rounds for t in r if t.winner == player and not t.is_bye]
        assert 0 <= share <= 1
        assert share == (F(won_at.count(4), len(won_at)) if won_at else 0)
