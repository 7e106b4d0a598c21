"""One result value (domain.result.Result): each format reads a posted form into it once
(`Format.read_result`, the console's card and the player's report alike) and checks it against
the table (`Format.check_result`). Expectations are written by hand from the buttons' codes
(MTR Appendix C writes a match as first seat's wins - second seat's - drawn games; MTR 2.4: an
intentional draw is 0-0-3) and from the pod rules (a shared first place is a draw)."""

from types import SimpleNamespace

import pytest

from tournaments.domain.result import Result
from tournaments.errors import TournamentError
from tournaments.formats import OneVOne, Pods

MATCH = [(11, "Ann"), (12, "Bob")]  # seat order: Ann first
POD = [(21, "Ann"), (22, "Bob"), (23, "Cy"), (24, "Dee")]


def order(*places):
    return {
        "result": "order",
        **{f"place-{e}": str(p) for (e, _), p in zip(POD, places, strict=True)},
    }


@pytest.mark.parametrize(
    "posted, expected",
    [
        ({"result": "2-0"}, Result(winner=11, game_wins={11: 2, 12: 0})),
        ({"result": "1-2"}, Result(winner=12, game_wins={11: 1, 12: 2})),
        ({"result": "2-1-1"}, Result(winner=11, game_wins={11: 2, 12: 1}, game_draws=1)),
        ({"result": "0-1"}, Result(winner=12, game_wins={11: 0, 12: 1})),
        ({"result": "1-1"}, Result(draw=True, game_wins={11: 1, 12: 1})),
        ({"result": "1-1-1"}, Result(draw=True, game_wins={11: 1, 12: 1}, game_draws=1)),
        ({"result": "0-0-1"}, Result(draw=True, game_wins={11: 0, 12: 0}, game_draws=1)),
        ({"result": "id"}, Result(draw=True, game_wins={11: 0, 12: 0}, game_draws=3)),
        ({"result": "draw"}, Result(draw=True)),  # a drawn match whose games were not counted
    ],
)
def test_a_match_button_reads_as_its_winner_and_games(posted, expected):
    assert OneVOne().read_result(posted, MATCH) == expected


@pytest.mark.parametrize(
    "posted, expected",
    [
        ({"winner": "22"}, Result(winner=22)),
        ({"result": "draw"}, Result(draw=True)),
        (order(2, 1, 3, 4), Result(places={21: 2, 22: 1, 23: 3, 24: 4})),
        (order(1, 2, 2, 4), Result(places={21: 1, 22: 2, 23: 2, 24: 4})),  # shared second
        (order(1, 1, 3, 4), Result(places={21: 1, 22: 1, 23: 3, 24: 4})),  # shared first
        (order(1, 1, 1, 1), Result(places={21: 1, 22: 1, 23: 1, 24: 1})),
    ],
)
def test_a_pod_tap_reads_as_a_winner_a_draw_or_its_places(posted, expected):
    assert Pods().read_result(posted, POD) == expected


BAD_MATCH = [
    ({"result": "3-0"}, "result"),  # past the two game wins a match is played to (MTR 2.1)
    ({"result": "2-0-4"}, "result"),  # past three drawn games
    ({"result": "0-0"}, "result"),  # no game at all
    ({"result": "\u00b2-0"}, "result"),  # a superscript two is a digit to str.isdigit
    ({"result": ""}, "result"),
    ({}, "result"),
    ({"winner": "11"}, "result"),  # a pod's tap on a match
]


@pytest.mark.parametrize("posted, field", BAD_MATCH)
def test_a_bad_match_form_says_which_field_and_why(posted, field):
    with pytest.raises(TournamentError, match="Choose one of the result buttons") as refused:
        OneVOne().read_result(posted, MATCH)
    assert (refused.value.field, refused.value.code) == (field, "bad_result")


def test_a_bye_has_no_result_to_read():
    with pytest.raises(TournamentError, match="A bye has no result") as refused:
        OneVOne().read_result({"result": "2-0"}, MATCH[:1])
    assert refused.value.field == "result"


BAD_POD = [
    ({"winner": "99"}, "winner", "Tap the name of a player at this pod."),  # not seated here
    ({"winner": "twenty"}, "winner", "Tap the name of a player at this pod."),
    ({"winner": ""}, "winner", "Tap the name of a player at this pod."),
    ({**order(1, 2, 3, 4), "place-23": ""}, "places", "Choose a place for Cy (1 to 4)."),
    (order(1, 2, 3, 5), "places", "Choose a place for Dee (1 to 4)."),
    (order(0, 1, 2, 3), "places", "Choose a place for Ann (1 to 4)."),
    ({"result": "2-0"}, "result", "Tap the winner's name, Draw, or save the full order."),
    ({}, "result", "Tap the winner's name, Draw, or save the full order."),
]


@pytest.mark.parametrize("posted, field, message", BAD_POD)
def test_a_bad_pod_form_says_which_field_and_why(posted, field, message):
    before = dict(posted)
    with pytest.raises(TournamentError) as refused:
        Pods().read_result(posted, POD)
    assert (refused.value.field, refused.value.message) == (field, message)
    assert posted == before  # reading changes nothing


