"""A judge call from a player's phone to the judges' phones, under a round release's load.

    .venv/bin/python bench/judge_calls.py [--calls 50] [--phones 3] [--players 256]
                                          [--spectators 100] [--refresh 15] [--workers 3]
    .venv/bin/python bench/judge_calls.py --quick    # 5 calls, 16 players, seconds

On a private PostgreSQL cluster with gunicorn as docs/operations.md deploys it (bench/loadlib,
as bench/burst.py): a pod event of `--players`, two rounds played, the next paired and being
played. bench/burst.py's visitors (every player and `--spectators` spectators) open the
pairings within `--burst` seconds and refresh them every `--refresh` seconds, sending their
ETags, throughout. Meanwhile `--phones` judges keep the judges' desk open on their phones: each
polls it as the page does (htmx, every judging.views.DESK_POLL_SECONDS, with the ETag it got:
a 304 while nothing changed). A player at a random pod calls a judge through their own link
(`--calls` times, one at a time, a different pod each time); the time from the player's tap to
each judge's phone holding the call is measured, then one judge closes it ("done") and the next
player calls 0.5-1.5 s later. The tables: the calls' latency to the first and to every phone
(p50, p95, max; goal: every phone within 5 s), and each page's requests as bench/burst.py
prints them.
"""

import argparse
import random
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.burst import Visitor, burst_table, play_rounds
from bench.loadlib import report
from bench.loadlib.client import Client, Recorder
from bench.loadlib.cluster import DATABASE_HELP, cluster_for, free_port
from bench.loadlib.scenario import DB_NAME, EVENT, Ledger, build_event, judge_login
from bench.loadlib.server import shutdown, site_setup, start_gunicorn

GOAL_SECONDS = 5.0
DESK = f"/events/{EVENT}/judge/"


def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--phones", type=int, default=3, help="judges with the desk open")
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--burst", type=float, default=10, help="seconds everyone arrives in")
    parser.add_argument("--refresh", type=float, default=15, help="visitors' refresh, seconds")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--postgres", choices=["auto", "debian", "embedded"], default="auto")
    parser.add_argument("--database", metavar="URL", help=DATABASE_HELP)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="5 calls, 16 players, seconds")
    args = parser.parse_args(argv)
    if args.quick:
        args.calls, args.phones, args.players, args.spectators = 5, 2, 16, 6
        args.burst, args.refresh = 1, 2
    return args


class Phone(threading.Thread):
    """A judge's phone on the desk: polls as htmx does, notes when each table's call shows."""

    def __init__(self, index: int, port: int, recorder: Recorder, poll: float):
        super().__init__(name=f"phone-{index}", daemon=True)
        self.index, self.poll = index, poll
        self.client = Client(port, recorder)
        self.recorder = recorder
        self.seen: dict[int, float] = {}  # call id -> monotonic time first shown
        self.ready = threading.Event()

    def run(self) -> None:
        try:
            while self.recorder.running() and not judge_login(self.client, self.index):
                time.sleep(0.5)
            status, text = self.client.request("desk (page)", "GET", DESK)
            etag = self.client.answer_headers.get("etag", "")
            self.ready.set()
            while self.recorder.running():
                self.recorder.stop.wait(self.poll)
                status, text = self.client.request(
                    "desk poll",
                    "GET",
                    DESK,
                    htmx=True,
                    expect=(200, 304),
                    headers={"If-None-Match": etag} if etag else None,
                )
                if status == 200:
                    etag = self.client.answer_headers.get("etag", etag)
                    now = time.monotonic()
                    for call in re.findall(r'data-call="(\d+)"', text):
                        self.seen.setdefault(int(call), now)
        finally:
            self.client.close()


def percentile(values: list[float], p: float) -> float:
    return report.percentile(values, p) if values else float("nan")


