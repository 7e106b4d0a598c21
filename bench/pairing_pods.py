"""Pod pairing benchmark: whole simulated events against pairings_edh's reference figures.

    .venv/bin/python bench/pairing_pods.py [--sizes 12,16,...] [--seeds 30] [--processes 2]
                                           [--skip-timing] [--quick]

For 12, 16, 24, 32, 48, 64, 100 and 128 players it plays `--seeds` events (seeds 0, 1, ...)
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
"""

import argparse
import math
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.domain.pods import PodWeights, pair_pods
from tournaments.domain.records import Table
from tournaments.domain.simulate import POD_OMW_FLOOR, pod_metrics, simulate, standings

SIZES = (12, 16, 24, 32, 48, 64, 100, 128)
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


def main() -> None:
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
        "--quick", action="store_true", help="one event of 12 and of 16 players, one process"
    )
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.seeds, args.processes = "12,16", 1, 1
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
