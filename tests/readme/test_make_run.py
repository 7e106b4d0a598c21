"""`make run` as a new user runs it: a fresh clone, nothing set, no database installed for it.

The checkout the tests run from is cloned (its committed HEAD; in CI that is itself a fresh
clone) into a temporary folder, which gets its own .venv (uv's download cache is shared) and its own
embedded PostgreSQL. `make run PORT=<free>` runs with no DATABASE_URL in its environment: `/`
must answer 200 within 5 minutes (the time to the first page is printed), a crawl of every page
reachable by links from `/` (and, logged in as the demo organizer, from the organizer's pages)
must find no error, and Ctrl-C (SIGINT to its process group, as a terminal sends it) must stop
every process it started, PostgreSQL included. A second `make run` reuses the data (no new
cluster, no second demo) and stops on SIGTERM to make alone, as a process manager sends it.
"""

import contextlib
import html
import http.cookiejar
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.readme.conftest import ROOT

pytestmark = pytest.mark.readme

FIRST_PAGE_WITHIN = 300  # seconds, install included (the README's promise)
CRAWL_LIMIT = 200  # pages per crawl
# Variables the test run has that a new user's shell does not.
NOT_SET_BY_A_NEW_USER = {
    "DATABASE_URL",
    "TEST_DATABASE_URL",
    "BENCH_DATABASE_URL",
    "DEBUG",
    "SECRET_KEY",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "PORT",
    "VIRTUAL_ENV",
    "PYTEST_CURRENT_TEST",
    "PYTEST_VERSION",
    "MAKEFLAGS",  # from `make test` around this run
    "MFLAGS",
    "MAKELEVEL",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clone_head(into: Path) -> Path:
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if head.returncode != 0:
        pytest.skip("the tests do not run from a git checkout: nothing to clone")
    clone = into / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(clone)], check=True)
    checkout = ["git", "-C", str(clone), "checkout", "--quiet", head.stdout.strip()]
    subprocess.run(checkout, check=True)
    return clone


