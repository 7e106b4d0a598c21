"""Top cut: standard bracket seeding for 2-32 players, advancing rounds, and the errors."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.records import MAGIC, Table
from tournaments.domain.standings import PRESETS, compute_standings
from tournaments.domain.topcut import (
    Bracket,
    TopCutError,
    advance,
    bracket_order,
    create_bracket,
    seed_bracket,
)


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
        (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
    ],
)
def test_standard_bracket_order(size, order):
    assert bracket_order(size) == order


def test_seed_bracket_pairs_the_standings_top_eight():
    # Seeds are player ids in standings order: seed 1 is player 101, ..., seed 10 is 110.
    seeds = list(range(101, 111))
    assert seed_bracket(seeds, 8) == [(101, 108), (104, 105), (102, 107), (103, 106)]
    assert seed_bracket(seeds, 4) == [(101, 104), (102, 103)]
    assert seed_bracket(seeds, 2) == [(101, 102)]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32])
def test_top_seeds_stay_apart_until_late(size):
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Every first-round match sums to size + 1 (1 v size, 2 v size - 1, ...).
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    # The top 2^k seeds land in different sections of size / 2^k: they can meet only when
    # k rounds remain (seeds 1 and 2 in the final, the top four from the semifinals, ...).
    k = 1
    while 2**k <= size:
        section = size // 2**k
        sections = [order.index(seed) // section for seed in range(1, 2**k + 1)]
        assert len(set(sections)) == 2**k
        k += 1


def test_when_the_better_seed_always_wins():
    bracket = create_bracket(list(range(1, 9)), 8)
    assert bracket.current == ((1, 8), (4, 5), (2, 7), (3, 6))
    assert bracket.round_label(0) == "Quarterfinals"
    bracket = advance(bracket, [1, 4, 2, 3])
    assert bracket.current == ((1, 4), (2, 3))
    assert bracket.round_label(1) == "Semifinals"
    bracket = advance(bracket, [2, 1])  # any order
    assert bracket.current == ((1, 2),)
    assert bracket.round_label(2) == "Final"
    assert bracket.champion is None
    bracket = advance(bracket, [2])
    assert bracket.champion == 2
    assert bracket.current == ()
    assert bracket.winners == ((1, 4, 2, 3), (1, 2), (2,))
    assert len(bracket.rounds) == 3


def test_upsets_keep_the_better_seed_listed_first():
    bracket = create_bracket(["ann", "bo", "cy", "di", "ed", "flo", "gus", "hal"], 8)
    bracket = advance(bracket, ["hal", "ed", "gus", "cy"])  # 8, 5, 7 and 3 win
    assert bracket.current == (("ed", "hal"), ("cy", "gus"))  # 5 v 8, 3 v 7
    assert bracket.seed("hal") == 8
    bracket = advance(bracket, ["hal", "gus"])
    assert bracket.current == (("gus", "hal"),)
    assert advance(bracket, ["hal"]).champion == "hal"


def test_top_sixteen_labels():
    bracket = create_bracket(list(range(1, 20)), 16)
    assert bracket.size == 16 and bracket.seeds == tuple(range(1, 17))
    assert [bracket.round_label(i) for i in range(4)] == [
        "Top 16",
        "Quarterfinals",
        "Semifinals",
        "Final",
    ]


def test_a_top_cut_from_the_standings():
    # Six players, two Magic rounds (game scores not entered count 2-0):
    # R1: 1 beats 2 | 3 beats 4 | 6 beats 5        R2: 1 beats 3 2-1 | 6 beats 2 | 5 beats 4 2-1
    # Points: 1 and 6: 6, 3 and 5: 3, 2 and 4: 0.
    # OMW: 1: (2: 1/3 floor, 3: 3/6) / 2 = 5/12; 6: (5: 3/6, 2: 1/3) / 2 = 5/12 -- tied.
    # GW: 1: 2-0, 2-1 = 4-1 -> 12/15 = 4/5; 6: 4-0 -> 1: 6 first.
    # 3 and 5: OMW 3: (4: 1/3, 1: 1) / 2 = 2/3; 5: (6: 1, 4: 1/3) / 2 = 2/3 -- tied;
    # GW 3: 2-0, 1-2 = 3-2 -> 9/15 = 3/5; 5: 0-2, 2-1 = 2-3 -> 6/15 = 2/5: 3 before 5.
    # Seeds 6, 1, 3, 5: the top four plays 6 v 5 and 1 v 3.
    rounds = [
        (Table((1, 2), 1), Table((3, 4), 3), Table((5, 6), 6)),
        (Table((1, 3), 1, (2, 1)), Table((2, 6), 6), Table((5, 4), 5, (2, 1))),
    ]
    rows = compute_standings(
        players=range(1, 7), rounds=rounds, scheme=MAGIC, precedence=PRESETS["magic"]
    )
    seeds = [row.player for row in rows]
    assert seeds[:4] == [6, 1, 3, 5]
    assert create_bracket(seeds, 4).current == ((6, 5), (1, 3))


@pytest.mark.parametrize("size", [0, 1, 3, 6, 12, 24, -4])
def test_sizes_must_be_powers_of_two(size):
    with pytest.raises(TopCutError) as caught:
        seed_bracket(list(range(40)), size)
    assert caught.value.code == "bad_size"


def test_more_seats_than_players_or_a_repeated_seed():
    with pytest.raises(TopCutError) as caught:
        seed_bracket([1, 2, 3, 4, 5, 6], 8)
    assert caught.value.code == "too_few_players"
    with pytest.raises(TopCutError) as caught:
        create_bracket([1, 2, 3, 3], 4)
    assert caught.value.code == "duplicate_seed"


@pytest.mark.parametrize(
    ("winners", "code"),
    [
        ([1, 4], "missing_result"),  # nobody for 2 v 7 and 3 v 6
        ([1, 8, 2, 3], "two_winners"),
        ([1, 4, 2, 3, 9], "not_in_round"),
        ([1, 4, 2, 3, 3], "duplicate_winner"),
    ],
)
def test_bad_results(winners, code):
    bracket = create_bracket(list(range(1, 9)), 8)
    with pytest.raises(TopCutError) as caught:
        advance(bracket, winners)
    assert caught.value.code == code


def test_a_finished_bracket_cannot_advance():
    final = advance(create_bracket([1, 2], 2), [1])
    assert final.champion == 1
    with pytest.raises(TopCutError) as caught:
        advance(final, [1])
    assert caught.value.code == "bracket_finished"


@given(st.sampled_from([2, 4, 8, 16, 32]), st.data())
def test_any_results_reach_one_champion(size, data):
    bracket = create_bracket(list(range(100, 100 + size)), size)
    played: list[int] = []
    while bracket.champion is None:
        current = bracket.current
        winners = [data.draw(st.sampled_from(match)) for match in current]
        played.append(len(current))
        after = advance(bracket, winners)
        if after.champion is None:
            # The next round is exactly this round's winners, neighbours paired.
            assert [p for m in after.current for p in m] == [
                p for pair in zip(winners[::2], winners[1::2], strict=True) for p in sorted(pair)
            ]
            assert all(after.seed(a) < after.seed(b) for a, b in after.current)
        bracket = after
    assert played == [size >> k for k in range(1, int(math.log2(size)) + 1)]
    assert bracket.champion in bracket.seeds
    assert isinstance(bracket, Bracket)
