"""The event simulator: its JSON shape, reproducibility, and no avoidable rematch in 200 events."""

import itertools
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.domain.records import Table
from tournaments.domain.simulate import simulate, standings

ROOT = Path(__file__).resolve().parents[3]


def as_history(event):
    """The simulator's JSON rounds back as records (winner 0 is a draw)."""
    return [
        tuple(Table(tuple(t["players"]), t["winner"] or None) for t in round_)
        for round_ in event["rounds"]
    ]


def rematch_count(rounds_so_far, round_):
    met = set()
    for earlier in rounds_so_far:
        for table in earlier:
            if len(table.players) == 2:
                met.add(frozenset(table.players))
    return sum(1 for t in round_ if len(t.players) == 2 and frozenset(t.players) in met)


@pytest.mark.parametrize("players", [2, 3, 8, 9, 16, 33, 100])
def test_json_shape(players):
    event = simulate(players=players, rounds=None, seed=1)
    assert set(event) == {"players", "rounds"}
    assert event["players"] == list(range(1, players + 1))
    assert len(event["rounds"]) == math.ceil(math.log2(players))
    for round_ in event["rounds"]:
        seen = []
        for table in round_:
            assert set(table) == {"players", "winner"}
            assert len(table["players"]) in (1, 2)
            if len(table["players"]) == 1:
                assert table["winner"] == table["players"][0]  # a bye is a win
            else:
                assert table["winner"] == 0 or table["winner"] in table["players"]
            seen += table["players"]
        assert sorted(seen) == event["players"]
        assert sum(len(t["players"]) == 1 for t in round_) == players % 2
    assert json.loads(json.dumps(event)) == event


def test_rounds_seed_and_draws():
    assert len(simulate(players=8, rounds=5, seed=0)["rounds"]) == 5
    assert simulate(players=20, rounds=None, seed=7) == simulate(players=20, rounds=None, seed=7)
    assert simulate(players=20, rounds=None, seed=7) != simulate(players=20, rounds=None, seed=8)
    all_draws = simulate(players=9, rounds=3, seed=1, draw_probability=1.0)
    for round_ in all_draws["rounds"]:
        for table in round_:
            assert table["winner"] == (table["players"][0] if len(table["players"]) == 1 else 0)
    no_draws = simulate(players=40, rounds=4, seed=1, draw_probability=0.0)
    assert all(t["winner"] for r in no_draws["rounds"] for t in r)


def test_bad_arguments():
    with pytest.raises(ValueError, match="at least 3 players"):
        simulate(players=2, rounds=None, seed=0, format="pods")
    with pytest.raises(ValueError):
        simulate(players=1, rounds=None, seed=0)
    with pytest.raises(ValueError):
        simulate(players=8, rounds=0, seed=0)
    with pytest.raises(ValueError):
        simulate(players=8, rounds=None, seed=0, format="2HG")


def test_standings_rank_points_then_opponents():
    history = [
        (Table((1, 2), 1), Table((3, 4), 3), Table((5,), 5)),
        (Table((1, 3), 1), Table((5, 2), 2), Table((4,), 4)),
    ]
    points, ranking = standings([1, 2, 3, 4, 5], history)
    assert points == {1: 6.0, 2: 3.0, 3: 3.0, 4: 3.0, 5: 3.0}
    # Match-win %: 1 won 6 of 6 points; 2, 3, 4, 5 won 3 of 6 (a bye is a round played).
    # OMW%: 2 met 1 and 5, 3 met 4 and 1: (1 + 1/2) / 2 = 3/4; 4 met 3, 5 met 2: 1/2.
    # Ties on both go by id.
    assert ranking == [1, 2, 3, 4, 5]
    _, ranking = standings([1, 2, 3, 4, 5], [*history, (Table((5, 3), 5), Table((1, 4), 4))])
    # Now 1, 4 and 5 have 6 points. Match-win %: 2 is 3/6 (sat out round 3), 3 is 3/9,
    # 1 and 4 are 6/9. OMW%: 1 (2, 3, 4) = (1/2 + 1/3 + 2/3) / 3 = 1/2; 4 (3, 1) = 1/2;
    # 5 (2, 3) = 5/12. 1 and 4 tie: by id.
    assert ranking[:3] == [1, 4, 5]


def optimal_rematches(history_so_far, ids, points, ranking):
    """Fewest rematches over every pairing (bye to a player with the fewest byes)."""
    met = {}
    byes = dict.fromkeys(ids, 0)
    for round_ in history_so_far:
        for t in round_:
            if len(t.players) == 2:
                key = frozenset(t.players)
                met[key] = met.get(key, 0) + 1
            else:
                byes[t.players[0]] += 1
    fewest = min(byes.values())

    def matchings(items):
        if not items:
            yield 0
            return
        a = items[0]
        for k in range(1, len(items)):
            for rest in matchings(items[1:k] + items[k + 1 :]):
                yield met.get(frozenset((a, items[k])), 0) + rest

    if len(ids) % 2 == 0:
        return min(matchings(list(ids)))
    return min(min(matchings([p for p in ids if p != b])) for b in ids if byes[b] == fewest)


@pytest.mark.slow
def test_two_hundred_events_never_repeat_an_avoidable_match():
    """50 events each of 8, 9, 16 and 33 players.

    While fewer than N/2 rounds have been played a rematch-free round always exists (every
    player still has at least N/2 possible opponents: Dirac's theorem), so there must be no
    rematch at all. Small fields also play long events (up to 7 rounds), where rematches
    become unavoidable; there every round must use exactly the brute-force minimum.
    """
    events = 0
    for players, seed in itertools.product([8, 9, 16, 33], range(50)):
        rounds = None if players > 9 or seed % 2 else 7
        event = simulate(players=players, rounds=rounds, seed=seed)
        history = as_history(event)
        ids = event["players"]
        for number, round_ in enumerate(history):
            so_far = history[:number]
            used = rematch_count(so_far, round_)
            if number < players / 2:
                assert used == 0, (players, seed, number + 1)
            else:
                points, ranking = standings(ids, so_far)
                assert used == optimal_rematches(so_far, ids, points, ranking)
        events += 1
    assert events == 200


@pytest.mark.slow
def test_command_writes_the_event(tmp_path):
    env = {**os.environ, "DEBUG": "1"}
    command = [sys.executable, "manage.py", "simulate_tournament", "--players", "9"]
    out = tmp_path / "event.json"
    subprocess.run(
        [*command, "--seed", "4", "--output", str(out)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    assert json.loads(out.read_text()) == simulate(players=9, rounds=None, seed=4)
    printed = subprocess.run(
        [*command, "--seed", "4", "--rounds", "2", "--output", "-"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    assert json.loads(printed.stdout) == simulate(players=9, rounds=2, seed=4)
    failed = subprocess.run(
        [sys.executable, "manage.py", "simulate_tournament", "--players", "1", "--output", "-"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert failed.returncode != 0
    assert "at least 2" in failed.stderr
