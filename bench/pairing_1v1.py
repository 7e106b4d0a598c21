"""1v1 pairing benchmark: our engine beside swisspair (a C++ Swiss pairer) on the same rounds.

    DEBUG=1 .venv/bin/python bench/pairing_1v1.py [--events 5] [--seed 1]
    DEBUG=1 .venv/bin/python bench/pairing_1v1.py --quick   # one event of 64: proves it runs

For 64, 512, 1,024 and 4,096 players it builds `--events` events of 5 rounds of random
history (seeded: round 1 random, then a plain top-down Swiss by points with random results,
5% draws), then pairs round 6 with `tournaments.domain.pairing.pair_round` and with
`swisspair.create_matches` on the same players, points, standings order and past opponents.
Prints, per size: seconds (median over events of the median of 3 runs) for ours and for
swisspair, rematches and the sum over tables of the squared points difference (totals over
the events) for each, and how many events ours used a rematch although swisspair found a
rematch-free round (an avoidable rematch). The goal check is printed at the bottom:
no avoidable rematch, spread never worse than swisspair's, at most 2x its time at 4,096.

swisspair is installed into the running environment on first use (the bench only; it is not a
project requirement). It forbids rematches outright, uses an exact min-cost matching below 128
players and a randomised depth-first search from 128 up (so its pairings vary run to run), and
takes integer points with ranks 1..N in standings order.
"""

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.domain.pairing import pair_round
from tournaments.domain.records import MAGIC, Table

SWISSPAIR = "swisspair==0.2.1"
SIZES = (64, 512, 1024, 4096)
HISTORY_ROUNDS = 5
DRAW = 0.05


def load_swisspair():
    try:
        return importlib.import_module("swisspair")
    except ImportError:
        print(f"Installing {SWISSPAIR} for the benchmark ...", flush=True)
        subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", SWISSPAIR])
        importlib.invalidate_caches()
        return importlib.import_module("swisspair")


