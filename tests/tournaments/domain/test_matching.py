"""The general maximum-weight matching (domain.matching) against enumeration."""

import random

from tournaments.domain.matching import max_weight_matching


def test_the_matching_search_is_exact_on_random_graphs():
    """The blossom search against enumeration: maximum cardinality, then maximum weight."""
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(1, 9)
        edges = [
            (i, j, rng.choice([rng.randint(-5, 5), rng.randint(0, 10**18)]))
            for i in range(n)
            for j in range(i + 1, n)
            if rng.random() < 0.6
        ]
        mate = max_weight_matching(n, edges)
        weight = {frozenset((i, j)): w for i, j, w in edges}
        assert all(mate[v] == -1 or mate[mate[v]] == v for v in range(n))
        got = _value(mate, weight)
        assert got == max(
            _value_of(m, weight) for m in _all_partial_matchings(list(range(n)), weight)
        )


def _value(mate, weight):
    pairs = [frozenset((v, mate[v])) for v in range(len(mate)) if mate[v] > v]
    return (len(pairs), sum(weight[p] for p in pairs))


def _value_of(pairs, weight):
    return (len(pairs), sum(weight[frozenset(p)] for p in pairs))


def _all_partial_matchings(vertices, weight):
    if not vertices:
        yield []
        return
    first, rest = vertices[0], vertices[1:]
    yield from _all_partial_matchings(rest, weight)  # first stays single
    for k, other in enumerate(rest):
        if frozenset((first, other)) in weight:
            for tail in _all_partial_matchings(rest[:k] + rest[k + 1 :], weight):
                yield [(first, other), *tail]
