"""Swiss pairing for 1v1 rounds: the optimal pairing of a round, and checked manual edits.

`pair_round` promises, for the active players of one round: everyone is seated exactly once (a
table of two, or the bye); the bye goes to a player with the fewest byes so far, the
lowest-ranked such player -- with `bye_pairing="mtr"` always (Magic's rule: Wizards' "Swiss
Pairings" gives the bye to a player "who ha[s] the lowest score and who ha[s] not yet received
a bye"), with "avoid_rematch" unless that would force a rematch another bye avoids (the bye
moves up the standings, as chess pairing programs do); among those
pairings it uses the fewest rematches (weighted by how often the pair already met), then the
fewest/smallest point differences (the sum over tables of the squared points difference), then
pairs players close in the standings. The result is exactly optimal for that order of goals,
never fails to produce a round (when every pairing repeats a match it repeats as few as
possible and says so in `warnings`), and is deterministic: the same inputs and seed give the
same `Pairing`. Round 1 is random (seeded) or by rating. Who may have the bye is the rule of
`domain.byes`; what the players met before is read by `domain.history`; a TO's manual edits
are checked by `domain.edits`.

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
(`domain.matching`), so no library is needed and costs of any size stay exact. Tier 2's
decomposition was checked against the full search on thousands of random rounds (see
tests/tournaments/domain/test_pairing.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from tournaments.domain.byes import bye_candidates, pick_byes
from tournaments.domain.history import read_history
from tournaments.domain.matching import min_cost_perfect
from tournaments.domain.records import PlayerId, Round
from tournaments.domain.texts import N_, Nn_, Note, Refusal

FEWEST_PLAYERS = 2  # one match
FIRST_ROUND_MODES = ("random", "rating")
# Who gets a 1v1 bye (Tournament.bye_pairing): the MTR's lowest-ranked player without one, or
# that player unless a higher one's bye avoids a rematch.
BYE_PAIRINGS = ("mtr", "avoid_rematch")


class PairingError(Refusal):
    """Input that cannot be paired (unknown mode, a player listed twice); `code` names it;
    `parts` (invalid_manual): each problem's (template, params), the message being them all."""

    parts: tuple[tuple[str, dict], ...] = ()


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
    bye_pairing: str = "avoid_rematch",
    name: Callable[[PlayerId], str] = str,
) -> Pairing:
    """Pair one 1v1 round of the active `players` (entered, not dropped).

    `ranking` is the current standings order, best first (players missing from it, such as late
    entries, rank after everyone with the same points, by id); `points` the match points so
    far (missing means 0). With no completed round in `history` the round is a first round:
    `first_round="random"` shuffles with `random.Random(seed)` and pairs 1-2, 3-4, ...;
    `"rating"` pairs the top half of the ratings against the bottom half (1 v n/2+1, ...).
    `round_number` must be >= 1; a first round is recognised by the empty history.
    `bye_pairing` (one of BYE_PAIRINGS) says whether a later round's bye may move up to avoid a
    rematch ("avoid_rematch") or stays with the lowest-ranked player without one ("mtr").
    `name` names a player in the warnings (the site passes the player's name; by default the
    id).
    """
    if round_number < 1:
        raise PairingError("round_number", "round_number starts at 1")
    if first_round not in FIRST_ROUND_MODES:
        raise PairingError("first_round", f"first_round must be one of {FIRST_ROUND_MODES}")
    if bye_pairing not in BYE_PAIRINGS:
        raise PairingError("bye_pairing", f"bye_pairing must be one of {BYE_PAIRINGS}")
    active = list(players)
    if len(set(active)) != len(active):
        dupes = sorted(p for p, c in Counter(active).items() if c > 1)
        raise PairingError(
            "duplicate_player", N_("players listed twice: %(players)s"), {"players": dupes}
        )
    past = read_history(history)
    if not any(len(round_) for round_ in history):
        return _first_round(active, past, points, seed, first_round, ratings, name)
    return _swiss_round(
        active, past, ranking, points, move_bye=bye_pairing == "avoid_rematch", name=name
    )


# ---------------------------------------------------------------------------------------------
# Round 1


