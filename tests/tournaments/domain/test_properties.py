"""Pairing (1v1 and pods) and standings on large random events with drops: the invariants.

The other domain tests check small fields exhaustively (brute-force optima, every history
shape up to 14 players). These play whole random events of up to 3,000 players with the
pairers themselves, random results, players dropping after any round and ids far apart, and
check after every round:

- every active player is seated exactly once, at a table or with a bye; nobody who dropped is
  seated; no one sits twice at a table; pods have the layout's sizes;
- the same inputs give the same pairing;
- the standings list every entrant once (dropped players keep their line), ranked by
  competition ranking consistent with the precedence's sort order.

Examples are few and bounded, so the file runs in seconds.
"""

import random
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournaments.domain.pairing import pair_round
from tournaments.domain.pods import LAYOUTS, PodPairingError, pair_pods, pod_sizes
from tournaments.domain.records import CEDH_PODS, CHESS, MAGIC, Table
from tournaments.domain.standings import PRESETS, TIEBREAKERS, compute_standings

BOUNDED = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


@dataclass(frozen=True)
class Field:
    ids: tuple[int, ...]
    rounds: int
    drop_rate: float
    seed: int
    draw_rate: float


@st.composite
def fields(draw, *, most: int = 3000) -> Field:
    count = draw(st.one_of(st.integers(0, 12), st.integers(13, most)))
    # Ids as a database hands them out after deletions: increasing, with gaps, some huge.
    start = draw(st.sampled_from([1, 10**6, 2**62]))
    step = draw(st.integers(1, 1000))
    return Field(
        ids=tuple(start + k * step for k in range(count)),
        rounds=draw(st.integers(1, 5)),
        drop_rate=draw(st.sampled_from([0.0, 0.05, 0.3])),
        seed=draw(st.integers(0, 2**32 - 1)),
        draw_rate=draw(st.sampled_from([0.0, 0.1, 0.5])),
    )


def points_and_ranking(active, history, scheme):
    points: dict[int, float] = {}
    for round_ in history:
        for table in round_:
            for p in table.players:
                points[p] = points.get(p, 0.0) + scheme.points(table, p)
    return points, sorted(active, key=lambda p: (-points.get(p, 0.0), p))


def comparable(row, precedence):
    return tuple(
        row.metrics[name] if TIEBREAKERS[name].higher_is_better else -row.metrics[name]
        for name in precedence
    )


def assert_standings_consistent(entrants, history, scheme, precedence, dropped):
    rows = compute_standings(
        players=list(entrants),
        rounds=history,
        scheme=scheme,
        precedence=precedence,
        dropped=dropped,
    )
    assert sorted(row.player for row in rows) == sorted(entrants)
    keys = [comparable(row, precedence) for row in rows]
    first_at: dict[tuple, int] = {}
    for index, key in enumerate(keys):
        first_at.setdefault(key, index)
    sharing = Counter(row.rank for row in rows)
    for index, row in enumerate(rows):
        # Competition ranking: 1 + the number of players strictly ahead in the sort order.
        assert row.rank == first_at[keys[index]] + 1, (row.player, row.rank)
        assert row.tied == (sharing[row.rank] > 1)
        if index:
            assert keys[index - 1] >= keys[index]
            if rows[index - 1].rank == row.rank:
                assert rows[index - 1].player < row.player
    assert sum(row.played for row in rows) == sum(len(t.players) for r in history for t in r)


def drop_some(rng, active, dropped, rate, number):
    for p in list(active):
        if rng.random() < rate:
            active.remove(p)
            dropped[p] = number


def result(rng, seats, draw_rate):
    return Table(tuple(seats), None if rng.random() < draw_rate else rng.choice(seats))


# Thousands of players every run, whatever hypothesis draws.
THOUSANDS = Field(ids=tuple(range(1, 3001)), rounds=5, drop_rate=0.05, seed=7, draw_rate=0.1)


@pytest.mark.slow
@BOUNDED
@given(fields(), st.sampled_from([MAGIC, CHESS]))
@example(THOUSANDS, MAGIC)
def test_1v1_events_with_drops(field, scheme):
    rng = random.Random(field.seed)
    active = list(field.ids)
    history: list[tuple[Table, ...]] = []
    dropped: dict[int, int] = {}
    for number in range(1, field.rounds + 1):
        points, ranking = points_and_ranking(active, history, scheme)
        kwargs = dict(
            players=active,
            history=history,
            ranking=ranking,
            points=points,
            seed=field.seed,
            round_number=number,
        )
        pairing = pair_round(**kwargs)
        seated = [p for table in pairing.tables for p in table] + list(pairing.byes)
        assert sorted(seated) == sorted(active)
        assert all(a != b for a, b in pairing.tables)
        assert len(pairing.byes) == len(active) % 2
        assert pair_round(**{**kwargs, "players": list(reversed(active))}) == pairing
        history.append(
            tuple(result(rng, t, field.draw_rate) for t in pairing.tables)
            + tuple(Table((b,), b) for b in pairing.byes)
        )
        drop_some(rng, active, dropped, field.drop_rate, number)
    precedence = PRESETS["chess" if scheme is CHESS else "magic"]
    assert_standings_consistent(field.ids, history, scheme, precedence, dropped)


@pytest.mark.slow
@BOUNDED
@given(fields(most=2000), st.sampled_from(LAYOUTS))
@example(Field(ids=THOUSANDS.ids[:2000], rounds=4, drop_rate=0.05, seed=7, draw_rate=0.1), "threes")
def test_pod_events_with_drops(field, layout):
    rng = random.Random(field.seed)
    active = list(field.ids)
    history: list[tuple[Table, ...]] = []
    dropped: dict[int, int] = {}
    for number in range(1, field.rounds + 1):
        points, ranking = points_and_ranking(active, history, CEDH_PODS)
        kwargs = dict(
            players=active,
            history=history,
            points=points,
            ranking=ranking,
            seed=field.seed,
            round_number=number,
            layout=layout,
            win_points=CEDH_PODS.win,
        )
        if len(active) < 3:
            with pytest.raises(PodPairingError) as refused:
                pair_pods(**kwargs)
            assert refused.value.code == "few_players"
            break
        pairing = pair_pods(**kwargs)
        seated = [p for pod in pairing.pods for p in pod] + list(pairing.byes)
        assert sorted(seated) == sorted(active)
        assert all(len(set(pod)) == len(pod) for pod in pairing.pods)
        sizes, byes = pod_sizes(len(active), layout)
        assert sorted(len(pod) for pod in pairing.pods) == sorted(sizes)
        assert len(pairing.byes) == byes
        assert pair_pods(**{**kwargs, "players": list(reversed(active))}) == pairing
        history.append(
            tuple(result(rng, pod, field.draw_rate) for pod in pairing.pods)
            + tuple(Table((b,), b) for b in pairing.byes)
        )
        drop_some(rng, active, dropped, field.drop_rate, number)
    assert_standings_consistent(field.ids, history, CEDH_PODS, PRESETS["pods"], dropped)
