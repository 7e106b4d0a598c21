"""Win, draw or loss (issue 31): a win is an unshared first place, a draw a shared one."""

import pytest

from leagues.domain.outcome import Outcome, outcome, outcomes, win_percent

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ([1, 2], [W, L]),  # a 1v1 win (2-0, 2-1, 2-0-1)
        ([1, 1], [D, D]),  # a 1-1, or an intentional draw
        ([1, 2, 2, 2], [W, L, L, L]),  # a pod won: the others share second
        ([1, 1, 3, 3], [D, D, L, L]),  # a 4-player pod drawn between two players
        ([1, 1, 1, 1], [D, D, D, D]),  # a pod drawn by everyone
        ([1, 1, 1, 4, 5], [D, D, D, L, L]),
        ([1, 2, 3, 4, 5], [W, L, L, L, L]),
        ([2, 1], [L, W]),  # any order
    ],
)
def test_outcomes_of_a_game(places, expected):
    assert outcomes(places) == expected


def test_one_place_and_the_players_who_share_first():
    assert outcome(1, 1) is W
    assert outcome(1, 2) is D
    assert outcome(1, 5) is D
    assert outcome(2, 1) is L
    assert outcome(3, 2) is L


def test_win_percent_is_wins_over_games_and_a_draw_is_no_win():
    # Issue 31's 1v1 player: W, ID, 1-1 is 1 win of 3 games, 33 %, not 3 of 3.
    assert round(win_percent(1, 3)) == 33
    assert win_percent(0, 2) == 0.0
    assert win_percent(0, 0) == 0.0
    assert win_percent(4, 4) == 100.0


def test_outcomes_of_a_game_is_outcome_of_each_player_for_every_finishing_order():
    from itertools import product

    from leagues.domain.ranking import is_valid_ranking

    for size in range(1, 6):
        for places in product(range(1, size + 1), repeat=size):
            if is_valid_ranking(places):
                firsts = places.count(1)
                assert outcomes(places) == [outcome(p, firsts) for p in places], places
