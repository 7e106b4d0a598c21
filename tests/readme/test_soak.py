"""`make run`'s server under a Friday night of phones, with time compressed (issue 31, bug 1).

The real launcher (`python -m config.devserver`, what `make run` execs) serves a fresh database
beside the test one, with the demo store and a 32-player pod event seeded, its round 1 paired.
32 phones then poll what phones poll during an evening (the public pairings and standings, the
check-in page, the TO's console and its live update) with no pause between requests: the
evening's requests arrive in minutes, not the evening's hours. Most requests come on a new TCP
connection, as phones on a store's Wi-Fi do. Meanwhile the connections PostgreSQL holds for
that database are counted (pg_stat_activity) every 0.2 s. Every request must answer without
an error, and the connections never exceed the server's threads plus the job worker's, plus
the launcher's own short checks. Before the fix runserver made a thread, and a connection, per
phone connection and left each connection open until the garbage collector found it: the count
climbed past 60 and then into PostgreSQL's "too many clients".
"""

from __future__ import annotations

import html
import http.client
import http.cookiejar
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter

import psutil
import psycopg
import pytest

from config import devserver
from tests.readme.conftest import ROOT, sibling_database_url
from tests.readme.test_make_run import free_port, log_in

pytestmark = pytest.mark.slow

PHONES = 32
# Enough to catch the bug it guards: with the fix reverted (runserver again), 3,000 requests
# answered 287 with 500 and held 99 connections (measured 2026-11-27); 20,000 took 93 s of
# `make test` and caught nothing more.
REQUESTS = 3_000
NEW_CONNECTION_SHARE = 0.8  # the rest reuse the phone's connection (HTTP keep-alive)
EVENT = "soak-night"


def connections_to(url: str, database: str) -> int:
    with psycopg.connect(devserver._libpq(url), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]
        ).fetchone()
    return row[0]


class Sampler(threading.Thread):
    """The database's connection count every `every` seconds, from a connection of its own on
    the `postgres` database (so it does not count itself)."""

    def __init__(self, url: str, database: str, every: float = 0.2):
        super().__init__(daemon=True)
        self.conninfo = devserver._libpq(url.rsplit("/", 1)[0] + "/postgres")
        self.database, self.every = database, every
        self.samples: list[int] = []
        self.done = threading.Event()

    def run(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            while not self.done.is_set():
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [self.database]
                ).fetchone()
                self.samples.append(row[0])
                self.done.wait(self.every)


