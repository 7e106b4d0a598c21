"""Links in mails and Discord messages reach the `make run` that sent them (issue 31, bug 4).

`make run PORT=31080` served on 31080 while the links its worker and server wrote pointed at
8000 (settings' DEBUG default): the launcher now gives both children the address it serves,
unless GUILDHALL_BASE_URL is set (a tunnel or a LAN name, in front of the same server).
"""

import subprocess
import sys

import pytest

from config import devserver

RUN = subprocess.run  # devserver's module is the same `subprocess`, patched below


def children_env(monkeypatch, port: int) -> dict[str, dict[str, str]]:
    """The environment `make run PORT=<port>` gives each child, nothing started for real."""
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/unused")
    monkeypatch.setattr(devserver.subprocess, "run", lambda *a, **k: None)
    monkeypatch.setattr(devserver, "has_command", lambda name, env: True)
    envs = {}

    def start(self, name, args, env):
        envs[name] = env
        self.procs[name] = subprocess.Popen(["false"])

    monkeypatch.setattr(devserver.Children, "start", start)
    devserver.serve(port=port)
    return envs


def absolute_link(env: dict[str, str], path: str) -> str:
    """The link a notification for `path` carries, in a process with that environment."""
    code = (
        "import django; django.setup(); from notifications.sending import absolute; "
        f"print(absolute({path!r}))"
    )
    result = RUN(
        [sys.executable, "-c", code],
        cwd=devserver.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_the_server_and_the_worker_link_to_the_port_make_run_serves(monkeypatch):
    monkeypatch.delenv("GUILDHALL_BASE_URL", raising=False)
    envs = children_env(monkeypatch, 31080)
    assert set(envs) == {"job worker", "message worker", "web server"}
    for env in envs.values():
        assert (
            absolute_link(env, "/events/friday/me/") == "http://127.0.0.1:31080/events/friday/me/"
        )


@pytest.mark.parametrize("port", [8000, 8001])
def test_every_port_gets_its_own_links(monkeypatch, port):
    monkeypatch.delenv("GUILDHALL_BASE_URL", raising=False)
    envs = children_env(monkeypatch, port)
    assert {env["GUILDHALL_BASE_URL"] for env in envs.values()} == {f"http://127.0.0.1:{port}"}


def test_an_address_the_user_set_is_kept(monkeypatch):
    """Players on the store's Wi-Fi reach the laptop by its LAN name, not 127.0.0.1."""
    monkeypatch.setenv("GUILDHALL_BASE_URL", "http://store-laptop.local:31080")
    envs = children_env(monkeypatch, 31080)
    for env in envs.values():
        assert absolute_link(env, "/e/") == "http://store-laptop.local:31080/e/"
