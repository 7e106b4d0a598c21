"""The deck-check picker: seeded, skips byes and players already checked, "top" mode picks
among tables seating a top X % player, never more tables than asked or than qualify."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judging.domain.deckcheck import TableSeats, tables_pick

TABLES = [TableSeats(n, (2 * n - 1, 2 * n)) for n in range(1, 9)]  # tables 1-8, entries 1-16
RANKS = {e: e for e in range(1, 17)}  # entry 1 first ... entry 16 last


def test_the_same_seed_picks_the_same_tables():
    first = tables_pick(TABLES, count=3, seed=7)
    assert first == tables_pick(TABLES, count=3, seed=7)
    assert len(first) == 3 and first == sorted(first)
    picks = {tuple(tables_pick(TABLES, count=3, seed=s)) for s in range(20)}
    assert len(picks) > 1  # the seed matters


def test_byes_and_checked_players_are_skipped():
    tables = [*TABLES, TableSeats(9, (17,))]
    picked = tables_pick(tables, count=9, checked={1, 4}, seed=1)
    assert picked == [3, 4, 5, 6, 7, 8]  # table 1 (entry 1), 2 (entry 4) and the bye 9 out


def test_top_mode_picks_among_the_top_percent():
    # 16 ranked, top 25 %: ranks 1-4, at tables 1 and 2.
    assert tables_pick(TABLES, count=5, mode="top", top_percent=25, ranks=RANKS) == [1, 2]
    # Top 1 %: at least one place (ceil), table 1.
    assert tables_pick(TABLES, count=5, mode="top", top_percent=1, ranks=RANKS) == [1]
    # Checked players skipped in top mode too.
    assert tables_pick(TABLES, count=5, mode="top", top_percent=25, ranks=RANKS, checked={2}) == [2]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        tables_pick(TABLES, count=1, mode="best")
    with pytest.raises(ValueError):
        tables_pick(TABLES, count=-1)


@given(
    count=st.integers(0, 12),
    seed=st.integers(0, 10**6),
    checked=st.sets(st.integers(1, 16), max_size=8),
)
def test_never_more_than_asked_never_a_checked_player(count, seed, checked):
    picked = tables_pick(TABLES, count=count, seed=seed, checked=checked)
    assert len(picked) <= count and len(set(picked)) == len(picked)
    for number in picked:
        assert not checked.intersection(TABLES[number - 1].entries)
