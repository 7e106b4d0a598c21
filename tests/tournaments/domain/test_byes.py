"""The one bye rule (domain.byes): the lowest-ranked among those with the fewest byes."""

import pytest

from tournaments.domain.byes import bye_candidates, pick_byes


@pytest.mark.parametrize(
    ("order", "had", "count", "expected"),
    [
        ([1, 2, 3, 4, 5], {}, 1, [5]),  # nobody has had one: the lowest-ranked
        ([1, 2, 3, 4, 5], {5: 1}, 1, [4]),  # no second bye before everyone has had one
        ([1, 2, 3, 4, 5], {4: 1, 5: 1}, 2, [3, 2]),  # lowest-ranked first
        ([1, 2, 3], {1: 1, 2: 1, 3: 1}, 1, [3]),  # everyone has had one: the lowest again
        ([1, 2, 3], {2: 1, 3: 1}, 2, [1, 3]),  # too few with the fewest: the next fewest
        ([1, 2, 3], {}, 0, []),
    ],
)
def test_pick_byes(order, had, count, expected):
    assert pick_byes(order, lambda p: had.get(p, 0), count) == expected


def test_bye_candidates_are_the_fewest_in_standings_order():
    had = {1: 0, 2: 1, 3: 0, 4: 2}
    assert bye_candidates([1, 2, 3, 4], had.__getitem__) == [1, 3]
    assert bye_candidates([], had.__getitem__) == []
