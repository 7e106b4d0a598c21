"""One migrated database, cloned for every test process and for the benches of a run.

Every test process of `make test` used to build its own test database by running every
migration, and so did each bench's database and the soak's: 14 runs of `migrate` in one run
of the suite. Now the first process to need a database migrates a template once, named by a
digest of the migration files (so a changed or new migration makes a new one, and a database
cloned from an old one is not reused), and each database is `CREATE DATABASE ... TEMPLATE`,
a copy of its files. The template is kept between runs; a run given `--create-db` builds it
again. Only `make run`'s test (tests/readme/test_make_run.py) still migrates from nothing.

The processes take turns by a PostgreSQL advisory lock, on a connection to the server's
`postgres` database: PostgreSQL refuses to clone a database another session is connected to,
and the template is built under another name and renamed, so it exists only once complete.
"""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import dj_database_url
import django
import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parents[1]
LOCK = 440_445  # the advisory lock's key: issue 44, part 5
MAX_NAME = 63  # PostgreSQL's longest identifier


def migrations_digest() -> str:
    """A digest of every migration file of the project's apps, of Django's version and of
    requirements.txt (the other packages' migrations)."""
    digest = hashlib.sha256(django.__version__.encode())
    digest.update((ROOT / "requirements.txt").read_bytes())
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _server(url: str) -> tuple[str, str, str]:
    """(the URL up to its database, the database, its query string) of `url`."""
    server, _, name = url.rpartition("/")
    name, _, query = name.partition("?")
    return server, name, f"?{query}" if query else ""


def template_name() -> str:
    """`test_<database>_template_<digest>`: the database of DATABASE_URL names it, so each
    checkout with a database of its own has its own template."""
    base = dj_database_url.parse(os.environ["DATABASE_URL"])["NAME"]
    return f"test_{base}"[: MAX_NAME - 22] + f"_template_{migrations_digest()}"


def _admin() -> psycopg.Connection:
    """A connection to the `postgres` database of DATABASE_URL's server."""
    server, _, query = _server(os.environ["DATABASE_URL"])
    return psycopg.connect(f"{server}/postgres{query}", autocommit=True)


def _comment(conn, name: str) -> str | None:
    """The comment on the database `name` ("" for none), None if there is no such database."""
    row = conn.execute(
        "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
        [name],
    ).fetchone()
    return None if row is None else (row[0] or "")


def _dropped(conn, name: str) -> None:
    if _comment(conn, name) is not None:
        conn.execute(sql.SQL("ALTER DATABASE {} IS_TEMPLATE false").format(sql.Identifier(name)))
    conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _migrated(name: str) -> None:
    """Every migration run into the empty database `name`, by `manage.py migrate` (this
    process's connections, pytest-django's guard on them included, are left alone)."""
    server, _, query = _server(os.environ["DATABASE_URL"])
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"{server}/{name}{query}"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "--verbosity=0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode:
        raise RuntimeError(f"migrate into {name} failed:\n{done.stdout}{done.stderr}")


def _template_ensured(conn, *, rebuild: bool) -> str:
    """The template's name, built first if it is missing (or if `rebuild`, unless this run
    of pytest built it already). The caller holds the lock."""
    name = template_name()
    built = f"built by run {os.environ.get('PYTEST_XDIST_TESTRUNUID', os.getpid())}"
    comment = _comment(conn, name)
    if comment is not None and not (rebuild and comment != built):
        return name
    building = f"{name[: MAX_NAME - 9]}_building"
    _dropped(conn, name)
    _dropped(conn, building)
    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(building)))
    _migrated(building)
    ident = sql.Identifier(name)
    conn.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(building), ident))
    # No session (autovacuum's either) may connect to it: a clone would be refused.
    conn.execute(
        sql.SQL("ALTER DATABASE {} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false").format(ident)
    )
    conn.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(ident, sql.Literal(built)))
    _stale_templates_dropped(conn, keep=name)
    return name


def _stale_templates_dropped(conn, *, keep: str) -> None:
    """The templates of older migrations of the same database, unless one is being cloned."""
    prefix = keep.rsplit("_", 1)[0] + "_"
    stale = conn.execute(
        "SELECT datname FROM pg_database WHERE starts_with(datname, %s) AND datname <> %s",
        [prefix, keep],
    ).fetchall()
    for (name,) in stale:
        try:
            conn.execute(
                sql.SQL("ALTER DATABASE {} IS_TEMPLATE false").format(sql.Identifier(name))
            )
            conn.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(name)))
        except psycopg.Error:
            pass  # another run is cloning it: the next build drops it


def clone_database(name: str, *, fresh: bool = True, rebuild: bool = False) -> bool:
    """The database `name` (on DATABASE_URL's server) made a copy of the migrated template,
    built first if missing (again if `rebuild`, once a run). Not `fresh`: a database of that
    name cloned from the same template is kept as it is. Returns whether it was made anew.
    Nothing may be connected to `name` but what may be cut off."""
    with _admin() as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", [LOCK])
        template = _template_ensured(conn, rebuild=rebuild)
        mark = f"cloned from {template}"
        if not fresh and _comment(conn, name) == mark:
            return False
        ident = sql.Identifier(name)
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(ident))
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(ident, sql.Identifier(template))
        )
        conn.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(ident, sql.Literal(mark)))
        return True  # the lock ends with the connection


def clone_url(url: str, *, fresh: bool = True) -> str:
    """`url` (a database on DATABASE_URL's server) made a clone of the template; `url`."""
    clone_database(_server(url)[1], fresh=fresh)
    return url


def drop_database(name: str) -> None:
    with _admin() as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