def seats(players):
    """check_result's entries: entry id -> a seat with its entry's player."""
    return {
        e: SimpleNamespace(entry=SimpleNamespace(player=name), entry_id=e) for e, name in players
    }


@pytest.mark.parametrize(
    "result, winner, finish",
    [
        (Result(winner=22), 22, {21: 2, 22: 1, 23: 2, 24: 2}),
        (Result(draw=True), None, {21: 1, 22: 1, 23: 1, 24: 1}),
        (Result(places={21: 1, 22: 2, 23: 2, 24: 4}), 21, {21: 1, 22: 2, 23: 2, 24: 4}),
        # A shared first place is a draw among them; the others keep their places.
        (Result(places={21: 1, 22: 1, 23: 3, 24: 4}), None, {21: 1, 22: 1, 23: 3, 24: 4}),
        (
            Result(draw=True, places={21: 1, 22: 1, 23: 3, 24: 3}),
            None,
            {21: 1, 22: 1, 23: 3, 24: 3},
        ),
        (Result(winner=24, places={21: 2, 22: 3, 23: 4, 24: 1}), 24, {21: 2, 22: 3, 23: 4, 24: 1}),
    ],
)
def test_a_pods_result_gives_its_winner_and_every_place(result, winner, finish):
    assert Pods().check_result(seats(POD), result, top_cut=False) == (winner, finish)


@pytest.mark.parametrize(
    "result, field",
    [
        (Result(places={21: 1, 22: 3, 23: 3, 24: 4}), "places"),  # 1, 3, 3 skips second
        (Result(places={21: 1, 22: 2, 23: 3}), "places"),  # Dee has no place
        (Result(draw=True, places={21: 1, 22: 2, 23: 3, 24: 4}), "places"),  # a single first
        (Result(winner=22, places={21: 1, 22: 2, 23: 3, 24: 4}), "winner"),
        (Result(), "winner"),  # nothing said
        (Result(winner=21, game_wins={21: 2, 22: 0, 23: 0, 24: 0}), "game_wins"),
    ],
)
def test_a_pods_result_that_cannot_be_is_refused(result, field):
    with pytest.raises(TournamentError) as refused:
        Pods().check_result(seats(POD), result, top_cut=False)
    assert refused.value.field == field


@pytest.mark.parametrize(
    "result, winner, finish",
    [
        (Result(winner=12, game_wins={11: 1, 12: 2}), 12, {11: 2, 12: 1}),
        (Result(winner=11), 11, {11: 1, 12: 2}),
        (Result(draw=True), None, {11: 1, 12: 1}),
        (Result(draw=True, game_wins={11: 0, 12: 0}, game_draws=3), None, {11: 1, 12: 1}),
    ],
)
def test_a_matchs_result_gives_its_winner_and_places(result, winner, finish):
    assert OneVOne().check_result(seats(MATCH), result, top_cut=False) == (winner, finish)


@pytest.mark.parametrize(
    "result, top_cut, field",
    [
        (Result(draw=True), True, "winner"),  # a top-cut match needs a winner
        (Result(winner=11, game_wins={11: 1, 12: 2}), False, "game_wins"),  # won fewer games
        (Result(draw=True, game_wins={11: 2, 12: 1}), False, "game_wins"),
        (Result(winner=11, game_wins={11: 2}), False, "game_wins"),  # Bob's games missing
        (Result(winner=11, game_draws=1), False, "game_draws"),  # drawn games without wins
        (Result(winner=11, game_wins={11: 2, 12: 0}, game_draws=4), False, "game_draws"),
        (Result(winner=11, places={11: 1, 12: 2}), False, "places"),
        (Result(winner=11, draw=True), False, "winner"),
    ],
)
def test_a_matchs_result_that_cannot_be_is_refused(result, top_cut, field):
    with pytest.raises(TournamentError) as refused:
        OneVOne().check_result(seats(MATCH), result, top_cut=top_cut)
    assert refused.value.field == field


@pytest.mark.parametrize(
    "result, stored",
    [
        (
            Result(winner=12, game_wins={11: 1, 12: 2}, game_draws=1),
            {
                "winner": 12,
                "draw": False,
                "places": {},
                "game_wins": {"11": 1, "12": 2},
                "game_draws": 1,
            },
        ),
        (
            Result(places={24: 4, 21: 1, 22: 2, 23: 2}),
            {
                "winner": None,
                "draw": False,
                "places": {"21": 1, "22": 2, "23": 2, "24": 4},
                "game_wins": {},
                "game_draws": 0,
            },
        ),
        (
            Result(draw=True),
            {"winner": None, "draw": True, "places": {}, "game_wins": {}, "game_draws": 0},
        ),
    ],
)
def test_the_value_is_kept_as_json_and_read_back_the_same(result, stored):
    assert result.as_json() == stored
    assert Result.from_json(stored) == result


def test_the_value_is_frozen_and_equal_whatever_the_order_it_was_given_in():
    one = Result(places={22: 2, 21: 1})
    assert one == Result(places=[(21, 1), (22, 2)])
    assert one.places == ((21, 1), (22, 2)) and one.place_of == {21: 1, 22: 2}
    with pytest.raises(AttributeError):
        one.winner = 21  # type: ignore[misc]
