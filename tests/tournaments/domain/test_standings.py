"""Standings and tiebreakers: every metric worked by hand, the presets, ties, head-to-head.

Values are checked exactly (the metrics return fractions) against arithmetic written out in
the comments; the hypothesis properties at the end check the invariants on random events.
"""

import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.records import CEDH_PODS, CHESS, MAGIC, PointsScheme, Table
from tournaments.domain.standings import (
    PRESETS,
    TIEBREAKERS,
    Context,
    StandingsError,
    Tiebreaker,
    buchholz,
    buchholz_cut1,
    compute_standings,
    cumulative,
    game_win_percentage,
    head_to_head,
    match_points,
    match_win_percentage,
    median_buchholz,
    number_of_wins,
    opponents_cumulative,
    opponents_game_win_percentage,
    opponents_match_win_percentage,
    register,
    sonneborn_berger,
)


def match(a, b, winner, games=None, game_draws=0):
    """A 1v1 table; `winner` None is a draw; `games` are (a's, b's) game wins."""
    return Table((a, b), winner, games, game_draws)


def bye(player):
    return Table((player,), player)


def pod(*players, winner):
    return Table(tuple(players), winner)


def values(metric, ctx, players):
    return {p: metric(ctx, p) for p in players}


def order(rows):
    return [row.player for row in rows]


def ranks(rows):
    return [(row.player, row.rank, row.tied) for row in rows]


# --- Event A: Magic, five players, three rounds, a bye (5, round 1) and a drop (3, after 1). ---
#
# R1: 1 beats 2 2-1 | 4 beats 3 2-0 | 5 has the bye (3 points, 2-0 in games)
# R2: 1 beats 5 2-1 | 2 and 4 draw 1-1-1                  (3 dropped)
# R3: 4 beats 1 2-1 | 2 beats 5 (no game score entered: counts 2-0)
#
# Match points (W 3, D 1, L 0, bye 3):   1: 3+3+0 = 6   2: 0+1+3 = 4   3: 0
#                                        4: 3+1+3 = 7   5: 3+0+0 = 3
# MWP = points / (3 x rounds played), floor 0.33 (the bye is a round played):
#   1: 6/9 = 2/3   2: 4/9   3: 0/3 -> 0.33 (played one round)   4: 7/9   5: 3/9 = 1/3
# OMW% = mean MWP of the opponents (5's bye adds no opponent):
#   1: (B 4/9 + E 3/9 + D 7/9) / 3 = 14/27        2: (6/9 + 7/9 + 3/9) / 3 = 16/27
#   3: (D 7/9) / 1 = 7/9                       4: (C 0.33 + B 4/9 + A 6/9) / 3 = 1297/2700
#   5: (A 6/9 + B 4/9) / 2 = 5/9
# Games (won-lost-drawn), game points 3 a win and 1 a draw, GW% = GP / (3 x games):
#   1: 2-1, 2-1, 1-2 = 5-4-0 -> 15/27 = 5/9
#   2: 1-2, 1-1-1, 2-0 = 4-3-1 -> 13/24
#   3: 0-2 -> 0/6 -> floor 0.33
#   4: 2-0, 1-1-1, 2-1 = 5-2-1 -> 16/24 = 2/3
#   5: bye 2-0, 1-2, 0-2 = 3-4-0 -> 9/21 = 3/7 (without the bye's 2-0 it would be 1-4 -> 1/3)
# OGW% = mean GW% of the opponents:
#   1: (2: 13/24 + 5: 3/7 + 4: 2/3) / 3 = (91 + 72 + 112)/168 / 3 = 275/504
#   2: (1: 5/9 + 4: 2/3 + 5: 3/7) / 3 = (35 + 42 + 27)/63 / 3 = 104/189
#   3: (4: 2/3) / 1 = 2/3
#   4: (3: 0.33 + 2: 13/24 + 1: 5/9) / 3 = (2376 + 3900 + 4000)/7200 / 3 = 2569/5400
#   5: (1: 5/9 + 2: 13/24) / 2 = (40 + 39)/72 / 2 = 79/144

EVENT_A = [
    (match(1, 2, 1, (2, 1)), match(3, 4, 4, (0, 2)), bye(5)),
    (match(1, 5, 1, (2, 1)), match(2, 4, None, (1, 1), game_draws=1)),
    (match(1, 4, 4, (1, 2)), match(2, 5, 2)),
]
PLAYERS_A = [1, 2, 3, 4, 5]


@pytest.fixture
def ctx_a():
    return Context(players=PLAYERS_A, rounds=EVENT_A, scheme=MAGIC)


def test_match_points_count_a_bye_as_a_win(ctx_a):
    assert values(match_points, ctx_a, PLAYERS_A) == {1: 6, 2: 4, 3: 0, 4: 7, 5: 3}


def test_match_win_percentage_over_rounds_played_with_the_floor(ctx_a):
    assert values(match_win_percentage, ctx_a, PLAYERS_A) == {
        1: F(2, 3),
        2: F(4, 9),
        3: F(33, 100),  # 0/3 after dropping, floored at the MTR's 0.33
        4: F(7, 9),
        5: F(1, 3),  # 3/9 with the bye as a round played
    }


