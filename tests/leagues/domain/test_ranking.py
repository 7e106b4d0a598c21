"""leagues.domain.ranking: finishing orders and standard competition ranking (1, 2, 2, 4)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.domain.ranking import (
    RankingError,
    competition_ranks,
    groups_from_places,
    is_valid_ranking,
    places_from_groups,
    validate_places,
)


@pytest.mark.parametrize(
    "places",
    [
        [1, 2],
        [1, 1],
        [2, 1],
        [1, 2, 3, 4],
        [1, 2, 2, 4],
        [4, 2, 1, 2],
        [1, 1, 3],
        [1, 1, 1, 1],
        [1, 2, 2, 2],
        [1, 1, 3, 3, 5],
        [1],
    ],
)
def test_valid_rankings(places):
    assert is_valid_ranking(places)


@pytest.mark.parametrize(
    "places",
    [
        [],
        [1, 3],  # a gap
        [2, 3],  # no winner
        [2, 2],  # nobody in first place
        [1, 2, 2, 3],  # 3 is taken by the tie at 2: the next place is 4
        [1, 1, 2],  # the tie at 1 pushes the next player to 3
        [0, 1],
        [1, 2, 4],
    ],
)
def test_invalid_rankings(places):
    assert not is_valid_ranking(places)


def test_is_valid_ranking_accepts_any_iterable():
    assert is_valid_ranking(iter([2, 1, 2]))
    assert is_valid_ranking(p for p in (1, 2))


@pytest.mark.parametrize("places", [[1, 2], [1, 1], [1, 2, 2, 4], [1, 1, 1, 1], [3, 1, 2]])
def test_validate_places_accepts_games(places):
    validate_places(places)  # does not raise


@pytest.mark.parametrize(
    ("places", "code", "message"),
    [
        ([], "too_few_players", "A game needs at least 2 players; this one has 0."),
        ([1], "too_few_players", "A game needs at least 2 players; this one has 1."),
        ([0, 1], "place_below_one", "Places start at 1 (the winner)."),
        ([1, -1], "place_below_one", "Places start at 1 (the winner)."),
        ([3, 1], "invalid_ranking", "Places 1, 3 are not a ranking"),
        ([2, 3], "invalid_ranking", "Places 2, 3 are not a ranking"),
        ([1, 2, 2, 3], "invalid_ranking", "Places 1, 2, 2, 3 are not a ranking"),
    ],
)
def test_validate_places_refuses_with_a_code_and_a_message(places, code, message):
    with pytest.raises(RankingError) as caught:
        validate_places(places)
    assert caught.value.code == code
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


def test_validate_places_minimum_players_is_configurable():
    validate_places([1], minimum_players=1)
    with pytest.raises(RankingError, match="at least 3 players; this one has 2"):
        validate_places([1, 2], minimum_players=3)


@pytest.mark.parametrize(
    ("groups", "placed"),
    [
        ([], []),
        ([["ann"]], [("ann", 1)]),
        ([["ann"], ["bob"]], [("ann", 1), ("bob", 2)]),
        (
            [["ann"], ["bob", "cy"], ["dee"]],
            [("ann", 1), ("bob", 2), ("cy", 2), ("dee", 4)],
        ),
        ([["ann", "bob", "cy", "dee"]], [("ann", 1), ("bob", 1), ("cy", 1), ("dee", 1)]),
        ([["ann", "bob"], ["cy"]], [("ann", 1), ("bob", 1), ("cy", 3)]),
    ],
)
def test_places_from_groups_and_back(groups, placed):
    assert places_from_groups(groups) == placed
    assert groups_from_places(placed) == groups


def test_places_from_groups_refuses_an_empty_group():
    with pytest.raises(RankingError) as caught:
        places_from_groups([["ann"], [], ["bob"]])
    assert caught.value.code == "empty_place"


def test_groups_from_places_sorts_places_and_keeps_order_within_a_place():
    assert groups_from_places([("dee", 4), ("cy", 2), ("ann", 1), ("bob", 2)]) == [
        ["ann"],
        ["cy", "bob"],
        ["dee"],
    ]


@pytest.mark.parametrize(
    ("scores", "ranks"),
    [
        ([], []),
        ([10], [(1, False)]),
        ([10, 8, 6], [(1, False), (2, False), (3, False)]),
        ([10, 8, 8, 5], [(1, False), (2, True), (2, True), (4, False)]),
        ([7, 7, 7], [(1, True), (1, True), (1, True)]),
        ([9, 9, 3, 3, 1], [(1, True), (1, True), (3, True), (3, True), (5, False)]),
    ],
)
def test_competition_ranks(scores, ranks):
    assert competition_ranks(scores, key=lambda score: score) == ranks


def test_competition_ranks_uses_the_key():
    rows = [("ann", 3.0), ("bob", 3.0), ("cy", 1.5)]
    assert competition_ranks(rows, key=lambda row: row[1]) == [(1, True), (1, True), (3, False)]


# --- properties ---------------------------------------------------------------------------

groups_strategy = st.lists(
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=5),
    max_size=10,
)


@given(groups_strategy)
def test_places_from_groups_always_yields_a_valid_ranking(groups):
    placed = places_from_groups(groups)
    places = [place for _, place in placed]
    assert len(placed) == sum(len(group) for group in groups)
    assert [item for item, _ in placed] == [item for group in groups for item in group]
    assert is_valid_ranking(places) == bool(groups)
    if len(places) >= 2:
        validate_places(places)


@given(groups_strategy)
def test_groups_from_places_inverts_places_from_groups(groups):
    assert groups_from_places(places_from_groups(groups)) == groups


@given(groups_strategy)
def test_competition_ranks_agree_with_places_from_groups(groups):
    placed = places_from_groups(
        [[(group_index, item) for item in group] for group_index, group in enumerate(groups)]
    )
    ranks = competition_ranks(placed, key=lambda entry: entry[0][0])
    assert [rank for rank, _ in ranks] == [place for _, place in placed]
    tied = {index for index, group in enumerate(groups) if len(group) > 1}
    assert [is_tied for _, is_tied in ranks] == [entry[0][0] in tied for entry in placed]


@given(st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=8))
def test_a_valid_ranking_survives_the_round_trip(places):
    items = list(enumerate(places))
    groups = groups_from_places(items)
    if is_valid_ranking(places):
        assert sorted(p for _, p in places_from_groups(groups)) == sorted(places)
    else:
        assert sorted(p for _, p in places_from_groups(groups)) != sorted(places)
