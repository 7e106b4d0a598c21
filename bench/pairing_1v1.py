"""1v1 pairing benchmark: our engine beside swisspair (a C++ Swiss pairer) on the same rounds,
then the two bye settings (strict MTR, avoid rematches) on the same simulated events.

    DEBUG=1 .venv/bin/python bench/pairing_1v1.py [--events 5] [--seed 1] [--bye-seeds 7]
    DEBUG=1 .venv/bin/python bench/pairing_1v1.py --quick   # one event of 64, 2 bye events

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

The bye settings (`pair_round(bye_pairing=...)`, the event's `bye_pairing`): `--bye-seeds`
events (default 7) for each of 12 field sizes from 6 to 47 players, 84 events in all, with
ceil(log2 N) rounds (at least 3; the MTR's recommended counts), then the same 84 with two
rounds more (where rematches start to bind). About one player in 8 enters late (round 2 or
3) and about one in 6 drops after a round from round 2 on, so odd fields and byes come and
go. Every event is played once per setting; the field, the entries, the drops and every
result are fixed by the event's seed (a match's result depends only on the two players, the
round and hidden skills, never on the setting), so the settings are compared on the same
events. Each round is paired from the standings so far (points, OMW% floored at 1/3, id).
Per size and setting: rounds with a bye, the byes that went to someone other than the MTR's
player (the lowest-ranked active player among those with the fewest byes) and the rematches
paired; then the totals.
"""

import argparse
import importlib
import math
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.domain.byes import pick_byes
from tournaments.domain.pairing import BYE_PAIRINGS, pair_round
from tournaments.domain.records import MAGIC, Table
from tournaments.domain.simulate import standings

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


# --- the bye settings -------------------------------------------------------------------------

BYE_SIZES = (6, 7, 9, 10, 11, 13, 15, 17, 21, 25, 33, 47)
BYE_EXTRA_ROUNDS = (0, 2)  # the MTR's round counts, then two rounds more (a long event)


def bye_event_plan(players: int, seed: int, extra_rounds: int = 0) -> dict:
    """The fixed part of one event: rounds, hidden skills, who enters late, who drops when."""
    rng = random.Random(f"bye-event-{players}-{seed}")
    rounds = max(3, math.ceil(math.log2(players))) + extra_rounds
    ids = list(range(1, players + 1))
    skill = {p: rng.gauss(0, 1) for p in ids}
    enters = {p: (rng.choice((2, 3)) if rng.random() < 1 / 8 else 1) for p in ids}
    if sum(enters[p] == 1 for p in ids) < 4:  # round 1 needs a field
        enters = dict.fromkeys(ids, 1)
    # Leaves after round `drops[p]` (from round 2 on, before the last), or never.
    drops: dict[int, int | None] = {}
    for p in ids:
        first = max(2, enters[p])
        leaves = rng.random() < 1 / 6 and first <= rounds - 1
        drops[p] = rng.randint(first, rounds - 1) if leaves else None
    for number in range(2, rounds + 1):  # keep at least 4 players in every round
        while sum(enters[p] <= number and (drops[p] or rounds) >= number for p in ids) < 4:
            drops[next(p for p in ids if drops[p] is not None and drops[p] < number)] = None
    return {"rounds": rounds, "ids": ids, "skill": skill, "enters": enters, "drops": drops}


def match_result(plan: dict, seed: int, number: int, a: int, b: int):
    """The winner of a against b in round `number`, or None for a draw (5%): the same for any
    pairing setting, from the players' hidden skills and a per-match seeded draw."""
    low, high = min(a, b), max(a, b)
    roll = random.Random(f"{seed}-{number}-{low}-{high}").random()
    if roll < DRAW:
        return None
    p_low = 1 / (1 + math.exp(plan["skill"][high] - plan["skill"][low]))
    return low if (roll - DRAW) / (1 - DRAW) < p_low else high


