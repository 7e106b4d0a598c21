#!/usr/bin/env python
"""Round turnaround with players reporting (issue 15): from the last table's result of a round
until every player's phone shows their next seat.

A 64-player cEDH pod event in a private PostgreSQL cluster, served by gunicorn as docs/operations.md
deploys it (bench/loadlib), every player registered online (`registration_join`) and arriving
through their registration's link (`events/<slug>/me/<token>/`), as a real event's players do.
Each player is a thread acting as their phone: it loads the page at a random moment of the
first poll interval, then polls it as the page's htmx does (every `--poll` seconds, 15 by
default and in the reported figures; the fragment with `HX-Request`, the ETag the page carries
as If-None-Match; a 304 keeps the page). When a poll shows a new round, the player in seat 1
plays for a random time (compressed, `--play`), then taps a random result (a draw one time in
twenty); the others tap "Confirm" a few seconds (`--tap`) after their poll shows the report,
so a confirmation waits on a poll, as it would. In each round of `--disputes`, one pod's seat 2
reports a different winner instead, and the table waits for a judge.

Two judges keep the TO console open (loaded once, then its live part polled every
`--judge-refresh` seconds, 5 as on the site, staggered, with the ETag it carries; a 304 keeps
the page, and when it says the round changed on another screen the judge taps "Show it"): one
settles a dispute with one tap on a version; as soon as the console says every pod has a
result, they end the round and pair the next (two taps, no typing; the second judge's taps are
no-ops), and the console is loaded again after each tap's redirect. Nothing is typed for the
tables the players confirmed.

Per round: the last result's moment (the confirmation that completed the last pod, or the
judge's pick), the pairing, and the moment each phone first shows its new seat; then the
p50/max over the rounds of (last result -> paired) and (last result -> every phone shows its
new seat), the requests offered, the polls' 304 share and the errors. Checks at the end, with
gunicorn stopped (the database is the truth): every pod holds the result its players confirmed
or the judge picked (table and league game), each result came from the players' reports, the
judges entered none by hand, the standings page equals a recomputation from scratch, and the
rating ledger equals a replay.
"""

import argparse
import itertools
import os
import random
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.loadlib import report, verify
from bench.loadlib.client import Client, Recorder
from bench.loadlib.cluster import DATABASE_HELP, cluster_for, free_port
from bench.loadlib.pages import (
    Console,
    Live,
    MyPage,
    Pod,
    read_console,
    read_console_poll,
    read_disputes,
    read_live,
    read_my_event,
)
from bench.loadlib.scenario import EVENT, LEAGUE, ORG, Ledger, judge_login, judges_create
from bench.loadlib.server import shutdown, site_setup, start_gunicorn, stop_gunicorn

DB_NAME = "guildhall_turnaround"
GOAL_SECONDS = 60  # last result -> every phone shows its new seat


def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64, help="a multiple of 4 (pods, no bye)")
    parser.add_argument("--rounds", type=int, default=5, help="turnarounds measured")
    parser.add_argument("--judges", type=int, default=2)
    parser.add_argument("--poll", type=float, default=15, help="seconds between a page's polls")
    parser.add_argument(
        "--play", type=float, nargs=2, default=(5, 20), metavar=("MIN", "MAX"),
        help="seconds a pod plays (compressed), from when its seat 1 sees the pairing",
    )  # fmt: skip
    parser.add_argument(
        "--tap", type=float, nargs=2, default=(1, 4), metavar=("MIN", "MAX"),
        help="seconds from seeing a report on the page to tapping Confirm",
    )  # fmt: skip
    parser.add_argument(
        "--judge-refresh",
        type=float,
        default=5,
        help="seconds between the polls of each judge's console (5 on the site)",
    )
    parser.add_argument(
        "--disputes", default="2,4", help="rounds with one disputed pod (comma-separated)"
    )
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--postgres", choices=["auto", "debian", "embedded"], default="auto")
    parser.add_argument("--database", metavar="URL", help=DATABASE_HELP)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--quick", action="store_true", help="8 players, 2 turnarounds, 1 s polls, seconds"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.rounds, args.poll = 8, 2, 1
        args.play, args.tap, args.judge_refresh, args.disputes = (0.5, 1.5), (0.1, 0.3), 0.3, "2"
    if args.players < 8 or args.players % 4:
        parser.error("--players: a multiple of 4, at least 8 (pods of four, no bye)")
    args.dispute_rounds = {int(n) for n in args.disputes.split(",") if n.strip()}
    return args


