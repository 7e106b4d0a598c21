"""How a reported result reads (domain.reports.result_summary): a match from the winner's
side whichever seat they had (issue 31 #7: "Ezra Cole won 1-2"), a draw in seat order, a
pod's full order."""

import pytest

from tournaments.domain.reports import result_summary
from tournaments.domain.result import Result

NAMES = {1: "Ann", 2: "Ezra Cole"}  # seat order: Ann sits first


def match(winner, wins, draws=0):
    return Result(
        winner=winner,
        draw=winner is None,
        game_wins={int(e): w for e, w in wins.items()},
        game_draws=draws,
    )


@pytest.mark.parametrize(
    "result, said",
    [
        (match(2, {"1": 1, "2": 2}), "Ezra Cole won 2\u20131"),
        (match(1, {"1": 2, "2": 1}), "Ann won 2\u20131"),
        (match(2, {"1": 0, "2": 2}), "Ezra Cole won 2\u20130"),
        (match(2, {"1": 0, "2": 1}, draws=1), "Ezra Cole won 1\u20130\u20131"),
        (match(2, {}), "Ezra Cole won"),
        (match(None, {"1": 1, "2": 1}, draws=1), "a draw 1\u20131\u20131"),
        (match(None, {"1": 0, "2": 0}, draws=3), "a draw 0\u20130\u20133"),
    ],
)
def test_a_match_is_said_from_the_winners_side(result, said):
    assert result_summary(result, NAMES) == said


def test_a_pods_full_order_reads_by_place():
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}
    result = Result(places={1: 2, 2: 4, 3: 1, 4: 2})
    assert result_summary(result, names) == "1st Cy, 2nd Ann, 2nd Dee, 4th Bob"


@pytest.mark.parametrize(
    "result, said",
    [
        (Result(winner=2), "Bob won"),
        (Result(draw=True), "a draw"),
        # An order that says no more than a winner, or a draw, is said as one.
        (Result(places={1: 2, 2: 1, 3: 2, 4: 2}), "Bob won"),
        (Result(places={1: 1, 2: 1, 3: 1, 4: 1}), "a draw"),
        (Result(places={1: 1, 2: 1, 3: 3, 4: 4}), "1st Ann, 1st Bob, 3rd Cy, 4th Dee"),
    ],
)
def test_a_pods_winner_draw_and_shared_places_read_as_said(result, said):
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}
    assert result_summary(result, names) == said
