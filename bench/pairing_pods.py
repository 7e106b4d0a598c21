"""Pod pairing benchmark: whole simulated events against pairings_edh's reference figures.

    .venv/bin/python bench/pairing_pods.py [--sizes 12,16,...] [--seeds 30] [--processes 2]
                                           [--skip-timing] [--round-two 9-40] [--quick]

For 9, 12, 13, 16, 17, 21, 24, 27, 32, 33, 48, 64, 100 and 128 players (the odd sizes seat
players at 3-pods, which a multiple of 4 never does) it plays `--seeds` events (seeds 0, 1, ...)
with `tournaments.domain.simulate.simulate(format="pods")`: ceil(log2 N) rounds, every round
paired by `pair_pods` from the standings so far, each pod a draw with probability 0.2, else won
by a uniformly random player (pairings_edh's random model). It prints a markdown table, per
size: the average badness per player at the end (pairings_edh's measure: meeting someone for
the k-th time adds (k-1)**2), the worst player's badness (the largest over the events), the
average pod point spread (max - min points in a pod) in rounds 2 on, each beside pairings_edh's
reference figure; how many events had no repeat at all; seconds per event; and a verdict,
"better" when both the badness and the spread are below the reference.

Then it times pairing one round of 1,024 and of 4,096 players mid-event: 4 rounds are simulated
for that field, then round 5 is paired with `pair_pods` 3 times (median), against the goals of
1 s and 5 s. No database is used. Events run in `--processes` worker processes; timings are
taken after they finish, in this process alone.

With `--round-two 9-40` it prints instead, per field size of that range, how often round 2
repeats a pairing of round 1: `--seeds` events per size, each played three ways (as it is, one
player dropping after round 1, one entering late for round 2), round 1 random pods with
pairings_edh's random results, round 2 paired from the standings. Beside it, an exhaustive
search (this bench's own, not the pairer's) says in how many of them a round 2 without any
repeat exists; "avoidable" counts the events that repeated where it did not have to.
"""

import argparse
import itertools
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.domain.pods import PodWeights, pair_pods
from tournaments.domain.records import Table
from tournaments.domain.simulate import POD_OMW_FLOOR, pod_metrics, simulate, standings

SIZES = (9, 12, 13, 16, 17, 21, 24, 27, 32, 33, 48, 64, 100, 128)
CHANGES = ("none", "drop", "late")  # round 2 of --round-two: as it is, a drop, a late entry
DRAW = 0.2  # pairings_edh: a pod is drawn 1 time in 5, else a random player wins

# pairings_edh's figures for the same model: N -> (rounds, avg badness, worst, spread).
REFERENCE = {
    12: (4, 3.44, 14, 2.45),
    16: (4, 0.78, 6, 2.50),
    24: (5, 0.94, 8, 2.36),
    32: (5, 0.57, 11, 1.72),
    48: (6, 0.56, 18, 1.34),
    64: (6, 0.33, 11, 0.93),
    100: (7, 0.27, 19, 0.68),
    128: (7, 0.16, 12, 0.50),
}

# Mid-event timing: players -> goal in seconds for pairing round 5 after 4 simulated rounds.
TIMING_GOALS = {1024: 1.0, 4096: 5.0}
TIMING_HISTORY_ROUNDS = 4
TIMING_SEED = 1


def play_event(task: tuple[int, int]) -> dict:
    """One simulated event: its pod_metrics and the seconds it took."""
    players, seed = task
    start = time.perf_counter()
    event = simulate(players=players, seed=seed, format="pods", draw_probability=DRAW)
    seconds = time.perf_counter() - start
    metrics = pod_metrics(event)
    return {"players": players, "seed": seed, "seconds": seconds, **metrics}


def summarise(players: int, runs: list[dict]) -> dict:
    rounds, ref_badness, ref_worst, ref_spread = REFERENCE.get(
        players, (math.ceil(math.log2(players)), None, None, None)
    )
    badness = statistics.fmean(r["badness"] for r in runs)
    spread = statistics.fmean(r["spread"] for r in runs)
    row = {
        "players": players,
        "rounds": rounds,
        "badness": badness,
        "worst": max(r["worst"] for r in runs),
        "spread": spread,
        "clean": sum(r["badness"] == 0 for r in runs),
        "events": len(runs),
        "seconds": statistics.fmean(r["seconds"] for r in runs),
        "ref_badness": ref_badness,
        "ref_worst": ref_worst,
        "ref_spread": ref_spread,
    }
    if ref_badness is None:
        row["verdict"] = "no reference"
    else:
        worse = [
            name
            for name, ours, ref in (
                ("badness", badness, ref_badness),
                ("spread", spread, ref_spread),
            )
            if ours >= ref
        ]
        row["verdict"] = "better" if not worse else f"not better: {' and '.join(worse)}"
    return row


