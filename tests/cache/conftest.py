"""Fixtures for the shared cache's tests: both backends, and a played event with its pages.

`backend` runs a test on the database cache (the default) and on Redis: a private
`redis-server` on a free port for the session, started from /usr/bin (or PATH); without the
binary the Redis cases skip and say why.
"""

import shutil
import socket
import subprocess
import time

import pytest
from django.core.cache import cache, caches

from config.settings import redis_cache
from core import pagecache
from tests.factories import LeagueFactory, OrganizationFactory
from tests.tournaments.play import play_round, register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not shutil.which(binary):
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp_path_factory.mktemp("redis"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not start on port {port}")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(params=["database", "redis"])
def backend(request, settings):
    """The shared cache on PostgreSQL's table, then on Redis (as with REDIS_URL set)."""
    if request.param == "redis":
        settings.CACHES = {"default": redis_cache(request.getfixturevalue("redis_url"))}
    settings.GUILDHALL_PAGE_CACHE = True
    cache.clear()
    pagecache.recent.clear()
    assert caches["default"].__class__.__name__ == (
        "RedisCache" if request.param == "redis" else "DatabaseCache"
    )
    return request.param


def played(league, name: str, *, fmt: str = "1v1", players: int = 8, rounds: int = 2):
    """An event of `players` with `rounds` played through the services and the next paired."""
    event = tournament_create(league=league, name=name, format=fmt, swiss_rounds=5)
    register(event, *(f"{name} player {n}" for n in range(1, players + 1)))
    for _ in range(rounds):
        play_round(event)
    round_pair(tournament=event)
    return event


@pytest.fixture
def store(db):
    league = LeagueFactory(organization=OrganizationFactory(), name="Friday league")
    return league
