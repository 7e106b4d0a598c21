"""Swiss pairing for 1v1 rounds: the optimal pairing of a round, and checked manual edits.

`pair_round` promises, for the active players of one round: everyone is seated exactly once (a
table of two, or the bye); the bye goes to a player with the fewest byes so far, the
lowest-ranked such player unless that would force a rematch another bye avoids; among those
pairings it uses the fewest rematches (weighted by how often the pair already met), then the
fewest/smallest point differences (the sum over tables of the squared points difference), then
pairs players close in the standings. The result is exactly optimal for that order of goals,
never fails to produce a round (when every pairing repeats a match it repeats as few as
possible and says so in `warnings`), and is deterministic: the same inputs and seed give the
same `Pairing`. Round 1 is random (seeded) or by rating. `validate_manual`, `swap_players`,
`give_bye`, `pair_by_hand` and `pairing_from_manual` check and record a TO's edits.

How the optimum is found (see `_solve`): a pairing is a minimum-cost perfect matching of the
players (Edmonds' weighted matching, the "Swiss as matching" idea of the chess pairing
engines), with integer costs ordered lexicographically (`_weights`). Three exact tiers, the
cheapest that applies:
1. Every pairing's point spread is at least the sum of gap**2 over the score boundaries with
   an odd number of players above them (a table spanning gaps g1..gk costs (g1+..+gk)**2 >=
   g1**2+..+gk**2, and a boundary with an odd count above it is crossed at least once). A
   linear pass builds a rematch-free pairing meeting this bound when it can (one floater per
   odd boundary, into the next group); any such pairing is optimal, no search needed. In
   large fields this is nearly every round (4,096 players: about 40 ms).
2. Otherwise, large score groups (at least 2*degree+4 players, degree being the most
   opponents anyone has met) split the field. How many tables cross a boundary is fixed modulo
   2 by the count above it, a large group can absorb floaters from both sides and still pair
   the rest among itself (Dirac's theorem), and no optimal table needs to jump over one; so
   each run of small groups between them is solved exactly on its own (`_by_segments`).
3. With no large group, one search over the whole field, without the pairs that provably
   cannot be in an optimum given a known pairing's spread (`_useful_pairs`); with a bye that
   may have to move to avoid a rematch, one search over every pair and every eligible bye.
Tiers 2-3 use our own integer implementation of the primal-dual blossom algorithm
(`_max_weight_matching`), so no library is needed and costs of any size stay exact. Tier 2's
decomposition was checked against the full search on thousands of random rounds (see
tests/tournaments/domain/test_pairing.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from tournaments.domain.records import PlayerId, Round

FIRST_ROUND_MODES = ("random", "rating")


class PairingError(ValueError):
    """Input that cannot be paired (unknown mode, a player listed twice); `code` names it."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round's pairing. `tables` are in table-number order (strongest table first), each in
    seat order (the first player is on the play). `rematches` lists the tables that repeat an
    earlier match; `point_spread` is the sum over tables of the squared points difference."""

    tables: tuple[tuple[PlayerId, PlayerId], ...]
    byes: tuple[PlayerId, ...]
    rematches: tuple[tuple[PlayerId, PlayerId], ...]
    point_spread: float
    warnings: tuple[str, ...]


# ---------------------------------------------------------------------------------------------
# History


@dataclass(slots=True)
class _History:
    met: dict[PlayerId, dict[PlayerId, int]]  # met[a][b]: times a and b sat at one table
    byes: Counter  # player -> byes had
    first_seats: Counter  # player -> times seated first at a 1v1 table
    seats: Counter  # player -> 1v1 tables played

    def times_met(self, a: PlayerId, b: PlayerId) -> int:
        return self.met.get(a, {}).get(b, 0)


def _read_history(history: Sequence[Round]) -> _History:
    met: dict[PlayerId, dict[PlayerId, int]] = {}
    byes: Counter = Counter()
    first_seats: Counter = Counter()
    seats: Counter = Counter()
    for round_ in history:
        for table in round_:
            players = table.players
            if len(players) == 1:
                byes[players[0]] += 1
                continue
            if len(players) == 2:
                first_seats[players[0]] += 1
                seats[players[0]] += 1
                seats[players[1]] += 1
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    if a == b:
                        continue
                    row = met.get(a)
                    if row is None:
                        row = met[a] = {}
                    row[b] = row.get(b, 0) + 1
                    row = met.get(b)
                    if row is None:
                        row = met[b] = {}
                    row[a] = row.get(a, 0) + 1
    return _History(met, byes, first_seats, seats)


# ---------------------------------------------------------------------------------------------
# The public entry point


def pair_round(
    *,
    players: Sequence[PlayerId],
    history: Sequence[Round],
    ranking: Sequence[PlayerId],
    points: Mapping[PlayerId, float],
    seed: int,
    round_number: int,
    first_round: str = "random",
    ratings: Mapping[PlayerId, float] | None = None,
) -> Pairing:
    """Pair one 1v1 round of the active `players` (entered, not dropped).

    `ranking` is the current standings order, best first (players missing from it, such as late
    entries, rank after everyone with the same points, by id); `points` the match points so
    far (missing means 0). With no completed round in `history` the round is a first round:
    `first_round="random"` shuffles with `random.Random(seed)` and pairs 1-2, 3-4, ...;
    `"rating"` pairs the top half of the ratings against the bottom half (1 v n/2+1, ...).
    `round_number` must be >= 1; a first round is recognised by the empty history.
    """
    if round_number < 1:
        raise PairingError("round_number", "round_number starts at 1")
    if first_round not in FIRST_ROUND_MODES:
        raise PairingError("first_round", f"first_round must be one of {FIRST_ROUND_MODES}")
    active = list(players)
    if len(set(active)) != len(active):
        dupes = sorted(p for p, c in Counter(active).items() if c > 1)
        raise PairingError("duplicate_player", f"players listed twice: {dupes}")
    past = _read_history(history)
    if not any(len(round_) for round_ in history):
        return _first_round(active, past, points, seed, first_round, ratings)
    return _swiss_round(active, past, ranking, points)


# ---------------------------------------------------------------------------------------------
# Round 1


def _first_round(active, past, points, seed, mode, ratings) -> Pairing:
    warnings: list[str] = []
    if mode == "random":
        order = sorted(active)
        random.Random(seed).shuffle(order)
    else:
        ratings = ratings or {}
        unrated = sorted(p for p in active if p not in ratings)
        if unrated:
            warnings.append(f"No rating for {len(unrated)} player(s); they are seeded last.")
        order = sorted((p for p in active if p in ratings), key=lambda p: (-ratings[p], p))
        order += unrated
    byes: tuple[PlayerId, ...] = ()
    if len(order) % 2:
        # The lowest seed (last after the shuffle) has the bye, as in every later round.
        byes = (order.pop(),)
    if mode == "random":
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    else:
        half = len(order) // 2
        pairs = [(order[i], order[i + half]) for i in range(half)]
    return _finish(pairs, byes, order, past, points, warnings, seat_by_rank=True)


# ---------------------------------------------------------------------------------------------
# Later rounds


def _swiss_round(active, past, ranking, points) -> Pairing:
    position = {p: i for i, p in enumerate(ranking)}
    tail = len(position)
    # Best first: points, then the given standings order (stable for its ties), then id.
    order = sorted(
        active,
        key=lambda p: (-float(points.get(p, 0.0)), position.get(p, tail), p),
    )
    warnings: list[str] = []
    if not order:
        return Pairing((), (), (), 0.0, ())
    if len(order) == 1:
        return _finish([], (order[0],), order, past, points, warnings)

    values = {p: float(points.get(p, 0.0)) for p in order}
    exact = {v: Fraction(v).limit_denominator(10**6) for v in set(values.values())}
    scale = 1
    for f in exact.values():
        scale = lcm(scale, f.denominator)
    scaled = {v: int(f * scale) for v, f in exact.items()}
    units = [scaled[values[p]] for p in order]
    index = {p: i for i, p in enumerate(order)}
    n = len(order)
    # met[i]: sorted index -> times met, for the active players i has met.
    met: list[dict[int, int]] = []
    for p in order:
        row = {}
        for q, times in past.met.get(p, {}).items():
            j = index.get(q)
            if j is not None:
                row[j] = times
        met.append(row)
    problem = _Problem(n, units, met, [past.byes[p] for p in order])
    pairs_idx, bye_idx = _solve(problem)

    pairs = [(order[i], order[j]) for i, j in pairs_idx]
    byes = (order[bye_idx],) if bye_idx is not None else ()
    if byes and past.byes[byes[0]] > 0:
        warnings.append(
            f"Every player has had a bye; player {byes[0]} gets bye number "
            f"{past.byes[byes[0]] + 1}."
        )
    return _finish(pairs, byes, order, past, points, warnings)


def _finish(pairs, byes, order, past, points, warnings, seat_by_rank=False) -> Pairing:
    """Seat each table, number the tables, and report rematches and the spread."""
    rank = {p: i for i, p in enumerate(order)}
    for b in byes:
        rank.setdefault(b, len(rank))

    def pts(p):
        return float(points.get(p, 0.0))

    seated = []
    for a, b in pairs:
        if rank[b] < rank[a]:
            a, b = b, a  # a is the higher ranked
        if not seat_by_rank:
            # Whoever has been first (on the play) less often, as a share of their 1v1
            # matches, sits first; equal shares: the higher ranked.
            fa, fb = past.first_seats[a], past.first_seats[b]
            na, nb = past.seats[a], past.seats[b]
            if fb * max(na, 1) < fa * max(nb, 1) or (na == 0 and nb == 0 and fb < fa):
                a, b = b, a
        seated.append((a, b))
    seated.sort(key=lambda t: (-(pts(t[0]) + pts(t[1])), min(rank[t[0]], rank[t[1]])))
    rematches = tuple(t for t in seated if past.times_met(*t))
    spread = sum((pts(a) - pts(b)) ** 2 for a, b in seated)
    if rematches:
        described = ", ".join(f"{a} v {b} (met {past.times_met(a, b)}x)" for a, b in rematches)
        warnings.append(f"{len(rematches)} rematch(es) could not be avoided: {described}.")
    return Pairing(tuple(seated), tuple(byes), rematches, spread, tuple(warnings))


# ---------------------------------------------------------------------------------------------
# The optimisation. Players are indices 0..n-1 in standings order (points descending).


@dataclass(slots=True)
class _Problem:
    n: int
    units: list[int]  # points, scaled to integers, non-increasing
    met: list[dict[int, int]]  # met[i][j] = times i and j met
    byes: list[int]  # byes had


def _solve(problem: _Problem) -> tuple[list[tuple[int, int]], int | None]:
    """The optimal pairs (and bye) for the problem; see the module docstring for the goals."""
    n = problem.n
    everyone = list(range(n))
    if n % 2 == 0:
        return _pair_even(problem, everyone), None
    fewest = min(problem.byes)
    eligible = [i for i in everyone if problem.byes[i] == fewest]
    bye = eligible[-1]  # the lowest-ranked player with the fewest byes
    pairs = _pair_even(problem, [i for i in everyone if i != bye])
    if len(eligible) == 1 or not _rematch_count(problem, pairs):
        return pairs, bye
    # A rematch with this bye: another eligible bye might avoid it, so choose the bye in the
    # same search as the tables.
    return _exact(problem, everyone, eligible)


def _rematch_count(problem: _Problem, pairs: list[tuple[int, int]]) -> int:
    return sum(problem.met[a].get(b, 0) for a, b in pairs)


def _pair_even(problem: _Problem, players: list[int]) -> list[tuple[int, int]]:
    """The optimal pairing of an even list of players (sorted): the cheapest exact way."""
    pairs = _lower_bound_pairing(problem, players)
    if pairs is None:
        pairs = _by_segments(problem, players)
    if pairs is None:
        pairs, _ = _exact(problem, players, [])
    return pairs


def _lower_bound_pairing(problem: _Problem, players: list[int]) -> list[tuple[int, int]] | None:
    """A rematch-free pairing of `players` (sorted) whose spread equals the lower bound, or None.

    Groups of equal points are paired inside themselves; a group left with an odd count sends
    its lowest-ranked feasible player down to the highest-ranked player of the next group that
    it has not met. That puts exactly one table across each boundary with an odd number of
    players above it and none across the others, which is the bound in the module docstring,
    so any result is optimal.
    """
    met = problem.met
    units = problem.units
    groups: list[list[int]] = []
    for i in players:
        if groups and units[groups[-1][0]] == units[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    pairs: list[tuple[int, int]] = []
    carry = None
    for gi, group in enumerate(groups):
        members = group
        if carry is not None:
            partner = next((m for m in members if m not in met[carry]), None)
            if partner is None:
                return None
            pairs.append((carry, partner))
            members = [m for m in members if m != partner]
            carry = None
        if len(members) % 2:
            if gi + 1 == len(groups):
                return None
            found = _carry_one_down(members, groups[gi + 1], met)
            if found is None:
                return None
            carry, inner = found
            pairs.extend(inner)
        else:
            inner = _rematch_free(members, met)
            if inner is None:
                return None
            pairs.extend(inner)
    return pairs


def _carry_one_down(
    members: list[int], below: list[int], met: list[dict[int, int]]
) -> tuple[int, list[tuple[int, int]]] | None:
    """An odd group sends one player down: the lowest-ranked one who has someone new to meet
    in `below` and whose departure leaves the rest pairable without rematches.
    (that player, the rest's pairs), or None when nobody can go."""
    for k in range(len(members) - 1, -1, -1):
        candidate = members[k]
        if all(b in met[candidate] for b in below):
            continue
        inner = _rematch_free(members[:k] + members[k + 1 :], met)
        if inner is not None:
            return candidate, inner
    return None


def _rematch_free(members: list[int], met: list[dict[int, int]]) -> list[tuple[int, int]] | None:
    """Pair an even list of players (in standings order) with no rematch, neighbours first.

    Greedy: each unpaired player takes the next unpaired player it has not met. Players left
    over are fitted in by one exchange with an existing table (u-a, b-v for a table a-b);
    if that fails too the caller falls back to the exact search.
    """
    if not members:
        return []
    taken = set()
    pairs: list[tuple[int, int]] = []
    left: list[int] = []
    for k, a in enumerate(members):
        if a in taken:
            continue
        taken.add(a)
        seen = met[a]
        for b in members[k + 1 :]:
            if b not in taken and b not in seen:
                taken.add(b)
                pairs.append((a, b))
                break
        else:
            left.append(a)
    while left:
        u = left.pop(0)
        for v_index, v in enumerate(left):
            if v not in met[u]:
                pairs.append((u, v))
                left.pop(v_index)
                break
        else:
            for v_index, v in enumerate(left):
                swap = _exchange(u, v, pairs, met)
                if swap is not None:
                    left.pop(v_index)
                    break
            else:
                return None
    return pairs


def _exchange(u: int, v: int, pairs: list[tuple[int, int]], met) -> bool | None:
    """Replace some table a-b by u-a and v-b (or u-b, v-a) when neither repeats a match.

    The latest tables are tried first: they are the nearest to u and v in the standings.
    """
    mu, mv = met[u], met[v]
    for t in range(len(pairs) - 1, -1, -1):
        a, b = pairs[t]
        if a not in mu and b not in mv:
            pairs[t] = (u, a) if u < a else (a, u)
            pairs.append((b, v) if b < v else (v, b))
            return True
        if b not in mu and a not in mv:
            pairs[t] = (u, b) if u < b else (b, u)
            pairs.append((a, v) if a < v else (v, a))
            return True
    return None


# ---------------------------------------------------------------------------------------------
# Exact search


def _weights(n: int, top_gap: int) -> tuple[int, int, int, int]:
    """Integer weights (tie-break, spread, bye rank, rematch) for a search over n vertices.

    Each level's weight exceeds the largest possible total of the levels below it, so the
    costs compare lexicographically: rematches (times met), then the bye's rank, then the
    spread, then the tie-break (squared distance in the standings: neighbours first).
    """
    w_tie = 1
    w_spread = w_tie * (n * n * n + 1)
    w_bye = w_spread * ((n // 2 + 1) * top_gap * top_gap + 1)
    w_rematch = w_bye * (n + 1)
    return w_tie, w_spread, w_bye, w_rematch


def _min_cost_perfect(nvertex: int, costs: dict[tuple[int, int], int]) -> list[int]:
    """A minimum-cost perfect matching (the graph must have one): mate[v]."""
    biggest = max(costs.values()) + 1 if costs else 1
    return _max_weight_matching(nvertex, [(i, j, biggest - c) for (i, j), c in costs.items()])


NEAR = 12  # the pre-search's window: each player against the next NEAR in the standings


def _exact(
    problem: _Problem, players: list[int], eligible: list[int]
) -> tuple[list[tuple[int, int]], int | None]:
    """The optimum over every pairing of `players`, by matching search.

    With `eligible` bye candidates a bye vertex joins them, costing by rank (lowest first),
    and every pair is searched. Without, a greedy rematch-free pairing (if any) is improved by
    a search over near neighbours, whose spread bounds the optimum; the exact search then
    leaves out every pair that cannot be in an optimum (`_useful_pairs`).
    """
    if eligible:
        return _search(problem, players, eligible, None)
    feasible = _carry_down(problem, players)
    if feasible is None:
        return _search(problem, players, [], None)
    met = problem.met
    m = len(players)
    local = {p: a for a, p in enumerate(players)}
    near = [
        [b for b in range(a + 1, min(m, a + 1 + NEAR)) if players[b] not in met[players[a]]]
        for a in range(m)
    ]
    for x, y in feasible:
        a, b = sorted((local[x], local[y]))
        if b not in near[a]:
            near[a].append(b)
    better, _ = _search(problem, players, [], near)
    return _search(problem, players, [], _useful_pairs(problem, players, better))


def _search(
    problem: _Problem,
    players: list[int],
    eligible: list[int],
    partners: list[list[int]] | None,
) -> tuple[list[tuple[int, int]], int | None]:
    """Minimum-cost perfect matching of `players` (positions a < b joined as `partners` says,
    or all pairs), plus a bye vertex joined to `eligible`: (pairs, bye)."""
    units = problem.units
    met = problem.met
    m = len(players)
    _w_tie, w_spread, w_bye, w_rematch = _weights(m, units[players[0]] - units[players[-1]])
    costs: dict[tuple[int, int], int] = {}
    for a in range(m):
        i = players[a]
        ui = units[i]
        mi = met[i]
        for b in range(a + 1, m) if partners is None else partners[a]:
            j = players[b]
            d = ui - units[j]
            costs[(a, b)] = w_rematch * mi.get(j, 0) + w_spread * d * d + (b - a) * (b - a)
    if eligible:
        local = {p: a for a, p in enumerate(players)}
        for i in eligible:
            costs[(local[i], m)] = w_bye * (m - 1 - local[i])
    mate = _min_cost_perfect(m + (1 if eligible else 0), costs)
    pairs = []
    bye = None
    for a in range(m):
        b = mate[a]
        if b == m:
            bye = players[a]
        elif a < b:
            pairs.append((players[a], players[b]))
    return pairs, bye


def _useful_pairs(
    problem: _Problem, players: list[int], feasible: list[tuple[int, int]]
) -> list[list[int]]:
    """For each position a, the later positions b that can share a table in an optimum.

    `feasible` is a rematch-free pairing F of `players`, so an optimum is rematch-free and has
    spread <= spread(F). Split any pairing's spread over the score boundaries, as in the
    module docstring: a table over boundaries
    with gaps d1..dk costs (d1+..+dk)**2 >= d1**2+..+dk**2, and boundary b is crossed an odd
    number of times iff par_b = 1 (an odd count above it). So any pairing containing a-b has
    spread >= cost(a-b) + LB - sum(par_b d_b**2) + sum((1 - par_b) d_b**2), the sums over
    the boundaries a-b crosses (they are crossed once already; an even one needs a second
    table). Pairs whose bound exceeds spread(F) are dropped: F keeps all of its own pairs,
    so a perfect matching remains and the optimum is unchanged. The bound grows with b.
    """
    units = problem.units
    met = problem.met
    upper = sum((units[a] - units[b]) ** 2 for a, b in feasible)
    m = len(players)
    # odd_gap[k] / even_gap[k]: squared gap below position k if the count above it is odd /
    # even (0 inside a score group); prefix sums make any range a subtraction.
    odd_sum = [0] * (m + 1)
    even_sum = [0] * (m + 1)
    for k in range(m - 1):
        d = units[players[k]] - units[players[k + 1]]
        odd_sum[k + 1] = odd_sum[k] + (d * d if k % 2 == 0 else 0)
        even_sum[k + 1] = even_sum[k] + (d * d if k % 2 == 1 else 0)
    slack = upper - odd_sum[m - 1]
    useful: list[list[int]] = []
    for a in range(m):
        i = players[a]
        ui = units[i]
        mi = met[i]
        row = []
        for b in range(a + 1, m):
            d = ui - units[players[b]]
            bound = d * d - (odd_sum[b] - odd_sum[a]) + (even_sum[b] - even_sum[a])
            if bound > slack:
                break
            if players[b] not in mi:
                row.append(b)
        useful.append(row)
    return useful


def _carry_down(problem: _Problem, players: list[int]) -> list[tuple[int, int]] | None:
    """A rematch-free pairing with a small spread, or None: score groups top down, each
    player taking the next unpaired player it has not met, within the group and whoever was
    carried down into it; whoever is left is carried down to the next group."""
    units = problem.units
    met = problem.met
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    start = 0
    m = len(players)
    while start < m:
        end = start
        while end < m and units[players[end]] == units[players[start]]:
            end += 1
        pool = carry + players[start:end]
        taken: set[int] = set()
        carry = []
        for k, a in enumerate(pool):
            if a in taken:
                continue
            seen = met[a]
            partner = next((b for b in pool[k + 1 :] if b not in taken and b not in seen), None)
            if partner is None:
                carry.append(a)
            else:
                taken.add(a)
                taken.add(partner)
                pairs.append((a, partner))
        start = end
    while carry:  # the bottom group's leftovers: one exchange each, as in _rematch_free
        u = carry.pop(0)
        partner = next((v for v in carry if v not in met[u]), None)
        if partner is not None:
            carry.remove(partner)
            pairs.append((u, partner))
            continue
        if not carry or _exchange(u, carry.pop(0), pairs, met) is None:
            return None
    return pairs


def _by_segments(problem: _Problem, players: list[int]) -> list[tuple[int, int]] | None:
    """The optimal pairing, searched run by run between large score groups; None if stuck.

    A score group is large when it has at least 2*degree+4 players (degree: the most opponents
    any player has met). A large group can take any few floaters from either side and still
    pair its other players among themselves without a rematch (Dirac: a graph on k >= 3
    vertices of minimum degree >= k/2 has a Hamiltonian cycle, so a perfect matching when k is
    even), and no optimal pairing needs a table that jumps over it (exchange with one of its
    tables). So each run of small groups is solved on its own, by an exact search in which
    "slot" vertices stand for the large group above and below (a player taking a slot floats
    into that group at the squared points difference). How many tables cross each boundary is
    fixed modulo 2 by the number of players above it, so the runs do not interact: each run's
    slot counts have that parity, and unused slots pair with each other at no cost.
    The large groups are then paired greedily around their floaters.
    """
    units = problem.units
    met = problem.met
    groups: list[list[int]] = []
    for i in players:
        if groups and units[groups[-1][0]] == units[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    degree = max(len(met[i]) for i in players)
    big = [len(g) >= 2 * degree + 4 for g in groups]
    if not any(big):
        return None
    # Blocks: ("big", members) or ("run", players of consecutive small groups).
    blocks: list[tuple[str, list[int]]] = []
    for g, is_big in zip(groups, big, strict=True):
        if is_big:
            blocks.append(("big", g))
        elif blocks and blocks[-1][0] == "run":
            blocks[-1][1].extend(g)
        else:
            blocks.append(("run", list(g)))
    pairs: list[tuple[int, int]] = []
    # Floaters each large block receives from the run above / below it.
    from_above: dict[int, list[int]] = {}
    from_below: dict[int, list[int]] = {}
    above = 0  # players above the current block
    for k, (kind, members) in enumerate(blocks):
        if kind == "run":
            up = units[blocks[k - 1][1][0]] if k > 0 else None
            down = units[blocks[k + 1][1][0]] if k + 1 < len(blocks) else None
            solved = _solve_run(problem, members, up, down, above % 2, (above + len(members)) % 2)
            inner, ups, downs = solved
            pairs.extend(inner)
            if ups:
                from_below[k - 1] = ups
            if downs:
                from_above[k + 1] = downs
        above += len(members)
    # Pair the large groups around their floaters, top down; a large group left odd sends its
    # lowest-ranked possible player to the next large group directly below it.
    carry = None
    for k, (kind, members) in enumerate(blocks):
        if kind != "big":
            continue
        incoming = from_above.get(k, [])
        if carry is not None:
            incoming = [carry, *incoming]
            carry = None
        free = list(members)
        for x in incoming:  # highest-ranked partner first
            partner = next((m for m in free if m not in met[x]), None)
            if partner is None:
                return None
            pairs.append((x, partner))
            free.remove(partner)
        for y in reversed(from_below.get(k, [])):  # lowest-ranked partner first
            partner = next((m for m in reversed(free) if m not in met[y]), None)
            if partner is None:
                return None
            pairs.append((partner, y))
            free.remove(partner)
        if len(free) % 2:
            if k + 1 >= len(blocks) or blocks[k + 1][0] != "big":
                return None
            found = _carry_one_down(free, blocks[k + 1][1], met)
            if found is None:
                return None
            carry, inner = found
            pairs.extend(inner)
        else:
            inner = _rematch_free(free, met)
            if inner is None:
                return None
            pairs.extend(inner)
    return pairs


def _solve_run(
    problem: _Problem,
    run: list[int],
    up: int | None,
    down: int | None,
    up_parity: int,
    down_parity: int,
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Exact pairing of a run of small groups: (tables, floaters up, floaters down).

    `up` / `down` are the points (units) of the large group above / below (None at the ends of
    the field); the number of players floating up (down) has parity `up_parity`
    (`down_parity`). Slots are offered generously (up to the run's size), and the search is
    repeated with more slots whenever every slot was used.
    """
    units = problem.units
    met = problem.met
    m = len(run)
    cap = 4
    while True:
        n_up = 0 if up is None else _with_parity(min(m, cap), up_parity)
        n_down = 0 if down is None else _with_parity(min(m, cap), down_parity)
        total = m + n_up + n_down
        gap = max(units[run[0]] - units[run[-1]], 0)
        if up is not None:
            gap = max(gap, up - units[run[-1]])
        if down is not None:
            gap = max(gap, units[run[0]] - down)
        _w_tie, w_spread, _w_bye, w_rematch = _weights(total, gap)
        costs: dict[tuple[int, int], int] = {}
        for a in range(m):
            i = run[a]
            ui = units[i]
            mi = met[i]
            for b in range(a + 1, m):
                j = run[b]
                d = ui - units[j]
                costs[(a, b)] = w_rematch * mi.get(j, 0) + w_spread * d * d + (b - a) * (b - a)
        first_up, first_down = m, m + n_up
        for s in range(n_up):
            for a in range(m):
                d = up - units[run[a]]
                costs[(a, first_up + s)] = w_spread * d * d + (a + 1) * (a + 1)
            for t in range(s + 1, n_up):
                costs[(first_up + s, first_up + t)] = 0
        for s in range(n_down):
            for a in range(m):
                d = units[run[a]] - down
                costs[(a, first_down + s)] = w_spread * d * d + (m - a) * (m - a)
            for t in range(s + 1, n_down):
                costs[(first_down + s, first_down + t)] = 0
        mate = _min_cost_perfect(total, costs)
        inner, ups, downs = [], [], []
        for a in range(m):
            b = mate[a]
            if b >= first_down:
                downs.append(run[a])
            elif b >= first_up:
                ups.append(run[a])
            elif a < b:
                inner.append((run[a], run[b]))
        full = (n_up and len(ups) == n_up) or (n_down and len(downs) == n_down)
        if not full or cap >= m:
            return inner, ups, downs
        cap *= 2


def _with_parity(count: int, parity: int) -> int:
    return count if count % 2 == parity else count + 1


def _max_weight_matching(nvertex: int, edges: list[tuple[int, int, int]]) -> list[int]:
    """Maximum-cardinality matching of greatest total weight; returns mate[v] (or -1).

    The O(n^3) primal-dual blossom algorithm of Edmonds (1965) as set out by Galil, "Efficient
    algorithms for finding maximum matching in graphs" (ACM Computing Surveys 18, 1986), with
    the data layout of J. van Rantwijk's public notes: vertex duals are stored doubled, so with
    integer weights every quantity stays an integer (exact, however large the weights).
    """
    if not edges:
        return [-1] * nvertex
    nedge = len(edges)
    maxweight = max(0, max(w for _, _, w in edges))
    # Endpoint p of edge k: vertex edges[k][p % 2]; p ^ 1 is the other end.
    endpoint = [edges[p >> 1][p & 1] for p in range(2 * nedge)]
    neighbend: list[list[int]] = [[] for _ in range(nvertex)]
    for k, (i, j, _w) in enumerate(edges):
        neighbend[i].append(2 * k + 1)
        neighbend[j].append(2 * k)
    mate = [-1] * nvertex  # remote endpoint of the matched edge
    nb = 2 * nvertex
    label = [0] * nb  # 0 free, 1 S (outer), 2 T (inner); +4 as a breadcrumb
    labelend = [-1] * nb
    inblossom = list(range(nvertex))
    blossomparent = [-1] * nb
    blossomchilds: list[list[int] | None] = [None] * nb
    blossombase = list(range(nvertex)) + [-1] * nvertex
    blossomendps: list[list[int] | None] = [None] * nb
    bestedge = [-1] * nb
    blossombestedges: list[list[int] | None] = [None] * nb
    unusedblossoms = list(range(nvertex, nb))
    dualvar = [maxweight] * nvertex + [0] * nvertex
    allowedge = [False] * nedge
    queue: list[int] = []

    def slack(k: int) -> int:
        i, j, w = edges[k]
        return dualvar[i] + dualvar[j] - 2 * w

    def leaves(b: int):
        if b < nvertex:
            yield b
            return
        stack = [b]
        while stack:
            t = stack.pop()
            if t < nvertex:
                yield t
            else:
                stack.extend(blossomchilds[t])

    def assign_label(w: int, t: int, p: int) -> None:
        while True:
            b = inblossom[w]
            label[w] = label[b] = t
            labelend[w] = labelend[b] = p
            bestedge[w] = bestedge[b] = -1
            if t == 1:
                queue.extend(leaves(b))
                return
            # t == 2: the mate of the T-blossom's base becomes an S-vertex.
            base = blossombase[b]
            w, t, p = endpoint[mate[base]], 1, mate[base] ^ 1

    def scan_blossom(v: int, w: int) -> int:
        """Trace back from v and w to find a common ancestor (a new blossom's base) or -1."""
        path = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        v, w, _wt = edges[k]
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = unusedblossoms.pop()
        blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        blossomchilds[b] = path
        blossomendps[b] = endps
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        for v in leaves(b):
            if label[inblossom[v]] == 2:
                queue.append(v)
            inblossom[v] = b
        # The least-slack edge from the new blossom to each other S-blossom.
        bestedgeto: dict[int, int] = {}
        for sub in path:
            if blossombestedges[sub] is None:
                nblists = [[p >> 1 for p in neighbend[u]] for u in leaves(sub)]
            else:
                nblists = [blossombestedges[sub]]
            for nblist in nblists:
                for k2 in nblist:
                    i, j, _w = edges[k2]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if bj != b and label[bj] == 1:
                        current = bestedgeto.get(bj, -1)
                        if current == -1 or slack(k2) < slack(current):
                            bestedgeto[bj] = k2
            blossombestedges[sub] = None
            bestedge[sub] = -1
        blossombestedges[b] = list(bestedgeto.values())
        best = -1
        for k2 in blossombestedges[b]:
            if best == -1 or slack(k2) < slack(best):
                best = k2
        bestedge[b] = best

    def expand_blossom(b: int, endstage: bool) -> None:
        for s in blossomchilds[b]:
            blossomparent[s] = -1
            if s < nvertex:
                inblossom[s] = s
            elif endstage and dualvar[s] == 0:
                expand_blossom(s, endstage)
            else:
                for v in leaves(s):
                    inblossom[v] = s
        if not endstage and label[b] == 2:
            # Relabel the sub-blossoms on the even-length path from the entry to the base.
            entrychild = inblossom[endpoint[labelend[b] ^ 1]]
            childs = blossomchilds[b]
            endps = blossomendps[b]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep, endptrick = 1, 0
            else:
                jstep, endptrick = -1, 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allowedge[endps[j - endptrick] >> 1] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                allowedge[p >> 1] = True
                j += jstep
            bv = childs[j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                reached = -1
                for v in leaves(bv):
                    if label[v] != 0:
                        reached = v
                        break
                if reached != -1:
                    label[reached] = 0
                    label[endpoint[mate[blossombase[bv]]]] = 0
                    assign_label(reached, 2, labelend[reached])
                j += jstep
        label[b] = labelend[b] = -1
        blossomchilds[b] = blossomendps[b] = None
        blossombase[b] = -1
        blossombestedges[b] = None
        bestedge[b] = -1
        unusedblossoms.append(b)

    def augment_blossom(b: int, v: int) -> None:
        t = v
        while blossomparent[t] != b:
            t = blossomparent[t]
        if t >= nvertex:
            augment_blossom(t, v)
        childs = blossomchilds[b]
        endps = blossomendps[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= nvertex:
                augment_blossom(t, endpoint[p])
            j += jstep
            t = childs[j]
            if t >= nvertex:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = childs[i:] + childs[:i]
        blossomendps[b] = endps[i:] + endps[:i]
        blossombase[b] = blossombase[blossomchilds[b][0]]

    def augment_matching(k: int) -> None:
        v, w, _wt = edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= nvertex:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    for _stage in range(nvertex):
        label[:] = [0] * nb
        bestedge[:] = [-1] * nb
        blossombestedges[nvertex:] = [None] * nvertex
        allowedge[:] = [False] * nedge
        queue[:] = []
        for v in range(nvertex):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for p in neighbend[v]:
                    k = p >> 1
                    w = endpoint[p]
                    if inblossom[v] == inblossom[w]:
                        continue
                    kslack = 0
                    if not allowedge[k]:
                        kslack = slack(k)
                        if kslack <= 0:
                            allowedge[k] = True
                    if allowedge[k]:
                        if label[inblossom[w]] == 0:
                            assign_label(w, 2, p ^ 1)
                        elif label[inblossom[w]] == 1:
                            base = scan_blossom(v, w)
                            if base >= 0:
                                add_blossom(base, k)
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = p ^ 1
                    elif label[inblossom[w]] == 1:
                        b = inblossom[v]
                        if bestedge[b] == -1 or kslack < slack(bestedge[b]):
                            bestedge[b] = k
                    elif label[w] == 0:  # noqa: SIM102 (kept as in the reference algorithm)
                        if bestedge[w] == -1 or kslack < slack(bestedge[w]):
                            bestedge[w] = k
            if augmented:
                break
            # No augmenting path on tight edges: change the duals (maximum cardinality, so
            # there is no "delta1" stop on a free vertex's dual reaching zero).
            deltatype = -1
            delta = 0
            deltaedge = -1
            deltablossom = -1
            for v in range(nvertex):
                if label[inblossom[v]] == 0 and bestedge[v] != -1:
                    d = slack(bestedge[v])
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 2, bestedge[v]
            for b in range(nb):
                if blossomparent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                    d = slack(bestedge[b]) // 2  # even: S-S slacks stay even (integers)
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 3, bestedge[b]
            for b in range(nvertex, nb):
                if (
                    blossombase[b] >= 0
                    and blossomparent[b] == -1
                    and label[b] == 2
                    and (deltatype == -1 or dualvar[b] < delta)
                ):
                    delta, deltatype, deltablossom = dualvar[b], 4, b
            if deltatype == -1:
                deltatype = 1
                delta = max(0, min(dualvar[:nvertex]))
            for v in range(nvertex):
                lb = label[inblossom[v]]
                if lb == 1:
                    dualvar[v] -= delta
                elif lb == 2:
                    dualvar[v] += delta
            for b in range(nvertex, nb):
                if blossombase[b] >= 0 and blossomparent[b] == -1:
                    if label[b] == 1:
                        dualvar[b] += delta
                    elif label[b] == 2:
                        dualvar[b] -= delta
            if deltatype == 1:
                break
            if deltatype == 2:
                allowedge[deltaedge] = True
                i, j, _w = edges[deltaedge]
                if label[inblossom[i]] == 0:
                    i, j = j, i
                queue.append(i)
            elif deltatype == 3:
                allowedge[deltaedge] = True
                i, j, _w = edges[deltaedge]
                queue.append(i)
            else:
                expand_blossom(deltablossom, False)
        if not augmented:
            break
        for b in range(nvertex, nb):
            if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                expand_blossom(b, True)
    return [endpoint[p] if p >= 0 else -1 for p in mate]


# ---------------------------------------------------------------------------------------------
# Manual edits by the TO. Tables are (player, player) in seat order; byes are player ids.

Tables = tuple[tuple[PlayerId, PlayerId], ...]


def validate_manual(
    tables: Sequence[Sequence[PlayerId]],
    byes: Sequence[PlayerId],
    players: Sequence[PlayerId],
    history: Sequence[Round],
) -> list[str]:
    """The problems that make a hand-made round unusable (empty when it can be used).

    Every active player sits exactly once (at a table or on a bye), nobody else does, each
    table seats two different players and each bye one. Rematches are allowed: they are
    warnings, which `pairing_from_manual` reports. `history` is accepted so that checks that
    need it stay in one place; today no rule in it makes a round unusable.
    """
    del history  # rematches are warnings, not problems
    problems: list[str] = []
    active = set(players)
    count: Counter = Counter()
    for number, table in enumerate(tables, start=1):
        seats = tuple(table)
        if len(seats) != 2:
            problems.append(
                f"Table {number} seats {len(seats)} player(s); a 1v1 table seats exactly 2."
            )
        if len(seats) == 2 and seats[0] == seats[1]:
            problems.append(f"Table {number} pairs player {seats[0]} with themself.")
        count.update(set(seats))
    for bye in byes:
        if isinstance(bye, (tuple, list)):
            problems.append(f"A bye is one player, not {len(bye)}.")
            count.update(bye)
        else:
            count[bye] += 1
    for player, times in sorted(count.items()):
        if player not in active:
            problems.append(f"Player {player} is not in this round (dropped or not entered).")
        elif times > 1:
            problems.append(f"Player {player} is seated {times} times.")
    for player in sorted(active - set(count)):
        problems.append(f"Player {player} has no table and no bye.")
    return problems


def pairing_from_manual(
    tables: Sequence[Sequence[PlayerId]],
    byes: Sequence[PlayerId],
    *,
    players: Sequence[PlayerId],
    history: Sequence[Round],
    points: Mapping[PlayerId, float],
) -> Pairing:
    """Record a TO's hand-made round as a `Pairing` (tables and seats kept as given).

    Raises `PairingError("invalid_manual", ...)` listing the problems from `validate_manual`;
    rematches, extra byes and repeated byes come back as warnings.
    """
    problems = validate_manual(tables, byes, players, history)
    if problems:
        raise PairingError("invalid_manual", " ".join(problems))
    past = _read_history(history)
    seated = tuple((a, b) for a, b in tables)
    warnings: list[str] = []
    rematches = tuple(t for t in seated if past.times_met(*t))
    if rematches:
        described = ", ".join(f"{a} v {b} (met {past.times_met(a, b)}x)" for a, b in rematches)
        warnings.append(f"{len(rematches)} rematch(es): {described}.")
    if len(byes) > len(players) % 2:
        warnings.append(f"{len(byes)} byes where {len(players) % 2} would do.")
    repeated = [b for b in byes if past.byes[b]]
    if repeated:
        warnings.append(f"Player(s) {', '.join(map(str, repeated))} already had a bye.")

    def pts(p):
        return float(points.get(p, 0.0))

    spread = sum((pts(a) - pts(b)) ** 2 for a, b in seated)
    return Pairing(seated, tuple(byes), rematches, spread, tuple(warnings))


def swap_players(
    tables: Sequence[tuple[PlayerId, PlayerId]],
    a: PlayerId,
    b: PlayerId,
    *,
    byes: Sequence[PlayerId] = (),
) -> tuple[Tables, tuple[PlayerId, ...]]:
    """Exchange the seats of players a and b (at tables or on byes): (tables, byes)."""

    def swapped(p):
        return b if p == a else a if p == b else p

    return (
        tuple((swapped(x), swapped(y)) for x, y in tables),
        tuple(swapped(p) for p in byes),
    )


def give_bye(
    tables: Sequence[tuple[PlayerId, PlayerId]],
    byes: Sequence[PlayerId],
    player: PlayerId,
) -> tuple[Tables, tuple[PlayerId, ...]]:
    """Give `player` a bye: (tables, byes).

    Their opponent takes the place of the player who had the bye, if exactly one other player
    had it (the usual "give the bye to X instead" edit); otherwise the opponent gets a bye too.
    """
    if player in byes:
        return tuple(tables), tuple(byes)
    new_tables = []
    orphan = None
    for x, y in tables:
        if player in (x, y):
            orphan = y if x == player else x
        else:
            new_tables.append((x, y))
    new_byes = list(byes)
    if orphan is not None:
        if len(new_byes) == 1:
            # The orphan sits where the player was, against the player who had the bye.
            previous = new_byes.pop()
            position = next(i for i, t in enumerate(tables) if player in t)
            seats = tables[position]
            table = (previous, orphan) if seats[0] == player else (orphan, previous)
            new_tables.insert(position, table)
        else:
            new_byes.append(orphan)
    new_byes.append(player)
    return tuple(new_tables), tuple(new_byes)


def pair_by_hand(
    tables: Sequence[tuple[PlayerId, PlayerId]],
    byes: Sequence[PlayerId],
    a: PlayerId,
    b: PlayerId,
) -> tuple[Tables, tuple[PlayerId, ...]]:
    """Seat a against b (a first): (tables, byes). Their former opponents play each other at
    the other freed table; a single former opponent left alone gets the bye."""
    if a == b:
        raise PairingError("self_pairing", f"Player {a} cannot play themself.")
    if (a, b) in tables or (b, a) in tables:
        return tuple(tables), tuple(byes)
    orphans = []
    freed = []
    kept: list[tuple[PlayerId, PlayerId] | None] = []
    for x, y in tables:
        if x in (a, b) or y in (a, b):
            orphans.extend(p for p in (x, y) if p not in (a, b))
            freed.append(len(kept))
            kept.append(None)
        else:
            kept.append((x, y))
    new_byes = [p for p in byes if p not in (a, b)]
    slots = iter(freed)
    first = next(slots, None)
    if first is None:
        kept.append((a, b))
    else:
        kept[first] = (a, b)
    if len(orphans) == 2:
        second = next(slots)
        kept[second] = (orphans[0], orphans[1])
    else:
        new_byes.extend(orphans)
    return tuple(t for t in kept if t is not None), tuple(new_byes)
