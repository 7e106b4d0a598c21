"""Pairwise Elo systems: `guildmaster`, `elo` and `elo-dynamic` (Sedma).

Expected values are worked out by hand in the comments (E = expected score, Δ = delta);
10^x values to 6 places. The Sedma two-player case is also checked against a literal port of
the post's C# `CalculateNewRatings`, written here independently of the code under test.
"""

import itertools
import math
import random
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.domain.csvformat import GUILDMASTER_ORDER
from ratings.domain.base import Finish, ParamError, RatingState
from ratings.domain.elo import (
    Elo,
    EloDynamic,
    GuildmasterElo,
    expected_score,
    f32,
    k_for,
    round_half_away,
    round_half_even,
    sedma_adjusted_score,
    sedma_bonus,
    sedma_malus,
)


def play(system, ratings: dict, order, stats=None):
    """Rate one game: `order` is a list of players (strict order) or of (player, place)."""
    finish = [
        Finish(p[0], p[1], (stats or {}).get(p[0], {}))
        if isinstance(p, tuple)
        else Finish(p, i + 1, (stats or {}).get(p, {}))
        for i, p in enumerate(order)
    ]
    before = {p: RatingState(float(r)) for p, r in ratings.items()}
    return {p: s.rating for p, s in system.rate(before, finish).items()}


# --- rounding helpers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "away", "even"),
    [
        (0.5, 1, 0),
        (1.5, 2, 2),
        (2.5, 3, 2),
        (-0.5, -1, 0),
        (-1.5, -2, -2),
        (-2.5, -3, -2),
        (2.4999999999999996, 2, 2),
        (0.49999999999999994, 0, 0),  # floor(x + 0.5) would say 1 here
        (17.1415, 17, 17),
        (-22.8585, -23, -23),
        (0.0, 0, 0),
    ],
)
def test_rounding(x, away, even):
    assert round_half_away(x) == away
    assert round_half_even(x) == even


def test_f32_matches_known_single_precision_values():
    # 0.1f = 13421773 * 2^-27 = 0.100000001490116119384765625 (IEEE 754 binary32)
    assert f32(0.1) == 0.100000001490116119384765625
    # 0.3f = 10066330 * 2^-25 = 0.300000011920928955078125
    assert f32(0.3) == 0.300000011920928955078125
    assert f32(1.0) == 1.0
    assert f32(0.5) == 0.5


def test_expected_score_by_hand():
    # 1600 vs 1500, D 800: 10^(-100/800) = 10^-0.125 = 0.749894; E = 1/1.749894 = 0.571463
    assert expected_score(1600, 1500, 800) == pytest.approx(0.571463, abs=1e-6)
    assert expected_score(1500, 1600, 800) == pytest.approx(0.428537, abs=1e-6)
    assert expected_score(1500, 1500, 400) == 0.5
    # a gap past a double's range: 10^x overflows, E is 0 (1 for the other side)
    assert expected_score(0, 1e6, 1) == 0.0
    assert expected_score(1e6, 0, 1) == 1.0


# --- guildmaster ----------------------------------------------------------------------------

GM = GuildmasterElo()


def test_guildmaster_seed_four_equal_players():
    # rules.md: every higher place beats every lower one; all E = 1/2, each pair Δ = 40*(1-1/2) = 20
    # 1st: +20+20+20 = +60; 2nd: -20+20+20 = +20; 3rd: -20-20+20 = -20; 4th: -60
    after = play(GM, {}, ["a", "b", "c", "d"])
    assert after == {"a": 1560, "b": 1520, "c": 1480, "d": 1440}


def test_guildmaster_new_players_start_at_1500():
    assert GM.initial() == RatingState(1500.0)
    assert play(GM, {}, ["x", "y"]) == {"x": 1520, "y": 1480}


