"""`openskill`: Weng-Lin Plackett-Luce through the `openskill` package.

Hand calculations follow Weng & Lin (2011), Algorithm 4, with the defaults
mu 25, sigma 25/3, beta 25/6, tau 25/300 (1/12).
"""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.domain.base import Finish, ParamError, RatingState
from ratings.domain.openskill_system import OpenSkill

OS = OpenSkill()


def test_new_player():
    assert OS.initial() == RatingState(rating=25.0, deviation=25 / 3)
    # conservative estimate mu - 3 sigma = 25 - 25 = 0
    assert OS.display(OS.initial()) == pytest.approx(0.0)
    assert OS.strength(OS.initial()) == 25.0


def test_one_on_one_by_hand():
    # tau first: sigma'^2 = (25/3)^2 + (1/12)^2 = 10000/144 + 1/144 = 69.451389, sigma' = 8.333750
    # c^2 = 2 * (sigma'^2 + beta^2) = 2 * (69.451389 + 17.361111) = 173.625, c = 13.176684
    # equal mu: p = e^(mu/c) / (e^(mu/c) + e^(mu/c)) = 1/2
    # winner: Omega = sigma'^2/c * (1 - 1/2) = 69.451389 / 13.176684 / 2 = 2.635389
    # loser:  Omega = sigma'^2/c * (-1/2 + 0) = -2.635389
    # Delta (both) = gamma * sigma'^2/c^2 * 1/2 * 1/2, gamma = sigma'/c = 0.632462:
    #   = 0.632462 * 0.400008 * 0.25 = 0.063247; sigma = 8.333750 * sqrt(1 - 0.063247) = 8.065901
    after = OS.rate({}, [Finish("w", 1), Finish("l", 2)])
    assert after["w"].rating == pytest.approx(27.635389, abs=1e-5)
    assert after["l"].rating == pytest.approx(22.364611, abs=1e-5)
    assert after["w"].deviation == pytest.approx(8.065901, abs=1e-5)
    assert after["l"].deviation == pytest.approx(8.065901, abs=1e-5)
    # leaderboard: 27.635389 - 3 * 8.065901 = 3.437686
    assert OS.display(after["w"]) == pytest.approx(3.437686, abs=1e-5)


def test_tie_between_equals_moves_no_mu():
    # both rank 1, A_q = 2: Omega = sigma'^2/c * ((1 - 1/2)/2 - (1/2)/2) = 0
    after = OS.rate({}, [Finish("a", 1), Finish("b", 1)])
    assert after["a"].rating == pytest.approx(25.0)
    assert after["b"].rating == pytest.approx(25.0)
    assert after["a"].deviation < 25 / 3


def test_pod_of_four_orders_mu():
    after = OS.rate({}, [Finish(p, i + 1) for i, p in enumerate("abcd")])
    mus = [after[p].rating for p in "abcd"]
    assert mus == sorted(mus, reverse=True)
    assert mus[0] > 25 > mus[3]


def test_unknown_players_start_new_and_single_player_games_change_nothing():
    assert OS.rate({}, [Finish("a", 1)]) == {"a": OS.initial()}
    known = {"a": RatingState(30.0, 2.0)}
    assert OS.rate(known, [Finish("a", 1)]) == known


def test_provisional():
    assert OS.is_provisional(0) and OS.is_provisional(4)
    assert not OS.is_provisional(5)
    assert OpenSkill(provisional_games=0).is_provisional(0) is False
    assert OpenSkill(provisional_games=10).is_provisional(9) is True


def test_win_probabilities():
    # equal players: 1/2 each (predict_win: Phi(0) = 1/2)
    assert OS.win_probabilities([OS.initial(), OS.initial()]) == pytest.approx([0.5, 0.5])
    # 2 players: Phi((mu_a - mu_b) / sqrt(2 beta^2 + sigma_a^2 + sigma_b^2))
    # = Phi(5 / sqrt(2 * 17.361111 + 1 + 1)) = Phi(5 / 6.059886) = Phi(0.825098)
    # = (1 + erf(0.825098 / sqrt 2)) / 2 = (1 + erf(0.583431)) / 2 = (1 + 0.590684) / 2 = 0.795342
    p = OS.win_probabilities([RatingState(30.0, 1.0), RatingState(25.0, 1.0)])
    assert p == pytest.approx([0.795342, 0.204658], abs=1e-5)
    assert OS.win_probabilities([OS.initial()]) == [1.0]
    three = OS.win_probabilities(
        [RatingState(30.0, 2.0), RatingState(25, 2.0), RatingState(20, 2.0)]
    )
    assert sum(three) == pytest.approx(1.0)
    assert three[0] > three[1] > three[2]


def test_parameters_are_used():
    system = OpenSkill(mu=1500, sigma=500, beta=250, tau=0, provisional_games=3)
    assert system.initial() == RatingState(1500.0, 500.0)
    assert system.display(system.initial()) == pytest.approx(0.0)
    after = system.rate({}, [Finish("a", 1), Finish("b", 2)])
    # same shape as the hand case scaled by 60 (tau 0): mu_w = 1500 + 60 * 2.635231 = 1658.114
    # (without tau: sigma^2/c = 250000 / sqrt(2 * (250000 + 62500)) / 2 = 158.1139)
    assert after["a"].rating == pytest.approx(1658.1139, abs=1e-3)


def test_bad_parameters():
    with pytest.raises(ParamError) as err:
        OpenSkill(sigma=0)
    assert err.value.field == "sigma"
    with pytest.raises(ParamError) as err:
        OpenSkill(provisional_games=-1)
    assert err.value.field == "provisional_games"
    with pytest.raises(ParamError) as err:
        OpenSkill(mu=math.inf)
    assert err.value.field == "mu"
    # exp(mu / c) must stay inside a double: |mu| <= 300 beta (default beta 25/6: 1250)
    assert OpenSkill(mu=1250).initial().rating == 1250
    with pytest.raises(ParamError, match="300 times beta") as err:
        OpenSkill(mu=1251)
    assert err.value.field == "mu"
    with pytest.raises(ParamError) as err:
        OpenSkill(mu=-1251)


def test_player_twice_in_a_game_is_rejected():
    with pytest.raises(ValueError, match="twice"):
        OS.rate({}, [Finish("a", 1), Finish("a", 2)])


@st.composite
def games(draw):
    n = draw(st.integers(2, 6))
    players = draw(st.lists(st.text(min_size=1, max_size=3), min_size=n, max_size=n, unique=True))
    places = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    mus = draw(st.lists(st.floats(0, 50), min_size=n, max_size=n))
    sigmas = draw(st.lists(st.floats(0.5, 9), min_size=n, max_size=n))
    before = {p: RatingState(m, s) for p, m, s in zip(players, mus, sigmas, strict=True)}
    return before, [Finish(p, q) for p, q in zip(players, places, strict=True)]


@settings(max_examples=200, deadline=None)
@given(game=games(), seed=st.integers(0, 2**32))
def test_order_inside_a_game_does_not_matter(game, seed):
    before, finish = game
    shuffled = list(finish)
    random.Random(seed).shuffle(shuffled)
    assert OS.rate(before, shuffled) == OS.rate(before, finish)


@settings(max_examples=100, deadline=None)
@given(game=games())
def test_deterministic(game):
    before, finish = game
    assert OS.rate(before, finish) == OpenSkill(OS.params()).rate(before, finish)
