"""A whole Swiss event with random results, for trying the pairing engine (no database).

`simulate` promises: the same arguments give the same event; every round is paired from the
standings so far (points 3/1/0, then opponents' match-win percentage, then player id) by
`pairing.pair_round` (1v1; OMW% floored at 33% as in the MTR) or `pods.pair_pods` (pods; floor
25%, par for a 4-player pod). A 1v1 match is a draw with probability `draw_probability` (default
0.05), otherwise a coin flip; a pod, as in pairings_edh's tests, is a draw with probability 0.2
(everyone +1), otherwise won by a uniformly random player (+3), drawn from the pod in id order
so that seating never changes an event's results. The result is plain JSON data:
`{"players": [ids], "rounds": [[{"players": [ids in seat order], "winner": id or 0}, ...]]}`,
tables in table-number order and a bye as a table of one player who is its winner.
"""

import math
import random
from collections import defaultdict
from fractions import Fraction

from tournaments.domain import pairing, pods
from tournaments.domain.pairing import pair_round
from tournaments.domain.pods import PodWeights, badness_by_player, pair_pods
from tournaments.domain.records import MAGIC, PlayerId, Round, Table
from tournaments.domain.standings import POD_OMW_FLOOR  # 25%: par in a 4-player pod

FORMATS = ("1v1", "pods")
OMW_FLOOR = Fraction(1, 3)  # MTR Appendix C: each opponent counts at least 33%
DRAW_PROBABILITY = {"1v1": 0.05, "pods": 0.2}
FEWEST_PLAYERS = {"1v1": pairing.FEWEST_PLAYERS, "pods": pods.FEWEST_PLAYERS}


def simulate(
    *,
    players: int,
    rounds: int | None = None,
    seed: int,
    format: str = "1v1",
    draw_probability: float | None = None,
    layout: str = "threes",
    weights: PodWeights | None = None,
) -> dict:
    """Run an event of `players` players (ids 1..N) for `rounds` rounds (default ceil(log2 N))."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}")
    if draw_probability is None:
        draw_probability = DRAW_PROBABILITY[format]
    if players < FEWEST_PLAYERS[format]:
        raise ValueError(
            f"a Swiss event of {format} needs at least {FEWEST_PLAYERS[format]} players"
        )
    if rounds is None:
        rounds = math.ceil(math.log2(players))
    if rounds < 1:
        raise ValueError("an event has at least 1 round")
    if not 0.0 <= draw_probability <= 1.0:
        raise ValueError("draw_probability must be between 0 and 1")

    ids = list(range(1, players + 1))
    rng = random.Random(seed)
    history: list[Round] = []
    written: list[list[dict]] = []
    for number in range(1, rounds + 1):
        seated, byes = PAIRERS[format](
            ids, history, seed=seed, number=number, rounds=rounds, layout=layout, weights=weights
        )
        tables = [Table(players, _winner(players, rng, draw_probability)) for players in seated]
        tables.extend(Table((p,), p) for p in byes)
        history.append(tuple(tables))
        written.append([{"players": list(t.players), "winner": t.winner or 0} for t in tables])
    return {"players": ids, "rounds": written}


def _pair_matches(ids, history, *, seed, number, **_pods):
    """1v1: `pairing.pair_round` from the standings (OMW% floored at 33%)."""
    points, ranking = standings(ids, history)
    matches = pair_round(
        players=ids,
        history=history,
        ranking=ranking,
        points=points,
        seed=seed,
        round_number=number,
    )
    return matches.tables, matches.byes


def _pair_pods(ids, history, *, seed, number, rounds, layout, weights):
    """Pods: `pods.pair_pods` from the standings (OMW% floored at 25%)."""
    points, ranking = standings(ids, history, floor=POD_OMW_FLOOR)
    paired = pair_pods(
        players=ids,
        history=history,
        points=points,
        ranking=ranking,
        seed=seed,
        round_number=number,
        layout=layout,
        weights=weights,
        rounds=rounds,
    )
    return paired.pods, paired.byes


PAIRERS = {"1v1": _pair_matches, "pods": _pair_pods}


def _winner(players: tuple[PlayerId, ...], rng: random.Random, draw_probability: float):
    """A random result: a draw (None) with `draw_probability`, else a uniformly random winner."""
    if rng.random() < draw_probability:
        return None
    if len(players) == 2:  # a coin flip, as the 1v1 simulation has always drawn it
        return players[0] if rng.random() < 0.5 else players[1]
    return rng.choice(sorted(players))  # seat-blind: seating never changes an event


def standings(
    ids: list[PlayerId], history: list[Round], floor: Fraction = OMW_FLOOR
) -> tuple[dict[PlayerId, float], list[PlayerId]]:
    """Match points and the ranking (points, then OMW% with a floor (1/3), then id); every
    other player at a table is an opponent."""
    points: dict[PlayerId, Fraction] = defaultdict(Fraction)
    played: dict[PlayerId, int] = defaultdict(int)
    opponents: dict[PlayerId, list[PlayerId]] = defaultdict(list)
    for round_ in history:
        for table in round_:
            for p in table.players:
                points[p] += Fraction(MAGIC.points(table, p))
                played[p] += 1
            if not table.is_bye:
                for a in table.players:
                    opponents[a].extend(b for b in table.players if b != a)

    def mwp(p: PlayerId) -> Fraction:
        if not played[p]:
            return floor
        return max(floor, points[p] / (Fraction(MAGIC.win) * played[p]))

    def omw(p: PlayerId) -> Fraction:
        if not opponents[p]:
            return Fraction(0)
        return sum((mwp(o) for o in opponents[p]), Fraction(0)) / len(opponents[p])

    ranking = sorted(ids, key=lambda p: (-points[p], -omw(p), p))
    return {p: float(points[p]) for p in ids}, ranking


def pod_metrics(event: dict) -> dict[str, float]:
    """pairings_edh's measures of a simulated pod event: the average and the worst player's
    badness at the end, and the average pod point spread (max - min points when paired) over
    rounds 2 on."""
    ids = event["players"]
    history: list[Round] = []
    spreads: list[float] = []
    for number, tables in enumerate(event["rounds"], 1):
        points, _ = standings(ids, history)
        round_ = tuple(Table(tuple(t["players"]), t["winner"] or None) for t in tables)
        if number > 1:
            spreads.extend(
                max(points[p] for p in t.players) - min(points[p] for p in t.players)
                for t in round_
                if not t.is_bye
            )
        history.append(round_)
    badness = badness_by_player(history)
    values = [badness.get(p, 0) for p in ids]
    return {
        "badness": sum(values) / len(values),
        "worst": max(values),
        "spread": sum(spreads) / len(spreads) if spreads else 0.0,
    }