def test_guildmaster_two_players_by_hand():
    # E(1600 vs 1500) = 0.571463: favourite wins: Δ = 40*(1-0.571463) = 17.1415 -> 17
    assert play(GM, {"a": 1600, "b": 1500}, ["a", "b"]) == {"a": 1617, "b": 1483}
    # underdog wins: Δ_a = 40*(0-0.571463) = -22.8585 -> -23, b gets +22.8585 -> +23
    assert play(GM, {"a": 1600, "b": 1500}, ["b", "a"]) == {"a": 1577, "b": 1523}


def test_guildmaster_tie_scores_half():
    # equal ratings tied: Δ = 40*(1/2 - 1/2) = 0
    assert play(GM, {}, [("a", 1), ("b", 1)]) == {"a": 1500, "b": 1500}
    # 1600 and 1500 tied: Δ_a = 40*(0.5 - 0.571463) = -2.8585 -> -3, b +2.8585 -> +3
    assert play(GM, {"a": 1600, "b": 1500}, [("a", 1), ("b", 1)]) == {"a": 1597, "b": 1503}


def test_guildmaster_replay_rounds_after_every_game():
    # Game 1: a, b, c all new (1500): a +40, b 0, c -40 -> 1540, 1500, 1460.
    r = play(GM, {}, ["a", "b", "c"])
    assert r == {"a": 1540, "b": 1500, "c": 1460}
    ratings = dict(r)
    # Game 2: b, a, d (d new). 10^(40/800) = 10^0.05 = 1.122018.
    #   b-a: E_b = 1/(1+1.122018) = 0.471250, Δ = 40*(1-0.471250) = 21.15: b +21.15, a -21.15
    #   b-d: E = 1/2, Δ = 20: b +20, d -20
    #   a-d: E_a = 1/(1+10^-0.05) = 0.528750, Δ = 40*(1-0.528750) = 18.85: a +18.85, d -18.85
    #   b: +41.15 -> +41 = 1541; a: -2.30 -> -2 = 1538; d: -38.85 -> -39 = 1461
    r = play(GM, {**ratings, "d": 1500}, ["b", "a", "d"])
    assert r == {"b": 1541, "a": 1538, "d": 1461}


def test_guildmaster_rounds_half_away_from_zero():
    # With K = 1, two equal players: Δ = 1*(1 - 1/2) = +0.5 and -0.5. Go's math.Round gives +1
    # and -1; Python's round() would give 0 and 0.
    class OneK(GuildmasterElo):
        K = 1.0

    assert play(OneK(), {}, ["a", "b"]) == {"a": 1501, "b": 1499}


def test_guildmaster_float_deltas_are_the_unrounded_sums():
    deltas = GM.float_deltas(
        {"a": RatingState(1600.0), "b": RatingState(1500.0)}, [Finish("a", 1), Finish("b", 2)]
    )
    assert deltas["a"] == pytest.approx(17.1415, abs=1e-4)
    assert deltas["b"] == pytest.approx(-17.1415, abs=1e-4)


def test_guildmaster_has_no_parameters():
    assert GM.params() == {}
    with pytest.raises(ParamError) as err:
        GuildmasterElo(k=32)
    assert err.value.field == "k"


def test_one_player_game_changes_nothing():
    for system in (GM, Elo(), EloDynamic()):
        before = {"a": RatingState(1234.0)}
        assert system.rate(before, [Finish("a", 1)]) == before


def test_player_twice_in_a_game_is_rejected():
    for system in (GM, Elo(), EloDynamic()):
        with pytest.raises(ValueError, match="twice"):
            system.rate({}, [Finish("a", 1), Finish("a", 2)])


def columns(player, place, *order):
    return Finish(player, place, {GUILDMASTER_ORDER: list(order)})


