"""Who gets the bye: the one bye rule of both pairers (1v1 `pairing`, `pods`).

A round with more players than seats gives byes to the lowest-ranked players among those
with the fewest byes so far, so nobody has a second bye before everyone has had one.
`bye_candidates` lists everyone who may get the next bye, best-ranked first, for a
pairer that weighs the bye against rematches (the 1v1 pairer may move the bye up the list
to avoid one); `pick_byes` takes the rule as it stands. Pure Python.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

P = TypeVar("P")


def bye_candidates(order: Sequence[P], byes_had: Callable[[P], int]) -> list[P]:
    """The players of `order` (best-ranked first) with the fewest byes so far, in that order."""
    if not order:
        return []
    fewest = min(byes_had(p) for p in order)
    return [p for p in order if byes_had(p) == fewest]


def pick_byes(order: Sequence[P], byes_had: Callable[[P], int], count: int) -> list[P]:
    """The `count` players who get a bye: the lowest-ranked among those with the fewest byes
    (and, when they are too few, the lowest-ranked of the next fewest), lowest-ranked first."""
    if not count:
        return []
    from_bottom = list(reversed(order))
    from_bottom.sort(key=byes_had)  # stable: lowest-ranked first among equals
    return from_bottom[:count]
