"""Final placings, worked by hand: a 1v1 top 4 of 8, a 17-player pod night's final pod (full
order, winner only, drawn), a top 8 with a drop, a pod top 16, no cut, and the errors."""

import pytest

from tournaments.domain.placings import Placing, PlacingError, final_placings

EN = "\u2013"  # bands are written with an en dash, as "3rd\u20134th"


def ranked(*players, ties=()):
    """(player, Swiss rank) in the order given, 1, 2, 3...; `ties`: groups that share a rank."""
    rows = []
    for i, player in enumerate(players, 1):
        group = next((g for g in ties if player in g), None)
        rows.append((player, min(players.index(p) + 1 for p in group) if group else i))
    return rows


def labels(placings):
    return [(p.player, p.label) for p in placings]


def test_placing_labels():
    assert Placing(7, 1, 1).label == "1st"
    assert Placing(7, 3, 4).label == f"3rd{EN}4th"
    assert Placing(7, 11, 11).label == "11th"
    assert Placing(7, 21, 22).label == f"21st{EN}22nd"
    assert Placing(7, 3, 4).shared and not Placing(7, 3, 3).shared


def test_eight_players_1v1_top_4():
    # Swiss after 3 rounds: 1..8, players 7 and 8 tied on every tiebreaker (rank 7 both).
    swiss = ranked(1, 2, 3, 4, 5, 6, 7, 8, ties=[(7, 8)])
    assert swiss[-2:] == [(7, 7), (8, 7)]
    semis = [{1: 2, 4: 1}, {2: 1, 3: 2}]  # 4 beats seed 1, 2 beats 3
    final = [{2: 2, 4: 1}]  # 4 beats 2
    assert labels(final_placings(swiss, [semis, final])) == [
        (4, "1st"),
        (2, "2nd"),
        (1, f"3rd{EN}4th"),  # the semi-final losers share 3rd-4th, by Swiss standing
        (3, f"3rd{EN}4th"),
        (5, "5th"),
        (6, "6th"),
        (7, f"7th{EN}8th"),  # tied in the Swiss: they share the places they fill
        (8, f"7th{EN}8th"),
    ]


SEVENTEEN = ranked(*range(1, 18))


def test_seventeen_player_pods_top_4_full_order():
    # One final pod of the top four; seed 3 wins, then 1, 4, 2.
    final = [{1: 2, 2: 4, 3: 1, 4: 3}]
    placings = final_placings(SEVENTEEN, [final])
    assert labels(placings)[:6] == [(3, "1st"), (1, "2nd"), (4, "3rd"), (2, "4th"), (5, "5th"),
                                    (6, "6th")]  # fmt: skip
    assert labels(placings)[-1] == (17, "17th")
    assert len(placings) == 17


def test_seventeen_player_pods_top_4_winner_only():
    # Only the winner entered: the other three share 2nd at the pod, so 2nd-4th.
    final = [{1: 2, 2: 2, 3: 1, 4: 2}]
    assert labels(final_placings(SEVENTEEN, [final]))[:5] == [
        (3, "1st"),
        (1, f"2nd{EN}4th"),
        (2, f"2nd{EN}4th"),
        (4, f"2nd{EN}4th"),
        (5, "5th"),
    ]


def test_seventeen_player_pods_top_4_shared_places():
    # 1, 2, 2, 4 at the final pod: the two seconds share 2nd-3rd.
    final = [{1: 4, 2: 2, 3: 1, 4: 2}]
    assert labels(final_placings(SEVENTEEN, [final]))[:4] == [
        (3, "1st"),
        (2, f"2nd{EN}3rd"),
        (4, f"2nd{EN}3rd"),
        (1, "4th"),
    ]


def test_drawn_final_pod_is_shared_first():
    final = [{1: 1, 2: 1, 3: 1, 4: 1}]
    assert labels(final_placings(SEVENTEEN, [final]))[:5] == [
        (1, f"1st{EN}4th"),
        (2, f"1st{EN}4th"),
        (3, f"1st{EN}4th"),
        (4, f"1st{EN}4th"),
        (5, "5th"),
    ]


