#!/usr/bin/env python
"""An event through an outage (issue 34): the TO's phone loses the network, or the server
goes away, in the middle of a round; results are entered, players' reports confirmed and the
next round paired on the phone meanwhile. Nothing may be lost or stored twice.

    .venv/bin/python bench/outage.py [--players 64] [--rounds 4] [--runs 5] [--seed 1]
                                     [--outage 5-90] [--quick] [--record FILE]
    .venv/bin/python bench/outage.py --from FILE [FILE ...]

The site as deployed (DEBUG off, gunicorn, static files collected; `make assets` first), on
its own database (BENCH_DATABASE_URL), driven in Debian's Chromium. Each run is a new pod
event of `--players` players (an odd number works: pods of 3 fill in) and `--rounds` Swiss
rounds, with the results decided up front (a random winner per pod, a draw one time in
twenty). The TO's phone (a 390 px context, logged in) keeps the console open and taps each
pod's winner on its card; two pods a round are reported by their players instead (seat 1
reports on their own page, the others confirm there, each on their own phone). The TO ends
each round and pairs the next with the console's one tap.

In one round (random, not the last), after a random number of its results, the outage
starts: either the TO's phone loses the network (`context.set_offline`, "wifi") or the server
is stopped (gunicorn's master sent SIGQUIT, "server"), for a random time (`--outage`, seconds;
at least as long as what is done during it). During it: the TO prints the paper pack the phone
kept (`page.pdf`), taps the round's remaining winners on the console (they wait in the
phone's queue), the players confirm their pods (queued on their phones when the server is
gone), and the TO opens "Pair without the server" (first opened then), taps any result the
phone does not know (the players tell the TO) and pairs the next round under Pyodide. Then the
network comes back or the server starts again on the same port and database, and the phones
send what they hold by themselves: the console's queue, the players' queues, the round.

Each run then checks, from the database: every planned result stored exactly once (the table
holds it, at version 1, with one entry in History: "lost" counts the tables without their
planned result, "duplicated" those written twice), the standings equal to a clean run (the
pure domain standings computed from the planned results on the same pairings), History
complete (each player report and confirmation, the offline round's adoption), the offline
round adopted (not refused). Figures per run: results queued on the phones, last result ->
next round paired offline, outage start -> paper pack printed, back -> full re-sync (every
queue empty, the round on the server).

`--quick`: 3 runs of 9 players, 2 rounds, one pod a round reported by its players, outages of
1-2 s (`make test` runs it).

`--record FILE` appends each run to FILE (a JSON line) as soon as it ends, so a long series
keeps what it measured if it is stopped, and several benches side by side (each its own
database, `--seed` and file) add up; `--from FILE...` prints the one table of every run the
files hold, and runs nothing. A run that fails is recorded with its error, then the bench
prints the table of the runs so far and stops.
"""

import argparse
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadlib.cluster import database_ensure, free_port  # noqa: E402
from bench.loadlib.server import site_setup, start_gunicorn  # noqa: E402

# Playwright's sync API runs an event loop in this thread; the ORM calls here are synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/guildhall_bench")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
PLAYER_PODS = 2  # pods a round reported by their players (1 with --quick)
WAIT = 120_000  # ms: Pyodide's start on a busy machine stays well within it
SYNC_SECONDS = 120  # a re-sync slower than this is reported as failed


class Site:
    """gunicorn on a fixed port, stopped and started again on the same port and database."""

    def __init__(self, env: dict, port: int, log: Path):
        self.env, self.port, self.log = env, port, log
        self.server = None

    def start(self) -> None:
        self.server = start_gunicorn(self.env, self.port, 2, 4, self.log, ready_path="/")

    def stop(self) -> None:
        """SIGQUIT: gunicorn's quick shutdown, requests under way cut off, as a crash would."""
        if self.server is None:
            return
        self.server.send_signal(signal.SIGQUIT)
        try:
            self.server.wait(timeout=30)
        except Exception:
            self.server.kill()
            self.server.wait()
        self.server = None


@dataclass
class Run:
    kind: str = ""
    round: int = 0
    queued: int = 0
    pair_s: float = 0.0
    paper_s: float = 0.0
    sync_s: float = 0.0
    outage_s: float = 0.0
    lost: int = 0
    duplicated: int = 0
    standings_equal: bool = False
    history_gaps: int = 0
    adopted: bool = False
    conflicts: int = 0
    notes: list = field(default_factory=list)


