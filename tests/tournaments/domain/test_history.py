"""The one reading of an event's history (domain.history) both pairers use."""

from collections import Counter

from tournaments.domain.history import read_history
from tournaments.domain.records import Table


def test_matches_pods_and_byes_read_once():
    history = [
        (Table((1, 2), 1), Table((3, 4), None), Table((5,), 5)),  # two matches and a bye
        (Table((1, 3, 5), 3), Table((2, 4), 4)),  # a pod of three and a match
        (Table((5, 4, 3, 2), 2), Table((1,), 1)),  # a pod of four and a bye
    ]
    past = read_history(history)
    assert past.met[1] == {2: 1, 3: 1, 5: 1}
    assert past.times_met(2, 4) == 2 and past.times_met(4, 2) == 2
    assert past.times_met(1, 4) == 0
    assert past.byes == Counter({5: 1, 1: 1})
    # Who went first at 1v1 tables, and how many they played.
    assert past.first_seats == Counter({1: 1, 3: 1, 2: 1})
    assert past.seats == Counter({1: 1, 2: 2, 3: 1, 4: 2})
    # Seats at every table of two or more; tables of other than four are "odd".
    assert past.odd == Counter({1: 2, 2: 2, 3: 2, 4: 2, 5: 1})
    assert past.seat_sum[5] == 3 + 1  # third at the pod of three, first at the pod of four
    assert past.seat_expected[5] == 2 + 2.5
    assert past.seat_count[2] == Counter({2: 1, 1: 1, 4: 1})


def test_nothing_played_reads_empty():
    past = read_history([])
    assert past.met == {} and not past.byes and past.times_met(1, 2) == 0


def test_sittings_are_each_players_tables_in_order_with_opponents():
    history = [
        (Table((1, 2), 1), Table((3,), 3)),  # a match and a bye
        (Table((3, 1, 2), None),),  # a drawn pod of three
    ]
    past = read_history(history)
    first, second = past.sittings[1]
    assert (first.round, first.seat, first.opponents, first.is_bye) == (0, 0, (2,), False)
    assert (second.round, second.seat, second.opponents) == (1, 1, (3, 2))
    assert second.table is history[1][0]  # the table as played, result and all
    (bye, pod) = past.sittings[3]
    assert bye.is_bye and bye.opponents == ()
    assert pod.opponents == (1, 2)
    assert 4 not in past.sittings