@dataclass
class Run:
    """What the phones and judges saw, with the run's clock (seconds since it started)."""

    rounds: int  # rounds played: the measured turnarounds plus the last round
    dispute_tables: dict[int, int]  # round -> the number of its disputed pod
    ledger: Ledger = field(default_factory=Ledger)
    sent: dict[int, dict[str, int | None]] = field(default_factory=lambda: defaultdict(dict))
    # table -> (its round, when its result got in, "players" or "judge")
    result_at: dict[int, tuple[int, float, str]] = field(default_factory=dict)
    disputed_at: dict[int, float] = field(default_factory=dict)  # table -> the second report
    paired_at: dict[int, float] = field(default_factory=dict)  # round -> first pairing answer
    seen: dict[int, dict[int, float]] = field(default_factory=lambda: defaultdict(dict))
    polls: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    judge_posts: list[str] = field(default_factory=list)
    # Taps answered 409: (table, wall-clock time of the answer, what). A phone that taps
    # Confirm just after a judge settled its pod (or the round moved on) is refused, as it
    # must be; the checks hold each one against when its table's result was stored.
    late_taps: list[tuple[int, float, str]] = field(default_factory=list)
    finished: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def result_in(self, table: int, round_number: int, at: float, how: str, result) -> None:
        with self.lock:
            if table not in self.result_at:
                self.result_at[table] = (round_number, at, how)
            self.ledger.accepted[table] = result


def summary_of(result: int | None, names: dict[int, str]) -> str:
    """What the pages call a result (tournaments.domain.reports.result_summary)."""
    return "a draw" if result is None else f"{names[result]} won"


