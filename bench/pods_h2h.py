"""Pod pairers head to head: Guildhall, cedh_matching (C) and pairings_edh (Python) on one event.

    .venv/bin/python bench/pods_h2h.py [--sizes 12,16,...] [--events N] [--first-seed 0]
                                       [--rounds 5] [--weights JSON] [--processes 1]
                                       [--per-round] [--quick]

Every pairer pairs the same events: players 1..N with hidden skills (normal, seeded by the
event), 5 rounds (`--rounds`; not ceil(log2 N), so every size plays as long), and on every
other event (odd seeds) a tenth of the field (at least one player, chosen by the event's seed,
the same players for every pairer) drops after round 2. A pod's result depends only on the
event, the round and who sits at it: drawn with probability 0.2 (everyone +1), else won (+3)
by a player drawn with weights exp(skill), from a generator seeded by (event, round, players),
so equal pods get equal results whichever pairer made them. Each pairer gets the event so far
(the protocol of cedh_matching: players still in, rounds of tables with winners) and pairs its
own first round.

- Guildhall: `tournaments.domain.pods.pair_pods`, points 3/1/0 and the standings of
  `domain.simulate` (told the event's `--rounds`), default weights or those of `--weights`
  (a JSON object of `PodWeights` fields, e.g. '{"repeat": 0.8}').
- cedh_matching: its own program, built with cmake from `../shared/references/cedh_matching`
  into a temporary folder, run per round with `--seed <event>` and its web interface's default
  weights (rematch 0.5, non_equal_scores 0.1, 3_player_table 0.2).
- pairings_edh: `script.py --next` from a temporary copy of `../shared/references/pairings_edh`
  (it writes a folder beside itself), in a virtualenv this bench makes in the temporary folder
  with the pinned packages below and a stub `ipydex`; its config.json as published (pairing
  variant 4). It fails once a player has dropped: those events count as not finished.

Printed per size and pairer: events finished; repeat badness (pairings_edh's measure: the k-th
meeting of a pair adds (k-1)**2 to each of the two), summed over players and events; the
average pod point spread (max - min points at a pod when paired, rounds 2 on); the worst-treated
player's badness (the largest over the events); the first-seat spread (per event, max - min of
how often the players who stayed to the end sat first; the largest, then each finished event's). A
reference is compared with Guildhall on the events it finished; the verdict says on which
measures Guildhall is not ahead, and beside it is Guildhall's lead (the reference's badness per
event and pod spread less Guildhall's) with a 95% bootstrap interval, the events resampled in
pairs. A verdict that turns on a few events shows as an interval across zero; the last line
names the measures where the whole interval is below zero, behind beyond chance. With
`--per-round`, a second table splits the average pod spread and the repeat badness by round
(each reference beside Guildhall on the events it finished), to show which rounds the spread
and the repeats come from. The events are seeds `--first-seed` on (default 0), so another
batch of events can check a result: by default 24 per size up to 32 players and 6 above
(`--events` sets one count for every size), because at 16 players six events are noise
(Guildhall's own seed alone moves its badness by a fifth; bench/README.md) while a large
field's events take long and differ less.
"""

import argparse
import ast
import atexit
import contextlib
import fcntl
import json
import math
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.domain.pods import PodPairingError, PodWeights, badness_by_player, pair_pods
from tournaments.domain.records import Table
from tournaments.domain.simulate import POD_OMW_FLOOR, standings

ROOT = Path(__file__).resolve().parents[1]
# `../shared/references` beside the checkout; from a worktree (wt/<name>) one level further up.
REFERENCES = next(
    (d / "shared" / "references" for d in ROOT.parents if (d / "shared" / "references").is_dir()),
    ROOT.parent / "shared" / "references",
)
WORK = Path(tempfile.gettempdir()) / "guildhall-bench-pods-h2h"
# The odd sizes seat players at 3-pods (17 = 4 + 4 + 3 + 3 + 3), which a multiple of 4 never does.
SIZES = (9, 12, 13, 16, 17, 21, 24, 27, 32, 33, 48, 64, 100, 128)
# Events per size by default: small fields are noisy (at 16 players six events move Guildhall's
# badness by a fifth with only its own seed changed; see bench/README.md), larger ones slow.
SMALL_EVENTS, SMALL_UP_TO, EVENTS = 24, 32, 6
DRAW = 0.2
DROP_AFTER = 2  # rounds played before the droppers leave
DROP_SHARE = 0.1
CM_WEIGHTS = {"rematch": 0.5, "non_equal_scores": 0.1, "3_player_table": 0.2}
PE_PACKAGES = ("numpy==2.1.3", "pandas==2.2.3", "names==0.3.0", "colorama==0.4.6")
IPYDEX_STUB = (
    "def IPS(*args, **kwargs):\n    pass\n\n\ndef activate_ips_on_exception():\n    pass\n"
)
PAIRERS = ("guildhall", "cedh_matching", "pairings_edh")