def _first_round(active, past, points, seed, mode, ratings, name=str) -> Pairing:
    warnings: list[str] = []
    if mode == "random":
        order = sorted(active)
        random.Random(seed).shuffle(order)
    else:
        ratings = ratings or {}
        unrated = sorted(p for p in active if p not in ratings)
        if unrated:
            warnings.append(
                Note(
                    Nn_(
                        "No rating for %(n)s player; they are seeded last.",
                        "No rating for %(n)s players; they are seeded last.",
                    ),
                    {"n": len(unrated)},
                    count=len(unrated),
                )
            )
        order = sorted((p for p in active if p in ratings), key=lambda p: (-ratings[p], p))
        order += unrated
    byes: tuple[PlayerId, ...] = ()
    if len(order) % 2:
        # The lowest seed (last after the shuffle) has the bye, as in every later round.
        byes = tuple(pick_byes(order, past.byes.__getitem__, 1))
        order.remove(byes[0])
    if mode == "random":
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    else:
        half = len(order) // 2
        pairs = [(order[i], order[i + half]) for i in range(half)]
    return _finish(pairs, byes, order, past, points, warnings, seat_by_rank=True, name=name)


# ---------------------------------------------------------------------------------------------
# Later rounds


def _swiss_round(active, past, ranking, points, move_bye=True, name=str) -> Pairing:
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
        return _finish([], (order[0],), order, past, points, warnings, name=name)

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
    problem = _Problem(n, units, met, [past.byes[p] for p in order], move_bye)
    pairs_idx, bye_idx = _solve(problem)

    pairs = [(order[i], order[j]) for i, j in pairs_idx]
    byes = (order[bye_idx],) if bye_idx is not None else ()
    if byes and past.byes[byes[0]] > 0:
        warnings.append(
            Note(
                N_("Every player has had a bye; player %(player)s gets bye number %(number)s."),
                {"player": name(byes[0]), "number": past.byes[byes[0]] + 1},
            )
        )
    return _finish(pairs, byes, order, past, points, warnings, name=name)


def met_before(past, tables, name: Callable[[PlayerId], str] = str) -> tuple[Note, ...]:
    """ "Ann v Bob (met before: 2)" for each of `tables` whose two players met before (`name`
    names a player; by default its id: "3 v 8")."""
    return tuple(
        Note(
            N_("%(a)s v %(b)s (met before: %(times)s)"),
            {"a": name(a), "b": name(b), "times": past.times_met(a, b)},
        )
        for a, b in tables
    )


def _finish(pairs, byes, order, past, points, warnings, seat_by_rank=False, name=str) -> Pairing:
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
        warnings.append(
            Note(
                Nn_(
                    "%(n)s rematch could not be avoided: %(tables)s.",
                    "%(n)s rematches could not be avoided: %(tables)s.",
                ),
                {"n": len(rematches), "tables": met_before(past, rematches, name)},
                count=len(rematches),
            )
        )
    return Pairing(tuple(seated), tuple(byes), rematches, spread, tuple(warnings))


# ---------------------------------------------------------------------------------------------
# The optimisation. Players are indices 0..n-1 in standings order (points descending).


@dataclass(slots=True)
class _Problem:
    n: int
    units: list[int]  # points, scaled to integers, non-increasing
    met: list[dict[int, int]]  # met[i][j] = times i and j met
    byes: list[int]  # byes had
    move_bye: bool = True  # whether the bye may move up the standings to avoid a rematch


def _solve(problem: _Problem) -> tuple[list[tuple[int, int]], int | None]:
    """The optimal pairs (and bye) for the problem; see the module docstring for the goals."""
    n = problem.n
    everyone = list(range(n))
    if n % 2 == 0:
        return _pair_even(problem, everyone), None
    eligible = bye_candidates(everyone, problem.byes.__getitem__)
    bye = pick_byes(everyone, problem.byes.__getitem__, 1)[0]
    pairs = _pair_even(problem, [i for i in everyone if i != bye])
    if not problem.move_bye or len(eligible) == 1 or not _rematch_count(problem, pairs):
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
    mate = min_cost_perfect(m + (1 if eligible else 0), costs)
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
        mate = min_cost_perfect(total, costs)
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