class Phone(threading.Thread):
    """One player's phone on their registration link: loads the page, polls it, taps."""

    def __init__(self, index, token, port, recorder, run, args, rng_seed):
        super().__init__(name=f"phone-{index}", daemon=True)
        self.index = index
        self.url = f"/events/{EVENT}/me/{token}/"
        self.client = Client(port, recorder)
        self.recorder: Recorder = recorder
        self.run_: Run = run
        self.args = args
        self.rng = random.Random(rng_seed)
        self.page = MyPage()
        self.acted: set[int] = set()  # rounds this player has reported or confirmed in
        self.tap: tuple[float, str, int, tuple] | None = None  # (due, what, round, details)

    def run(self) -> None:
        try:
            self.recorder.stop.wait(self.rng.uniform(0, self.args.poll))
            if not self.recorder.running():
                return
            self.load(self.url, "player: page load")
            next_poll = self.recorder.now() + self.args.poll
            while self.recorder.running():
                due = min(next_poll, self.tap[0] if self.tap else next_poll)
                self.recorder.stop.wait(max(0.0, due - self.recorder.now()))
                if not self.recorder.running():
                    return
                if self.tap and self.tap[0] <= self.recorder.now():
                    if self.do_tap():  # the tap's answer reloads the page: htmx starts again
                        next_poll = self.recorder.now() + self.args.poll
                elif next_poll <= self.recorder.now():
                    next_poll = self.poll()
        finally:
            self.client.close()

    def load(self, path: str, label: str) -> None:
        status, text = self.client.request(label, "GET", path)
        if status == 200:
            self.show(read_my_event(text))

    def poll(self) -> float:
        """The htmx poll; the time of the next: `every 15s` fires on its interval while the
        page stays (a 304), and starts afresh on the new fragment when one is swapped in."""
        started = self.recorder.now()
        self.run_.polls[self.index].append(started)
        headers = {"HX-Request": "true"}
        if self.page.etag:
            headers["If-None-Match"] = f'"{self.page.etag}"'
        status, text = self.client.request(
            "player: poll", "GET", self.url, expect=(200, 304), headers=headers
        )
        if status == 200:
            self.show(read_my_event(text))
            return self.recorder.now() + self.args.poll
        return started + self.args.poll

    def show(self, page: MyPage) -> None:
        """What the player does about the page they now see."""
        at = self.recorder.now()
        self.page = page
        number = page.round
        if number is None or page.table_number is None:
            return
        run = self.run_
        with run.lock:
            run.seen[number].setdefault(self.index, at)
        if page.table_id is not None and page.seats:
            with run.ledger.lock:
                run.ledger.pods.setdefault(
                    page.table_id,
                    Pod(page.table_id, page.table_number, number, [e for e, _ in page.seats], 0,
                        False),
                )  # fmt: skip
        if page.result or page.table_id is None or number in self.acted or self.tap:
            return
        disputing = run.dispute_tables.get(number) == page.table_number and page.seat == 2
        if page.seat == 1 and not page.confirms:
            self.plan(self.rng.uniform(*self.args.play), "report", number, ())
        elif page.confirms and disputing:
            self.plan(self.rng.uniform(*self.args.tap), "dispute", number, page.confirms[0])
        elif page.confirms and not page.disputed:
            self.plan(self.rng.uniform(*self.args.tap), "confirm", number, page.confirms[0])

    def plan(self, delay: float, what: str, number: int, details: tuple) -> None:
        self.tap = (self.recorder.now() + delay, what, number, details)

    def do_tap(self) -> bool:
        """The planned tap, unless the page has moved on since; True if a request was sent."""
        _, what, number, details = self.tap
        self.tap = None
        page = self.page
        if page.round != number or page.result or page.table_id is None:
            return False
        names = dict(page.seats)
        self.acted.add(number)
        if what == "confirm":
            report_id, summary = details
            data = {"action": "confirm", "report": str(report_id)}
        else:
            choices = [e for e, _ in page.seats]
            if what == "dispute":  # a different winner from the one reported
                choices = [e for e in choices if summary_of(e, names) != details[1]]
            result = self.rng.choice(choices)
            if what == "report" and self.rng.random() < 0.05:
                result = None  # a draw
            summary = summary_of(result, names)
            with self.run_.lock:
                self.run_.sent[page.table_id][summary] = result
            data = {"action": "report", "table": str(page.table_id)}
            data.update({"result": "draw"} if result is None else {"winner": str(result)})
        status, _ = self.client.request(
            f"player: {what}", "POST", self.url, data, expect=(302, 409)
        )
        at = self.recorder.now()
        if status == 409:
            with self.run_.lock:
                self.run_.late_taps.append((page.table_id, time.time(), what))
        location = self.client.answer_headers.get("location", "")
        if status == 302 and location.endswith("said=result"):
            with self.run_.lock:
                result = self.run_.sent[page.table_id].get(summary, "unknown")
            self.run_.result_in(page.table_id, number, at, "players", result)
        elif status == 302 and location.endswith("said=disputed"):
            with self.run_.lock:
                self.run_.disputed_at.setdefault(page.table_id, at)
        if status == 302 and location:
            self.load(location, "player: page after a tap")
        return True