def test_omw_averages_opponents_and_ignores_byes(ctx_a):
    assert values(opponents_match_win_percentage, ctx_a, PLAYERS_A) == {
        1: F(14, 27),
        2: F(16, 27),
        3: F(7, 9),
        4: F(1297, 2700),
        5: F(5, 9),
    }


def test_game_win_percentage_with_draws_a_bye_and_a_missing_score(ctx_a):
    assert values(game_win_percentage, ctx_a, PLAYERS_A) == {
        1: F(5, 9),
        2: F(13, 24),
        3: F(33, 100),
        4: F(2, 3),
        5: F(3, 7),
    }


def test_ogw_averages_opponents_game_win_percentages(ctx_a):
    assert values(opponents_game_win_percentage, ctx_a, PLAYERS_A) == {
        1: F(275, 504),
        2: F(104, 189),
        3: F(2, 3),
        4: F(2569, 5400),
        5: F(79, 144),
    }


def test_event_a_magic_standings_keep_the_dropped_player():
    rows = compute_standings(
        players=PLAYERS_A,
        rounds=EVENT_A,
        scheme=MAGIC,
        precedence=PRESETS["magic"],
        dropped={3: 1},
    )
    assert ranks(rows) == [
        (4, 1, False),
        (1, 2, False),
        (2, 3, False),
        (5, 4, False),
        (3, 5, False),
    ]
    by_player = {row.player: row for row in rows}
    assert by_player[3].dropped_after == 1 and by_player[3].played == 1
    assert by_player[1].dropped_after is None
    assert by_player[5].record == "1-2-0" and by_player[5].byes == 1 and by_player[5].wins == 0
    assert by_player[2].record == "1-1-1"
    assert by_player[1].metrics == pytest.approx(
        {"points": 6, "omw": 14 / 27, "gw": 5 / 9, "ogw": 275 / 504}
    )


# --- The MTR's own examples (Appendix C). ---


def test_mtr_match_win_percentage_examples():
    # "These three players competed in an 8-round tournament, although only the first player
    # completed all rounds": 5-2-1 -> 16/(8*3) = 0.667; 1-3-0 then withdraws -> 3/(4*3) = 0.25,
    # so 0.33 is used; 3-2-0 including a first-round bye, then withdraws -> 9/(5*3) = 0.60.
    # Rebuilt with a fresh filler opponent at every table (ids from 100).
    results = {
        1: ["W"] * 5 + ["L", "L", "D"],
        2: ["W", "L", "L", "L"],
        3: ["bye", "W", "W", "L", "L"],
    }
    filler = iter(range(100, 200))
    rounds = []
    for r in range(8):
        tables = []
        for player, record in results.items():
            if r >= len(record):
                continue
            if record[r] == "bye":
                tables.append(bye(player))
                continue
            other = next(filler)
            winner = {"W": player, "L": other, "D": None}[record[r]]
            tables.append(match(player, other, winner))
        rounds.append(tuple(tables))
    players = [1, 2, 3, *range(100, next(filler))]
    ctx = Context(players=players, rounds=rounds, scheme=MAGIC, params={"omw_floor": 0.33})
    assert match_win_percentage(ctx, 1) == F(16, 24)
    assert match_win_percentage(ctx, 2) == F(33, 100)  # 0.25, floored at the MTR's 0.33
    assert match_win_percentage(ctx, 3) == F(9, 15)


@pytest.mark.parametrize(
    ("games", "draws", "winner_gw", "loser_gw"),
    [
        # "A player wins a match 2-0-0, so they earn 6 game points and their opponent
        # receives 0 game points": 6/6 = 1 and 0/6 -> floor 0.33.
        ((2, 0), 0, F(1), F(33, 100)),
        # "... 2-1-0, so they earn 6 game points and their opponent earns 3": 6/9 and 3/9.
        ((2, 1), 0, F(2, 3), F(1, 3)),
        # "... 2-0-1, so they earn 7 game points and their opponent earns 1": 7/9, 1/9 -> 0.33.
        ((2, 0), 1, F(7, 9), F(33, 100)),
    ],
)
def test_mtr_game_points_examples(games, draws, winner_gw, loser_gw):
    ctx = Context(players=[1, 2], rounds=[(match(1, 2, 1, games, draws),)], scheme=MAGIC)
    assert game_win_percentage(ctx, 1) == winner_gw
    assert game_win_percentage(ctx, 2) == loser_gw


def test_the_floor_is_a_parameter():
    # 0-3 over three rounds: 0/9 -> floored to the MTR's 0.33 by default, to 1/3, 0.25 or not
    # at all on request.
    rounds = [(match(1, 2, 2),), (match(1, 2, 2),), (match(1, 2, 2),)]
    cases = ((None, F(33, 100)), (F(1, 3), F(1, 3)), (0.25, F(1, 4)), (0, F(0)))
    for floor, expected in cases:
        params = {} if floor is None else {"omw_floor": floor, "gw_floor": floor}
        ctx = Context(players=[1, 2], rounds=rounds, scheme=MAGIC, params=params)
        assert match_win_percentage(ctx, 1) == expected
        assert game_win_percentage(ctx, 1) == expected  # 0-6 in games


