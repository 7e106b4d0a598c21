"""The launcher behind `make run` and `make test`'s database choice (config/devserver.py).

The embedded server is started for real in a temporary folder: it must answer, be found again
by a second start, and be gone after the stop. The choice of `make test`'s database is checked
in its order: TEST_DATABASE_URL, the server on 5432 (or Debian's, started), the embedded one.
"""

import os
import subprocess
import time

import psutil
import psycopg
import pytest

from config import devserver


def gone(pid: int, seconds: float = 10) -> bool:
    """Whether the process has exited (a zombie waiting for its parent counts as gone)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.1)
    return False


def test_a_test_database_url_wins_without_asking_any_server(monkeypatch, tmp_path):
    monkeypatch.setattr(devserver, "server_answers", pytest.fail)
    url = "postgres://postgres@db.example:5432/guildhall"
    assert devserver.test_database_url({"TEST_DATABASE_URL": url}, tmp_path) == url


def test_the_local_server_comes_next(monkeypatch, tmp_path):
    monkeypatch.setattr(devserver, "server_answers", lambda url: url.startswith("postgres://"))
    monkeypatch.setattr(devserver, "embedded_start", pytest.fail)
    assert devserver.test_database_url({}, tmp_path) == devserver.LOCAL_URL


def test_debian_cluster_is_started_when_nothing_answers(monkeypatch, tmp_path):
    monkeypatch.setattr(devserver, "server_answers", lambda url: False)
    monkeypatch.setattr(devserver, "debian_cluster_start", lambda: True)
    monkeypatch.setattr(devserver, "embedded_start", pytest.fail)
    assert devserver.test_database_url({}, tmp_path) == devserver.LOCAL_URL


def test_no_debian_cluster_without_its_configuration(tmp_path):
    assert devserver.debian_cluster_start(tmp_path / "missing") is False


def test_the_embedded_server_when_no_other_answers(monkeypatch, tmp_path):
    """A real embedded PostgreSQL: created, reused by a second start, stopped, nothing left."""
    monkeypatch.setattr(devserver, "server_answers", lambda url: False)
    monkeypatch.setattr(devserver, "debian_cluster_start", lambda: False)
    pgdata = tmp_path / "pgdata"
    try:
        url = devserver.test_database_url({}, pgdata)
        assert url == devserver.embedded_url(pgdata, "guildhall")
        with psycopg.connect(devserver._libpq(url)) as conn:
            version = conn.execute("SHOW server_version_num").fetchone()[0]
        assert int(version) >= 180000
        pid = int((pgdata / "postmaster.pid").read_text().split()[0])
        assert devserver.embedded_start(pgdata) == url  # found running, database kept
        assert int((pgdata / "postmaster.pid").read_text().split()[0]) == pid
    finally:
        assert devserver.embedded_stop(pgdata) is True
    assert gone(pid)
    assert devserver.embedded_stop(pgdata) is False  # stopping twice is harmless


def test_children_are_stopped_with_their_own_children(tmp_path):
    """The autoreloaders fork: the whole process group goes, not only the first process."""
    children = devserver.Children()
    script = f"sleep 300 & echo $! > {tmp_path / 'grandchild'}; wait"
    children.start("sh", ["sh", "-c", script], env={"PATH": "/usr/bin:/bin"})
    for _ in range(50):
        if (tmp_path / "grandchild").exists() and (tmp_path / "grandchild").read_text():
            break
        time.sleep(0.1)
    grandchild = int((tmp_path / "grandchild").read_text())
    assert psutil.pid_exists(grandchild)
    children.stop(grace=2)
    assert gone(grandchild)
    assert children.procs["sh"].returncode is not None


@pytest.mark.parametrize("worker", [True, False])
def test_the_launcher_starts_the_worker_when_there_is_one_and_reports_a_child_that_dies(
    monkeypatch, worker
):
    """The job worker runs beside the server once `db_worker` exists; if a child cannot start
    (the web server's port taken), `make run` stops the rest and exits non-zero."""
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/unused")
    calls, started = [], []
    monkeypatch.setattr(devserver.subprocess, "run", lambda *a, **k: calls.append(a[0]))
    monkeypatch.setattr(devserver, "has_command", lambda name, env: worker)
    # DATABASE_URL in the environment overrides: no embedded server is started or stopped.
    monkeypatch.setattr(devserver, "embedded_start", pytest.fail)
    monkeypatch.setattr(devserver, "embedded_stop", pytest.fail)

    def start(self, name, args, env):
        started.append(args[2:])
        self.procs[name] = subprocess.Popen(["false"])

    monkeypatch.setattr(devserver.Children, "start", start)
    assert devserver.serve(port=8123) == 1
    assert [c[2] for c in calls] == ["migrate", "seed_demo"]
    server = devserver.web_server_args(8123)[2:]
    # Outgoing messages have a queue, and so a worker, of their own (notifications.tasks).
    workers = [["db_worker"], ["db_worker", "--queue-name", "notifications"]]
    assert started == ([*workers, server] if worker else [server])


def test_has_command_asks_django():
    env = {**os.environ, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
    assert devserver.has_command("seed_demo", env) is True
    assert devserver.has_command("no_such_command", env) is False