class Judge(threading.Thread):
    """A judge at the TO console: keeps it open as it polls, settles their disputes, ends and
    pairs."""

    def __init__(self, index, count, port, recorder, run, args, rng_seed):
        super().__init__(name=f"judge-{index}", daemon=True)
        self.index, self.count = index, count
        self.client = Client(port, recorder)
        self.recorder: Recorder = recorder
        self.run_: Run = run
        self.refresh = args.judge_refresh
        self.rng = random.Random(rng_seed)
        self.console = f"/events/{EVENT}/run/"
        self.live: Live | None = None  # the console page held open, None: load it
        self.round: int | None = None  # the round it shows

    def run(self) -> None:
        try:
            self.recorder.stop.wait(self.index * self.refresh / self.count)  # staggered
            while self.recorder.running() and not self.login():
                self.recorder.stop.wait(0.5)
            while self.recorder.running() and not self.run_.finished.is_set():
                self.watch()
                self.recorder.stop.wait(self.refresh)
        finally:
            self.client.close()

    def login(self) -> bool:
        return judge_login(self.client, self.index)

    def post(self, label: str, path: str, data: dict) -> bool:
        with self.run_.lock:
            self.run_.judge_posts.append(path)
        status, _ = self.client.request(label, "POST", path, data, expect=(302,))
        self.live = None  # the form's redirect loads the console again
        return status == 302

    def watch(self) -> None:
        """One tick: the page loaded (first, or after a tap), else its live part's poll."""
        if self.live is None:
            self.load()
            return
        headers = {"If-None-Match": f'"{self.live.etag}"'}
        status, text = self.client.request(
            "judge: console poll", "GET", self.live.url, htmx=True, expect=(200, 304),
            headers=headers,
        )  # fmt: skip
        if status == 304:
            return
        live = read_live(text) if status == 200 else None
        if live is None or live.changed or self.round is None:
            self.load()  # "Show it"
            return
        self.live = live
        self.act(read_console_poll(text, self.round), text)

    def load(self) -> None:
        status, text = self.client.request("judge: console", "GET", self.console)
        if status != 200:
            return
        console = read_console(text)
        self.live, self.round = read_live(text), console.round
        with self.run_.ledger.lock:
            for pod in console.pods:
                self.run_.ledger.pods.setdefault(pod.table_id, pod)
        self.act(console, text)

    def act(self, console: Console, text: str) -> None:
        if console.round is None:
            self.pair(1)
            return
        number = console.round
        if console.status == "playing":
            numbers = {p.table_id: p.number for p in console.pods}
            for table, versions in read_disputes(text).items():
                if numbers.get(table, 0) % self.count == self.index % self.count:
                    self.settle(number, table, versions)
                    return  # the console again, as the tap's redirect shows it
            if console.all_reported:
                self.post("judge: end round", f"/events/{EVENT}/rounds/{number}/end/", {})
                self.next_round(number)
        else:
            self.next_round(number)

    def next_round(self, number: int) -> None:
        if number < self.run_.rounds:
            self.pair(number + 1)
        else:
            self.run_.finished.set()

    def pair(self, number: int) -> None:
        if self.post("judge: pair round", f"/events/{EVENT}/pair/", {"number": str(number)}):
            at = self.recorder.now()
            with self.run_.lock:
                self.run_.paired_at[number] = min(at, self.run_.paired_at.get(number, at))

    def settle(self, number: int, table: int, versions: list[tuple[str, str]]) -> None:
        """One tap on the version the judge decides is right (here: one at random)."""
        action, summary = self.rng.choice(versions)
        if self.post("judge: settle a dispute", action, {"next": self.console}):
            with self.run_.lock:
                result = self.run_.sent[table].get(summary, "unknown")
            self.run_.result_in(table, number, self.recorder.now(), "judge", result)


def build_event(*, players: int, rounds: int, judges: int) -> list[str]:
    """Store, public league, a pod event of `rounds` Swiss rounds (players report, the whole
    table confirms), `players` registered online, judge accounts; the registration links'
    tokens in arrival order."""
    from leagues import services as league_services
    from leagues.models import League, Organization
    from tournaments.services.events import tournament_create
    from tournaments.services.registration import registration_join

    organization = Organization.objects.create(name="Load Test Games", slug=ORG)
    league = League.objects.create(
        organization=organization, name="Friday Commander", slug=LEAGUE, is_public=True
    )
    event = tournament_create(
        league=league, name="Friday cEDH", format="pods", swiss_rounds=rounds, self_report="all"
    )
    event.slug = EVENT
    event.registration_open = True
    event.save(update_fields=["slug", "registration_open"])
    names = [f"Player {n:03d}" for n in range(players)]
    people, _ = league_services.players_get_or_create(organization=organization, names=names)
    tokens = []
    for player in sorted(people.values(), key=lambda p: p.name):
        tokens.append(registration_join(tournament=event, player=player).token)
    judges_create(organization, judges)
    return tokens