@pytest.mark.parametrize(
    "before, finish, after",
    [
        # Guildmaster's sample, line 142 (",8/21/2021,Caid,Caid,Dylan"), as its ScoreGame rates
        # it: seats Caid¹, Caid², Dylan, every pair E = 1/2, Δ = 20 each: Caid¹ +40, Caid² -20+20
        # = 0, Dylan -40. scores["Caid"] is written for each seat, the last one stays: 1500.
        ({}, [columns("Caid", 1, 1, 2), columns("Dylan", 2, 3)], {"Caid": 1500, "Dylan": 1460}),
        # Caid 1600, Dylan 1500: E(1600 vs 1500) = 0.571463, 40*(1-E) = 17.1415.
        # Caid² (last seat): -20 (vs Caid¹, E = 1/2) + 17.1415 = -2.8585 -> -3 = 1597.
        # Dylan: -17.1415 twice = -34.283 -> -34 = 1466.
        (
            {"Caid": 1600, "Dylan": 1500},
            [columns("Caid", 1, 1, 2), columns("Dylan", 2, 3)],
            {"Caid": 1597, "Dylan": 1466},
        ),
        # The repeat below the winner: Ann, Bob, Ann at 1500. Seats Ann¹ +40, Bob -20+20 = 0,
        # Ann³ -40: Ann keeps her last seat, 1460 (a player named last loses to themself too).
        ({}, [columns("Ann", 1, 1, 3), columns("Bob", 2, 2)], {"Ann": 1460, "Bob": 1500}),
    ],
)
def test_guildmaster_rates_a_repeated_name_seat_by_seat_as_its_go_code_does(before, finish, after):
    states = {p: RatingState(float(r)) for p, r in before.items()}

    rated = GM.rate(states, finish)

    assert {p: s.rating for p, s in rated.items()} == after


def test_guildmaster_columns_that_are_not_whole_numbers_are_ignored():
    # Stats also come through the API: a malformed list must not break a replay.
    finish = [Finish("a", 1, {GUILDMASTER_ORDER: ["1", 2]}), Finish("b", 2)]

    assert {p: s.rating for p, s in GM.rate({}, finish).items()} == {"a": 1520, "b": 1480}


def test_guildmaster_a_player_added_after_the_import_sits_after_the_rows_columns():
    # Ann¹ Ann² Bob from the row, Cy added later at place 3: seats Ann¹ Ann² Bob Cy, all 1500.
    # Ann² -20 +20 +20 = +20; Bob -20 -20 +20 = -20; Cy -60.
    finish = [columns("Ann", 1, 1, 2), columns("Bob", 2, 3), Finish("Cy", 3)]

    assert {p: s.rating for p, s in GM.rate({}, finish).items()} == {
        "Ann": 1520,
        "Bob": 1480,
        "Cy": 1440,
    }


def test_the_other_systems_rate_the_stored_game_one_seat_per_player():
    finish = [columns("Caid", 1, 1, 2), columns("Dylan", 2, 3)]

    rated = Elo().rate({}, finish)

    assert {p: s.rating for p, s in rated.items()} == {"Caid": 1520.0, "Dylan": 1480.0}


# --- elo ------------------------------------------------------------------------------------


def test_elo_two_equal_players():
    # E = 1/2: Δ = 40*(1 - 1/2) = 20, float ratings
    assert play(Elo(), {}, ["a", "b"]) == {"a": 1520.0, "b": 1480.0}


def test_elo_keeps_fractions():
    # as guildmaster's 17.1415 but not rounded
    after = play(Elo(), {"a": 1600, "b": 1500}, ["a", "b"])
    assert after["a"] == pytest.approx(1617.1415, abs=1e-4)
    assert after["b"] == pytest.approx(1482.8585, abs=1e-4)


def test_elo_scaled_by_pod_size():
    # four equal players, K/(n-1) = 40/3 per pair, Δ per pair = 40/3 * 1/2 = 20/3
    # 1st: 3 * 20/3 = +20; 2nd: -20/3 + 40/3 = +20/3; 3rd: -20/3; 4th: -20
    after = play(Elo(scale_by_pod_size=True), {}, ["a", "b", "c", "d"])
    assert after["a"] == pytest.approx(1520)
    assert after["b"] == pytest.approx(1500 + 20 / 3)
    assert after["c"] == pytest.approx(1500 - 20 / 3)
    assert after["d"] == pytest.approx(1480)
    # a duel is not scaled (n - 1 = 1)
    assert play(Elo(scale_by_pod_size=True), {}, ["a", "b"]) == {"a": 1520.0, "b": 1480.0}