def reference(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def print_row(row: dict) -> None:
    print(
        f"| {row['players']} | {row['rounds']} "
        f"| {row['badness']:.2f} / {reference(row['ref_badness'], '.2f')} "
        f"| {row['worst']} / {reference(row['ref_worst'], 'd')} "
        f"| {row['spread']:.2f} / {reference(row['ref_spread'], '.2f')} "
        f"| {row['clean']} / {row['events']} "
        f"| {row['seconds']:.2f} | {row['verdict']} |",
        flush=True,
    )


def mid_event(players: int) -> dict:
    """Round 5 of a simulated event of `players`: the median of 3 timings of pair_pods."""
    ids = list(range(1, players + 1))
    event = simulate(
        players=players,
        rounds=TIMING_HISTORY_ROUNDS,
        seed=TIMING_SEED,
        format="pods",
        draw_probability=DRAW,
    )
    history = [
        tuple(Table(tuple(t["players"]), t["winner"] or None) for t in tables)
        for tables in event["rounds"]
    ]
    points, ranking = standings(ids, history, floor=POD_OMW_FLOOR)
    times = []
    result = None
    for _ in range(3):
        start = time.perf_counter()
        result = pair_pods(
            players=ids,
            history=history,
            points=points,
            ranking=ranking,
            seed=TIMING_SEED,
            round_number=TIMING_HISTORY_ROUNDS + 1,
            rounds=math.ceil(math.log2(players)),
        )
        times.append(time.perf_counter() - start)
    return {"seconds": statistics.median(times), "badness": result.badness}


def round_two(task: tuple[int, int, str]) -> dict:
    """Round 2 of one event (see the module docstring): its repeated pairs, and whether a
    round 2 without any repeat exists."""
    players, seed, change = task
    rng = random.Random(f"round two:{players}:{seed}:{change}")
    field = list(range(1, players + 1))
    rounds = max(3, math.ceil(math.log2(players)))
    first = pair_pods(
        players=field, history=[], points={}, seed=seed, round_number=1, rounds=rounds
    )
    history = [
        tuple(
            Table(tuple(pod), None if rng.random() < DRAW else rng.choice(pod))
            for pod in first.pods
        )
    ]
    active = list(field)
    if change == "drop":
        active.remove(rng.choice(active))
    elif change == "late":
        active.append(players + 1)
    points, ranking = standings(active, history, floor=POD_OMW_FLOOR)
    second = pair_pods(
        players=active,
        history=history,
        points=points,
        ranking=ranking,
        seed=seed,
        round_number=2,
        rounds=rounds,
    )
    met = {frozenset(pair) for t in history[0] for pair in itertools.combinations(t.players, 2)}
    repeated = sum(
        frozenset(pair) in met for pod in second.pods for pair in itertools.combinations(pod, 2)
    )
    sizes = [len(pod) for pod in second.pods]
    return {"repeated": repeated, "possible": repeat_free_exists(active, sizes, met)}


def repeat_free_exists(players: list[int], sizes: list[int], met: set[frozenset]) -> bool:
    """Exhaustive: whether `players` can sit at pods of `sizes` with no two who met together
    (the lowest player left opens the next pod with every possible set of mates)."""
    left_sizes = {s: sizes.count(s) for s in set(sizes)}

    def seat(left: list[int]) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        free = [p for p in rest if frozenset((first, p)) not in met]
        for size in [s for s in left_sizes if left_sizes[s]]:
            left_sizes[size] -= 1
            for mates in itertools.combinations(free, size - 1):
                if any(frozenset(pair) in met for pair in itertools.combinations(mates, 2)):
                    continue
                if seat([p for p in rest if p not in mates]):
                    left_sizes[size] += 1
                    return True
            left_sizes[size] += 1
        return False

    return seat(sorted(players))


def print_round_two(sizes: list[int], seeds: int, processes: int) -> None:
    print(
        f"Round 2 by field size: {seeds} event(s) per size and change (as it is, a drop, a late "
        f"entry), round 1 random, pods drawn {DRAW:.0%} else a random winner"
    )
    print()
    print(
        "| N | events | round 2 with a repeat | repeated pairs | repeat-free possible | avoidable |"
    )
    print("|---|---|---|---|---|---|")
    tasks = [(n, seed, change) for n in sizes for seed in range(seeds) for change in CHANGES]
    with multiprocessing.Pool(processes) as pool:
        pending = {task: pool.apply_async(round_two, (task,)) for task in tasks}
        totals = [0, 0, 0]
        for n in sizes:
            runs = [pending[t].get() for t in tasks if t[0] == n]
            repeating = sum(r["repeated"] > 0 for r in runs)
            avoidable = sum(r["repeated"] > 0 and r["possible"] for r in runs)
            totals = [totals[0] + len(runs), totals[1] + repeating, totals[2] + avoidable]
            print(
                f"| {n} | {len(runs)} | {repeating} | {sum(r['repeated'] for r in runs)} "
                f"| {sum(r['possible'] for r in runs)} | {avoidable} |",
                flush=True,
            )
    print()
    print(f"round 2 repeated where it could have not: {totals[2]} of {totals[0]} events")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, SIZES)),
        help="comma-separated field sizes (default: %(default)s)",
    )
    parser.add_argument("--seeds", type=int, default=30, help="events per size (default 30)")
    parser.add_argument(
        "--processes",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes for the events (default: one per core, %(default)s)",
    )
    parser.add_argument("--skip-timing", action="store_true", help="skip the 1,024/4,096 timing")
    parser.add_argument(
        "--round-two",
        default="",
        metavar="FIRST-LAST",
        help="instead: round 2's repeats for every field size in this range, e.g. 9-40",
    )
    parser.add_argument(
        "--quick", action="store_true", help="one event of 12, 13 and 16 players, one process"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.seeds, args.processes = "12,13,16", 1, 1
    if args.round_two:
        first, _, last = args.round_two.partition("-")
        if not (first.isdigit() and last.isdigit() and 8 <= int(first) <= int(last)):
            parser.error("--round-two takes a range of field sizes from 8 up, e.g. 9-40")
        print_round_two(list(range(int(first), int(last) + 1)), args.seeds, args.processes)
        return
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if any(n < 3 for n in sizes) or args.seeds < 1 or args.processes < 1:
        parser.error("sizes need at least 3 players; --seeds and --processes at least 1")

    print(
        f"{args.seeds} events per size (seeds 0-{args.seeds - 1}), ceil(log2 N) rounds, "
        f"pods drawn {DRAW:.0%} else a random winner; {PodWeights()}; "
        f"{args.processes} process{'es' if args.processes > 1 else ''}"
    )
    print()
    print(
        "| N | rounds | avg badness ours / ref | worst ours / ref | spread ours / ref "
        "| no repeat | s / event | verdict |"
    )
    print("|---|---|---|---|---|---|---|---|")
    tasks = [(n, seed) for n in sizes for seed in range(args.seeds)]
    rows = []
    with multiprocessing.Pool(args.processes) as pool:
        # Every event queued at once, so no worker waits for a size to finish; each row
        # prints as soon as its size is done.
        pending = {task: pool.apply_async(play_event, (task,)) for task in tasks}
        for n in sizes:
            runs = [pending[(n, seed)].get() for seed in range(args.seeds)]
            rows.append(summarise(n, runs))
            print_row(rows[-1])
    compared = [r for r in rows if r["ref_badness"] is not None]
    better = sum(r["verdict"] == "better" for r in compared)
    print()
    print(f"better than the reference on both badness and spread: {better} of {len(compared)}")

    if args.skip_timing:
        return
    print()
    print(
        f"Pairing round {TIMING_HISTORY_ROUNDS + 1} after {TIMING_HISTORY_ROUNDS} simulated "
        "rounds (median of 3 runs)"
    )
    print()
    print("| players | seconds | goal | round badness | verdict |")
    print("|---|---|---|---|---|")
    for players, goal in TIMING_GOALS.items():
        timing = mid_event(players)
        verdict = "PASS" if timing["seconds"] < goal else "FAIL"
        print(
            f"| {players:,} | {timing['seconds']:.3f} | < {goal:g} s | {timing['badness']} "
            f"| {verdict} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