def test_missing_game_scores_count_as_two_nil_and_one_all():
    # A win entered without games is 2-0 (6/6), a draw 1-1 (3/6); the loser 0-2 -> floor 0.33.
    ctx = Context(players=[1, 2, 3, 4], rounds=[(match(1, 2, 1), match(3, 4, None))], scheme=MAGIC)
    assert values(game_win_percentage, ctx, [1, 2, 3, 4]) == {
        1: F(1),
        2: F(33, 100),
        3: F(1, 2),
        4: F(1, 2),
    }


def test_a_late_entry_is_measured_over_the_rounds_they_played():
    # 3 joins in round 2 and wins twice: MWP 6/(3 x 2) = 1. 1 played all three (L, W, W):
    # 6/9. Cumulative counts every round of the event, so 3 has 0 for round 1: 0 + 3 + 6 = 9,
    # while 1 has 0 + 3 + 6 = 9 too; 2 (W, L, L) has 3 + 3 + 3 = 9 and 4 (L, L) 0.
    rounds = [
        (match(1, 2, 2),),
        (match(1, 4, 1), match(3, 2, 3)),
        (match(1, 2, 1), match(3, 4, 3)),
    ]
    ctx = Context(players=[1, 2, 3, 4], rounds=rounds, scheme=MAGIC)
    assert match_win_percentage(ctx, 3) == 1
    assert match_win_percentage(ctx, 1) == F(2, 3)
    assert values(cumulative, ctx, [1, 2, 3, 4]) == {1: 9, 2: 9, 3: 9, 4: 0}
    assert ctx.records[3].played == 2


# --- Event B: chess (1, ½, 0, bye 1), five players, three rounds, two byes and a drop. ---
#
# R1: 1 beats 2 | 3 and 4 draw | 5 has the bye
# R2: 3 beats 1 | 2 beats 5    | 4 has the bye
# R3: 1 beats 4 | 2 and 3 draw                  (5 dropped after round 2)
#
# Scores: 1: 1+0+1 = 2   2: 0+1+½ = 1½   3: ½+1+½ = 2   4: ½+1+0 = 1½   5: 1+0 = 1
# Opponents (byes add none) and their scores:
#   1: 2 (1½), 3 (2), 4 (1½)   2: 1 (2), 5 (1), 3 (2)   3: 4 (1½), 1 (2), 2 (1½)
#   4: 3 (2), 1 (2)            5: 2 (1½)
# Buchholz:        1: 5      2: 5      3: 5      4: 4      5: 1½
# Cut-1 (drop the lowest):   1: 5-1½ = 3½   2: 5-1 = 4   3: 3½   4: 4-2 = 2   5: 0
# Median (3 rounds: drop one highest and one lowest): 1: 1½  2: 2  3: 1½  4: 0 (two opponents)
#   5: 0
# Sonneborn-Berger (opponent's score x result against them):
#   1: 1x1½ + 0x2 + 1x1½ = 3        2: 0x2 + 1x1 + ½x2 = 2     3: ½x1½ + 1x2 + ½x1½ = 3½
#   4: ½x2 + 0x2 = 1                5: 0x1½ = 0
# Cumulative (running score after each round, summed):
#   1: 1 + 1 + 2 = 4   2: 0 + 1 + 1½ = 2½   3: ½ + 1½ + 2 = 4   4: ½ + 1½ + 1½ = 3½
#   5: 1 + 1 + 1 = 3 (the dropped player's score stays frozen for round 3)
# Opponents' cumulative: 1: 2½ + 4 + 3½ = 10   2: 4 + 3 + 4 = 11   3: 3½ + 4 + 2½ = 10
#   4: 4 + 4 = 8   5: 2½
# Wins over the board (byes are not wins): 1: 2   2: 1   3: 1   4: 0   5: 0

EVENT_B = [
    (match(1, 2, 1), match(3, 4, None), bye(5)),
    (match(1, 3, 3), match(2, 5, 2), bye(4)),
    (match(1, 4, 1), match(2, 3, None)),
]
PLAYERS_B = [1, 2, 3, 4, 5]


@pytest.fixture
def ctx_b():
    return Context(players=PLAYERS_B, rounds=EVENT_B, scheme=CHESS)


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        (match_points, {1: 2, 2: F(3, 2), 3: 2, 4: F(3, 2), 5: 1}),
        (buchholz, {1: 5, 2: 5, 3: 5, 4: 4, 5: F(3, 2)}),
        (buchholz_cut1, {1: F(7, 2), 2: 4, 3: F(7, 2), 4: 2, 5: 0}),
        (median_buchholz, {1: F(3, 2), 2: 2, 3: F(3, 2), 4: 0, 5: 0}),
        (sonneborn_berger, {1: 3, 2: 2, 3: F(7, 2), 4: 1, 5: 0}),
        (cumulative, {1: 4, 2: F(5, 2), 3: 4, 4: F(7, 2), 5: 3}),
        (opponents_cumulative, {1: 10, 2: 11, 3: 10, 4: 8, 5: F(5, 2)}),
        (number_of_wins, {1: 2, 2: 1, 3: 1, 4: 0, 5: 0}),
    ],
)
def test_event_b_chess_metrics(ctx_b, metric, expected):
    assert values(metric, ctx_b, PLAYERS_B) == expected