# --- the event ---------------------------------------------------------------------------------


def event_create(players: int, rounds: int, label: str):
    from leagues.models import Role
    from tests.factories import LeagueFactory, OrganizationFactory, organizer_of
    from tournaments.services.entries import entry_register
    from tournaments.services.events import tournament_create
    from tournaments.services.rounds import round_pair

    store = OrganizationFactory(name=f"Outage store {label}", slug=f"outage-{label}")
    league = LeagueFactory(
        organization=store, name=f"Outage league {label}", slug=f"outage-{label}"
    )
    event = tournament_create(
        league=league, name=f"Outage night {label}", format="pods", swiss_rounds=rounds
    )
    for i in range(players):
        entry_register(tournament=event, name=f"Player {label} {i + 1:03d}", create_player=True)
    round_pair(tournament=event)
    to = organizer_of(league.organization, role=Role.ORGANIZER, username=f"outage-to-{label}")
    return event, to


def session_of(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


# --- the phones --------------------------------------------------------------------------------


class Phones:
    def __init__(self, browser, base: str):
        self.browser, self.base = browser, base
        self.contexts = []

    def new(self, session: str | None = None):
        context = self.browser.new_context(viewport=PHONE)
        context.set_default_timeout(WAIT)
        if session:
            context.add_cookies(
                [{"name": "sessionid", "value": session, "domain": "127.0.0.1", "path": "/"}]
            )
        self.contexts.append(context)
        return context

    def close(self) -> None:
        for context in self.contexts:
            with contextlib.suppress(Exception):  # already closed
                context.close()
        self.contexts = []


def evaluate(page, script: str, default=None):
    """A page's answer, or `default` while it is between two documents."""
    try:
        return page.evaluate(script)
    except Exception:
        return default


def trace(what: str) -> None:
    """With OUTAGE_TRACE=1, each step's moment on stderr (where a slow run spends its time)."""
    if os.environ.get("OUTAGE_TRACE"):
        print(f"{time.monotonic():.1f} {what}", file=sys.stderr, flush=True)


def wait_until(test, seconds: float, step: float = 0.1) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(step)
    return False


def queued_on(page) -> int:
    return evaluate(
        page,
        "window.GuildhallOffline ? window.GuildhallOffline.queued().then(q => q.length) : 0",
        default=-1,
    )


def settled_on(page) -> int:
    return evaluate(
        page,
        "window.GuildhallOffline ? window.GuildhallOffline.toSettle().then(q => q.length) : 0",
        default=0,
    )


def console_ready(page) -> None:
    """The service worker controls the console and keeps its pages, the paper pack and the
    pairing code; the phone holds the event's state and the pairing snapshot."""
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_function(
        """async () => {
            let found = 0;
            for (const name of await caches.keys()) {
                const keys = await (await caches.open(name)).keys();
                const files = ["asm.wasm", "stdlib.zip", "domain", "run/offline/", "run/paper/"];
                for (const file of files) {
                    if (keys.some((r) => r.url.includes(file))) found += 1;
                }
            }
            const kept = await window.GuildhallOffline.eventState();
            return found >= 5 && kept && kept.snapshot;
        }""",
        polling=200,
    )


def kept_round(page) -> int | None:
    return evaluate(
        page,
        "window.GuildhallOffline.eventState().then(k => k && k.snapshot && k.snapshot.open"
        " ? k.snapshot.open.round : null)",
    )


# --- one run -----------------------------------------------------------------------------------


def decide(rng: random.Random, table) -> dict:
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    if rng.random() < 0.05:
        return {"draw": True, "players": [s.entry.player_id for s in seats]}
    winner = rng.choice(seats).entry
    return {
        "winner": winner.pk,
        "winner_player": winner.player_id,
        "name": winner.player.name,
        "players": [s.entry.player_id for s in seats],
    }


def tap_on_console(page, table, result: dict) -> None:
    card = page.locator(f"#table-{table.pk}")
    if result.get("draw"):
        card.locator("button[name=result][value=draw]").click()
    else:
        card.locator(f"button[name=winner][value='{result['winner']}']").click()


def player_page(phones: Phones, base: str, event, entry):
    from tournaments.selectors.reports import walk_in_token

    page = phones.new().new_page()
    page.goto(f"{base}/events/{event.slug}/me/{walk_in_token(entry)}/")
    page.wait_for_function("window.GuildhallOffline !== undefined")
    page.wait_for_timeout(200)  # its store (IndexedDB) opened
    return page


def player_report(page, result: dict) -> None:
    form = page.locator("#my-live .report-form")
    if result.get("draw"):
        form.locator("button[name=result][value=draw]").first.click()
    else:
        form.locator(f"button[name=winner][value='{result['winner']}']").first.click()


def one_run(browser, phone, site: Site, args, number: int, rng: random.Random) -> Run:
    """One event through one outage. `phone` is the TO's phone (a browser context), the same
    from one run to the next as a store's phone is from one night to the next: the pairing
    code it keeps stays kept."""
    from django.db import connections

    from audit.models import AuditEntry
    from tournaments.actions import Action
    from tournaments.models import ResultReport

    label = f"{int(time.time())}-{number}"
    event, to = event_create(args.players, args.rounds, label)
    base = f"http://127.0.0.1:{site.port}"
    phones = Phones(browser, base)
    run = Run()
    run.kind = rng.choice(["wifi", "server"])
    run.round = rng.randint(1, args.rounds - 1)
    low, high = args.outage
    duration = rng.uniform(low, high)
    planned: dict[int, dict] = {}
    player_tables: set[int] = set()
    offline_round = None
    try:
        phone.add_cookies(
            [{"name": "sessionid", "value": session_of(to), "domain": "127.0.0.1", "path": "/"}]
        )
        console = phone.new_page()
        trace("event created")
        console.goto(f"{base}/events/{event.slug}/run/")
        console_ready(console)
        trace("console ready")
        for round_number in range(1, args.rounds + 1):
            round_ = event.rounds.get(number=round_number)
            tables = [t for t in round_.tables.order_by("number") if t.seats.count() > 1]
            results = {t.pk: decide(rng, t) for t in tables}
            planned.update(results)
            by_players = {t.pk for t in rng.sample(tables, min(args.player_pods, len(tables)))}
            player_tables |= by_players
            order = list(tables)
            rng.shuffle(order)
            outage_here = round_number == run.round
            cut = rng.randint(0, len(order) - 1) if outage_here else None
            # The players' pods: seat 1 reports now; the others confirm when their pod's turn
            # comes (perhaps during the outage), each on their phone, opened beforehand.
            confirmers: dict[int, list] = {}
            for table in tables:
                if table.pk not in by_players:
                    continue
                seats = list(table.seats.select_related("entry__player").order_by("position"))
                reporter = player_page(phones, base, event, seats[0].entry)
                player_report(reporter, results[table.pk])
                wait_until(lambda t=table: ResultReport.objects.filter(table=t).exists(), 30)
                confirmers[table.pk] = [
                    player_page(phones, base, event, s.entry) for s in seats[1:]
                ]
                confirmers[table.pk].insert(0, reporter)
            if outage_here:
                # The console keeps the current round's snapshot (at most 10 s behind).
                wait_until(lambda n=round_number: kept_round(console) == n, 30)
            trace(f"round {round_number}: players' pages open")
            started = None
            last_result = None
            for i, table in enumerate(order):
                if i == cut:
                    started = time.monotonic()
                    if run.kind == "wifi":
                        phone.set_offline(True)
                    else:
                        site.stop()
                    paper = phone.new_page()
                    paper.goto(f"{base}/events/{event.slug}/run/paper/")
                    paper.pdf(format="A4")
                    run.paper_s = time.monotonic() - started
                    paper.close()
                if table.pk in by_players:
                    # Taps at once, even the moment the server went (before the page's next
                    # poll has told it): the tap waits on the phone all the same.
                    for page in confirmers[table.pk][1:]:
                        page.locator("#my-live button.confirm").first.click()
                    if started is None or run.kind == "wifi":
                        wait_until(lambda t=table: type(t).objects.get(pk=t.pk).reported, 30, 0.2)
                    else:
                        for page in confirmers[table.pk][1:]:
                            page.locator("#offline-banner").filter(
                                has_text="waits to be sent"
                            ).wait_for()
                else:
                    tap_on_console(console, table, results[table.pk])
                    card = console.locator(f"#table-{table.pk}")
                    if started is None:
                        console.locator(f"#table-{table.pk}[data-reported='1']").wait_for()
                    else:
                        card.locator(".offline-queued").wait_for()
                last_result = time.monotonic()
            trace(f"round {round_number}: results in")
            if not outage_here:
                console.locator("#round-next button.round-next").click()
                console.wait_for_load_state()
                continue
            # Offline: the phone's queues, then the next round paired on the phone.
            run.queued = max(queued_on(console), 0) + sum(
                max(queued_on(p), 0) for pages in confirmers.values() for p in pages
            )
            trace("pairing page")
            pair = phone.new_page()
            pair.goto(f"{base}/events/{event.slug}/run/offline/")
            pair.wait_for_function(
                "window.guildhallOffline && window.guildhallOffline.state().snapshot"
            )
            pair.evaluate("window.guildhallOffline.python")
            # The results the phone does not know (the players' pods, a tap the console's
            # copy missed): the TO taps them here. Each tap draws the list anew.
            pair.wait_for_function("window.guildhallOffline.timings.ready !== undefined")
            pair.wait_for_timeout(300)  # the console's queue read
            missing = pair.locator(".offline-missing-list li:visible")
            while missing.count():
                item = missing.first
                number_ = int(item.locator("span").first.inner_text().split(":")[0].split()[-1])
                table = next(t for t in tables if t.number == number_)
                result = results[table.pk]
                label_ = "Draw" if result.get("draw") else f"{result['name']} won"
                item.get_by_role("button", name=label_, exact=True).click()
            pair.locator(".offline-pair-button:enabled").click()
            pair.locator(".offline-round:not([hidden])").wait_for()
            run.pair_s = time.monotonic() - last_result
            trace("paired offline")
            offline_round = round_number + 1
            # The outage lasts its time, then the network or the server comes back.
            left = started + duration - time.monotonic()
            if left > 0:
                time.sleep(left)
            run.outage_s = time.monotonic() - started
            back = time.monotonic()
            if run.kind == "wifi":
                phone.set_offline(False)
            else:
                site.start()
            pages = [console, pair, *(p for ps in confirmers.values() for p in ps)]

            def synced(pages=pages, round_=round_, pair=pair):
                connections.close_all()
                adopted = AuditEntry.objects.filter(
                    tournament_id=event.pk, action=Action.ROUND_OFFLINE
                )
                if not adopted.exists():
                    return False
                if round_.tables.filter(reported=False).exclude(seats__isnull=True).count():
                    return False
                # The page holds no round it has not sent (once sent, it moves on to the next
                # round's snapshot and forgets the one it paired).
                held = "(s => Boolean(s.paired) && !s.sent)(window.guildhallOffline.state())"
                if evaluate(pair, held, True):
                    return False
                return all(queued_on(p) == 0 for p in pages)

            if not wait_until(synced, SYNC_SECONDS, 0.2):
                run.notes.append("no full re-sync within 2 minutes")
                said = evaluate(pair, "document.querySelector('.offline-message').textContent")
                run.notes.append(f"pairing page: {said}")
                break
            run.sync_s = time.monotonic() - back
            trace("re-synced")
            run.conflicts = sum(settled_on(p) for p in pages)
            pair.close()
            console.goto(f"{base}/events/{event.slug}/run/")
    finally:
        if site.server is None:
            site.start()
        phones.close()
        phone.set_offline(False)
        for page in phone.pages:
            page.close()
    check(event, planned, player_tables, offline_round, run)
    return run


# --- the checks --------------------------------------------------------------------------------


def clean_history(event, planned: dict) -> list:
    """The event's rounds as stored (the same pairings), each pod holding its planned result
    as a result entered by a tap is stored (the winner first, the others second; a draw,
    everyone first), byes as stored."""
    from tournaments.domain.records import Table as Record
    from tournaments.models import Round
    from tournaments.selectors.standings import history

    stored = history(event)
    rounds = []
    for index, round_ in enumerate(event.rounds.filter(kind=Round.Kind.SWISS).order_by("number")):
        byes = (
            {t.players: t for t in stored[index] if len(t.players) == 1}
            if index < len(stored)
            else {}
        )
        tables = []
        for table in round_.tables.order_by("number"):
            players = tuple(
                table.seats.order_by("position").values_list("entry__player_id", flat=True)
            )
            if len(players) == 1:
                if players in byes:
                    tables.append(byes[players])
                continue
            result = planned.get(table.pk)
            if result is None:
                continue
            winner = None if result.get("draw") else result["winner_player"]
            tables.append(
                Record(
                    players=players,
                    winner=winner,
                    game_wins=None,
                    game_draws=0,
                    finish=tuple(1 if winner is None or p == winner else 2 for p in players),
                    requested=False,
                )
            )
        rounds.append(tuple(tables))
    return rounds


def check(event, planned: dict, player_tables: set, offline_round, run: Run) -> None:
    from django.db import connections

    from audit.models import AuditEntry
    from tournaments.actions import Action
    from tournaments.formats import format_for
    from tournaments.models import Table
    from tournaments.selectors.standings import standings

    connections.close_all()
    reports = set(format_for(event).report_actions.values())
    for pk, result in planned.items():
        table = Table.objects.select_related("round").get(pk=pk)
        entries = AuditEntry.objects.filter(
            object_type="table", object_id=pk, action__in=reports
        ).count()
        if entries > 1 or table.version > 1:
            run.duplicated += 1
        want_winner = None if result.get("draw") else result["winner"]
        if (
            not table.reported
            or table.winner_id != want_winner
            or table.is_draw != bool(result.get("draw"))
        ):
            run.lost += 1
        if table.reported and entries == 0:
            run.history_gaps += 1
        if pk in player_tables:
            submitted = AuditEntry.objects.filter(
                tournament_id=event.pk,
                action=Action.REPORT_SUBMIT,
                summary__contains=f"round {table.round.number}, pod {table.number}:",
            )
            if not submitted.exists():
                run.history_gaps += 1
    run.standings_equal = (
        standings(event).rows == standings(event, rounds=clean_history(event, planned)).rows
    )
    if offline_round is not None:
        run.adopted = AuditEntry.objects.filter(
            tournament_id=event.pk, action=Action.ROUND_OFFLINE
        ).exists()
        if not run.adopted:
            run.history_gaps += 1


# --- the table ---------------------------------------------------------------------------------


def quantiles(values: list[float]) -> str:
    if not values:
        return "- | -"
    return f"{statistics.median(values):.1f} | {max(values):.1f}"


def record(path: Path, run: Run, args, number: int) -> None:
    """One run as a line of `path` (JSON), with the size it was measured at."""
    line = {
        "players": args.players,
        "rounds": args.rounds,
        "outage": list(args.outage),
        "seed": args.seed,
        "number": number,
        "run": asdict(run),
    }
    with path.open("a") as out:
        out.write(json.dumps(line) + "\n")


def recorded(paths: list[Path]) -> tuple[list[Run], argparse.Namespace]:
    """The runs `record` wrote to `paths`, in order, and the size they share (SystemExit when
    the files mix sizes: one table is one size)."""
    runs, sizes = [], set()
    for path in paths:
        for number, text in enumerate(path.read_text().splitlines(), 1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
                runs.append(Run(**line["run"]))
                sizes.add((line["players"], line["rounds"], tuple(line["outage"])))
            except (ValueError, KeyError, TypeError) as error:
                sys.exit(f"{path}, line {number}: not a recorded run ({error})")
    if not runs:
        sys.exit("No run recorded in " + ", ".join(str(p) for p in paths))
    if len(sizes) > 1:
        sys.exit(f"The files mix event sizes {sorted(sizes)}: one table per size.")
    players, rounds, outage = sizes.pop()
    return runs, argparse.Namespace(players=players, rounds=rounds, outage=outage)


def print_table(runs: list[Run], args) -> None:
    print(
        f"Outage bench: {len(runs)} run(s) of a {args.players}-player pod event, "
        f"{args.rounds} rounds, outages of {args.outage[0]:g}-{args.outage[1]:g} s"
    )
    print()
    print(
        "| run | outage | round | outage s | queued | last result -> paired s "
        "| paper pack s | re-sync s | lost | duplicated | standings = clean | History "
        "| round adopted | conflicts shown |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(runs, 1):
        print(
            f"| {i} | {r.kind} | {r.round} | {r.outage_s:.1f} | {r.queued} | {r.pair_s:.1f} "
            f"| {r.paper_s:.1f} | {r.sync_s:.1f} | {r.lost} | {r.duplicated} "
            f"| {'yes' if r.standings_equal else 'NO'} "
            f"| {'complete' if not r.history_gaps else f'{r.history_gaps} missing'} "
            f"| {'yes' if r.adopted else 'NO'} | {r.conflicts} |"
            + (f" {'; '.join(r.notes)}" if r.notes else "")
        )
    print()
    print(
        "| runs | lost | duplicated | standings differ | results queued p50 / max "
        "| paired offline s p50 / max | paper pack s p50 / max | re-sync s p50 / max |"
    )
    print("|---|---|---|---|---|---|---|---|")
    queued = [r.queued for r in runs]
    print(
        f"| {len(runs)} | {sum(r.lost for r in runs)} | {sum(r.duplicated for r in runs)} "
        f"| {sum(not r.standings_equal for r in runs)} "
        f"| {statistics.median(queued):.0f} / {max(queued)} "
        f"| {quantiles([r.pair_s for r in runs]).replace(' | ', ' / ')} "
        f"| {quantiles([r.paper_s for r in runs]).replace(' | ', ' / ')} "
        f"| {quantiles([r.sync_s for r in runs]).replace(' | ', ' / ')} |"
    )
    print()
    ok = all(
        not r.lost
        and not r.duplicated
        and r.standings_equal
        and not r.history_gaps
        and r.adopted
        and not r.notes
        for r in runs
    )
    paired = max(r.pair_s for r in runs)
    paper = max(r.paper_s for r in runs)
    print(
        f"goal: 0 lost, 0 duplicated, standings and History right: {'yes' if ok else 'NO'}; "
        f"next round paired offline within 60 s: {'yes' if paired <= 60 else 'NO'} "
        f"(max {paired:.1f} s); paper pack within 10 s: {'yes' if paper <= 10 else 'NO'} "
        f"(max {paper:.1f} s)"
    )


def span(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    low_f = float(low)
    high_f = float(high or low)
    if not 0 < low_f <= high_f:
        raise argparse.ArgumentTypeError("an outage is LOW-HIGH seconds, 0 < LOW <= HIGH")
    return low_f, high_f


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--outage", type=span, default=(5.0, 90.0), help="seconds, LOW-HIGH")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--record", type=Path, help="append each run to this file as it ends")
    parser.add_argument(
        "--from", dest="recorded", type=Path, nargs="+", help="print the runs of these files"
    )
    args = parser.parse_args()
    if args.recorded:
        print_table(*recorded(args.recorded))
        return
    args.player_pods = PLAYER_PODS
    if args.quick:
        args.players, args.rounds, args.runs, args.outage = 9, 2, 3, (1.0, 2.0)
        args.player_pods = 1
    if args.players < 6 or args.rounds < 2:
        sys.exit("At least 6 players and 2 rounds: a round is paired during the outage.")
    if not (ROOT / "tournaments/static/tournaments/pyodide/pyodide.asm.wasm").exists():
        sys.exit("The Pyodide files are missing: run `make assets` first.")
    database_ensure(URL)
    port = free_port()
    trace("setting up the site")
    env = site_setup(URL, SECURE_SSL_REDIRECT="0", CSRF_TRUSTED_ORIGINS=f"http://127.0.0.1:{port}")
    site = Site(env, port, Path(tempfile.mkdtemp()) / "access.log")
    site.start()
    trace("site up")
    from playwright.sync_api import sync_playwright

    rng = random.Random(args.seed)
    runs: list[Run] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--headless", "--no-sandbox", "--disable-gpu"],
            )
            phone = browser.new_context(viewport=PHONE)
            phone.set_default_timeout(WAIT)
            for number in range(1, args.runs + 1):
                try:
                    run = one_run(browser, phone, site, args, number, random.Random(rng.random()))
                except Exception as error:
                    failed = Run(notes=[f"run {number} failed: {type(error).__name__}: {error}"])
                    if args.record:
                        record(args.record, failed, args, number)
                    if runs:
                        print_table(runs, args)
                    raise
                runs.append(run)
                if args.record:
                    record(args.record, run, args, number)
            browser.close()
    finally:
        site.stop()
    print_table(runs, args)


if __name__ == "__main__":
    main()
