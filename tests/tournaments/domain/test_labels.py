"""How results read on the pages (tournaments.domain.labels), worked by hand."""

import pytest

from tournaments.domain.labels import full_order, place_label, result_label, round_label


@pytest.mark.parametrize(
    ("place", "label"),
    [(None, ""), (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
     (13, "13th"), (21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th")],
)  # fmt: skip
def test_place_label(place, label):
    assert place_label(place) == label


@pytest.mark.parametrize(
    ("reported", "is_draw", "wins", "draws", "label"),
    [
        (False, False, [None, None], 0, ""),  # not reported yet
        (True, False, [2, 1], 0, "2\u20131"),
        (True, False, [2, 0], 1, "2\u20130\u20131"),  # MTR Appendix C's 2-0-1
        (True, True, [0, 0], 3, "0\u20130\u20133"),  # an intentional draw (MTR 2.4)
        (True, True, [None, None], 0, "draw"),  # a drawn match without games
        (True, False, [None, None], 0, ""),  # a won match without games: the winner shows it
        (True, False, [1], 0, ""),  # a bye
        (True, False, [None, None, None, None], 0, ""),  # a pod: its places say it
    ],
)
def test_result_label(reported, is_draw, wins, draws, label):
    assert (
        result_label(reported=reported, is_draw=is_draw, game_wins=wins, game_draws=draws) == label
    )


@pytest.mark.parametrize(
    ("places", "full"),
    [
        ([1, 2, 3, 4], True),
        ([1, 2, 2, 4], True),
        ([1, 2, 2, 2], False),  # the winner, the rest second: the result alone
        ([1, 1, 1, 1], False),  # a draw
        ([1, 2, None, 4], False),  # not every place known
        ([1, 2], False),  # a match
    ],
)
def test_full_order(places, full):
    assert full_order(places) is full


@pytest.mark.parametrize(
    ("number", "stage", "alone", "in_sentence"),
    [
        (3, "", "Round 3", "round 3"),
        (4, "Final", "Final", "the final"),
        (5, "Semifinals", "Semifinals", "the semifinals"),
        (2, "Top 16", "Top 16", "the top 16"),
    ],
)
def test_a_round_is_called_by_its_number_or_its_cut_stage(number, stage, alone, in_sentence):
    """Issue 43: a 3-round event's final is its round 4, and nobody calls it that."""
    assert round_label(number, stage) == alone
    assert round_label(number, stage, in_sentence=True) == in_sentence