def test_event_b_chess_preset():
    # Points: 1 and 3 on 2, 2 and 4 on 1½, 5 on 1. Median Buchholz ties 1 and 3 (1½ each);
    # Sonneborn-Berger puts 3 (3½) above 1 (3). 2's median 2 beats 4's 0.
    rows = compute_standings(
        players=PLAYERS_B,
        rounds=EVENT_B,
        scheme=CHESS,
        precedence=PRESETS["chess"],
        dropped={5: 2},
    )
    assert ranks(rows) == [
        (3, 1, False),
        (1, 2, False),
        (2, 3, False),
        (4, 4, False),
        (5, 5, False),
    ]
    assert rows[-1].dropped_after == 2


def test_event_b_buchholz_ties_share_a_rank():
    # Buchholz 5 for both 1 and 3 (rank 1, tied); 2 (5) above 4 (4) on 1½.
    rows = compute_standings(
        players=PLAYERS_B, rounds=EVENT_B, scheme=CHESS, precedence=("points", "buchholz")
    )
    assert ranks(rows) == [(1, 1, True), (3, 1, True), (2, 3, False), (4, 4, False), (5, 5, False)]
    assert [row.place for row in rows] == [(1, True), (1, True), (3, False), (4, False), (5, False)]


def test_head_to_head_breaks_a_tie_only_between_players_who_met():
    # Event B: 1 and 3 (2 points) met in round 2 and 3 won: 3 first. 2 and 4 (1½) never met:
    # head-to-head does not apply, they share third place, and 5 is fifth (1, 2, 3, 3, 5).
    rows = compute_standings(
        players=PLAYERS_B, rounds=EVENT_B, scheme=CHESS, precedence=("points", "head_to_head")
    )
    assert ranks(rows) == [(3, 1, False), (1, 2, False), (2, 3, True), (4, 3, True), (5, 5, False)]
    assert [row.metrics["head_to_head"] for row in rows] == [1, 0, 0, 0, 0]


# --- Event C: head-to-head among three (chess, six players, three rounds). ---
#
# R1: 1 beats 2 | 3 and 4 draw | 6 beats 5
# R2: 1 and 3 draw | 2 beats 5 | 6 beats 4
# R3: 2 and 3 draw | 6 beats 1 | 5 beats 4
# Scores: 1: 1+½+0 = 1½   2: 0+1+½ = 1½   3: ½+½+½ = 1½   4: ½+0+0 = ½   5: 0+0+1 = 1
#         6: 3
# 1, 2 and 3 all met each other. Points scored in those games: 1: 1 (v 2) + ½ (v 3) = 1½,
# 2: 0 + ½ = ½, 3: ½ + ½ = 1. So 6, then 1, 3, 2, then 5 and 4.

EVENT_C = [
    (match(1, 2, 1), match(3, 4, None), match(5, 6, 6)),
    (match(1, 3, None), match(2, 5, 2), match(4, 6, 6)),
    (match(2, 3, None), match(1, 6, 6), match(4, 5, 5)),
]


def test_head_to_head_ranks_a_group_that_all_met():
    rows = compute_standings(
        players=range(1, 7), rounds=EVENT_C, scheme=CHESS, precedence=("points", "head_to_head")
    )
    assert order(rows) == [6, 1, 3, 2, 5, 4]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    assert {r.player: r.metrics["head_to_head"] for r in rows[1:4]} == {1: 1.5, 3: 1.0, 2: 0.5}


def test_head_to_head_applies_to_the_group_still_tied_where_it_stands():
    # Wins first: 1 and 2 have one win each, 3 none, so {1, 2} is the group when head-to-head
    # comes, and 1 beat 2. 3 is alone by then (its head-to-head is 0).
    rows = compute_standings(
        players=range(1, 7),
        rounds=EVENT_C,
        scheme=CHESS,
        precedence=("points", "wins", "head_to_head"),
    )
    assert order(rows) == [6, 1, 2, 3, 5, 4]
    assert {r.player: r.metrics["head_to_head"] for r in rows[1:4]} == {1: 1.0, 2: 0.0, 3: 0.0}


def test_head_to_head_group_values():
    ctx = Context(players=range(1, 7), rounds=EVENT_C, scheme=CHESS)
    assert head_to_head(ctx, [1, 2, 3]) == {1: F(3, 2), 2: F(1, 2), 3: 1}
    assert head_to_head(ctx, [1, 2, 4]) == {1: 0, 2: 0, 4: 0}  # 2 and 4 never met


def test_a_head_to_head_cycle_stays_tied():
    # A round robin of four: 1 beats 2, 2 beats 3, 3 beats 1, everyone beats 4. 1, 2 and 3
    # have 2 points and 1 point each among themselves: still tied, competition rank 1, 1, 1, 4.
    rounds = [
        (match(1, 2, 1), match(3, 4, 3)),
        (match(1, 3, 3), match(2, 4, 2)),
        (match(1, 4, 1), match(2, 3, 2)),
    ]
    rows = compute_standings(
        players=[4, 3, 2, 1], rounds=rounds, scheme=CHESS, precedence=("points", "head_to_head")
    )
    assert ranks(rows) == [(1, 1, True), (2, 1, True), (3, 1, True), (4, 4, False)]


