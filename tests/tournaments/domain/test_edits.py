"""A TO's manual edits of a 1v1 round (domain.edits): computed, checked and recorded."""

import pytest

from tests.tournaments.domain.tables import W, bye, points_of
from tournaments.domain.edits import (
    give_bye,
    pair_by_hand,
    pairing_from_manual,
    swap_players,
    validate_manual,
)
from tournaments.domain.pairing import PairingError


def test_validate_manual_lists_every_problem():
    players = [1, 2, 3, 4, 5]
    assert validate_manual([(1, 2), (3, 4)], [5], players, []) == []
    problems = validate_manual([(1, 1), (2, 3, 4), (6, 2)], [], players, [])
    assert "Table 1 pairs player 1 with themself." in problems
    assert "Table 2 seats 3 players; a 1v1 table seats exactly 2 players." in problems
    assert "Player 6 is not in this round (dropped or not entered)." in problems
    assert "Player 2 is seated 2 times." in problems
    assert "Player 5 has no table and no bye." in problems
    assert "A bye is one player, not 2." in validate_manual([(1, 2)], [(3, 4), 5], players, [])


def test_a_manual_rematch_is_a_warning_not_a_problem():
    history = [(W(1, 2, 1), W(3, 4, 3))]
    assert validate_manual([(1, 2), (3, 4)], [], [1, 2, 3, 4], history) == []
    recorded = pairing_from_manual(
        [(1, 2), (4, 3)], [], players=[1, 2, 3, 4], history=history, points=points_of(history)
    )
    assert recorded.tables == ((1, 2), (4, 3))
    assert recorded.rematches == ((1, 2), (4, 3))
    assert recorded.point_spread == 18
    assert "2 rematches" in recorded.warnings[0]
    with pytest.raises(PairingError) as info:
        pairing_from_manual([(1, 2)], [], players=[1, 2, 3], history=[], points={})
    assert info.value.code == "invalid_manual"
    assert "Player 3 has no table and no bye." in str(info.value)


def test_manual_byes_are_recorded_with_warnings():
    history = [(W(1, 2, 1), bye(3))]
    recorded = pairing_from_manual(
        [(1, 2)], [3, 4], players=[1, 2, 3, 4], history=history, points={}
    )
    assert recorded.byes == (3, 4)
    assert any("2 byes where 0 would do" in w for w in recorded.warnings)
    assert any("Player 3 already had a bye" in w for w in recorded.warnings)


def test_a_manual_rounds_warnings_name_the_players_as_the_caller_names_them():
    history = [(W(1, 2, 1), bye(3))]
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}.__getitem__
    recorded = pairing_from_manual(
        [(2, 1)], [3, 4], players=[1, 2, 3, 4], history=history, points={}, name=names
    )
    assert "1 rematch: Bob v Ann (met before: 1)." in recorded.warnings
    assert "Player Cy already had a bye." in recorded.warnings


def test_swap_players():
    tables = ((1, 2), (3, 4))
    assert swap_players(tables, 2, 3) == (((1, 3), (2, 4)), ())
    assert swap_players(tables, 1, 2) == (((2, 1), (3, 4)), ())
    assert swap_players(tables, 4, 5, byes=(5,)) == (((1, 2), (3, 5)), (4,))


def test_give_bye():
    # The usual edit: give the bye to 3 instead of 5; 4 plays 5 at 3's old table.
    assert give_bye(((1, 2), (3, 4)), (5,), 3) == (((1, 2), (5, 4)), (3,))
    # With no bye to exchange, the opponent gets one too.
    assert give_bye(((1, 2), (3, 4)), (), 1) == (((3, 4),), (2, 1))
    assert give_bye(((1, 2),), (3,), 3) == (((1, 2),), (3,))


def test_pair_by_hand():
    tables = ((1, 2), (3, 4), (5, 6))
    assert pair_by_hand(tables, (), 1, 3) == (((1, 3), (2, 4), (5, 6)), ())
    assert pair_by_hand(tables, (7,), 7, 6) == (((1, 2), (3, 4), (7, 6)), (5,))
    assert pair_by_hand(tables, (), 1, 2) == (tables, ())
    with pytest.raises(PairingError):
        pair_by_hand(tables, (), 1, 1)
    # Every edit keeps a valid round.
    players = [1, 2, 3, 4, 5, 6, 7]
    new_tables, new_byes = pair_by_hand(tables, (7,), 2, 7)
    assert validate_manual(new_tables, new_byes, players, []) == []