class Phones:
    """`phones` threads sharing `total` requests over `pages` (path, headers) pairs."""

    def __init__(self, port: int, pages: list[tuple[str, dict]], total: int):
        self.port, self.pages, self.total = port, pages, total
        self.lock = threading.Lock()
        self.sent = 0
        self.statuses: Counter[int | str] = Counter()
        self.new_connections = 0
        self.problems: list[str] = []

    def _next(self) -> bool:
        with self.lock:
            if self.sent >= self.total:
                return False
            self.sent += 1
            return True

    def phone(self, number: int) -> None:
        rng = random.Random(number)
        conn: http.client.HTTPConnection | None = None
        while self._next():
            path, headers = rng.choice(self.pages)
            fresh = conn is None or rng.random() < NEW_CONNECTION_SHARE
            if fresh:
                if conn is not None:
                    conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                body = response.read()
                status: int | str = response.status
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as error:
                status, body = type(error).__name__, b""
                conn.close()
                conn = None
            with self.lock:
                self.statuses[status] += 1
                self.new_connections += fresh
                if status not in (200, 304) and len(self.problems) < 20:
                    self.problems.append(f"{path}: {status} {body[:300]!r}")
        if conn is not None:
            conn.close()

    def run(self, phones: int) -> float:
        started = time.monotonic()
        threads = [threading.Thread(target=self.phone, args=(n,)) for n in range(phones)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return time.monotonic() - started


POLLS_PER_OPEN = 4  # a phone keeps a page open and polls it: most requests are polls
POLL = re.compile(r"<[^>]*hx-trigger=\"every [^>]*>")
HX_GET = re.compile(r'hx-get="([^"]+)"')
ETAG = re.compile(r'If-None-Match": "\\"([^"\\]+)')


def polls(page: str) -> list[tuple[str, str]]:
    """(address, etag) of each element of the page that polls (hx-trigger="every ...")."""
    found = []
    for tag in POLL.findall(page):
        address, etag = HX_GET.search(tag), ETAG.search(tag)
        if address and etag:
            found.append((html.unescape(address.group(1)), etag.group(1)))
    return found


def get(port: int, path: str, headers: dict) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", errors="replace")
    finally:
        conn.close()


def manage(args: list[str], env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True
    )


def test_make_run_serves_an_evening_of_32_phones_without_an_error(capsys):
    url = sibling_database_url("soak", fresh=True)  # migrated: the launcher finds it so
    database = urllib.parse.urlsplit(url).path.lstrip("/")
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": url, "PYTHONUNBUFFERED": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    port = free_port()
    log = open(os.devnull, "w")  # noqa: SIM115 - the server's request log is not wanted here
    server = subprocess.Popen(
        [sys.executable, "-m", "config.devserver", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while True:
            assert server.poll() is None, "the launcher exited"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "no first page within 180 s"
            time.sleep(0.5)
        launcher = psutil.Process(server.pid)
        manage(
            [
                "seed_event",
                "--players",
                "32",
                "--format",
                "pods",
                "--rounds-played",
                "1",
                "--slug",
                EVENT,
            ],
            env,
        )

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        log_in(opener, jar, port, "demo", "guildhall-demo")
        to = "; ".join(f"{c.name}={c.value}" for c in jar)
        event = f"/events/{EVENT}"
        opened = [
            (f"{event}/", ""),  # the public pairings
            (f"{event}/standings/", ""),
            (f"{event}/check-in/", to),  # a signed-in player's
            (f"{event}/run/", to),  # the TO's console
        ]
        pages = []  # (path, headers): each page opened, and its poll as the page sends it
        for path, cookie in opened:
            headers = {"Cookie": cookie} if cookie else {}
            status, text = get(port, path, headers)
            assert status == 200, (path, status)  # not a redirect to the login page
            pages.append((path, headers))
            for poll, etag in polls(text):
                poll_headers = {**headers, "HX-Request": "true", "If-None-Match": f'"{etag}"'}
                assert get(port, poll, poll_headers)[0] in (200, 304), poll
                pages += [(poll, poll_headers)] * POLLS_PER_OPEN
        assert len(pages) > len(opened), "no page polls"

        sampler = Sampler(url, database)
        sampler.start()
        phones = Phones(port, pages, REQUESTS)
        seconds = phones.run(PHONES)
        sampler.done.set()
        sampler.join()

        errors = sum(n for status, n in phones.statuses.items() if status not in (200, 304))
        peak, median = max(sampler.samples), sorted(sampler.samples)[len(sampler.samples) // 2]
        with capsys.disabled():
            print(
                f"\n[soak] {phones.sent} requests in {seconds:.0f} s "
                f"({phones.sent / seconds:.0f}/s), {phones.new_connections} on new "
                f"connections, statuses {dict(phones.statuses)}, errors {errors}, database "
                f"connections peak {peak} (median {median}, {len(sampler.samples)} samples)"
            )
        assert phones.sent >= REQUESTS
        assert phones.new_connections > REQUESTS / 2
        assert errors == 0, phones.problems
        job_workers = sum("db_worker" in " ".join(c.cmdline()) for c in launcher.children())
        budget = (
            devserver.WEB_WORKERS * devserver.WEB_THREADS
            + devserver.JOB_WORKER_CONNECTIONS * job_workers
        )
        assert peak <= budget, (budget, sampler.samples)
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()