def play_bye_event(plan: dict, seed: int, bye_pairing: str) -> dict:
    """One event under one bye setting: rounds with a bye, byes moved off the MTR's player,
    rematches paired."""
    history = []
    byes_had: dict[int, int] = {}
    met: set[frozenset] = set()
    out = {"bye_rounds": 0, "moved": 0, "rematches": 0}
    for number in range(1, plan["rounds"] + 1):
        active = [
            p
            for p in plan["ids"]
            if plan["enters"][p] <= number
            and (plan["drops"][p] is None or plan["drops"][p] >= number)
        ]
        points, ranking = standings(plan["ids"], history)
        ranking = [p for p in ranking if p in set(active)]
        pairing = pair_round(
            players=active,
            history=history,
            ranking=ranking,
            points=points,
            seed=seed,
            round_number=number,
            bye_pairing=bye_pairing,
        )
        if pairing.byes and any(history):
            out["bye_rounds"] += 1
            [mtr_player] = pick_byes(ranking, lambda p: byes_had.get(p, 0), 1)
            out["moved"] += pairing.byes[0] != mtr_player
        out["rematches"] += sum(frozenset(t) in met for t in pairing.tables)
        tables = [Table((a, b), match_result(plan, seed, number, a, b)) for a, b in pairing.tables]
        for p in pairing.byes:
            tables.append(Table((p,), p))
            byes_had[p] = byes_had.get(p, 0) + 1
        met.update(frozenset(t) for t in pairing.tables)
        history.append(tuple(tables))
    return out


def bye_settings(seeds: int, extra_rounds: int, sizes=BYE_SIZES) -> None:
    events = seeds * len(sizes)
    rounds = "ceil(log2 N) rounds (at least 3)" + (f" + {extra_rounds}" if extra_rounds else "")
    print()
    print(
        f"Bye settings: {events} events ({seeds} per size), {rounds}, late entries and drops, "
        "the same events and results under each setting (round 1's random bye not counted)"
    )
    header = (
        f"| players | events | rounds with a bye | byes moved {' / '.join(BYE_PAIRINGS)} | "
        f"rematches {' / '.join(BYE_PAIRINGS)} |"
    )
    print(header)
    print("|---|---|---|---|---|")
    totals = {setting: {"bye_rounds": 0, "moved": 0, "rematches": 0} for setting in BYE_PAIRINGS}
    moved_events = 0
    for players in sizes:
        row = {setting: {"bye_rounds": 0, "moved": 0, "rematches": 0} for setting in BYE_PAIRINGS}
        for seed in range(seeds):
            plan = bye_event_plan(players, seed, extra_rounds)
            results = {s: play_bye_event(plan, seed, s) for s in BYE_PAIRINGS}
            moved_events += results["avoid_rematch"]["moved"] > 0
            for setting, result in results.items():
                for key, value in result.items():
                    row[setting][key] += value
                    totals[setting][key] += value
        mtr, avoid = row["mtr"], row["avoid_rematch"]
        print(
            f"| {players} | {seeds} | {mtr['bye_rounds']} | "
            f"{mtr['moved']} / {avoid['moved']} | {mtr['rematches']} / {avoid['rematches']} |",
            flush=True,
        )
    mtr, avoid = totals["mtr"], totals["avoid_rematch"]
    print(
        f"| all | {events} | {mtr['bye_rounds']} | "
        f"{mtr['moved']} / {avoid['moved']} | {mtr['rematches']} / {avoid['rematches']} |"
    )
    print()
    print(
        f"avoid_rematch moved the bye {avoid['moved']} times in {avoid['bye_rounds']} rounds "
        f"with a bye ({moved_events} of {events} events) and paired {avoid['rematches']} "
        f"rematches; mtr moved it {mtr['moved']} times and paired {mtr['rematches']}"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=5, help="events per size (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bye-seeds", type=int, default=7, help="bye-setting events per size (default 7)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="one event of 64 players, 2 bye-setting events"
    )
    args = parser.parse_args(argv)
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
    if args.quick:
        bye_settings(1, 2, sizes=(9, 13))
    else:
        for extra_rounds in BYE_EXTRA_ROUNDS:
            bye_settings(args.bye_seeds, extra_rounds)


if __name__ == "__main__":
    main()