def rounds_table(run: Run, args) -> tuple[list[float], list[float], list[tuple]]:
    """Print one row per measured round; return the (last result -> paired) and (last result
    -> every phone shows its new seat) seconds, and the disputes' rows."""
    print(
        "| round | pods | confirmed by players | settled by a judge | last result at s | "
        "-> paired s | -> half the phones s | -> every phone s | phones showing it |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    to_paired, to_seen, disputes = [], [], []
    for number in range(1, args.rounds + 1):
        results = [(at, how) for r, at, how in run.result_at.values() if r == number]
        pods = sum(1 for p in run.ledger.pods.values() if p.round == number)
        last = max((at for at, _ in results), default=None)
        paired = run.paired_at.get(number + 1)
        seen = sorted(run.seen.get(number + 1, {}).values())
        if last is None or paired is None:
            print(f"| {number} | {pods} | {len(results)} results | | | not paired | | | |")
            continue
        after = [at - last for at in seen]
        full = len(seen) == args.players
        to_paired.append(paired - last)
        if full:
            to_seen.append(after[-1])
        print(
            f"| {number} | {pods} | {sum(h == 'players' for _, h in results)} | "
            f"{sum(h == 'judge' for _, h in results)} | {last:.1f} | {paired - last:.1f} | "
            f"{report.percentile(after, 50):.1f} | {after[-1] if full else float('nan'):.1f} | "
            f"{len(seen)} of {args.players} |"
        )
    for table, at in sorted(run.disputed_at.items(), key=lambda kv: kv[1]):
        number, settled, how = run.result_at.get(table, (None, None, ""))
        pod = run.ledger.pods.get(table)
        disputes.append((number, pod.number if pod else "?", at, settled, how))
    return to_paired, to_seen, disputes


def main(argv=None) -> int:
    args = parse(argv)
    cluster = cluster_for(args.postgres, DB_NAME, args.database)
    server = None
    log = Path(tempfile.mkstemp(prefix="guildhall-turnaround-access-")[1])
    try:
        print(cluster.description)
        cluster.start()
        env = site_setup(cluster.url)
        from django.db import connections

        played = args.rounds + 1  # the last round is played too: its results end the event
        tokens = build_event(players=args.players, rounds=played, judges=args.judges)
        connections.close_all()
        rng = random.Random(args.seed)
        pods = args.players // 4
        run = Run(
            rounds=played,
            dispute_tables={n: rng.randint(1, pods) for n in args.dispute_rounds if n <= played},
        )
        port = free_port()
        server = start_gunicorn(env, port, args.workers, None, log, ready_path=f"/events/{EVENT}/")
        print(
            f"event: {args.players} players in pods of 4, registered online, each on their "
            f"link; {played} Swiss rounds, {args.rounds} turnarounds measured; disputed pods "
            f"(round: pod) {run.dispute_tables or 'none'}\n"
            f"gunicorn on 127.0.0.1:{port}: {args.workers} workers as gunicorn.conf.py says, "
            f"DEBUG off; pages poll every {args.poll:g} s; pods play {args.play[0]:g}-"
            f"{args.play[1]:g} s; a confirmation {args.tap[0]:g}-{args.tap[1]:g} s after the "
            f"poll that shows the report; {args.judges} judges' consoles poll every "
            f"{args.judge_refresh:g} s each\n"
        )
        budget = played * (args.play[1] + 4 * args.poll + 6 * args.judge_refresh + 30) + 60
        recorder = Recorder(seconds=budget, max_requests=10**9)
        threading.stack_size(512 * 1024)
        threads: list[threading.Thread] = [
            Phone(n, token, port, recorder, run, args, rng.random())
            for n, token in enumerate(tokens)
        ]
        threads += [
            Judge(i, args.judges, port, recorder, run, args, rng.random())
            for i in range(args.judges)
        ]
        for thread in threads:
            thread.start()
        while recorder.running() and not run.finished.is_set():
            recorder.stop.wait(0.5)
        recorder.stop.set()
        for thread in threads:
            thread.join(timeout=60)
        elapsed = recorder.now()
        samples = list(recorder.samples)
        load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
        print(
            f"{elapsed:.0f} s{'' if run.finished.is_set() else ' (OUT OF TIME)'}; "
            f"load average at the end {load} on {os.cpu_count()} cores\n"
        )
        to_paired, to_seen, disputes = rounds_table(run, args)
        print()
        print(
            "| over the rounds | p50 s | max s |\n|---|---|---|\n"
            f"| last result -> paired | {report.percentile(to_paired, 50):.1f} | "
            f"{max(to_paired, default=float('nan')):.1f} |\n"
            f"| last result -> every phone shows its new seat | "
            f"{report.percentile(to_seen, 50):.1f} | {max(to_seen, default=float('nan')):.1f} |"
        )
        for number, pod, at, settled, how in disputes:
            took = f"settled by a judge {settled - at:.1f} s later" if how == "judge" else how
            print(f"dispute: round {number}, pod {pod}: second report at {at:.1f} s, {took}")
        polls = [s for s in samples if s.label == "player: poll"]
        gaps = [b - a for times in run.polls.values() for a, b in itertools.pairwise(times)]
        errors = [s for s in samples if not s.ok]
        print(
            f"\nrequests: {len(samples):,} in {elapsed:.0f} s ({len(samples) / elapsed:.1f}/s "
            f"offered; {len(polls) / elapsed:.1f} polls/s), polls answered 304: "
            f"{sum(s.status == 304 for s in polls) / max(1, len(polls)):.0%} of {len(polls):,}, "
            f"shortest gap between a phone's polls {min(gaps, default=0):.1f} s, "
            f"errors {len(errors)}, taps refused as late (409) {len(run.late_taps)}"
        )
        report.show_errors(errors, "failed")
        posts = defaultdict(int)
        for path in run.judge_posts:
            posts[path.rstrip("/").split("/")[-1]] += 1
        console_polls = [s for s in samples if s.label == "judge: console poll"]
        print(
            f"judges' consoles: {len(console_polls):,} polls, answered 304: "
            f"{sum(s.status == 304 for s in console_polls) / max(1, len(console_polls)):.0%}"
        )
        print(
            f"judges' taps: {posts['end']} round ends, {posts['pair']} pairings, "
            f"{posts['accept']} dispute picks (the second judge's taps on a done step are "
            f"no-ops); results entered by hand: "
            f"{sum(1 for p in run.judge_posts if '/tables/' in p)}\n"
        )
        report.print_table(samples, elapsed, None)
        worst = max(to_seen, default=float("inf"))
        measured = len(to_seen) == args.rounds
        print(
            f"\ngoal: every phone shows its new seat under {GOAL_SECONDS} s after the last "
            f"result, polling every {args.poll:g} s: max {worst:.1f} s over {len(to_seen)} "
            f"rounds: {'met' if measured and worst < GOAL_SECONDS else 'MISSED'}"
        )

        stop_gunicorn(server)
        server = None
        connections.close_all()
        checks = verify.Checks()
        print("\nchecks:")
        checks.check(not errors, f"no failed requests ({len(errors)})")
        checks.check(run.finished.is_set(), f"all {played} rounds played and ended")
        checks.check(measured, f"every phone showed each new seat ({len(to_seen)} rounds)")
        checks.check(
            min(gaps, default=args.poll) >= args.poll - 0.01,
            f"no phone polled more often than every {args.poll:g} s",
        )
        verify_reports(checks, run, args)
        final = verify.verify_results(
            checks, run.ledger, source="its players confirmed (or a judge picked, disputed)"
        )
        verify.verify_standings(checks, run.ledger, final)
        verify.verify_ledger(checks)
        return checks.verdict()
    finally:
        shutdown(server, cluster)
        log.unlink(missing_ok=True)


def verify_reports(checks: verify.Checks, run: Run, args) -> None:
    """Every pod's result came from the players: confirmed by its table, or a disputed pod's
    report picked by a judge; no judge entered a result by hand."""
    from tournaments.models import ResultReport, Table

    tables = Table.objects.filter(round__tournament__slug=EVENT)
    reported = tables.filter(reported=True).count()
    decided = dict(
        ResultReport.objects.filter(
            table__round__tournament__slug=EVENT, status__in=["confirmed", "accepted"]
        ).values_list("table_id", "status")
    )
    confirmed = sum(1 for s in decided.values() if s == "confirmed")
    accepted = sum(1 for s in decided.values() if s == "accepted")
    checks.check(
        reported == tables.count() == (args.players // 4) * run.rounds,
        f"every pod of the {run.rounds} rounds has a result ({reported} of {tables.count()})",
    )
    checks.check(
        len(decided) == reported and accepted == len(run.dispute_tables),
        f"each result is a players' report: {confirmed} confirmed by their table, {accepted} "
        f"disputed and picked by a judge ({len(run.dispute_tables)} disputes planned)",
    )
    by_hand = [p for p in run.judge_posts if "/tables/" in p]
    checks.check(not by_hand, f"no result entered by a judge by hand ({len(by_hand)})")
    stored = dict(tables.filter(reported=True).values_list("pk", "reported_at"))
    early = [
        (table, what)
        for table, answered, what in run.late_taps
        if table not in stored or stored[table].timestamp() > answered
    ]
    checks.check(
        not early,
        f"every tap refused as late (409) came after its table's result was stored "
        f"({len(run.late_taps)} refused, {len(early)} before: {early[:3]})",
    )


if __name__ == "__main__":
    sys.exit(main())