def main(argv=None) -> int:
    args = parse(argv)
    cluster = cluster_for(args.postgres, DB_NAME, args.database)
    server = None
    log = Path(tempfile.mkstemp(prefix="guildhall-judge-calls-access-")[1])
    try:
        print(cluster.description)
        cluster.start()
        env = site_setup(cluster.url)
        from django.db import connections

        from judging.models import JudgeCall
        from judging.views import DESK_POLL_SECONDS
        from tournaments.models import Round, Tournament
        from tournaments.selectors.reports import walk_in_token

        build_event(players=args.players, judges=args.phones + 1)
        play_rounds(2, args.seed, Ledger())
        event = Tournament.objects.get(slug=EVENT)
        playing = Round.objects.get(tournament=event, status=Round.Status.PLAYING)
        pods = []
        for table in playing.tables.prefetch_related("seats__entry"):
            seats = [s.entry for s in table.seats.all()]
            if len(seats) > 1:
                pods.append((table.number, [walk_in_token(e) for e in seats]))
        rng = random.Random(args.seed)
        rng.shuffle(pods)
        connections.close_all()
        port = free_port()
        server = start_gunicorn(env, port, args.workers, None, log, ready_path=f"/events/{EVENT}/")
        print(
            f"event: {args.players} players in pods, round {playing.number} being played; "
            f"gunicorn on 127.0.0.1:{port}, {args.workers} workers, DEBUG off\n"
            f"load: {args.players} players + {args.spectators} spectators refreshing the "
            f"pairings every {args.refresh:g} s (bench/burst.py's visitors); {args.phones} "
            f"judges' phones polling the desk every {DESK_POLL_SECONDS} s; {args.calls} calls\n"
        )
        # Long enough for every call; the recorder stops once they are all measured.
        recorder = Recorder(seconds=args.calls * 20 + 120, max_requests=10**9)
        threading.stack_size(512 * 1024)
        visitors = [
            Visitor(
                port, recorder, arrive=rng.uniform(0, args.burst), refresh=args.refresh,
                standings=n % 3 == 0,
            )
            for n in range(args.players + args.spectators)
        ]  # fmt: skip
        phones = [Phone(i, port, recorder, DESK_POLL_SECONDS) for i in range(args.phones)]
        for thread in [*visitors, *phones]:
            thread.start()
        for phone in phones:
            phone.ready.wait(60)
        recorder.stop.wait(args.burst)  # the round release's burst first

        closer = Client(port, recorder)
        judge_login(closer, args.phones)
        player = Client(port, recorder)
        first, every, unseen = [], [], 0
        for n in range(args.calls):
            number, tokens = pods[n % len(pods)]
            token = tokens[n // len(pods) % len(tokens)]
            path = f"/events/{EVENT}/judge/call/{token}/"
            player.request("player's page", "GET", f"/events/{EVENT}/me/{token}/")
            tapped = time.monotonic()
            player.request("player's call", "POST", path, {"reason": "ruling"}, expect=(302,))
            call = JudgeCall.objects.filter(table__round=playing, table__number=number).latest("pk")
            deadline = tapped + 30
            while time.monotonic() < deadline and not all(call.pk in p.seen for p in phones):
                time.sleep(0.02)
            shown = [p.seen[call.pk] - tapped for p in phones if call.pk in p.seen]
            unseen += len(phones) - len(shown)
            if shown:
                first.append(min(shown))
                every.append(max(shown) if len(shown) == len(phones) else float("inf"))
            closer.request(
                "judge: done",
                "POST",
                f"/events/{EVENT}/judge/calls/",
                {"call": str(call.pk), "action": "done", "minutes": ""},
                expect=(302,),
            )
            time.sleep(rng.uniform(0.5, 1.5))
        connections.close_all()
        recorder.stop.set()
        for thread in [*visitors, *phones]:
            thread.join(timeout=60)
        elapsed = recorder.now()

        print(f"| {len(first)} calls, {args.phones} phones | p50 s | p95 s | max s |")
        print("|---|---|---|---|")
        for label, values in (("to the first phone", first), ("to every phone", every)):
            print(
                f"| {label} | {percentile(values, 50):.2f} | {percentile(values, 95):.2f} | "
                f"{max(values, default=float('nan')):.2f} |"
            )
        print()
        errors, _ = burst_table(list(recorder.samples), elapsed)
        worst = max(every, default=float("inf"))
        met = not errors and not unseen and worst <= GOAL_SECONDS
        print(
            f"\ngoal: every call on every judge's phone within {GOAL_SECONDS:g} s, no error: "
            f"max {worst:.2f} s, {unseen} not shown, {errors} errors: "
            f"{'met' if met else 'MISSED'}"
        )
        return 0 if not errors and not unseen else 1
    finally:
        shutdown(server, cluster)
        log.unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
