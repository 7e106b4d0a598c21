"""A bench's `--database URL`: the database on a running server stands in for a private
cluster, made if missing and left where it is at the end."""

import os
import uuid

import psycopg

from bench.loadlib.cluster import Existing, cluster_for


def server_url() -> str:
    return os.environ["DATABASE_URL"].rpartition("/")[0]


def exists(name: str) -> bool:
    with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as conn:
        return bool(conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone())


def test_a_database_given_is_used_made_if_missing_and_kept():
    name = f"bench_given_{uuid.uuid4().hex[:8]}"
    url = f"{server_url()}/{name}"
    given = cluster_for("auto", "unused", url)
    assert isinstance(given, Existing)
    assert given.url == url
    assert name in given.description
    try:
        given.start()
        assert exists(name)
        given.start()  # a second start finds it
        given.stop()
        assert exists(name)  # whoever gave it cleans up
    finally:
        with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