class MakeRun:
    """One `make run` in the clone, its output in a log file."""

    def __init__(self, clone: Path, port: int, log: Path):
        self.clone, self.port, self.log = clone, port, log
        env = {k: v for k, v in os.environ.items() if k not in NOT_SET_BY_A_NEW_USER}
        self.started = time.monotonic()
        with log.open("w") as out:
            self.proc = subprocess.Popen(
                ["make", "run", f"PORT={port}"],
                cwd=clone,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, like a terminal's job
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for_first_page(self, within: float) -> float:
        while time.monotonic() - self.started < within:
            if self.proc.poll() is not None:
                pytest.fail(f"make run exited {self.proc.returncode}:\n{self.output()[-5000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=10) as r:
                    if r.status == 200:
                        return time.monotonic() - self.started
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(1)
        pytest.fail(f"no 200 on / within {within} s:\n{self.output()[-5000:]}")

    def processes(self) -> list[psutil.Process]:
        """make, the launcher, gunicorn (and its workers), the job worker, PostgreSQL."""
        found = []
        with contextlib.suppress(psutil.NoSuchProcess):
            found.append(psutil.Process(self.proc.pid))
        for proc in psutil.process_iter(["cmdline"]):
            cmdline = " ".join(proc.info["cmdline"] or [])
            if str(self.clone) in cmdline and proc.pid != self.proc.pid:
                found.append(proc)
        return found

    def stop(self, sig: int, *, group: bool) -> None:
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            pytest.fail(f"make run did not stop within 90 s of {sig!r}:\n{self.output()[-3000:]}")

    def kill(self) -> None:
        """Whatever a failed test left behind."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        for proc in self.processes():
            with contextlib.suppress(psutil.NoSuchProcess):
                if "postgres" not in proc.name():  # stopped with pg_ctl below
                    proc.kill()


def still_running(processes: list[psutil.Process], seconds: float = 15) -> list[str]:
    deadline = time.monotonic() + seconds
    while True:
        alive = []
        for proc in processes:
            try:
                if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                    alive.append(f"{proc.pid} {' '.join(proc.cmdline())[:120]}")
            except psutil.NoSuchProcess:
                pass
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.5)


LINK = re.compile(r"""<a\s[^>]*?href\s*=\s*["']([^"'#]+)""", re.IGNORECASE)
# Links that are not pages to read: files, and logging out (a POST form in a link's clothes).
NOT_PAGES = re.compile(r"^/(static|media)/|logout")
ERROR_MARKS = ("Traceback", "Server Error (500)", "OperationalError", "ProgrammingError")


def crawl(opener, port: int, start: str, limit: int) -> tuple[dict[str, int], list[str]]:
    """Breadth first over same-host links; (status per page, problems). A path not seen yet
    goes before another sort order or page of one already seen, so the bound keeps variety."""
    base = f"http://127.0.0.1:{port}"
    seen, paths, statuses, problems = {start}, set(), {}, []
    new_paths, variants = [start], []
    while (new_paths or variants) and len(statuses) < limit:
        page = new_paths.pop(0) if new_paths else variants.pop(0)
        paths.add(page.partition("?")[0])
        try:
            with opener.open(base + page, timeout=60) as response:
                status, body = response.status, response.read()
                kind = response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            status, body, kind = error.code, error.read(), ""
        statuses[page] = status
        text = body.decode("utf-8", errors="replace")
        if status >= 400:
            problems.append(f"{page}: HTTP {status}")
        elif any(mark in text for mark in ERROR_MARKS):
            problems.append(f"{page}: an error page ({text[:200]!r})")
        if "html" not in kind:
            continue
        for href in LINK.findall(text):
            url = urllib.parse.urlsplit(urllib.parse.urljoin(base + page, html.unescape(href)))
            if url.netloc != f"127.0.0.1:{port}" or NOT_PAGES.search(url.path):
                continue
            target = url.path + (f"?{url.query}" if url.query else "")
            if target not in seen:
                seen.add(target)
                fresh = url.path not in paths and not any(
                    t.partition("?")[0] == url.path for t in new_paths
                )
                (new_paths if fresh else variants).append(target)
    return statuses, problems


def distinct_paths(pages) -> int:
    return len({page.partition("?")[0] for page in pages})


def log_in(opener, jar, port: int, username: str, password: str) -> None:
    login = f"http://127.0.0.1:{port}/accounts/login/"
    opener.open(login, timeout=30).read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    data = urllib.parse.urlencode(
        {"login": username, "password": password, "csrfmiddlewaretoken": token}
    ).encode()
    request = urllib.request.Request(login, data=data, headers={"Referer": login})
    with opener.open(request, timeout=30) as response:
        assert response.url != login, "the demo login was refused"
    assert any(c.name == "sessionid" for c in jar)


@pytest.fixture
def workspace():
    # Not pytest's tmp_path: it keeps the last runs, and each holds a .venv and a database.
    folder = Path(tempfile.mkdtemp(prefix="guildhall-make-run-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_make_run_on_a_fresh_clone_serves_the_demo_and_stops_cleanly(workspace, capsys):
    def report(line: str) -> None:
        with capsys.disabled():  # shown in CI's log even when the test passes
            print(f"\n[make run test] {line}", end="")

    clone = clone_head(workspace)
    port = free_port()
    run = MakeRun(clone, port, workspace / "make-run-1.log")
    try:
        first_page = run.wait_for_first_page(FIRST_PAGE_WITHIN)
        report(f"fresh clone: first page after {first_page:.1f} s (install, database, demo)")
        output = run.output()
        assert "creating the embedded PostgreSQL" in output
        assert f"serving http://127.0.0.1:{port}/" in output
        assert (clone / ".pgdata" / "PG_VERSION").exists()
        assert (
            "?? .pgdata"
            not in subprocess.run(
                ["git", "-C", str(clone), "status", "--porcelain"], capture_output=True, text=True
            ).stdout
        )  # git-ignored

        visitor = urllib.request.build_opener()
        pages, problems = crawl(visitor, port, "/", CRAWL_LIMIT)
        assert not problems, problems
        report(f"visitor crawl: {len(pages)} pages ({distinct_paths(pages)} paths), no error")
        assert any(p.startswith("/leagues/friday-commander/") for p in pages)

        jar = http.cookiejar.CookieJar()
        organizer = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        log_in(organizer, jar, port, "demo", "guildhall-demo")
        pages, problems = crawl(organizer, port, "/leagues/friday-commander/", CRAWL_LIMIT)
        assert not problems, problems
        report(f"organizer crawl: {len(pages)} pages ({distinct_paths(pages)} paths), no error")
        assert any("import" in p for p in pages), sorted(pages)

        processes = run.processes()
        names = " ".join(" ".join(p.cmdline()) for p in processes)
        assert "gunicorn" in names
        assert "postgres" in names
        run.stop(signal.SIGINT, group=True)  # Ctrl-C
        assert still_running(processes) == [], run.output()[-3000:]
        assert "PostgreSQL stopped" in run.output()
        assert not (clone / ".pgdata" / "postmaster.pid").exists()

        # Again: the data is reused, the demo is not loaded twice; SIGTERM to make alone.
        run = MakeRun(clone, port, workspace / "make-run-2.log")
        again = run.wait_for_first_page(120)
        report(f"make run again: first page after {again:.1f} s")
        output = run.output()
        assert "starting the embedded PostgreSQL" in output
        assert "Demo data already loaded." in output
        processes = run.processes()
        run.stop(signal.SIGTERM, group=False)
        assert still_running(processes) == [], run.output()[-3000:]
    finally:
        run.kill()
        if (clone / ".pgdata" / "postmaster.pid").exists():
            subprocess.run(
                [str(clone / ".venv" / "bin" / "python"), "-m", "config.devserver", "--stop"],
                cwd=clone,
                check=False,
            )
