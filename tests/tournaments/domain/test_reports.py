"""How a reported result reads (domain.reports.result_summary): a match from the winner's
side whichever seat they had (issue 31 #7: "Ezra Cole won 1-2"), a draw in seat order, a
pod's full order."""

import pytest

from tournaments.domain.reports import result_summary

NAMES = {1: "Ann", 2: "Ezra Cole"}  # seat order: Ann sits first


def match(winner, wins, draws=0):
    places = {"1": 1, "2": 1} if winner is None else {str(winner): 1, str(3 - winner): 2}
    return {"winner": winner, "places": places, "wins": wins, "draws": draws}


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
    assert result_summary(result, NAMES, pods=False) == said


def test_a_pods_full_order_reads_by_place():
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}
    result = {"winner": 3, "places": {"1": 2, "2": 4, "3": 1, "4": 2}, "wins": {}, "draws": 0}
    assert result_summary(result, names, pods=True) == "1st Cy, 2nd Ann, 2nd Dee, 4th Bob"