# --- Event D: one 8-player, 3-round event under both presets. ---
#
# R1: 1 beats 2 2-0 | 3 beats 4 2-1 | 5 beats 6 2-1 | 7 and 8 draw 1-1
# R2: 1 beats 3 2-1 | 7 beats 5 2-0 | 8 beats 2 2-1 | 4 beats 6 2-0
# R3: 7 beats 1 2-1 | 3 beats 8 2-0 | 5 beats 4 2-1 | 2 beats 6 2-0
# Opponents: 1: 2 3 7   2: 1 8 6   3: 4 1 8   4: 3 6 5   5: 6 7 4   6: 5 4 2   7: 8 5 1
#            8: 7 2 3
#
# Magic (3/1/0). Points: 7: 3 (D) ... 1+3+3 = 7; 1, 3, 5: 6; 8: 1+3+0 = 4; 2, 4: 3; 6: 0.
# MWP in ninths: 1: 6  2: 3  3: 6  4: 3  5: 6  6: 0 -> floor 0.33 (2.97 ninths)  7: 7  8: 4
# OMW% (sum of opponents' ninths / 27):
#   1: 3+6+7 = 16 -> 16/27   3: 3+6+4 = 13 -> 13/27   5: 2.97+7+3 -> 1297/2700
#   2: 6+4+2.97 -> 1297/2700   4: 6+2.97+6 -> 499/900 (0.5544)
# So 1 leads 3, 3 leads 5 (with a 1/3 floor 3 and 5 tied and GW% put 3 first); 4 leads 2.
# GW%: 3 won 2-1, 1-2, 2-0 = 5-3 -> 15/24 = 5/8;  5 won 2-1, 0-2, 2-1 = 4-4 -> 12/24 = 1/2.
# Magic order: 7, 1, 3, 5, 8, 4, 2, 6.
# OGW% (GW%: 1 5/8, 2 3-4 -> 9/21 = 3/7, 3 5/8, 4 1/2, 6 1-6 -> 3/21 -> 0.33, 7 5-2 -> 5/7,
#   8 3-4 -> 3/7):
#   1: (3/7 + 5/8 + 5/7) / 3 = 33/56   3: (1/2 + 5/8 + 3/7) / 3 = 29/56
#   5: (0.33 + 5/7 + 1/2) / 3 = 1081/2100
#
# Chess (1/½/0). Scores: 1: 2  2: 1  3: 2  4: 1  5: 2  6: 0  7: 2½  8: 1½
# Median Buchholz (middle opponent score of three):
#   1: {1, 2, 2½} -> 2   3: {1, 2, 1½} -> 1½   5: {0, 2½, 1} -> 1   2: {2, 1½, 0} -> 1½
#   4: {2, 0, 2} -> 2    6: {2, 1, 1} -> 1     7: {1½, 2, 2} -> 2   8: {2½, 1, 2} -> 2
# So 1 before 3 before 5, and 4 before 2: chess order 7, 1, 3, 5, 8, 4, 2, 6 as well.
# Sonneborn-Berger: 1: 1 + 2 + 0 = 3   2: 0 + 0 + 0 = 0   3: 1 + 0 + 1½ = 2½   4: 0
#   5: 0 + 0 + 1 = 1   6: 0   7: ½x1½ + 2 + 2 = 4¾   8: ½x2½ + 1 + 0 = 2¼
# Cumulative: 1: 1+2+2 = 5  2: 0+0+1 = 1  3: 1+1+2 = 4  4: 0+1+1 = 2  5: 1+1+2 = 4
#   6: 0  7: ½+1½+2½ = 4½  8: ½+1½+1½ = 3½
# Opponents' cumulative: 1: 1+4+4½ = 9½  2: 5+3½+0 = 8½  3: 2+5+3½ = 10½  4: 4+0+4 = 8
#   5: 0+4½+2 = 6½  6: 4+2+1 = 7  7: 3½+4+5 = 12½  8: 4½+1+4 = 9½
# Wins: 1: 2  2: 1  3: 2  4: 1  5: 2  6: 0  7: 2  8: 1

EVENT_D = [
    (
        match(1, 2, 1, (2, 0)),
        match(3, 4, 3, (2, 1)),
        match(5, 6, 5, (2, 1)),
        match(7, 8, None, (1, 1)),
    ),
    (
        match(1, 3, 1, (2, 1)),
        match(5, 7, 7, (0, 2)),
        match(2, 8, 8, (1, 2)),
        match(4, 6, 4, (2, 0)),
    ),
    (
        match(1, 7, 7, (1, 2)),
        match(8, 3, 3, (0, 2)),
        match(5, 4, 5, (2, 1)),
        match(2, 6, 2, (2, 0)),
    ),
]
PLAYERS_D = list(range(1, 9))


def test_event_d_magic_preset():
    rows = compute_standings(
        players=PLAYERS_D, rounds=EVENT_D, scheme=MAGIC, precedence=PRESETS["magic"]
    )
    assert order(rows) == [7, 1, 3, 5, 8, 4, 2, 6]
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    metrics = {row.player: row.metrics for row in rows}
    assert [metrics[p]["points"] for p in (1, 3, 5)] == [6, 6, 6]
    assert [metrics[p]["omw"] for p in (1, 3, 5, 2, 4)] == pytest.approx(
        [16 / 27, 13 / 27, 1297 / 2700, 1297 / 2700, 499 / 900]
    )
    assert [metrics[p]["gw"] for p in (3, 5)] == pytest.approx([5 / 8, 1 / 2])
    assert [metrics[p]["ogw"] for p in (1, 3, 5)] == pytest.approx([33 / 56, 29 / 56, 1081 / 2100])


