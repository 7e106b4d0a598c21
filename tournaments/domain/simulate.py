"""A whole Swiss event with random results, for trying the pairing engine (no database).

`simulate` promises: the same arguments give the same event; every round is paired by
`pairing.pair_round` from the standings so far (match points 3/1/0, then opponents' match-win
percentage with the MTR's 33% floor, then player id); each match is a draw with probability
`draw_probability`, otherwise a coin flip. The result is plain JSON data:
`{"players": [ids], "rounds": [[{"players": [ids in seat order], "winner": id or 0}, ...]]}`,
tables in table-number order and a bye as a table of one player who is its winner.
"""

import math
import random
from collections import defaultdict
from fractions import Fraction

from tournaments.domain.pairing import pair_round
from tournaments.domain.records import MAGIC, PlayerId, Round, Table

FORMATS = ("1v1", "pods")
OMW_FLOOR = Fraction(1, 3)  # MTR Appendix C: each opponent counts at least 33%


def simulate(
    *,
    players: int,
    rounds: int | None = None,
    seed: int,
    format: str = "1v1",
    draw_probability: float = 0.05,
) -> dict:
    """Run an event of `players` players (ids 1..N) for `rounds` rounds (default ceil(log2 N))."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}")
    if format == "pods":
        raise NotImplementedError("pods arrive with the pod pairing issue")
    if players < 2:
        raise ValueError("a Swiss event needs at least 2 players")
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
        points, ranking = standings(ids, history)
        pairing = pair_round(
            players=ids,
            history=history,
            ranking=ranking,
            points=points,
            seed=seed,
            round_number=number,
        )
        tables: list[Table] = []
        for a, b in pairing.tables:
            drawn = rng.random() < draw_probability
            winner = None if drawn else (a if rng.random() < 0.5 else b)
            tables.append(Table((a, b), winner))
        tables.extend(Table((p,), p) for p in pairing.byes)
        history.append(tuple(tables))
        written.append([{"players": list(t.players), "winner": t.winner or 0} for t in tables])
    return {"players": ids, "rounds": written}


def standings(
    ids: list[PlayerId], history: list[Round]
) -> tuple[dict[PlayerId, float], list[PlayerId]]:
    """Match points and the ranking (points, then OMW% with a 1/3 floor, then id)."""
    points: dict[PlayerId, Fraction] = defaultdict(Fraction)
    played: dict[PlayerId, int] = defaultdict(int)
    opponents: dict[PlayerId, list[PlayerId]] = defaultdict(list)
    for round_ in history:
        for table in round_:
            for p in table.players:
                points[p] += Fraction(MAGIC.points(table, p))
                played[p] += 1
            if not table.is_bye:
                a, b = table.players
                opponents[a].append(b)
                opponents[b].append(a)

    def mwp(p: PlayerId) -> Fraction:
        if not played[p]:
            return OMW_FLOOR
        return max(OMW_FLOOR, points[p] / (Fraction(MAGIC.win) * played[p]))

    def omw(p: PlayerId) -> Fraction:
        if not opponents[p]:
            return Fraction(0)
        return sum((mwp(o) for o in opponents[p]), Fraction(0)) / len(opponents[p])

    ranking = sorted(ids, key=lambda p: (-points[p], -omw(p), p))
    return {p: float(points[p]) for p in ids}, ranking
