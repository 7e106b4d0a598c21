#!/usr/bin/env python
"""What pairing a round on the TO's phone costs (issue 34): the files the phone downloads for
it and the cold start, from opening the page to the round paired under Pyodide.

    .venv/bin/python bench/pyodide_start.py [--players 64] [--runs 3] [--quick]

The site as deployed (DEBUG off, static files collected and compressed by whitenoise, gunicorn)
on its own database, a pod event of `--players` seeded with round 1 played and round 2 being
played with every result in (`seed_event`, then each table reported): the moment the phone
pairs round 3. Debian's Chromium opens the console's "Pair without the server" page
(`events/<slug>/run/offline/`) as the event's organizer, each run in a new browser context
(an empty HTTP cache: a cold start), under a network and CPU profile set through the DevTools
protocol (Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate); the bench taps
"Pair" as soon as it can. Per profile: the bytes sent over the network for the pairing code
(compressed as served) and, as medians of the runs, the page's load event, the pairing code
ready (Pyodide started and the pure code unpacked), the round paired, and the pairing's own
time in Python. A second table lists each file the phone fetches, raw and as sent.

`--quick`: 16 players, one run of the phone profile on 4G.
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadlib.cluster import database_ensure, free_port  # noqa: E402
from bench.loadlib.server import site_setup, start_gunicorn, stop_gunicorn  # noqa: E402

URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/guildhall_bench")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PORT = free_port()  # another bench or helper may hold any fixed port
SLUG = "bench-pyodide"
TIMEOUT = 300_000  # ms: a cold start on the slowest profile stays well within it

# (name, latency ms, download kbit/s, upload kbit/s, CPU slowdown); 0: not throttled.
# "slow 4G" is Lighthouse's mobile profile (150 ms, 1.6 Mbit/s, 4x CPU).
PROFILES = [
    ("laptop, no throttling", 0, 0, 0, 1),
    ("phone, 4G (60 ms, 20 Mbit/s), CPU 4x", 60, 20_000, 5_000, 4),
    ("phone, slow 4G (150 ms, 1.6 Mbit/s), CPU 4x", 150, 1_600, 750, 4),
]


def prepare(players: int) -> tuple[dict, str]:
    """The deployed site on the bench database, the event seeded with round 2's results all
    in, and a session cookie of its organizer."""
    database_ensure(URL)
    env = site_setup(URL)
    from django.core.management import call_command
    from django.test import Client

    from leagues.models import Role
    from tests.factories import organizer_of
    from tournaments.models import Round, Tournament
    from tournaments.services.results import table_report

    with open(os.devnull, "w") as quiet:
        call_command(
            "seed_event", players=players, format="pods", rounds_played=1, slug=SLUG,
            replace=True, seed=7, stdout=quiet,
        )  # fmt: skip
    event = Tournament.objects.get(slug=SLUG)
    for table in event.rounds.get(status=Round.Status.PLAYING).tables.filter(reported=False):
        table_report(table=table, winner=table.seats.order_by("position").first().entry)
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username="bench-pyodide-to").first()
    if user is None:
        user = organizer_of(
            event.league.organization, role=Role.ORGANIZER, username="bench-pyodide-to"
        )
    client = Client()
    client.force_login(user)
    return env, client.cookies["sessionid"].value


def cold_start(browser, session: str, profile) -> dict:
    """One cold start under `profile`: timings in ms since navigation, bytes by file."""
    _, latency, down, up, cpu = profile
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        extra_http_headers={"X-Forwarded-Proto": "https"},
    )
    context.add_cookies(
        [{"name": "sessionid", "value": session, "domain": "127.0.0.1", "path": "/"}]
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if latency or down:
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": latency,
                "downloadThroughput": down * 1000 / 8,
                "uploadThroughput": up * 1000 / 8,
            },
        )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    sizes: dict[str, int] = {}
    urls: dict[str, str] = {}
    cdp.on(
        "Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"])
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(urls.get(e["requestId"], "?"), int(e["encodedDataLength"])),
    )
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"http://127.0.0.1:{PORT}/events/{SLUG}/run/offline/")
    try:
        page.locator(".offline-pair-button:enabled").click()
        page.locator(".offline-round:not([hidden])").wait_for()
    except Exception:
        said = page.locator(".offline-status, .offline-message").all_inner_texts()
        context.close()
        sys.exit(f"The page did not pair the round ({page.url}): {said} {errors}")
    timings = page.evaluate("window.guildhallOffline.timings")
    load = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
    tables = page.locator(".offline-table").count()
    context.close()
    pairing = {u: n for u, n in sizes.items() if "/static/tournaments/" in u}
    return {
        "load": load,
        "ready": timings["ready"],
        "paired": timings["paired"],
        "pair_ms": timings["pairMs"],
        "bytes": sum(pairing.values()),
        "files": pairing,
        "tables": tables,
    }


def raw_size(url: str, static_root: Path) -> int | None:
    path = static_root / url.split("/static/", 1)[1]
    return path.stat().st_size if path.exists() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    profiles = PROFILES
    if args.quick:
        args.players, args.runs, profiles = 16, 1, [PROFILES[1]]
    static = ROOT / "tournaments/static/tournaments/pyodide/pyodide.asm.wasm"
    if not static.exists():
        sys.exit("The Pyodide files are missing: run `make assets` first.")
    env, session = prepare(args.players)
    from django.conf import settings

    static_root = Path(settings.STATIC_ROOT)
    log = Path(tempfile.mkdtemp()) / "access.log"
    server = start_gunicorn(env, PORT, 1, 4, log, ready_path="/")
    from playwright.sync_api import sync_playwright

    results = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            for profile in profiles:
                results[profile[0]] = [
                    cold_start(browser, session, profile) for _ in range(args.runs)
                ]
            browser.close()
    finally:
        stop_gunicorn(server)

    print(
        f"Pairing on the phone: a {args.players}-player pod event, round 3 paired under Pyodide "
        f"in Chromium, {args.runs} cold start(s) per profile (medians, ms since navigation)"
    )
    print()
    print(
        "| profile | sent KB | page loaded ms | pairing code ready ms | round paired ms "
        "| pairing ms | tables |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, runs in results.items():

        def med(key, runs=runs):
            return statistics.median(r[key] for r in runs)

        print(
            f"| {name} | {med('bytes') / 1024:,.0f} | {med('load'):,.0f} | {med('ready'):,.0f} | "
            f"{med('paired'):,.0f} | {med('pair_ms'):,.0f} | {runs[0]['tables']} |"
        )
    print()
    first = next(iter(results.values()))[0]["files"]
    print("| file the phone fetches | raw KB | sent KB |")
    print("|---|---|---|")
    for url, sent in sorted(first.items(), key=lambda item: -item[1]):
        raw = raw_size(url, static_root)
        raw_text = "?" if raw is None else f"{raw / 1024:,.0f}"
        print(f"| {url.split('/static/', 1)[1]} | {raw_text} | {sent / 1024:,.0f} |")
    total_raw = sum(raw_size(u, static_root) or 0 for u in first)
    print(f"| total | {total_raw / 1024:,.0f} | {sum(first.values()) / 1024:,.0f} |")


if __name__ == "__main__":
    main()