# ---------------------------------------------------------------------------------------------
# Building the references (once; reused from the temporary folder)


@contextlib.contextmanager
def setup_lock():
    """One run at a time builds cedh_matching and makes the virtualenv, both shared in WORK:
    two runs started together once configured the same cmake folder at once, and one of them
    went on without cedh_matching."""
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / "setup.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build_cedh_matching() -> tuple[Path | None, str]:
    """The built program, or None and why not."""
    build = WORK / "cm-build"
    if not shutil.which("cmake"):
        return None, "cmake is not installed"
    steps = [
        [
            "cmake",
            "-S",
            str(REFERENCES / "cedh_matching"),
            "-B",
            str(build),
            "-DCMAKE_BUILD_TYPE=Release",
        ],
        ["cmake", "--build", str(build)],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode:
            return None, f"{' '.join(step[:2])} failed: {done.stderr.strip()[-300:]}"
    return build / "cedh_matching", "built with cmake"


def prepare_pairings_edh() -> tuple[Path | None, str]:
    """A folder holding a copy of pairings_edh, its virtualenv and the ipydex stub."""
    home = WORK / "pe"
    python = home / "venv" / "bin" / "python"
    marker = home / "venv" / "packages.txt"
    if not (REFERENCES / "pairings_edh" / "script.py").exists():
        return None, f"no pairings_edh in {REFERENCES}"
    if not (marker.exists() and marker.read_text() == "\n".join(PE_PACKAGES)):
        shutil.rmtree(home / "venv", ignore_errors=True)
        made = subprocess.run(
            [sys.executable, "-m", "venv", str(home / "venv")], capture_output=True, text=True
        )
        if made.returncode:
            return None, f"venv failed: {made.stderr.strip()[-300:]}"
        pip = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", *PE_PACKAGES],
            capture_output=True,
            text=True,
        )
        if pip.returncode:
            return None, f"pip install failed: {pip.stderr.strip()[-300:]}"
        marker.write_text("\n".join(PE_PACKAGES))
    # This run's own copy of the code (the virtualenv is shared): two runs at once once
    # deleted each other's copy mid-event.
    run = Path(tempfile.mkdtemp(prefix="pe-run-", dir=WORK))
    (run / "venv").symlink_to(home / "venv")
    shutil.copytree(REFERENCES / "pairings_edh", run / "code")
    (run / "stub").mkdir()
    (run / "stub" / "ipydex.py").write_text(IPYDEX_STUB)
    return run, "virtualenv with " + ", ".join(PE_PACKAGES)


# ---------------------------------------------------------------------------------------------
# One event


def skills(players: int, seed: int) -> dict[int, float]:
    rng = random.Random(f"skills:{seed}")
    return {p: rng.gauss(0.0, 1.0) for p in range(1, players + 1)}


def droppers(players: int, seed: int) -> set[int]:
    if seed % 2 == 0:
        return set()
    count = max(1, round(DROP_SHARE * players))
    count = min(count, players - 6)  # pairings_edh needs 6 players, every pairer 3
    rng = random.Random(f"drops:{seed}")
    return set(rng.sample(range(1, players + 1), max(0, count)))


def result(seed: int, number: int, pod: list[int], skill: dict[int, float]) -> int:
    """The winner of `pod` in round `number` of event `seed` (0: a draw); the same pod in the
    same round of the same event always gets the same result."""
    rng = random.Random(f"result:{seed}:{number}:{sorted(pod)}")
    if rng.random() < DRAW:
        return 0
    return rng.choices(pod, weights=[math.exp(skill[p]) for p in pod])[0]


def pair_guildhall(active, history, number, rounds, seed, weights=None) -> list[list[int]]:
    past = [tuple(Table(tuple(t["players"]), t["winner"] or None) for t in r) for r in history]
    points, ranking = standings(active, past, floor=POD_OMW_FLOOR)
    pairing = pair_pods(
        players=active,
        history=past,
        points=points,
        ranking=ranking,
        seed=seed,
        round_number=number,
        rounds=rounds,
        weights=PodWeights.from_mapping(weights) if weights else None,
    )
    return [list(pod) for pod in pairing.pods] + [[p] for p in pairing.byes]