def test_event_d_chess_preset():
    rows = compute_standings(
        players=PLAYERS_D, rounds=EVENT_D, scheme=CHESS, precedence=PRESETS["chess"]
    )
    assert order(rows) == [7, 1, 3, 5, 8, 4, 2, 6]
    expected = {
        # player: (points, median, SB, cumulative, opponents' cumulative, wins)
        1: (2, 2, 3, 5, 9.5, 2),
        2: (1, 1.5, 0, 1, 8.5, 1),
        3: (2, 1.5, 2.5, 4, 10.5, 2),
        4: (1, 2, 0, 2, 8, 1),
        5: (2, 1, 1, 4, 6.5, 2),
        6: (0, 1, 0, 0, 7, 0),
        7: (2.5, 2, 4.75, 4.5, 12.5, 2),
        8: (1.5, 2, 2.25, 3.5, 9.5, 1),
    }
    assert {row.player: tuple(row.metrics.values()) for row in rows} == expected
    assert list(rows[0].metrics) == list(PRESETS["chess"])


def test_event_d_later_chess_tiebreakers():
    # Without median Buchholz: cumulative puts 1 (5) above 3 and 5 (4 each), opponents'
    # cumulative then 3 (10½) above 5 (6½); 4 (cumulative 2) above 2 (1).
    rows = compute_standings(
        players=PLAYERS_D,
        rounds=EVENT_D,
        scheme=CHESS,
        precedence=("points", "cumulative", "opp_cumulative"),
    )
    assert order(rows) == [7, 1, 3, 5, 8, 4, 2, 6]


def test_event_d_competition_ranking_with_ties():
    # Points then wins: 1, 3 and 5 all have two wins (second, tied); 2 and 4 one each (sixth,
    # tied): ranks 1, 2, 2, 2, 5, 6, 6, 8, tied players listed by id.
    rows = compute_standings(
        players=PLAYERS_D, rounds=EVENT_D, scheme=MAGIC, precedence=("points", "wins")
    )
    assert ranks(rows) == [
        (7, 1, False),
        (1, 2, True),
        (3, 2, True),
        (5, 2, True),
        (8, 5, False),
        (2, 6, True),
        (4, 6, True),
        (6, 8, False),
    ]


def test_median_buchholz_cuts_two_from_nine_rounds():
    # A ten-player round robin (nine rounds) where the lower id always wins: player k scores
    # 10 - k. Player 1's opponents scored 8, 7, ..., 0; nine rounds cut two at each end:
    # 2 + 3 + 4 + 5 + 6 = 20. Cut-1 drops only the 0: 8+7+...+1 = 36.
    ids = list(range(1, 11))
    rounds = []
    circle = ids[1:]
    for _ in range(9):
        line = [ids[0], *circle]
        rounds.append(
            tuple(
                match(min(a, b), max(a, b), min(a, b))
                for a, b in zip(line[:5], reversed(line[5:]), strict=True)
            )
        )
        circle = circle[-1:] + circle[:-1]
    ctx = Context(players=ids, rounds=rounds, scheme=CHESS)
    assert values(match_points, ctx, ids) == {k: 10 - k for k in ids}
    assert median_buchholz(ctx, 1) == 20
    assert buchholz_cut1(ctx, 1) == 36
    one_each = Context(players=ids, rounds=rounds, scheme=CHESS, params={"median_cut": 1})
    assert median_buchholz(one_each, 1) == 7 + 6 + 5 + 4 + 3 + 2 + 1  # drop the 8 and the 0


# --- Pods (cEDH 5/1/0): opponents averaged one by one, the floor as a parameter. ---
#
# R1: pod 1 2 3 4 won by 1 | pod 5 6 7 8 won by 5
# R2: pod 1 5 3 7 won by 7 | pod 2 6 4 8 drawn
# Points: 1, 5, 7: 5   2, 4, 6, 8: 0 + 1 = 1   3: 0.  MWP = points / (5 x 2).
# With a 25% floor: 1, 5, 7: 1/2; everyone else 1/10 or 0 -> 1/4.
#   OMW 1: opponents 2 3 4 | 5 3 7 = (¼ ¼ ¼ ½ ¼ ½) / 6 = 2/6 = 1/3
#   OMW 5: opponents 6 7 8 | 1 3 7 = (¼ ½ ¼ ½ ¼ ½) / 6 = 9/4 / 6 = 3/8 (7 met twice, counted twice)
# With the default 0.33 floor: OMW 1 = (4 x 0.33 + 2 x ½) / 6 = 29/75;
#   OMW 5 = (3 x 0.33 + 3 x ½) / 6 = 83/200

EVENT_PODS = [
    (pod(1, 2, 3, 4, winner=1), pod(5, 6, 7, 8, winner=5)),
    (pod(1, 5, 3, 7, winner=7), pod(2, 6, 4, 8, winner=None)),
]