def build_event(players: int, seed: int):
    """(ids, history, points, ranking) after 5 rounds of a plain Swiss with random results."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    points = dict.fromkeys(ids, 0.0)
    met: set[frozenset] = set()
    history = []
    for number in range(HISTORY_ROUNDS):
        order = list(ids)
        rng.shuffle(order)
        if number:
            order.sort(key=lambda p: -points[p])  # stable: random order inside a score
        tables = []
        while order:
            a = order.pop(0)
            # The first player below not met yet (a rematch only if there is none).
            k = next((k for k, b in enumerate(order) if frozenset((a, b)) not in met), 0)
            b = order.pop(k)
            roll = rng.random()
            winner = None if roll < DRAW else (a if roll < (1 + DRAW) / 2 else b)
            tables.append(Table((a, b), winner))
            met.add(frozenset((a, b)))
        for table in tables:
            for p in table.players:
                points[p] += MAGIC.points(table, p)
        history.append(tuple(tables))
    ranking = sorted(ids, key=lambda p: (-points[p], rng.random()))
    return ids, history, points, ranking


def median_time(function, repeat=3):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def measure(swisspair, players: int, seed: int) -> dict:
    ids, history, points, ranking = build_event(players, seed)

    def ours():
        return pair_round(
            players=ids,
            history=history,
            ranking=ranking,
            points=points,
            seed=seed,
            round_number=HISTORY_ROUNDS + 1,
        )

    ours_seconds, result = median_time(ours)
    met = {}
    byes = set()
    for round_ in history:
        for table in round_:
            if table.is_bye:
                byes.add(table.players[0])
                continue
            a, b = table.players
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    entrants = [
        swisspair.Player(
            id=str(p),
            points=int(points[p]),
            rank=k + 1,
            can_get_bye=p not in byes,
            cannot_be_paired_against_ids={str(q) for q in met.get(p, ())},
        )
        for k, p in enumerate(ranking)
    ]
    try:
        sp_seconds, matches = median_time(lambda: swisspair.create_matches(entrants))
        sp_tables = [(int(m.p1.id), int(m.p2.id)) for m in matches if not m.is_bye]
        complete = 2 * len(sp_tables) + sum(m.is_bye for m in matches) == players
    except Exception as error:  # it has no answer when every pairing repeats a match
        sp_seconds, sp_tables, complete = float("nan"), [], False
        print(f"  swisspair failed on {players} players, seed {seed}: {error}")

    def rematches(tables):
        return sum(1 for a, b in tables if b in met.get(a, ()))

    def spread(tables):
        return sum((points[a] - points[b]) ** 2 for a, b in tables)

    return {
        "ours_s": ours_seconds,
        "sp_s": sp_seconds,
        "ours_rematches": rematches(result.tables),
        "sp_rematches": rematches(sp_tables) if complete else None,
        "ours_spread": spread(result.tables),
        "sp_spread": spread(sp_tables) if complete else None,
        "avoidable": bool(result.rematches) and complete and not rematches(sp_tables),
        "sp_complete": complete,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=5, help="events per size (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="one event of 64 players only")
    args = parser.parse_args()
    sizes = (64,) if args.quick else SIZES
    if args.quick:
        args.events = 1
    swisspair = load_swisspair()

    header = (
        f"{'players':>7} | {'ours s':>8} | {'swisspair s':>11} | {'ratio':>5} | "
        f"{'rematches ours/sp':>17} | {'sq. point diff ours/sp':>22} | {'avoidable':>9}"
    )
    print(
        f"Round {HISTORY_ROUNDS + 1} after {HISTORY_ROUNDS} random rounds, "
        f"{args.events} events per size, times: median of events of median of 3 runs"
    )
    print(header)
    print("-" * len(header))
    rows = {}
    for players in sizes:
        runs = [measure(swisspair, players, args.seed * 1000 + e) for e in range(args.events)]
        ours_s = statistics.median(r["ours_s"] for r in runs)
        sp_s = statistics.median(r["sp_s"] for r in runs)
        done = [r for r in runs if r["sp_complete"]]
        row = {
            "ours_s": ours_s,
            "sp_s": sp_s,
            "ours_rm": sum(r["ours_rematches"] for r in runs),
            "sp_rm": sum(r["sp_rematches"] for r in done),
            "ours_sq": sum(r["ours_spread"] for r in runs),
            "sp_sq": sum(r["sp_spread"] for r in done),
            "avoidable": sum(r["avoidable"] for r in runs),
            "worse_spread": sum(r["ours_spread"] > r["sp_spread"] for r in done),
            "sp_failed": len(runs) - len(done),
        }
        rows[players] = row
        failed = f" ({row['sp_failed']} failed)" if row["sp_failed"] else ""
        print(
            f"{players:>7} | {ours_s:>8.4f} | {sp_s:>11.4f} | {ours_s / sp_s:>5.2f} | "
            f"{row['ours_rm']:>8} / {row['sp_rm']:<6} | "
            f"{row['ours_sq']:>10.0f} / {row['sp_sq']:<9.0f} | {row['avoidable']:>9}{failed}",
            flush=True,
        )

    avoidable = sum(r["avoidable"] for r in rows.values())
    worse = sum(r["worse_spread"] for r in rows.values())
    largest = max(rows)
    ratio = rows[largest]["ours_s"] / rows[largest]["sp_s"]
    print()
    print("Goal check")
    print(
        f"  never an avoidable rematch:        {'PASS' if not avoidable else 'FAIL'} "
        f"({avoidable} events)"
    )
    print(
        f"  spread no worse than swisspair's:  {'PASS' if not worse else 'FAIL'} "
        f"({worse} events worse)"
    )
    if largest == 4096:
        verdict = "PASS" if ratio <= 2 else "FAIL"
        print(f"  at most 2x swisspair at 4,096:     {verdict} ({ratio:.2f}x)")
    else:
        print(f"  at most 2x swisspair at 4,096:     not measured ({ratio:.2f}x at {largest:,})")


if __name__ == "__main__":
    main()