def pair_cedh_matching(program, active, history, seed) -> list[list[int]]:
    request = {"weights": CM_WEIGHTS, "rounds": history, "players": active}
    done = subprocess.run(
        [str(program), "--seed", str(seed)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode:
        raise RuntimeError(done.stderr.strip()[-300:] or done.stdout.strip()[-300:])
    return [list(t["players"]) for t in json.loads(done.stdout)["placements"]]


def pair_pairings_edh(home, active, history, number, seed) -> list[list[int]]:
    request = home / f"request-{os.getpid()}.json"
    request.write_text(json.dumps({"players": active, "rounds": history}))
    done = subprocess.run(
        [str(home / "venv" / "bin" / "python"), "script.py", "--next", str(request)],
        cwd=home / "code",
        env={**os.environ, "PYTHONPATH": str(home / "stub")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "")
    response = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    return [list(t["players"]) for t in response["placements"]]


def play(task: tuple) -> dict:
    """One event with one pairer: its measures, or `finished: False` and why."""
    pairer, players, seed, rounds, tools, weights = task
    skill = skills(players, seed)
    leaving = droppers(players, seed)
    history: list[list[dict]] = []
    active = list(range(1, players + 1))
    for number in range(1, rounds + 1):
        if number == DROP_AFTER + 1:
            active = [p for p in active if p not in leaving]
        try:
            if pairer == "guildhall":
                pods = pair_guildhall(active, history, number, rounds, seed, weights)
            elif pairer == "cedh_matching":
                pods = pair_cedh_matching(tools[pairer], active, history, seed)
            else:
                pods = pair_pairings_edh(tools[pairer], active, history, number, seed)
        except Exception as error:  # a reference that fails: the event is not finished
            return {"finished": False, "why": f"round {number}: {error}"[:200]}
        seated = sorted(p for pod in pods for p in pod)
        if seated != sorted(active):
            return {"finished": False, "why": f"round {number}: not everyone seated once"}
        history.append(
            [
                {
                    "players": pod,
                    "winner": pod[0] if len(pod) == 1 else result(seed, number, pod, skill),
                }
                for pod in pods
            ]
        )
    return {"finished": True, **measure(history, active)}


def measure(history: list[list[dict]], stayed: list[int]) -> dict:
    past = []
    spreads = []
    by_round = []  # per round: spread summed over its pods, its pods, the badness it added
    added = 0
    for number, tables in enumerate(history, 1):
        ids = sorted({p for r in history for t in r for p in t["players"]})
        points, _ = standings(ids, past, floor=POD_OMW_FLOOR)
        round_ = tuple(Table(tuple(t["players"]), t["winner"] or None) for t in tables)
        here = [
            max(points[p] for p in t.players) - min(points[p] for p in t.players)
            for t in round_
            if not t.is_bye
        ]
        if number > 1:
            spreads.extend(here)
        past.append(round_)
        total = sum(badness_by_player(past).values())
        by_round.append((sum(here), len(here), total - added))
        added = total
    badness = badness_by_player(past)
    first = Counter(t["players"][0] for r in history for t in r if len(t["players"]) > 1)
    firsts = [first[p] for p in stayed]
    return {
        "badness": sum(badness.values()),
        "worst": max(badness.values(), default=0),
        "spread_sum": sum(spreads),
        "pods": len(spreads),
        "first_seat": max(firsts) - min(firsts),
        "by_round": by_round,
    }


# ---------------------------------------------------------------------------------------------
# The table


def summary(runs: list[dict]) -> dict:
    done = [r for r in runs if r["finished"]]
    if not done:
        return {"events": 0}
    pods = sum(r["pods"] for r in done)
    return {
        "events": len(done),
        "badness": sum(r["badness"] for r in done),
        "spread": sum(r["spread_sum"] for r in done) / pods if pods else 0.0,
        "worst": max(r["worst"] for r in done),
        "first_seat": max(r["first_seat"] for r in done),
        "first_seats": " ".join(str(r["first_seat"]) for r in done),
    }


def per_round(runs: list[dict]) -> str:
    """Each round's average pod spread / repeat badness over the finished events."""
    done = [r for r in runs if r["finished"]]
    cells = []
    for number in range(len(done[0]["by_round"])):
        spread = sum(r["by_round"][number][0] for r in done)
        pods = sum(r["by_round"][number][1] for r in done)
        badness = sum(r["by_round"][number][2] for r in done)
        cells.append(f"{spread / pods if pods else 0.0:.2f} / {badness}")
    return " | ".join(cells)


RESAMPLES = 2000  # bootstrap resamples for the lead's interval


def lead_interval(ours: list[dict], theirs: list[dict], resamples: int = RESAMPLES) -> dict:
    """Guildhall's lead over a reference on the same finished events (theirs minus ours, so
    positive is Guildhall ahead), with a 95% bootstrap interval: the events are resampled with
    replacement, the same ones for both pairers, and the lead recomputed on each resample.
    Badness is per event; spread is pooled over the pods, as in the table. Seeded, so a run
    prints the same interval twice."""
    pairs = list(zip(ours, theirs, strict=True))
    if not pairs:
        raise ValueError("no events to compare")

    def lead(sample: list[tuple[dict, dict]]) -> tuple[float, float]:
        o, t = summary([o for o, _ in sample]), summary([t for _, t in sample])
        return (t["badness"] - o["badness"]) / len(sample), t["spread"] - o["spread"]

    rng = random.Random("lead")
    samples = [lead([rng.choice(pairs) for _ in pairs]) for _ in range(resamples)]
    badnesses = sorted(b for b, _ in samples)
    spreads = sorted(s for _, s in samples)
    low, high = int(0.025 * resamples), int(0.975 * resamples) - 1
    badness, spread = lead(pairs)
    return {
        "badness": (badness, badnesses[low], badnesses[high]),
        "spread": (spread, spreads[low], spreads[high]),
    }


def described(gap: dict) -> str:
    """'lead per event (95%): badness 1.2 (-0.5 to 3.0), spread 0.05 (0.01 to 0.09)'"""
    return "lead per event (95%): " + ", ".join(
        f"{name} {value:.{digits}f} ({low:.{digits}f} to {high:.{digits}f})"
        for name, digits in (("badness", 1), ("spread", 2))
        for value, low, high in [gap[name]]
    )


def verdict(ours: dict, theirs: dict) -> str:
    if not theirs.get("events"):
        return "no finished event"
    behind = [
        name
        for name, worse in (
            ("badness", ours["badness"] >= theirs["badness"] and theirs["badness"] > 0),
            ("spread", ours["spread"] >= theirs["spread"]),
            ("worst", ours["worst"] > theirs["worst"]),
        )
        if worse
    ]
    return "Guildhall ahead" if not behind else "Guildhall not ahead on " + ", ".join(behind)


def counted(events: dict[int, int]) -> list[tuple[int, str]]:
    """The event counts in use, each with the sizes that have it ("12, 16")."""
    by_count: dict[int, list[int]] = {}
    for n, count in events.items():
        by_count.setdefault(count, []).append(n)
    return [(count, ", ".join(map(str, ns))) for count, ns in by_count.items()]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument(
        "--events",
        type=int,
        default=None,
        help=f"events per size (default {SMALL_EVENTS} to {SMALL_UP_TO} players, {EVENTS} above)",
    )
    parser.add_argument(
        "--first-seed", type=int, default=0, help="the first event's seed (default 0)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds per event (default 5)")
    parser.add_argument(
        "--weights", default="", help="Guildhall's PodWeights as JSON (default: the defaults)"
    )
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--per-round",
        action="store_true",
        help="also split spread and badness by round",
    )
    parser.add_argument(
        "--quick", action="store_true", help="two events (one with drops) of 12 players"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.events, args.processes = "12", 2, 1
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    weights = json.loads(args.weights) if args.weights else None
    try:
        PodWeights.from_mapping(weights or {})
    except (PodPairingError, TypeError, AttributeError) as error:
        parser.error(f"--weights: {error}")
    events = {
        n: args.events
        if args.events is not None
        else (SMALL_EVENTS if n <= SMALL_UP_TO else EVENTS)
        for n in sizes
    }
    seeds = {n: range(args.first_seed, args.first_seed + events[n]) for n in sizes}
    if (
        any(n < 7 for n in sizes)
        or min(events.values()) < 1
        or args.rounds < 1
        or args.processes < 1
    ):
        parser.error("sizes need at least 7 players; --events, --rounds, --processes >= 1")

    tools: dict = {}
    with setup_lock():
        program, how = build_cedh_matching()
        home, pe_how = prepare_pairings_edh()
    print(f"cedh_matching: {how if program else 'not run: ' + how}")
    if program:
        tools["cedh_matching"] = program
    print(f"pairings_edh: {pe_how if home else 'not run: ' + pe_how}")
    if home:
        tools["pairings_edh"] = home
        atexit.register(shutil.rmtree, home, True)  # this run's copy; the virtualenv stays
    pairers = [p for p in PAIRERS if p == "guildhall" or p in tools]
    print(
        " and ".join(
            f"{count} events per size{'' if len(set(events.values())) == 1 else ' of ' + ns}"
            for count, ns in counted(events)
        )
        + " (seeds "
        + " and ".join(
            f"{args.first_seed}-{args.first_seed + count - 1}" for count, _ in counted(events)
        )
        + "; odd seeds: "
        f"{DROP_SHARE:.0%} of the field drops after round {DROP_AFTER}), {args.rounds} rounds, "
        f"pods drawn {DRAW:.0%}, else won by skill; {args.processes} process(es)"
        + (f"; Guildhall's weights {json.dumps(weights)}" if weights else "")
    )
    print()
    print(
        "| N | pairer | events finished | repeat badness | avg pod spread | worst player "
        "| first-seat spread, most (per event) | against Guildhall on the same events |"
    )
    print("|---|---|---|---|---|---|---|---|")
    tasks = [
        (pairer, n, seed, args.rounds, tools, weights)
        for n in sizes
        for seed in seeds[n]
        for pairer in pairers
    ]
    ahead = []
    clearly = []  # measures where the whole 95% interval of Guildhall's lead is below zero
    split = []  # the --per-round table's rows
    with multiprocessing.Pool(args.processes) as pool:
        pending = {task[:3]: pool.apply_async(play, (task,)) for task in tasks}
        for n in sizes:
            runs = {
                pairer: [pending[(pairer, n, seed)].get() for seed in seeds[n]]
                for pairer in pairers
            }
            ours_all = summary(runs["guildhall"])
            for pairer in pairers:
                row = summary(runs[pairer])
                text = "-"
                if pairer != "guildhall":
                    same = [
                        g
                        for g, r in zip(runs["guildhall"], runs[pairer], strict=True)
                        if r["finished"]
                    ]
                    text = verdict(summary(same), row)
                    if row.get("events"):
                        gap = lead_interval(same, [r for r in runs[pairer] if r["finished"]])
                        text += (
                            f" (Guildhall on them: {summary(same)['badness']}, "
                            f"{summary(same)['spread']:.2f}, {summary(same)['worst']}; "
                            f"{described(gap)})"
                        )
                        clearly.extend(
                            f"{n} players, {pairer}, {name}"
                            for name in ("badness", "spread")
                            if gap[name][2] < 0
                        )
                    ahead.append(text.startswith("Guildhall ahead"))
                    why = [r["why"] for r in runs[pairer] if not r["finished"]]
                    if why:
                        text += f"; not finished: {why[0]}"
                if not row.get("events"):
                    print(f"| {n} | {pairer} | 0 / {events[n]} | - | - | - | - | {text} |")
                    continue
                print(
                    f"| {n} | {pairer} | {row['events']} / {events[n]} | {row['badness']} "
                    f"| {row['spread']:.2f} | {row['worst']} "
                    f"| {row['first_seat']} ({row['first_seats']}) | {text} |",
                    flush=True,
                )
            assert ours_all["events"] == events[n], "Guildhall must finish every event"
            split.append(f"| {n} | guildhall | {events[n]} | {per_round(runs['guildhall'])} |")
            for pairer in pairers[1:]:
                finished = [r["finished"] for r in runs[pairer]]
                if not any(finished):
                    continue
                split.append(f"| {n} | {pairer} | {sum(finished)} | {per_round(runs[pairer])} |")
                if not all(finished):
                    same = [g for g, f in zip(runs["guildhall"], finished, strict=True) if f]
                    split.append(
                        f"| {n} | guildhall on {pairer}'s events | {sum(finished)} "
                        f"| {per_round(same)} |"
                    )
    print()
    print(
        "Guildhall ahead of a reference on badness, spread and worst player: "
        f"{sum(ahead)} of {len(ahead)}"
    )
    print(
        "Behind a reference beyond chance (the whole 95% interval of the lead below zero): "
        + ("; ".join(clearly) or "none")
    )
    if args.per_round:
        print()
        print("Average pod spread / repeat badness added, by round")
        print()
        rounds = " | ".join(f"round {k}" for k in range(1, args.rounds + 1))
        print(f"| N | pairer | events | {rounds} |")
        print("|---|---|---|" + "---|" * args.rounds)
        print("\n".join(split))


if __name__ == "__main__":
    main()