def test_pod_omw_is_averaged_per_opponent_with_a_configurable_floor():
    quarter = Context(
        players=range(1, 9), rounds=EVENT_PODS, scheme=CEDH_PODS, params={"omw_floor": 0.25}
    )
    assert opponents_match_win_percentage(quarter, 1) == F(1, 3)
    assert opponents_match_win_percentage(quarter, 5) == F(3, 8)
    assert opponents_match_win_percentage(quarter, 7) == F(3, 8)
    third = Context(players=range(1, 9), rounds=EVENT_PODS, scheme=CEDH_PODS)
    assert opponents_match_win_percentage(third, 1) == F(29, 75)
    assert opponents_match_win_percentage(third, 5) == F(83, 200)
    assert third.records[5].seats == [1, 2]
    assert third.records[2].draws == 1 and third.records[2].losses == 1


def test_pod_games_count_one_game_per_pod():
    # 1 won one pod and lost one: 3 game points of 6 = 1/2. 2 lost one, drew one: 1/6 -> 0.33.
    ctx = Context(players=range(1, 9), rounds=EVENT_PODS, scheme=CEDH_PODS)
    assert game_win_percentage(ctx, 1) == F(1, 2)
    assert game_win_percentage(ctx, 2) == F(33, 100)


def test_pod_sonneborn_berger_counts_every_opponent_beaten():
    # 1 beat 2, 3, 4 in round 1 (scores 1, 0, 1) and lost in round 2: 1 + 0 + 1 = 2.
    # 7 lost round 1, then beat 1, 5, 3 (5, 5, 0): 10. In units of wins (points / 5).
    ctx = Context(players=range(1, 9), rounds=EVENT_PODS, scheme=CEDH_PODS)
    assert sonneborn_berger(ctx, 1) == 2
    assert sonneborn_berger(ctx, 7) == 10


# --- The registry and its errors. ---


def test_the_registry_names_and_presets():
    assert set(TIEBREAKERS) == {
        "points",
        "omw",
        "omw_per_round",
        "gw",
        "ogw",
        "buchholz",
        "buchholz_cut1",
        "median_buchholz",
        "sonneborn_berger",
        "cumulative",
        "opp_cumulative",
        "wins",
        "head_to_head",
        "seat_sum",
        "pod4_win_share",
        "avg_opp_rating",
    }
    assert PRESETS["magic"] == ("points", "omw", "gw", "ogw")
    assert PRESETS["chess"] == (
        "points",
        "median_buchholz",
        "sonneborn_berger",
        "cumulative",
        "opp_cumulative",
        "wins",
    )
    for name, tiebreaker in TIEBREAKERS.items():
        assert tiebreaker.name == name and tiebreaker.label and tiebreaker.reference


def test_a_new_metric_drops_into_the_registry():
    # The pod issue's "sum of seat positions" as it will plug in: seats are in the context.
    seats = register(
        Tiebreaker(
            "test_seat_sum",
            "Seat sum",
            True,
            lambda ctx, p: sum(ctx.records[p].seats),
            "pairings-edh README",
        )
    )
    try:
        rows = compute_standings(
            players=range(1, 9),
            rounds=EVENT_PODS,
            scheme=CEDH_PODS,
            precedence=("points", seats.name),
        )
        # 5 points: 1 (seats 1 + 1 = 2), 5 (1 + 2 = 3), 7 (3 + 4 = 7): 7, 5, 1.
        assert order(rows)[:3] == [7, 5, 1]
    finally:
        del TIEBREAKERS["test_seat_sum"]
    with pytest.raises(ValueError):
        register(Tiebreaker("x", "x", True, None, "none"))


@pytest.mark.parametrize(
    ("rounds", "players", "code"),
    [
        ([(match(1, 9, 1),)], [1, 2], "unknown_player"),
        ([(match(1, 2, 1), bye(1))], [1, 2], "seated_twice"),
        ([(match(1, 2, 3),)], [1, 2, 3], "winner_not_seated"),
        ([(match(1, 2, 1, (2, 0, 1)),)], [1, 2], "game_wins_mismatch"),
        ([(Table((), None),)], [1, 2], "empty_table"),
        ([], [1, 1], "duplicate_player"),
    ],
)
def test_bad_results_raise_with_a_code(rounds, players, code):
    with pytest.raises(StandingsError) as caught:
        compute_standings(players=players, rounds=rounds, scheme=MAGIC, precedence=("points",))
    assert caught.value.code == code


def test_bad_settings_raise_with_a_code():
    with pytest.raises(StandingsError) as caught:
        compute_standings(players=[1], rounds=[], scheme=MAGIC, precedence=("points", "elo"))
    assert caught.value.code == "unknown_tiebreaker"
    with pytest.raises(StandingsError) as caught:
        compute_standings(
            players=[1], rounds=[], scheme=MAGIC, precedence=("points",), dropped={2: 1}
        )
    assert caught.value.code == "unknown_player"
    with pytest.raises(StandingsError) as caught:
        Context(players=[1], rounds=[], scheme=PointsScheme(0, 0, 0, 0))
    assert caught.value.code == "bad_scheme"


def test_no_rounds_everyone_tied_first():
    rows = compute_standings(
        players=[3, 1, 2], rounds=[], scheme=MAGIC, precedence=PRESETS["magic"]
    )
    assert ranks(rows) == [(1, 1, True), (2, 1, True), (3, 1, True)]
    assert compute_standings(players=[], rounds=[], scheme=MAGIC, precedence=("points",)) == []