def test_top_8_with_a_drop():
    # 12 players; player 3 finished the Swiss 3rd but dropped, so seeds 1-8 of the cut are
    # players 1, 2, 4, 5, 6, 7, 8, 9 (bracket 1v9, 5v6, 2v8, 4v7).
    swiss = ranked(*range(1, 13))
    quarters = [{1: 1, 9: 2}, {5: 2, 6: 1}, {2: 1, 8: 2}, {4: 2, 7: 1}]
    semis = [{1: 2, 6: 1}, {2: 1, 7: 2}]
    final = [{6: 2, 2: 1}]
    assert labels(final_placings(swiss, [quarters, semis, final])) == [
        (2, "1st"),
        (6, "2nd"),
        (1, f"3rd{EN}4th"),
        (7, f"3rd{EN}4th"),
        (4, f"5th{EN}8th"),
        (5, f"5th{EN}8th"),
        (8, f"5th{EN}8th"),
        (9, f"5th{EN}8th"),
        (3, "9th"),  # the dropped player keeps their Swiss place among the rest
        (10, "10th"),
        (11, "11th"),
        (12, "12th"),
    ]


def test_pod_top_16():
    swiss = ranked(*range(1, 21))
    semis = [
        {1: 1, 8: 2, 9: 2, 16: 2},
        {2: 2, 7: 2, 10: 1, 15: 2},
        {3: 1, 6: 1, 11: 3, 14: 4},  # a drawn semi: seed 3 goes on
        {4: 2, 5: 1, 12: 2, 13: 2},
    ]
    final = [{1: 2, 3: 2, 5: 2, 10: 1}]
    placings = final_placings(swiss, [semis, final])
    assert labels(placings)[:4] == [
        (10, "1st"),
        (1, f"2nd{EN}4th"),
        (3, f"2nd{EN}4th"),
        (5, f"2nd{EN}4th"),
    ]
    fifth_to_16th = [p for p, label in labels(placings) if label == f"5th{EN}16th"]
    assert fifth_to_16th == [2, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16]
    assert labels(placings)[16:] == [(17, "17th"), (18, "18th"), (19, "19th"), (20, "20th")]


def test_no_top_cut_is_the_swiss_standings():
    swiss = [(11, 1), (12, 2), (13, 2), (14, 4), (15, 5)]
    assert labels(final_placings(swiss)) == [
        (11, "1st"),
        (12, f"2nd{EN}3rd"),
        (13, f"2nd{EN}3rd"),
        (14, "4th"),
        (15, "5th"),
    ]
    assert [(p.first, p.last) for p in final_placings(swiss)] == [(1, 1), (2, 3), (2, 3), (4, 4),
                                                                  (5, 5)]  # fmt: skip


def test_a_swiss_tie_across_the_cut_line_is_not_shared_with_the_cut():
    # 5 and 6 tie at Swiss rank 4 and the top 4 took 5 (by player id): 6 alone is 5th.
    swiss = [(1, 1), (2, 2), (3, 3), (5, 4), (6, 4), (7, 6)]
    final = [{1: 1, 2: 2, 3: 2, 5: 2}]
    assert labels(final_placings(swiss, [final]))[4:] == [(6, "5th"), (7, "6th")]


@pytest.mark.parametrize(
    ("cut", "code"),
    [
        ([[{1: 1, 2: 2}, {3: 1, 4: 2}]], "no_final"),
        ([[{1: 1, 2: 2}, {3: 1, 4: 2}], [{1: 1, 5: 2}]], "not_advanced"),
        ([[{1: 1, 99: 2}]], "not_in_standings"),
        ([[{1: 1, 2: 3}]], "bad_places"),
        ([[{1: 1, 2: 2}, {1: 1, 3: 2}], [{1: 1}]], "duplicate_player"),
    ],
)
def test_errors(cut, code):
    with pytest.raises(PlacingError) as error:
        final_placings(ranked(1, 2, 3, 4, 5), cut)
    assert error.value.code == code


def test_duplicate_in_standings():
    with pytest.raises(PlacingError) as error:
        final_placings([(1, 1), (1, 2)])
    assert error.value.code == "duplicate_player"