ONE_WINNER_REST_TIED = [("a", 1), ("b", 2), ("c", 2), ("d", 2)]
RATED = {"a": 1500, "b": 1600, "c": 1500, "d": 1500}


def test_elo_tied_below_first_as_draws():
    # a beats b (1600): E_a = 0.428537, Δ = 40*(1-0.428537) = 22.8585; a beats c, d: 20 each
    # b-c and b-d drawn: Δ_b = 40*(0.5 - 0.571463) = -2.8585 each; c-d drawn at equal: 0
    # a: 22.8585 + 40 = +62.8585; b: -22.8585 - 2*2.8585 = -28.5755; c, d: -20 + 2.8585
    after = play(Elo(), RATED, ONE_WINNER_REST_TIED)
    assert after["a"] == pytest.approx(1562.8585, abs=1e-4)
    assert after["b"] == pytest.approx(1571.4245, abs=1e-3)
    assert after["c"] == pytest.approx(1482.8585, abs=1e-4)
    assert after["d"] == pytest.approx(1482.8585, abs=1e-4)


def test_elo_tied_below_first_skipped():
    # same game, pairs among b, c, d skipped: a +62.8585, b -22.8585, c, d -20
    after = play(Elo(tied_below_first="skip"), RATED, ONE_WINNER_REST_TIED)
    assert after["a"] == pytest.approx(1562.8585, abs=1e-4)
    assert after["b"] == pytest.approx(1577.1415, abs=1e-4)
    assert after["c"] == pytest.approx(1480.0)
    assert after["d"] == pytest.approx(1480.0)


def test_elo_skip_still_scores_ties_at_first():
    # 1600 and 1500 share first: still a draw, Δ_a = 40*(0.5 - 0.571463) = -2.8585
    after = play(Elo(tied_below_first="skip"), {"a": 1600, "b": 1500}, [("a", 1), ("b", 1)])
    assert after["a"] == pytest.approx(1597.1415, abs=1e-4)
    assert after["b"] == pytest.approx(1502.8585, abs=1e-4)


def test_elo_initial_k_d_are_used():
    system = Elo(initial=1000, k=32, d=400)
    assert system.initial() == RatingState(1000.0)
    # E(1100 vs 1000, D 400) = 1/(1+10^-0.25) = 1/(1+0.562341) = 0.640065
    # Δ = 32*(1-0.640065) = 11.5179
    after = play(system, {"a": 1100, "b": 1000}, ["a", "b"])
    assert after["a"] == pytest.approx(1111.5179, abs=1e-4)


def test_elo_win_probabilities_luce():
    system = Elo()
    # two players = Elo expectation: 0.571463 / 0.428537
    p = system.win_probabilities([RatingState(1600.0), RatingState(1500.0)])
    assert p == pytest.approx([0.571463, 0.428537], abs=1e-6)
    # three: weights 10^(R/800) relative to the top: 1, 10^-0.125 = 0.749894, 0.749894
    # sum 2.499788 -> 0.400034, 0.299983, 0.299983
    p = system.win_probabilities([RatingState(1600.0), RatingState(1500.0), RatingState(1500.0)])
    assert p == pytest.approx([0.400034, 0.299983, 0.299983], abs=1e-6)
    # huge ratings do not overflow
    p = system.win_probabilities([RatingState(1e7), RatingState(0.0)])
    assert p == [1.0, 0.0]
    assert system.strength(RatingState(1234.5)) == system.display(RatingState(1234.5)) == 1234.5
    assert system.is_provisional(0) is False


# --- elo-dynamic (Sedma) --------------------------------------------------------------------

SEDMA = EloDynamic()


