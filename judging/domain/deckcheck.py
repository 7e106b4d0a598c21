"""Which tables to deck-check this round: a pure, seeded pick.

A Head Judge checks a few tables each round, chosen as they see fit (IPG 3.5 says what a
check may find). Two ways to pick: at random among the tables still playing, or
among the tables where a player stands in the top X % of the standings (the decks that may
reach the top cut). Players already checked in this event are skipped, so a check reaches
new decks; when too few tables are left the pick is shorter, never a repeat.
"""

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MODES = {"random": "At random", "top": "From the top of the standings"}


@dataclass(frozen=True)
class TableSeats:
    number: int
    entries: tuple[int, ...]


def tables_pick(
    tables: Iterable[TableSeats],
    *,
    count: int,
    mode: str = "random",
    top_percent: int = 25,
    ranks: Mapping[int, int] | None = None,
    checked: Iterable[int] = (),
    seed: int = 0,
) -> list[int]:
    """The numbers of up to `count` tables to check, in ascending order.

    A table qualifies when none of its players was `checked` already (byes never: a table of
    one). In "top" mode it must also seat a player ranked within the top `top_percent` % of
    `ranks` (entry id -> rank, 1 best; ⌈n·X/100⌉ places, at least 1). The same arguments
    always give the same tables (`seed`)."""
    if count < 0:
        raise ValueError("count is not negative")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    seen = set(checked)
    pool = [t for t in tables if len(t.entries) >= 2 and not seen.intersection(t.entries)]
    if mode == "top":
        ranks = dict(ranks or {})
        cut = max(1, math.ceil(len(ranks) * top_percent / 100)) if ranks else 0
        pool = [t for t in pool if any(0 < ranks.get(e, 0) <= cut for e in t.entries)]
    pool.sort(key=lambda t: t.number)
    chosen = random.Random(seed).sample(pool, min(count, len(pool)))
    return sorted(t.number for t in chosen)