# --- Properties on random events. ---


@st.composite
def events(draw):
    """Random entrants and rounds: each round seats a random subset (drops, late entries) at
    tables of one (a bye) to four, with random results and, for 1v1, sometimes game scores."""
    players = draw(st.lists(st.integers(1, 60), min_size=1, max_size=10, unique=True))
    rounds = []
    for _ in range(draw(st.integers(0, 4))):
        seated = draw(st.permutations(players))
        seated = seated[: draw(st.integers(0, len(seated)))]
        tables = []
        while seated:
            size = min(len(seated), draw(st.sampled_from([1, 2, 2, 2, 3, 4])))
            at, seated = tuple(seated[:size]), seated[size:]
            if size == 1:
                tables.append(bye(at[0]))
                continue
            winner = draw(st.sampled_from([*at, None]))
            games, game_draws = None, 0
            if size == 2 and draw(st.booleans()):
                if winner is None:
                    games, game_draws = (1, 1), draw(st.integers(0, 1))
                else:
                    loser_games = draw(st.integers(0, 1))
                    games = (2, loser_games) if winner == at[0] else (loser_games, 2)
            tables.append(Table(at, winner, games, game_draws))
        rounds.append(tuple(tables))
    return players, rounds


SCHEMES = st.sampled_from([MAGIC, CHESS, CEDH_PODS])
PRECEDENCES = st.sampled_from(
    [
        PRESETS["magic"],
        PRESETS["chess"],
        ("points", "buchholz", "buchholz_cut1", "wins"),
        ("points", "head_to_head", "omw"),
        ("sonneborn_berger", "points"),
    ]
)


def standings(players, rounds, scheme, precedence):
    return compute_standings(players=players, rounds=rounds, scheme=scheme, precedence=precedence)


def comparable(row, precedence):
    return tuple(
        row.metrics[name] if TIEBREAKERS[name].higher_is_better else -row.metrics[name]
        for name in precedence
    )


@settings(max_examples=150, deadline=None)
@given(events(), SCHEMES, PRECEDENCES)
def test_every_player_once_ranked_consistently(event, scheme, precedence):
    players, rounds = event
    rows = standings(players, rounds, scheme, precedence)
    assert sorted(order(rows)) == sorted(players)
    for index, row in enumerate(rows):
        first = next(i for i, other in enumerate(rows) if other.rank == row.rank)
        assert row.rank == first + 1  # competition ranking: 1 + players strictly ahead
        assert row.tied == (sum(other.rank == row.rank for other in rows) > 1)
        if index:
            before = rows[index - 1]
            assert before.rank <= row.rank
            if before.rank == row.rank:
                assert before.player < row.player
                assert comparable(before, precedence) == comparable(row, precedence)
            elif "head_to_head" not in precedence:
                assert comparable(before, precedence) > comparable(row, precedence)


@settings(max_examples=150, deadline=None)
@given(events(), SCHEMES, PRECEDENCES, st.randoms(use_true_random=False))
def test_the_order_of_tables_seats_and_entrants_does_not_matter(event, scheme, precedence, rnd):
    players, rounds = event
    shuffled = []
    for round_ in rounds:
        tables = [
            Table(t.players[::-1], t.winner, t.game_wins and t.game_wins[::-1], t.game_draws)
            for t in round_
        ]
        rnd.shuffle(tables)
        shuffled.append(tuple(tables))
    entrants = list(players)
    rnd.shuffle(entrants)
    assert standings(entrants, shuffled, scheme, precedence) == standings(
        players, rounds, scheme, precedence
    )


@settings(max_examples=100, deadline=None)
@given(events(), SCHEMES, st.randoms(use_true_random=False))
def test_only_chronological_metrics_read_the_order_of_rounds(event, scheme, rnd):
    players, rounds = event
    reordered = list(rounds)
    rnd.shuffle(reordered)
    timeless = (*PRESETS["magic"], "buchholz", "median_buchholz", "sonneborn_berger", "wins")
    assert standings(players, reordered, scheme, timeless) == standings(
        players, rounds, scheme, timeless
    )


@settings(max_examples=100, deadline=None)
@given(events(), SCHEMES)
def test_points_sum_to_what_the_tables_gave(event, scheme):
    players, rounds = event
    rows = standings(players, rounds, scheme, ("points",))
    given_out = sum(
        scheme.points(table, p) for round_ in rounds for table in round_ for p in table.players
    )
    assert sum(row.points for row in rows) == pytest.approx(given_out)
    assert sum(row.played for row in rows) == sum(len(t.players) for r in rounds for t in r)


def test_a_large_event_with_every_metric():
    # 256 players, 8 rounds of random 1v1 results, every metric (a fraction of a second: the
    # context is built once and opponents' values are cached).
    rng = random.Random(7)
    players = list(range(256))
    rounds = []
    for _ in range(8):
        rng.shuffle(players)
        rounds.append(
            tuple(
                match(a, b, rng.choice([a, b, None]))
                for a, b in zip(players[::2], players[1::2], strict=True)
            )
        )
    precedence = tuple(name for name in TIEBREAKERS)
    rows = compute_standings(players=players, rounds=rounds, scheme=MAGIC, precedence=precedence)
    assert len(rows) == 256