@pytest.mark.parametrize(
    ("rating", "k"),
    [(0, 40), (1199, 40), (1200, 32), (1799, 32), (1800, 24), (2199, 24), (2200, 16), (9999, 16)],
)
def test_sedma_k_bands_at_the_edges(rating, k):
    assert k_for(rating, SEDMA.params()["k_bands"]) == k
    # equal opponents, E = 1/2, winner gains K/2, loser loses K/2
    after = play(SEDMA, {"a": rating, "b": rating}, ["a", "b"])
    assert after == {"a": rating + k // 2, "b": rating - k // 2}


def test_sedma_k_is_each_players_own():
    # a 1199 (K 40) beats b 1200 (K 32): 10^(1/400) = 1.005773, E_a = 1/2.005773 = 0.498561
    # a: 1199 + 40*(1 - 0.498561) = 1219.0576 -> 1219; b: 1200 + 32*(0 - 0.501439) = 1183.95 -> 1184
    assert play(SEDMA, {"a": 1199, "b": 1200}, ["a", "b"]) == {"a": 1219, "b": 1184}


def test_sedma_plain_win():
    # both 1500, K 32, E 1/2: 1500 + 32*(1 - 1/2) = 1516, 1500 + 32*(0 - 1/2) = 1484
    assert play(SEDMA, {}, ["a", "b"]) == {"a": 1516, "b": 1484}


def test_sedma_winner_bonus_is_clamped_to_one():
    # winner bonus 2*0.05 = 0.1: 1 + 0.1 clamps to 1 -> same as a plain win
    stats = {"a": {"won_by_16": 2}}
    assert play(SEDMA, {}, ["a", "b"], stats) == {"a": 1516, "b": 1484}


def test_sedma_loser_bonus_at_ten_percent_and_caps():
    # loser b: 3*0.05 + 2*0.1 + 3*0.03 = 0.15 + 0.2 + 0.09 = 0.44, at 10 %: 0.044
    # b: 1500 + 32*(0.044 - 0.5) = 1500 - 14.592 = 1485.408 -> 1485
    stats = {"b": {"won_by_16": 3, "won_by_24": 2, "won_with_4_and_last": 3}}
    assert play(SEDMA, {}, ["a", "b"], stats) == {"a": 1516, "b": 1485}
    # ten of each are capped to the same 0.44 (uncapped: 0.5+1.0+0.3 = 1.8 -> 0.18, 1490)
    stats = {"b": {"won_by_16": 10, "won_by_24": 10, "won_with_4_and_last": 10}}
    assert play(SEDMA, {}, ["a", "b"], stats) == {"a": 1516, "b": 1485}


def test_sedma_bonus_and_malus_values():
    assert sedma_bonus({}) == 0.0
    assert sedma_bonus({"won_by_16": 1}) == pytest.approx(0.05)
    assert sedma_bonus({"won_by_16": 9}) == pytest.approx(0.15)  # cap
    assert sedma_bonus({"won_by_24": 1}) == pytest.approx(0.1)
    assert sedma_bonus({"won_by_24": 5}) == pytest.approx(0.2)  # cap
    assert sedma_bonus({"won_with_4_and_last": 2}) == pytest.approx(0.06)
    assert sedma_bonus({"won_with_4_and_last": 4}) == pytest.approx(0.09)  # cap
    assert sedma_malus({"bad_moves": 3}) == pytest.approx(0.06)
    assert sedma_malus({"bad_moves": 15}) == pytest.approx(0.3)
    assert sedma_malus({"bad_moves": 100}) == pytest.approx(0.3)  # cap
    # bad values count as zero
    for bad in (-3, 2.5, "4", None, True):
        assert sedma_malus({"bad_moves": bad}) == 0.0
        assert sedma_bonus({"won_by_16": bad}) == 0.0


def test_sedma_malus_and_its_cap():
    # winner with 10 bad moves: 1 - 0.2 = 0.8: 1500 + 32*(0.8 - 0.5) = 1509.6 -> 1510
    assert play(SEDMA, {}, ["a", "b"], {"a": {"bad_moves": 10}})["a"] == 1510
    # 20 bad moves: 0.4 capped at 0.3 -> 0.7: 1500 + 32*0.2 = 1506.4 -> 1506
    assert play(SEDMA, {}, ["a", "b"], {"a": {"bad_moves": 20}})["a"] == 1506
    assert play(SEDMA, {}, ["a", "b"], {"a": {"bad_moves": 200}})["a"] == 1506
    # loser with a malus: 0 - 0.2 clamps to 0 -> 1484 as without
    assert play(SEDMA, {}, ["a", "b"], {"b": {"bad_moves": 10}})["b"] == 1484


def test_sedma_tie_keeps_full_bonus():
    # tied pair: base 1/2, multiplier 1 (not a loss): a with won_by_24 1: 0.5 + 0.1 = 0.6
    # a: 1500 + 32*(0.6 - 0.5) = 1503.2 -> 1503 (at 10 % it would be 1500.32 -> 1500)
    after = play(SEDMA, {}, [("a", 1), ("b", 1)], {"a": {"won_by_24": 1}})
    assert after == {"a": 1503, "b": 1500}


def test_sedma_pairwise_for_three():
    # all 1500 (K 32, E 1/2): 1st: 32*(1/2 + 1/2) = +32; 2nd: 32*(-1/2 + 1/2) = 0; 3rd: -32
    assert play(SEDMA, {}, ["a", "b", "c"]) == {"a": 1532, "b": 1500, "c": 1468}
    # b and c tied second: b: 32*(-1/2 + 0) = -16
    assert play(SEDMA, {}, [("a", 1), ("b", 2), ("c", 2)]) == {"a": 1532, "b": 1484, "c": 1484}


def test_sedma_rounds_half_to_even():
    # one band, K 1; 1501 vs 1501: winner 1501 + 1*(1 - 1/2) = 1501.5 -> 1502 (even),
    # loser 1501 - 0.5 = 1500.5 -> 1500 (even). Half away from zero would give 1502 / 1501.
    system = EloDynamic(k_bands=[[None, 1]])
    assert play(system, {"a": 1501, "b": 1501}, ["a", "b"]) == {"a": 1502, "b": 1500}
    # 1500 vs 1500: 1500.5 -> 1500, 1499.5 -> 1500
    assert play(system, {}, ["a", "b"]) == {"a": 1500, "b": 1500}


def test_sedma_custom_bands_and_d():
    system = EloDynamic(initial=1000, d=800, k_bands=[[1000, 50], [None, 10]])
    assert system.initial() == RatingState(1000.0)
    # 1000 is not below 1000: K 10; E 1/2 -> +5 / -5
    assert play(system, {}, ["a", "b"]) == {"a": 1005, "b": 995}
    # 999 (K 50) vs 999: +25 / -25
    assert play(system, {"a": 999, "b": 999}, ["a", "b"]) == {"a": 1024, "b": 974}


# C# `CalculateNewRatings` from the Sedma post, ported line by line. `float` arithmetic is
# emulated by storing every intermediate in a one-element array('f') (IEEE binary32).


def _cs_float(x: float) -> float:
    return array("f", [x])[0]


def _cs_get_k_factor(rating: int) -> int:
    if rating < 1200:
        return 40
    if rating < 1800:
        return 32
    if rating < 2200:
        return 24
    return 16


def _cs_round(x: float) -> int:  # Math.Round(double): to nearest, ties to even
    floor = math.floor(x)
    diff = x - floor
    if diff > 0.5 or (diff == 0.5 and floor % 2 == 1):
        return floor + 1
    return floor


def cs_calculate_new_ratings(
    rating_a, rating_b, player_a_won, bad_a, bad_b, w16a, w16b, w24a, w24b, w4a, w4b
):
    ka, kb = _cs_get_k_factor(rating_a), _cs_get_k_factor(rating_b)
    F = _cs_float
    bonus_per_16, bonus_per_24, bonus_per_4 = F(0.05), F(0.1), F(0.03)
    malus_per_bad = F(0.02)
    max16, max24, max4, max_malus = F(0.15), F(0.2), F(0.09), F(0.3)
    base_a = 1.0 if player_a_won else 0.0
    base_b = F(1.0 - base_a)
    mult_a = 1.0 if player_a_won else F(0.1)
    bonus_a = F(
        F(min(F(w16a * bonus_per_16), max16) + min(F(w24a * bonus_per_24), max24))
        + min(F(w4a * bonus_per_4), max4)
    )
    bonus_a = F(bonus_a * mult_a)
    mult_b = F(0.1) if player_a_won else 1.0
    bonus_b = F(
        F(min(F(w16b * bonus_per_16), max16) + min(F(w24b * bonus_per_24), max24))
        + min(F(w4b * bonus_per_4), max4)
    )
    bonus_b = F(bonus_b * mult_b)
    malus_a = min(F(bad_a * malus_per_bad), max_malus)
    malus_b = min(F(bad_b * malus_per_bad), max_malus)
    adj_a = min(max(F(F(base_a + bonus_a) - malus_a), 0.0), 1.0)
    adj_b = min(max(F(F(base_b + bonus_b) - malus_b), 0.0), 1.0)
    expected_a = 1.0 / (1.0 + math.pow(10, (rating_b - rating_a) / 400.0))
    expected_b = 1.0 / (1.0 + math.pow(10, (rating_a - rating_b) / 400.0))
    new_a = _cs_round(rating_a + ka * (adj_a - expected_a))
    new_b = _cs_round(rating_b + kb * (adj_b - expected_b))
    return new_a, new_b


def test_sedma_scores_are_single_precision():
    # C# sums the capped items and scales the loser's bonus in `float`; the clamp too
    F = _cs_float
    bonus = sedma_bonus({"won_by_16": 3, "won_by_24": 2, "won_with_4_and_last": 3})
    assert bonus == F(F(F(3 * F(0.05)) + F(2 * F(0.1))) + F(3 * F(0.03)))
    assert bonus == F(F(F(0.15) + F(0.2)) + F(0.09))  # 3 * 0.05f rounds to 0.15f, and so on
    for w16, w24, w4 in itertools.product(range(4), range(3), range(4)):
        b = sedma_bonus({"won_by_16": w16, "won_by_24": w24, "won_with_4_and_last": w4})
        assert F(b) == b
        assert sedma_adjusted_score(0.0, b, 0.0) == F(b * F(0.1))
        assert sedma_adjusted_score(0.5, b, F(0.02)) == F(F(0.5 + b) - F(0.02))
        assert sedma_adjusted_score(0.0, b, F(0.3)) == 0.0


def test_cs_oracle_by_hand():
    # the oracle itself, on the hand-worked cases above
    assert cs_calculate_new_ratings(1500, 1500, True, 0, 0, 0, 0, 0, 0, 0, 0) == (1516, 1484)
    assert cs_calculate_new_ratings(1199, 1200, True, 0, 0, 0, 0, 0, 0, 0, 0) == (1219, 1184)
    assert cs_calculate_new_ratings(1500, 1500, True, 0, 0, 0, 3, 0, 2, 0, 3) == (1516, 1485)
    assert cs_calculate_new_ratings(1500, 1500, True, 20, 0, 0, 0, 0, 0, 0, 0) == (1506, 1484)


counts = st.integers(min_value=0, max_value=20)


@settings(max_examples=500, deadline=None)
@given(
    rating_a=st.integers(min_value=0, max_value=3200),
    rating_b=st.integers(min_value=0, max_value=3200),
    a_won=st.booleans(),
    stats=st.tuples(*[counts] * 8),
)
def test_sedma_two_players_equal_the_cs_original(rating_a, rating_b, a_won, stats):
    bad_a, bad_b, w16a, w16b, w24a, w24b, w4a, w4b = stats
    expected = cs_calculate_new_ratings(
        rating_a, rating_b, a_won, bad_a, bad_b, w16a, w16b, w24a, w24b, w4a, w4b
    )
    finish = [
        Finish(
            "A",
            1 if a_won else 2,
            {"bad_moves": bad_a, "won_by_16": w16a, "won_by_24": w24a, "won_with_4_and_last": w4a},
        ),
        Finish(
            "B",
            2 if a_won else 1,
            {"bad_moves": bad_b, "won_by_16": w16b, "won_by_24": w24b, "won_with_4_and_last": w4b},
        ),
    ]
    before = {"A": RatingState(float(rating_a)), "B": RatingState(float(rating_b))}
    after = SEDMA.rate(before, finish)
    assert (after["A"].rating, after["B"].rating) == expected


# --- properties -----------------------------------------------------------------------------


@st.composite
def games(draw, min_players=2, max_players=7, integer=False):
    """(before, finish): distinct players, arbitrary places >= 1 (ties likely), any ratings."""
    n = draw(st.integers(min_value=min_players, max_value=max_players))
    players = draw(st.lists(st.integers(0, 10_000), min_size=n, max_size=n, unique=True))
    places = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    rating = st.integers(0, 3000) if integer else st.floats(-500, 3500, allow_nan=False)
    ratings = draw(st.lists(rating, min_size=n, max_size=n))
    stat = st.fixed_dictionaries({k: st.integers(0, 12) for k in ("won_by_16", "bad_moves")})
    stats = draw(st.lists(stat, min_size=n, max_size=n))
    finish = [Finish(p, q, s) for p, q, s in zip(players, places, stats, strict=True)]
    before = {p: RatingState(float(r)) for p, r in zip(players, ratings, strict=True)}
    return before, finish


ELO_SYSTEMS = [
    Elo(),
    Elo(scale_by_pod_size=True),
    Elo(tied_below_first="skip", k=24, d=400, initial=1000),
]


@settings(max_examples=300, deadline=None)
@given(game=games(), which=st.sampled_from(range(len(ELO_SYSTEMS))))
def test_elo_is_zero_sum(game, which):
    before, finish = game
    after = ELO_SYSTEMS[which].rate(before, finish)
    change = sum(after[f.player].rating - before[f.player].rating for f in finish)
    assert change == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(game=games(integer=True))
def test_guildmaster_float_deltas_are_zero_sum_and_rounded_after(game):
    before, finish = game
    deltas = GM.float_deltas(before, finish)
    assert sum(deltas.values()) == pytest.approx(0.0, abs=1e-9)
    after = GM.rate(before, finish)
    for f in finish:
        new = after[f.player].rating
        assert new == before[f.player].rating + round_half_away(deltas[f.player])
        assert new.is_integer()


ALL_PAIRWISE = [GM, *ELO_SYSTEMS, SEDMA, EloDynamic(k_bands=[[1000, 64], [None, 8]])]


@settings(max_examples=300, deadline=None)
@given(
    game=games(integer=True),
    which=st.sampled_from(range(len(ALL_PAIRWISE))),
    seed=st.integers(0, 2**32),
)
def test_order_inside_a_game_does_not_matter(game, which, seed):
    before, finish = game
    system = ALL_PAIRWISE[which]
    shuffled = list(finish)
    random.Random(seed).shuffle(shuffled)
    assert system.rate(before, shuffled) == system.rate(before, finish)


@settings(max_examples=100, deadline=None)
@given(game=games(integer=True), which=st.sampled_from(range(len(ALL_PAIRWISE))))
def test_rating_is_deterministic(game, which):
    before, finish = game
    system = ALL_PAIRWISE[which]
    twin = type(system)(system.params())
    assert system.rate(before, finish) == twin.rate(before, finish)
    assert system.rate(before, finish) == system.rate(dict(before), list(finish))


@settings(max_examples=200, deadline=None)
@given(game=games(integer=True))
def test_integer_systems_give_integers(game):
    before, finish = game
    for system in (GM, SEDMA):
        assert all(s.rating.is_integer() for s in system.rate(before, finish).values())


@settings(max_examples=200, deadline=None)
@given(ratings=st.lists(st.floats(-5000, 5000), min_size=1, max_size=8))
def test_win_probabilities_sum_to_one_and_follow_rating(ratings):
    states = [RatingState(r) for r in ratings]
    for system in (GM, Elo(d=400), SEDMA):
        p = system.win_probabilities(states)
        assert sum(p) == pytest.approx(1.0)
        best = max(range(len(ratings)), key=lambda i: ratings[i])
        assert p[best] == max(p)
